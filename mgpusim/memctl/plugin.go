package memctl

import (
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/mgpusim/live"
	simmem "github.com/linecomp/linecomp/sim/mem"
	"github.com/sarchlab/akita/v4/mem/cache/writeback"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/akita/v4/sim/directconnection"
)

// The R9 Nano model's memory side (timingconfig/r9nano/builder.go): 16 L2
// banks per GPU, each with its own controller, lines interleaved over them
// every 128 bytes (log2MemoryBankInterleavingSize 7), 64-byte lines, 4 GB
// per GPU at GPU[g]'s offset g × 4 GB, a 1 GHz clock.
const (
	banks       = 16
	interleave  = 128
	lineSize    = 64
	gpuMemBytes = 4 << 30
	ctrlBytes   = gpuMemBytes / banks
)

// ErrTraffic means the controller met traffic it does not handle (a request
// that crosses a line, an unknown message); the message says which.
var ErrTraffic = fmt.Errorf("memctl: unexpected memory traffic")

func configError(format string, args ...any) error {
	return linecomp.ConfigError("memctl", format, args...)
}

// Config is the memory side to put into the platform.
type Config struct {
	// Codec is the registry name of the codec that compresses every line
	// moving between L2 and DRAM; "" puts mem/dram in place of the ideal
	// controllers with no controller of ours: the baseline. "none" runs
	// our controller without compression.
	Codec string
	DRAM  DRAM // zero: GDDR5

	// The metadata cache and bursts, as sim/mem.Config (zero: its
	// defaults: 16 KB, 4 ways, 128-byte blocks, 1-cycle hits, MinBursts 0).
	MDCacheBytes, MDWays, MDBlock, MDHitLatency, MinBursts int

	// Observe, when set, sees every request as the controller sized it.
	Observe func(Access)
}

// Access is one request as the controller handled it.
type Access struct {
	Cycle     uint64
	GPU, Bank int
	Write     bool
	Addr      uint64 // the line's address
	Line      []byte // the line after the request; valid during the call
	Result    simmem.Result
}

// Stats are the counters of a run, over all GPUs.
type Stats struct {
	// DRAM side, counted by hooks on every mem/dram channel's top port
	// (the same in every configuration): requests, the bytes they move,
	// those bytes in MAG bursts, and Σ of each request's time in the
	// channel (arrival to response), in picoseconds.
	DRAMReads, DRAMWrites uint64
	DRAMBytes, DRAMBursts uint64
	DRAMTimePS            uint64
	// L2 side, counted by hooks on the L2 banks' Bottom ports: requests
	// and Σ of their latency (sent to answered), in picoseconds.
	L2Requests, L2LatencyPS uint64

	// Our controller's bytes by kind (0 in the baseline): data bursts,
	// MD block fetches and MD write-backs.
	DataBytes, MDFetchBytes, MDWriteBackBytes uint64

	// Model is sim/mem's counters (zero in the baseline).
	Model simmem.Stats
}

// gpuState is one GPU's memory side.
type gpuState struct {
	index  int
	offset uint64
	model  *simmem.Memory
}

// Plugin is the memory side attached to one platform.
type Plugin struct {
	cfg     Config
	engine  sim.Engine
	freq    sim.Freq
	storage *mem.Storage
	mag     int
	mdBlock int
	mdBase  uint64
	gpus    []*gpuState
	stats   Stats
	pending map[string]uint64 // request ID → ps it was sent or received
	// scratch is the channels' storage behind our controller: it only
	// receives the bursts, so it holds nothing meaningful.
	scratch *mem.Storage
	err     error
}

// Check reports whether cfg can be attached, with an error wrapping
// linecomp.ErrConfig naming the cause.
func (cfg Config) Check() error {
	_, err := cfg.model()
	return err
}

func (cfg Config) dram() DRAM {
	if cfg.DRAM == (DRAM{}) {
		return GDDR5
	}
	return cfg.DRAM
}

// model makes one GPU's sim/mem model, or nil for the baseline.
func (cfg Config) model() (*simmem.Memory, error) {
	d := cfg.dram()
	if err := d.check(ctrlBytes); err != nil {
		return nil, err
	}
	if cfg.Codec == "" {
		return nil, nil
	}
	codec, err := linecomp.New(cfg.Codec, lineSize)
	if err != nil {
		return nil, fmt.Errorf("memctl: codec: %w", err)
	}
	return simmem.New(simmem.Config{
		Controllers: banks, Interleave: interleave, LineSize: lineSize, MAG: d.MAG(), Codec: codec,
		MDCacheBytes: cfg.MDCacheBytes, MDWays: cfg.MDWays, MDBlock: cfg.MDBlock,
		MDHitLatency: cfg.MDHitLatency, MinBursts: cfg.MinBursts,
		// sim/mem's own channel timing is not used: mem/dram times the
		// bursts. It still wants one.
		DRAM: simmem.GDDR5(),
	})
}

