package link

import (
	"testing"

	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/akita/v4/sim/directconnection"
)

// endpointStub is a component that sends scheduled messages from its port
// and records when messages arrive at it.
type endpointStub struct {
	*sim.ComponentBase
	port     sim.Port
	engine   sim.Engine
	toSend   map[sim.Event]sim.Msg
	arrivals map[string]sim.VTimeInSec // message ID → time
}

func newEndpointStub(name string, engine sim.Engine) *endpointStub {
	s := &endpointStub{ComponentBase: sim.NewComponentBase(name), engine: engine,
		toSend: map[sim.Event]sim.Msg{}, arrivals: map[string]sim.VTimeInSec{}}
	s.port = sim.NewPort(s, 4, 4, name+".Port")
	return s
}

func (s *endpointStub) sendAt(t sim.VTimeInSec, msg sim.Msg) {
	e := sim.NewEventBase(t, s)
	s.toSend[e] = msg
	s.engine.Schedule(e)
}

func (s *endpointStub) Handle(e sim.Event) error {
	if err := s.port.Send(s.toSend[e]); err != nil {
		panic("stub: send refused")
	}
	return nil
}

func (s *endpointStub) NotifyRecv(p sim.Port) {
	for m := p.RetrieveIncoming(); m != nil; m = p.RetrieveIncoming() {
		s.arrivals[m.Meta().ID] = s.engine.CurrentTime()
	}
}

func (s *endpointStub) NotifyPortFree(sim.Port) {}

// stageHarness joins a stub "RDMA engine" to a stub remote through a
// stage and a direct connection: engine port → stage → proxy →
// connection → remote, and back.
type stageHarness struct {
	engine sim.Engine
	pl     *Plugin
	local  *endpointStub // plays the RDMA engine; its port is the stage's request side
	remote *endpointStub
}

func newStageHarness() *stageHarness {
	engine := sim.NewSerialEngine()
	pl := &Plugin{engine: engine, inFlight: map[string]latencies{}}
	h := &stageHarness{engine: engine, pl: pl,
		local: newEndpointStub("Local", engine), remote: newEndpointStub("Remote", engine)}
	st := newStage("Stage", pl)
	idle := sim.NewPort(h.local, 4, 4, "Local.Idle") // the data side, unused here
	for side, p := range [numSides]sim.Port{h.local.port, idle} {
		p.SetConnection(st)
		st.rdma[side] = p
		st.proxy[side] = sim.NewPort(st, 4, 4, p.Name())
	}
	conn := directconnection.MakeBuilder().WithEngine(engine).WithFreq(1 * sim.GHz).Build("Conn")
	conn.PlugIn(st.proxy[requestSide])
	conn.PlugIn(st.proxy[dataSide])
	conn.PlugIn(h.remote.port)
	return h
}

func (h *stageHarness) message(from, to sim.Port, compress, decompress int) sim.Msg {
	m := mem.ReadReqBuilder{}.WithSrc(from.AsRemote()).WithDst(to.AsRemote()).WithAddress(0x40).Build()
	if compress != 0 || decompress != 0 {
		h.pl.inFlight[m.ID] = latencies{compress, decompress}
	}
	return m
}

const ns = sim.VTimeInSec(1e-9)

// TestStageDelaysByLatency: a message leaving through the stage arrives
// exactly its compression latency later than one without, and a message
// entering arrives exactly its decompression latency later.
func TestStageDelaysByLatency(t *testing.T) {
	type trip struct{ out, in sim.VTimeInSec }
	measure := func(lc, ld int) trip {
		h := newStageHarness()
		outMsg := h.message(h.local.port, h.remote.port, lc, 0)
		inMsg := h.message(h.remote.port, h.local.port, 0, ld)
		h.local.sendAt(10*ns, outMsg)
		h.remote.sendAt(10*ns, inMsg)
		if err := h.engine.Run(); err != nil {
			t.Fatal(err)
		}
		out, ok1 := h.remote.arrivals[outMsg.Meta().ID]
		in, ok2 := h.local.arrivals[inMsg.Meta().ID]
		if !ok1 || !ok2 {
			t.Fatalf("latency %d/%d: a message did not arrive", lc, ld)
		}
		return trip{out - 10*ns, in - 10*ns}
	}
	base := measure(0, 0)
	for _, c := range []struct{ lc, ld int }{{2, 1}, {3, 5}, {16, 9}} {
		got := measure(c.lc, c.ld)
		if d := cycles(got.out - base.out); d != c.lc {
			t.Errorf("compression latency %d: outbound message %d cycles later", c.lc, d)
		}
		if d := cycles(got.in - base.in); d != c.ld {
			t.Errorf("decompression latency %d: inbound message %d cycles later", c.ld, d)
		}
	}
}

// TestStageKeepsOrder: a message never overtakes an older one on the same
// port, even when its codec is faster.
func TestStageKeepsOrder(t *testing.T) {
	h := newStageHarness()
	slow := h.message(h.local.port, h.remote.port, 16, 0)
	fast := h.message(h.local.port, h.remote.port, 0, 0)
	h.local.sendAt(10*ns, slow)
	h.local.sendAt(11*ns, fast)
	if err := h.engine.Run(); err != nil {
		t.Fatal(err)
	}
	a, b := h.remote.arrivals[slow.Meta().ID], h.remote.arrivals[fast.Meta().ID]
	if a == 0 || b < a {
		t.Errorf("the slow message arrived at %v, the fast one behind it at %v", a, b)
	}
}

func cycles(d sim.VTimeInSec) int {
	return int(float64(d)*1e9 + 0.5)
}
