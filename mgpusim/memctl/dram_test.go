package memctl

import (
	"testing"

	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/akita/v4/sim/directconnection"
)

// sink is a component that keeps the times of what it receives.
type sink struct {
	*sim.ComponentBase
	eng sim.Engine
	at  []sim.VTimeInSec
}

func (s *sink) Handle(sim.Event) error { return nil }
func (s *sink) NotifyRecv(p sim.Port) {
	for m := p.RetrieveIncoming(); m != nil; m = p.RetrieveIncoming() {
		s.at = append(s.at, s.eng.CurrentTime())
	}
}
func (s *sink) NotifyPortFree(sim.Port) {}

// readTime sends one read of n bytes to an idle channel of d at time 0
// and returns when its answer arrives, in nanoseconds.
func readTime(t *testing.T, d DRAM, n uint64) float64 {
	t.Helper()
	eng := sim.NewSerialEngine()
	ch := d.build(eng, "Ch", ctrlBytes, mem.NewStorage(ctrlBytes))
	s := &sink{ComponentBase: sim.NewComponentBase("Sink"), eng: eng}
	port := sim.NewPort(s, 4, 4, "Sink.Port")
	conn := directconnection.MakeBuilder().WithEngine(eng).WithFreq(1 * sim.GHz).Build("Conn")
	conn.PlugIn(port)
	conn.PlugIn(ch.GetPortByName("Top"))
	r := mem.ReadReqBuilder{}.WithSrc(port.AsRemote()).WithDst(ch.GetPortByName("Top").AsRemote()).
		WithAddress(0).WithByteSize(n).Build()
	if err := port.Send(r); err != nil {
		t.Fatal(err)
	}
	if err := eng.Run(); err != nil {
		t.Fatal(err)
	}
	if len(s.at) != 1 {
		t.Fatalf("%d answers to one read", len(s.at))
	}
	return float64(s.at[0]) * 1e9
}

// TestFewerBurstsLessTime is what the controller relies on: mem/dram
// serves a read of one MAG burst sooner than a read of two, on both
// presets.
func TestFewerBurstsLessTime(t *testing.T) {
	for _, d := range []DRAM{GDDR5, HBM2} {
		if d.MAG() != 32 {
			t.Errorf("%s: MAG %d, want 32 (MAG-aware BDI Table IV)", d.Name, d.MAG())
		}
		one, two := readTime(t, d, 32), readTime(t, d, 64)
		if !(one < two) {
			t.Errorf("%s: one burst answered at %v ns, two at %v ns", d.Name, one, two)
		}
	}
}

func TestDRAMCheck(t *testing.T) {
	for _, d := range []DRAM{GDDR5, HBM2} {
		if err := d.check(ctrlBytes); err != nil {
			t.Errorf("%s: %v", d.Name, err)
		}
	}
	bad := GDDR5
	bad.Rows = 1000
	if err := bad.check(ctrlBytes); err == nil {
		t.Error("1000 rows accepted")
	}
	bad = GDDR5
	bad.Banks = 64 // a rank of 1 GB does not divide 256 MB
	if err := bad.check(ctrlBytes); err == nil {
		t.Error("a rank larger than the controller accepted")
	}
}
