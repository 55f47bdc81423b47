package link

import (
	"fmt"
	"math"

	"github.com/linecomp/linecomp/mgpusim/capture"
	simlink "github.com/linecomp/linecomp/sim/link"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/noc/messaging"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/mgpusim/v4/amd/protocol"
	"github.com/sarchlab/mgpusim/v4/amd/timing/rdma"
)

// Message is one message an RDMA engine sends to another GPU, as the
// plug-in sized it (Config.Observe).
type Message struct {
	Src, Dst int // MGPUSim GPU numbers (GPU[1] is 1)
	Kind     simlink.Kind
	ID       string // MGPUSim's message ID
	// Candidate is the Comp Alg value, the index of the carrying codec in
	// Config.Candidates, or -1 for a message without a payload or a run
	// without compression.
	Candidate int
	// PayloadBits is the exact length of the carried payload: the codec's
	// Size, or 512 uncompressed; 0 without a payload.
	PayloadBits int
	// MGPUSimBytes is TrafficBytes as MGPUSim set it; WireBytes as the
	// plug-in left it, which is what the fabric carries.
	MGPUSimBytes, WireBytes int
	// CompressCycles and DecompressCycles are the carrying codec's
	// latencies, which the sending and receiving stages add.
	CompressCycles, DecompressCycles int
	Data                             []byte // the uncompressed payload; nil without one
}

// Stats counts what crossed between the GPUs.
type Stats struct {
	// Messages are the messages RDMA engines sent to other GPUs, per kind.
	Messages [simlink.NumKinds]uint64
	// MGPUSimBytes is Σ TrafficBytes as MGPUSim set them, SentBytes as the
	// plug-in left them.
	MGPUSimBytes, SentBytes uint64
	// DeliveredMessages and DeliveredBytes (Σ TrafficBytes) count what the
	// fabric handed to a receiving RDMA engine: the inter-GPU traffic.
	DeliveredMessages, DeliveredBytes uint64
	// BusCycles is Σ ceil(TrafficBytes / BytesPerCycle) over the delivered
	// messages: the cycles the paper's bus would be busy. With the plug-in,
	// Flits counts the flits the fabric's switch received from the
	// endpoints; the two are equal when the fabric carries
	// ceil(bytes / BytesPerCycle) flits per message as documented.
	BusCycles, Flits uint64

	// Payload messages (DataReady and WriteReq): Transfers; PayloadBits,
	// the exact bits carried; UncompressedPayloadBits, 8 × 64 each.
	Transfers, PayloadBits, UncompressedPayloadBits uint64
	// Uses counts the payload messages per candidate (nil without
	// compression).
	Uses []uint64
	// CompressCycles and DecompressCycles are Σ of the latencies charged.
	CompressCycles, DecompressCycles uint64

	// WireEnergyPJ is DeliveredBytes × 8 × sim/link's WireInPackage()
	// (1 pJ/b, Tavana §VII-B); CodecEnergyPJ is Σ Uses × the candidate's
	// compress+decompress energy per line (Tavana Table III via the root
	// presets). Unpriced counts payload messages whose candidate has no
	// energy figure.
	WireEnergyPJ, CodecEnergyPJ float64
	Unpriced                    uint64

	// KernelTimePS is the simulated time during which at least one GPU
	// runs a kernel: from the driver sending a launch to the last GPU's
	// answer (in unified mode the driver launches a kernel on every GPU
	// that has workgroups of it). It leaves out the driver's memory
	// copies, which are the same in every configuration.
	KernelTimePS uint64
	Kernels      uint64 // launches the GPUs answered
}

// Plugin is attached to one MGPUSim platform. It is driven by the
// simulation's serial engine: its methods other than Stats and Err must not
// be called while the simulation runs.
type Plugin struct {
	cfg      *resolved // nil: count only, MGPUSim unchanged
	engine   sim.Engine
	gpuOf    map[sim.RemotePort]int
	choosers []simlink.Chooser // per sending GPU, made at its first payload
	// inFlight holds the latencies a payload message carries, by message
	// ID, from its send until its delivery: the Comp Alg field tells the
	// receiver which decompressor to run.
	inFlight map[string]latencies
	stats    Stats
	err      error

	kernelsRunning int    // launches sent and not yet answered
	kernelStart    uint64 // ps, when kernelsRunning became non-zero
}

