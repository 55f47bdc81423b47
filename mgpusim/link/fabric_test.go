package link

import (
	"testing"

	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
)

// fabricTrip sends two 68-byte data-ready responses at 10 ns, A→B and
// B→A, across a fabric built as the plug-in builds it, and returns when
// each arrived (ns after the send) and the flits the switch received.
func fabricTrip(t *testing.T, f Fabric) (ab, ba int, flits uint64) {
	t.Helper()
	engine := sim.NewSerialEngine()
	a, b := newEndpointStub("A", engine), newEndpointStub("B", engine)
	r, err := Config{Fabric: f}.resolve()
	if err != nil {
		t.Fatal(err)
	}
	groups := [][]sim.Port{{a.port, b.port}}
	if f.Topology == Crossbar {
		groups = [][]sim.Port{{a.port}, {b.port}}
	}
	pl := &Plugin{engine: engine}
	buildFabric(engine, r, groups, flitCounter{pl})
	line := make([]byte, 64)
	m1 := mem.DataReadyRspBuilder{}.WithSrc(a.port.AsRemote()).WithDst(b.port.AsRemote()).WithData(line).Build()
	m2 := mem.DataReadyRspBuilder{}.WithSrc(b.port.AsRemote()).WithDst(a.port.AsRemote()).WithData(line).Build()
	a.sendAt(10*ns, m1)
	b.sendAt(10*ns, m2)
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
	t1, ok1 := b.arrivals[m1.ID]
	t2, ok2 := a.arrivals[m2.ID]
	if !ok1 || !ok2 {
		t.Fatal("a message did not arrive")
	}
	return cycles(t1 - 10*ns), cycles(t2 - 10*ns), pl.stats.Flits
}

// TestFabricIsTheBus: on the bus two messages sent at once cross one
// after the other, the second ceil(68/20) = 4 cycles behind the first, as
// 4 flits each; on the crossbar they cross at the same time. The switch
// latency adds to every trip.
func TestFabricIsTheBus(t *testing.T) {
	ab, ba, flits := fabricTrip(t, Fabric{})
	first, second := min(ab, ba), max(ab, ba)
	if second-first != 4 {
		t.Errorf("bus: arrivals %d and %d cycles after the send, want 4 apart", ab, ba)
	}
	// 68 bytes + 25% coding = 85 bytes in 25-byte flits: 4 flits each.
	if flits != 8 {
		t.Errorf("bus: %d flits for two 68-byte messages, want 8", flits)
	}
	xab, xba, xflits := fabricTrip(t, Fabric{Topology: Crossbar})
	if xab != xba || xab != first || xflits != 8 {
		t.Errorf("crossbar: arrivals %d and %d, %d flits; want both at %d, 8 flits", xab, xba, xflits, first)
	}
	lab, lba, _ := fabricTrip(t, Fabric{Latency: 5})
	if min(lab, lba) != first+4 || max(lab, lba) != second+4 {
		t.Errorf("switch latency 5: arrivals %d and %d, want 4 cycles after %d and %d", lab, lba, first, second)
	}
	// A narrower fabric keeps the rule: at 4 bytes a cycle (5-byte flits)
	// a 68-byte message is ceil(85/5) = 17 = ceil(68/4) flits.
	_, _, nflits := fabricTrip(t, Fabric{BytesPerCycle: 4})
	if nflits != 2*17 {
		t.Errorf("4 bytes/cycle: %d flits, want 2 × ceil(68/4) = 34", nflits)
	}
	t.Logf("an idle bus delivers a 68-byte message %d cycles after it is sent", first)
}