// Attach replaces the ideal memory controllers behind every L2 bank of the
// platform with mem/dram channels, and with cfg.Codec set puts our
// controller between each bank and its channel (see the package doc). Call
// it from capture.Config.Setup (or live.Config.Setup).
func Attach(p *capture.Platform, cfg Config) (*Plugin, error) {
	if p == nil || p.Simulation == nil || !p.Timing {
		return nil, configError("the memory controller needs a timing platform")
	}
	if _, err := cfg.model(); err != nil {
		return nil, err
	}
	d := cfg.dram()
	pl := &Plugin{cfg: cfg, engine: p.Simulation.GetEngine(), freq: 1 * sim.GHz, storage: p.Storage,
		mag: d.MAG(), pending: make(map[string]uint64)}
	if cfg.Codec != "" {
		pl.scratch = mem.NewStorage(p.Storage.Capacity)
	}
	for g := 1; g <= p.GPUs; g++ {
		gs := &gpuState{index: g, offset: uint64(g) * gpuMemBytes}
		if cfg.Codec != "" {
			gs.model, _ = cfg.model()
			pl.mdBlock = gs.model.Config().MDBlock
			if bits := gs.model.MetadataBits(); bits > 0 {
				lines := uint64(ctrlBytes / lineSize)
				per := uint64(gs.model.LinesPerMDBlock())
				pl.mdBase = ctrlBytes - (lines+per-1)/per*uint64(pl.mdBlock)
			}
		}
		pl.gpus = append(pl.gpus, gs)
		conn := p.Simulation.GetComponentByName(fmt.Sprintf("GPU[%d].L2ToDRAM", g))
		l2dram, ok := conn.(*directconnection.Comp)
		if !ok || conn.Name() != fmt.Sprintf("GPU[%d].L2ToDRAM", g) {
			return nil, configError("the platform has no GPU[%d].L2ToDRAM connection", g)
		}
		for b := 0; b < banks; b++ {
			name := fmt.Sprintf("GPU[%d].L2Cache[%d]", g, b)
			c := p.Simulation.GetComponentByName(name)
			l2, ok := c.(*writeback.Comp)
			if !ok || c.Name() != name {
				return nil, configError("the platform has no L2 bank %s", name)
			}
			if err := pl.attachBank(p, gs, b, l2, l2dram, d); err != nil {
				return nil, err
			}
		}
	}
	return pl, nil
}

// attachBank puts a channel, and our controller if configured, behind one
// L2 bank. The ideal controller stays plugged into the L2ToDRAM
// connection for the DMA engine and the page migration controller, which
// reach DRAM without an L2 (driver copies; they share the global storage).
func (pl *Plugin) attachBank(p *capture.Platform, gs *gpuState, b int, l2 *writeback.Comp,
	l2dram *directconnection.Comp, d DRAM) error {
	engine := pl.engine
	prefix := fmt.Sprintf("GPU[%d]", gs.index)
	var ch sim.Component
	if gs.model == nil {
		ch = d.build(engine, fmt.Sprintf("%s.DRAMChannel[%d]", prefix, b), ctrlBytes, p.Storage)
		p.Simulation.RegisterComponent(ch)
		top := ch.GetPortByName("Top")
		l2dram.PlugIn(top)
		l2.SetAddressToPortMapper(&mem.SinglePortMapper{Port: top.AsRemote()})
	} else {
		ch = d.build(engine, fmt.Sprintf("%s.DRAMChannel[%d]", prefix, b), ctrlBytes, pl.scratch)
		p.Simulation.RegisterComponent(ch)
		mc := newComp(pl, gs, b, fmt.Sprintf("%s.MemCtl[%d]", prefix, b), ch.GetPortByName("Top").AsRemote())
		p.Simulation.RegisterComponent(mc)
		l2dram.PlugIn(mc.top)
		l2.SetAddressToPortMapper(&mem.SinglePortMapper{Port: mc.top.AsRemote()})
		conn := directconnection.MakeBuilder().WithEngine(engine).WithFreq(pl.freq).
			Build(fmt.Sprintf("%s.MemCtlToDRAM[%d]", prefix, b))
		p.Simulation.RegisterComponent(conn)
		conn.PlugIn(mc.bottom)
		conn.PlugIn(ch.GetPortByName("Top"))
	}
	ch.GetPortByName("Top").AcceptHook(pl.dramTimer())
	l2.GetPortByName("Bottom").AcceptHook(pl.l2Timer())
	return nil
}