type latencies struct{ compress, decompress int }

// Sides of an RDMA engine facing the other GPUs.
const (
	requestSide = iota // RDMARequestOutside: sends reads and writes, receives their responses
	dataSide           // RDMADataOutside: receives reads and writes, sends their responses
	numSides
)

// rdmaBufferSize is the buffer capacity MGPUSim's RDMA builder gives its
// ports (amd/timing/rdma/builder.go, MakeBuilder: bufferSize 128; the R9
// Nano builder keeps it); the replacement ports keep it.
const rdmaBufferSize = 128

// Attach puts the plug-in on a platform built by the capture (call it from
// capture.Config.Setup, before the benchmark runs). With cfg nil it only
// counts: every message RDMA engines send to other GPUs and every one
// they receive, on MGPUSim's own fabric, unchanged. Otherwise the RDMA
// engines are moved onto the fabric cfg describes, through one stage per
// GPU that adds the codec latencies, and a hook sizes every payload
// message (see the package doc).
func Attach(p *capture.Platform, cfg *Config) (*Plugin, error) {
	if p == nil || p.Simulation == nil || !p.Timing {
		return nil, configError("the plug-in needs a timing platform (RDMA engines exist only in MGPUSim's timing model)")
	}
	pl := &Plugin{
		engine:   p.Simulation.GetEngine(),
		gpuOf:    make(map[sim.RemotePort]int),
		choosers: make([]simlink.Chooser, p.GPUs+1),
		inFlight: make(map[string]latencies),
	}
	if cfg != nil {
		r, err := cfg.resolve()
		if err != nil {
			return nil, err
		}
		pl.cfg = r
		if r.NewChooser != nil {
			pl.stats.Uses = make([]uint64, len(r.Candidates))
		}
	}
	engines := make([]*rdma.Comp, p.GPUs+1)
	for g := 1; g <= p.GPUs; g++ {
		name := fmt.Sprintf("GPU[%d].RDMA", g)
		c := p.Simulation.GetComponentByName(name)
		e, ok := c.(*rdma.Comp)
		// Akita's lookup answers an unknown name with another component.
		if c == nil || c.Name() != name || !ok {
			return nil, configError("the platform has no RDMA engine %s", name)
		}
		engines[g] = e
		pl.gpuOf[e.RDMARequestOutside.AsRemote()] = g
		pl.gpuOf[e.RDMADataOutside.AsRemote()] = g
	}

	if p.Driver != nil {
		p.Driver.GetPortByName("GPU").AcceptHook(kernelTimer{pl})
	}

	var groups [][]sim.Port // the fabric's endpoints and the ports on each
	for g := 1; g <= p.GPUs; g++ {
		e := engines[g]
		if pl.cfg != nil {
			st := newStage(fmt.Sprintf("GPU[%d].LinkStage", g), pl)
			for side, field := range [numSides]*sim.Port{&e.RDMARequestOutside, &e.RDMADataOutside} {
				st.rdma[side], st.proxy[side] = st.replace(e, field)
			}
			if pl.cfg.Fabric.Topology == Crossbar || len(groups) == 0 {
				groups = append(groups, nil)
			}
			groups[len(groups)-1] = append(groups[len(groups)-1], st.proxy[:]...)
		}
		for side, port := range [numSides]sim.Port{e.RDMARequestOutside, e.RDMADataOutside} {
			port.AcceptHook(portHook{pl: pl, gpu: g, side: side})
		}
	}
	if pl.cfg != nil {
		buildFabric(pl.engine, pl.cfg, groups, flitCounter{pl})
	}
	return pl, nil
}

