package link

import (
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/mgpusim/v4/amd/timing/rdma"
)

// stage is the pass-through between one GPU's RDMA engine and the
// inter-GPU fabric. To the engine it is the connection of its two outside
// ports; to the fabric it is a component owning two proxy ports with the
// same names, so that messages addressed to the engine reach the proxies.
// A message the engine sends waits its codec's compression latency before
// its proxy sends it on; a message the fabric delivers waits its codec's
// decompression latency before the engine gets it. Each direction of each
// port is a first-in first-out pipeline: a message never overtakes an
// older one, and the codec units accept a message every cycle.
type stage struct {
	*sim.ComponentBase
	pl    *Plugin
	freq  sim.Freq
	rdma  [numSides]sim.Port // the engine's outside ports
	proxy [numSides]sim.Port // their stand-ins on the fabric
	out   [numSides]pipe     // engine → fabric, after compression
	in    [numSides]pipe     // fabric → engine, after decompression

	drainScheduled, receiveScheduled bool
}

// pipe is one direction of one port: messages with the cycle they are
// ready.
type pipe struct {
	queue []timed
	// pumpScheduled is set while a pump event for the current time is
	// pending, so that notifications do not pile up events.
	pumpScheduled bool
}

type timed struct {
	msg   sim.Msg
	ready uint64 // cycle
}

// stageFreq is the clock of the stage's latencies: the codecs run at the
// GPUs' 1 GHz, the frequency of Tavana Table III.
const stageFreq = 1 * sim.GHz

// proxyBufferSize is the capacity of a proxy port's buffers. The fabric's
// endpoint takes one message per port per cycle into an unbounded queue,
// so this only bounds a same-cycle burst.
const proxyBufferSize = rdmaBufferSize

func newStage(name string, pl *Plugin) *stage {
	return &stage{ComponentBase: sim.NewComponentBase(name), pl: pl, freq: stageFreq}
}

// replace gives the engine a fresh port in place of *field, with the same
// name, hooks and capacity, connected to the stage, and makes its proxy.
// MGPUSim's builder has plugged the original into its PCIe network, and
// an Akita port cannot be plugged twice; the engine reaches its outside
// ports only through these exported fields, so the original is left
// plugged in and idle.
func (s *stage) replace(e *rdma.Comp, field *sim.Port) (engineSide, proxy sim.Port) {
	old := *field
	engineSide = sim.NewPort(e, rdmaBufferSize, rdmaBufferSize, old.Name())
	for _, h := range old.Hooks() {
		engineSide.AcceptHook(h)
	}
	engineSide.SetConnection(s)
	*field = engineSide
	proxy = sim.NewPort(s, proxyBufferSize, proxyBufferSize, old.Name())
	return engineSide, proxy
}

// The events the stage schedules for itself.
type action int

const (
	drainEngine   action = iota // take what the engine has sent
	receiveFabric               // take what the fabric has delivered
	pumpOut                     // send ready messages on to the fabric
	pumpIn                      // deliver ready messages to the engine
)

type stageEvent struct {
	*sim.EventBase
	act  action
	side int
}

func (s *stage) schedule(at sim.VTimeInSec, act action, side int) {
	s.pl.engine.Schedule(stageEvent{EventBase: sim.NewEventBase(at, s), act: act, side: side})
}

func (s *stage) now() sim.VTimeInSec { return s.pl.engine.CurrentTime() }

// Handle runs the stage's events.
func (s *stage) Handle(e sim.Event) error {
	ev := e.(stageEvent)
	switch ev.act {
	case drainEngine:
		s.drainScheduled = false
		s.drain()
	case receiveFabric:
		s.receiveScheduled = false
		s.receive()
	case pumpOut:
		s.out[ev.side].pumpScheduled = false
		s.pump(&s.out[ev.side], s.proxy[ev.side].Send)
	case pumpIn:
		s.in[ev.side].pumpScheduled = false
		s.pump(&s.in[ev.side], s.rdma[ev.side].Deliver)
	}
	return nil
}

// Ports call the following while holding their own lock, and Akita's
// ports are not reentrant, so each notification only schedules an event
// at the current time.

// NotifySend is the engine's port telling its connection that it has
// something to send.
func (s *stage) NotifySend() {
	if !s.drainScheduled {
		s.drainScheduled = true
		s.schedule(s.now(), drainEngine, 0)
	}
}

// NotifyAvailable is the engine's port telling its connection that the
// engine has made room in its incoming buffer.
func (s *stage) NotifyAvailable(p sim.Port) {
	for side := range s.rdma {
		if s.rdma[side] == p {
			s.wake(&s.in[side], side, pumpIn)
		}
	}
}

// NotifyRecv is a proxy telling the stage the fabric delivered a message.
func (s *stage) NotifyRecv(sim.Port) {
	if !s.receiveScheduled {
		s.receiveScheduled = true
		s.schedule(s.now(), receiveFabric, 0)
	}
}

// NotifyPortFree is a proxy telling the stage the fabric has taken a
// message out of its outgoing buffer.
func (s *stage) NotifyPortFree(p sim.Port) {
	for side := range s.proxy {
		if s.proxy[side] == p {
			s.wake(&s.out[side], side, pumpOut)
		}
	}
}

// PlugIn connects an engine port to the stage (replace does it directly).
func (s *stage) PlugIn(p sim.Port) { p.SetConnection(s) }

// Unplug does nothing: the stage's ports stay for the whole simulation.
func (s *stage) Unplug(sim.Port) {}

func (s *stage) wake(p *pipe, side int, act action) {
	if !p.pumpScheduled {
		p.pumpScheduled = true
		s.schedule(s.now(), act, side)
	}
}

// drain takes every message the engine has sent, stamping each with the
// cycle its compression ends.
func (s *stage) drain() {
	for side := range s.rdma {
		for msg := s.rdma[side].RetrieveOutgoing(); msg != nil; msg = s.rdma[side].RetrieveOutgoing() {
			s.enqueue(&s.out[side], side, msg, s.pl.compressCycles(msg), pumpOut)
		}
	}
}

// receive takes every message the fabric has delivered, stamping each with
// the cycle its decompression ends.
func (s *stage) receive() {
	for side := range s.proxy {
		for msg := s.proxy[side].RetrieveIncoming(); msg != nil; msg = s.proxy[side].RetrieveIncoming() {
			s.enqueue(&s.in[side], side, msg, s.pl.decompressCycles(msg), pumpIn)
		}
	}
}

func (s *stage) enqueue(p *pipe, side int, msg sim.Msg, latency int, act action) {
	ready := s.freq.Cycle(s.now()) + uint64(latency)
	p.queue = append(p.queue, timed{msg: msg, ready: ready})
	if latency == 0 {
		s.wake(p, side, act)
		return
	}
	// One timer per delayed message; a pump that finds nothing ready does
	// nothing.
	s.schedule(sim.VTimeInSec(float64(ready)/float64(s.freq)), act, side)
}

// pump passes on the ready messages at the head of p, in order, until one
// is not ready or the next hop refuses it (it will tell the stage when it
// has room).
func (s *stage) pump(p *pipe, send func(sim.Msg) *sim.SendError) {
	now := s.freq.Cycle(s.now())
	for len(p.queue) > 0 {
		head := p.queue[0]
		if head.ready > now {
			return
		}
		if send(head.msg) != nil {
			return
		}
		p.queue[0] = timed{}
		p.queue = p.queue[1:]
	}
}