func (pl *Plugin) now() uint64 { return live.Picoseconds(pl.engine.CurrentTime()) }

// timer is a hook that sees a port's requests at one position and their
// responses at the other (a channel's Top port receives requests and sends
// responses; an L2 bank's Bottom port the other way round) and measures
// each request's time, keyed by its ID under tag.
type timer struct {
	pl       *Plugin
	tag      string
	reqAt    *sim.HookPos
	request  func(msg sim.Msg) // counts a request
	finished func(ps uint64)   // counts a response and the request's time
}

func (h timer) Func(ctx sim.HookCtx) {
	pl := h.pl
	msg, ok := ctx.Item.(sim.Msg)
	if !ok {
		return
	}
	if ctx.Pos == h.reqAt {
		switch msg.(type) {
		case *mem.ReadReq, *mem.WriteReq:
			h.request(msg)
			pl.pending[h.tag+msg.Meta().ID] = pl.now()
		}
		return
	}
	if id, ok := respondsTo(msg); ok {
		if t, ok := pl.pending[h.tag+id]; ok {
			h.finished(pl.now() - t)
			delete(pl.pending, h.tag+id)
		}
	}
}

// respondsTo is the request ID a memory response answers.
func respondsTo(msg sim.Msg) (string, bool) {
	switch m := msg.(type) {
	case *mem.DataReadyRsp:
		return m.RespondTo, true
	case *mem.WriteDoneRsp:
		return m.RespondTo, true
	}
	return "", false
}

// dramTimer counts what a channel receives and the time it keeps it.
func (pl *Plugin) dramTimer() timer {
	return timer{pl: pl, tag: "d", reqAt: sim.HookPosPortMsgRecvd,
		request: func(msg sim.Msg) {
			switch m := msg.(type) {
			case *mem.ReadReq:
				pl.stats.DRAMReads++
				pl.stats.DRAMBytes += m.AccessByteSize
			case *mem.WriteReq:
				pl.stats.DRAMWrites++
				pl.stats.DRAMBytes += uint64(len(m.Data))
			}
		},
		finished: func(ps uint64) { pl.stats.DRAMTimePS += ps }}
}

// l2Timer times an L2 bank's requests to memory.
func (pl *Plugin) l2Timer() timer {
	return timer{pl: pl, tag: "l", reqAt: sim.HookPosPortMsgSend,
		request: func(sim.Msg) {},
		finished: func(ps uint64) {
			pl.stats.L2Requests++
			pl.stats.L2LatencyPS += ps
		}}
}

// Stats returns the counters so far.
func (pl *Plugin) Stats() Stats {
	s := pl.stats
	s.DRAMBursts = s.DRAMBytes / uint64(pl.mag)
	for _, g := range pl.gpus {
		if g.model == nil {
			continue
		}
		m := g.model.Stats()
		add(&s.Model, &m)
	}
	return s
}

// add sums sim/mem counters.
func add(dst, src *simmem.Stats) {
	dst.Requests += src.Requests
	dst.Reads += src.Reads
	dst.Writes += src.Writes
	dst.Bursts += src.Bursts
	dst.UncompressedBursts += src.UncompressedBursts
	dst.MetadataBursts += src.MetadataBursts
	dst.MDHits += src.MDHits
	dst.MDMisses += src.MDMisses
	dst.MDWriteBacks += src.MDWriteBacks
	dst.MDReads += src.MDReads
	dst.MDWrites += src.MDWrites
	dst.BusBusyCycles += src.BusBusyCycles
	if len(dst.BurstHistogram) < len(src.BurstHistogram) {
		dst.BurstHistogram = append(dst.BurstHistogram, make([]uint64, len(src.BurstHistogram)-len(dst.BurstHistogram))...)
	}
	for i, n := range src.BurstHistogram {
		dst.BurstHistogram[i] += n
	}
}

// MAG is the channels' access unit in bytes.
func (pl *Plugin) MAG() int { return pl.mag }

// Err returns the first traffic problem met (wrapping ErrTraffic), or nil.
func (pl *Plugin) Err() error { return pl.err }

func (pl *Plugin) fail(format string, args ...any) {
	if pl.err == nil {
		pl.err = fmt.Errorf("%w: "+format, append([]any{ErrTraffic}, args...)...)
	}
}

// within checks that a request stays inside one line.
func (pl *Plugin) within(name string, addr, size uint64) bool {
	if size == 0 || addr%lineSize+size > lineSize {
		pl.fail("%s: a request of %d bytes at %#x does not fit one %d-byte line", name, size, addr, lineSize)
		return false
	}
	return true
}