// Stats returns the counters with the energy computed.
func (pl *Plugin) Stats() Stats {
	s := pl.stats
	s.Uses = append([]uint64(nil), s.Uses...)
	s.WireEnergyPJ = float64(s.DeliveredBytes) * 8 * simlink.WireInPackage().PicoJoulePerBit
	if pl.cfg != nil {
		for i, n := range s.Uses {
			if e := pl.cfg.energy[i]; e.Priced {
				s.CodecEnergyPJ += float64(n) * e.PicoJoule
			} else {
				s.Unpriced += n
			}
		}
	}
	return s
}

// Err returns the first problem the hooks met (wrapping ErrTraffic), or
// nil.
func (pl *Plugin) Err() error { return pl.err }

// Pending is the number of payload messages with a codec latency sent but
// not yet delivered.
func (pl *Plugin) Pending() int { return len(pl.inFlight) }

// SimTimePS is the simulation's current time in picoseconds. Every clock
// of the R9 Nano model and of the fabric runs at 1 GHz or 500 MHz, so the
// rounding is exact.
func (pl *Plugin) SimTimePS() uint64 {
	return uint64(math.Round(float64(pl.engine.CurrentTime()) * 1e12))
}

func (pl *Plugin) fail(format string, args ...any) {
	if pl.err == nil {
		pl.err = fmt.Errorf("%w: "+format, append([]any{ErrTraffic}, args...)...)
	}
}

// portHook watches one side of one RDMA engine: it sizes what the engine
// sends and counts what it receives.
type portHook struct {
	pl   *Plugin
	gpu  int
	side int
}

func (h portHook) Func(ctx sim.HookCtx) {
	msg, ok := ctx.Item.(sim.Msg)
	if !ok {
		return
	}
	switch ctx.Pos {
	case sim.HookPosPortMsgSend:
		h.pl.onSend(h.gpu, h.side, msg)
	case sim.HookPosPortMsgRecvd:
		h.pl.onDelivered(msg)
	}
}

// classify names the Fig. 4 kind of a message on the given side, with its
// payload.
func classify(side int, msg sim.Msg) (kind simlink.Kind, data []byte, ok bool) {
	switch m := msg.(type) {
	case *mem.ReadReq:
		return simlink.ReadReq, nil, side == requestSide
	case *mem.WriteReq:
		return simlink.WriteReq, m.Data, side == requestSide
	case *mem.DataReadyRsp:
		return simlink.DataReady, m.Data, side == dataSide
	case *mem.WriteDoneRsp:
		return simlink.WriteAck, nil, side == dataSide
	}
	return 0, nil, false
}

// onSend runs inside the RDMA engine's Send, with the message already in
// the port's outgoing buffer and before the stage is told of it.
func (pl *Plugin) onSend(src, side int, msg sim.Msg) {
	kind, data, ok := classify(side, msg)
	if !ok {
		pl.fail("GPU[%d] sent a %T on its %s side", src, msg, [numSides]string{"request", "data"}[side])
		return
	}
	meta := msg.Meta()
	m := Message{
		Src: src, Dst: pl.gpuOf[meta.Dst], Kind: kind, ID: meta.ID, Candidate: -1,
		MGPUSimBytes: meta.TrafficBytes, WireBytes: meta.TrafficBytes, Data: data,
	}
	s := &pl.stats
	if kind.CarriesPayload() {
		m.PayloadBits = 8 * len(data)
		s.Transfers++
		s.UncompressedPayloadBits += uint64(8 * len(data))
		if pl.cfg != nil && pl.cfg.NewChooser != nil && pl.err == nil {
			pl.compress(&m)
			meta.TrafficBytes = m.WireBytes
		}
		s.PayloadBits += uint64(m.PayloadBits)
	}
	s.Messages[kind]++
	s.MGPUSimBytes += uint64(m.MGPUSimBytes)
	s.SentBytes += uint64(m.WireBytes)
	if m.CompressCycles != 0 || m.DecompressCycles != 0 {
		pl.inFlight[m.ID] = latencies{m.CompressCycles, m.DecompressCycles}
	}
	if pl.cfg != nil && pl.cfg.Observe != nil {
		pl.cfg.Observe(m)
	}
}

// compress chooses the sender's candidate for the payload and sizes the
// message as Fig. 4 does: ceil(header/8) + ceil(payload bits/8).
func (pl *Plugin) compress(m *Message) {
	cands := pl.cfg.Candidates
	if len(m.Data) != cands[0].LineSize() {
		pl.fail("GPU[%d]→GPU[%d] %s carries %d bytes, not one %d-byte line",
			m.Src, m.Dst, m.Kind, len(m.Data), cands[0].LineSize())
		return
	}
	ch := pl.choosers[m.Src]
	if ch == nil {
		var err error
		if ch, err = pl.cfg.NewChooser(cands); err != nil {
			pl.fail("GPU[%d]'s chooser: %v", m.Src, err)
			return
		}
		pl.choosers[m.Src] = ch
	}
	i := ch.Choose(m.Data)
	if i < 0 || i >= len(cands) {
		pl.fail("GPU[%d]'s chooser chose candidate %d of %d", m.Src, i, len(cands))
		return
	}
	c := cands[i]
	m.Candidate = i
	m.PayloadBits = c.Size(m.Data)
	m.WireBytes = simlink.WireBytes(simlink.HeaderBits(m.Kind, simlink.AlgField4), m.PayloadBits)
	// resolve checked that every latency is known.
	m.CompressCycles, _ = c.Latency().CompressCycles()
	m.DecompressCycles, _ = c.Latency().DecompressCycles()
	s := &pl.stats
	s.Uses[i]++
	s.CompressCycles += uint64(m.CompressCycles)
	s.DecompressCycles += uint64(m.DecompressCycles)
}

// onDelivered counts a message handed to a receiving RDMA engine.
func (pl *Plugin) onDelivered(msg sim.Msg) {
	tb := msg.Meta().TrafficBytes
	s := &pl.stats
	s.DeliveredMessages++
	s.DeliveredBytes += uint64(tb)
	per := DefaultBytesPerCycle
	if pl.cfg != nil {
		per = pl.cfg.Fabric.BytesPerCycle
	}
	s.BusCycles += uint64((tb + per - 1) / per)
}

// compressCycles is the latency the sending stage adds to msg.
func (pl *Plugin) compressCycles(msg sim.Msg) int {
	return pl.inFlight[msg.Meta().ID].compress
}

// decompressCycles is the latency the receiving stage adds to msg; the
// message has then crossed, so its entry goes.
func (pl *Plugin) decompressCycles(msg sim.Msg) int {
	id := msg.Meta().ID
	l := pl.inFlight[id]
	delete(pl.inFlight, id)
	return l.decompress
}

// flitCounter counts the flits the fabric's switch receives from the
// endpoints.
type flitCounter struct{ pl *Plugin }

func (f flitCounter) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosPortMsgRecvd {
		return
	}
	if _, ok := ctx.Item.(*messaging.Flit); ok {
		f.pl.stats.Flits++
	}
}

// kernelTimer watches the driver's port to the GPUs for kernel launches
// and their completions.
type kernelTimer struct{ pl *Plugin }

func (k kernelTimer) Func(ctx sim.HookCtx) {
	pl := k.pl
	switch ctx.Item.(type) {
	case *protocol.LaunchKernelReq:
		if ctx.Pos != sim.HookPosPortMsgSend {
			return
		}
		if pl.kernelsRunning == 0 {
			pl.kernelStart = pl.SimTimePS()
		}
		pl.kernelsRunning++
	case *protocol.LaunchKernelRsp:
		if ctx.Pos != sim.HookPosPortMsgRecvd || pl.kernelsRunning == 0 {
			return
		}
		pl.kernelsRunning--
		pl.stats.Kernels++
		if pl.kernelsRunning == 0 {
			pl.stats.KernelTimePS += pl.SimTimePS() - pl.kernelStart
		}
	}
}
