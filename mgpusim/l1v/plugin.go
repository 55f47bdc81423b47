package l1v

import (
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/akita/v4/sim/directconnection"
	"github.com/sarchlab/mgpusim/v4/amd/timing/cu"
	"github.com/sarchlab/mgpusim/v4/amd/timing/rdma"
)

// The R9 Nano model (timingconfig/r9nano and shaderarray builders): 16
// shader arrays of 4 compute units per GPU, each CU with its L1V; lines
// interleaved over 16 L2 banks every 128 bytes; 4 GB per GPU at g × 4 GB.
const (
	shaderArrays = 16
	cusPerSA     = 4
	l2Banks      = 16
	interleave   = 128
	gpuMemBytes  = 4 << 30
)

// ErrTraffic means the cache met traffic it does not handle; the message
// says which.
var ErrTraffic = fmt.Errorf("l1v: unexpected memory traffic")

func configError(format string, args ...any) error {
	return linecomp.ConfigError("l1v", format, args...)
}

// Config is the L1V to put in place of every MGPUSim L1V.
type Config struct {
	// Policy is "static" (every line in StaticMode), "latte" (LATTE-CC),
	// "hitcount" (Adaptive-Hit-Count) or "cmp" (Adaptive-CMP).
	Policy     string
	StaticMode int
	// Modes are the codecs of the modes by registry name; the adaptive
	// policies need three (none, low latency, high capacity). Default
	// none, bdi, sc2.
	Modes []string
	// TagFactor (tags per set over ways) and SubBlock (bytes) are
	// sim/cache's; defaults 4 and 16: LATTE-CC's four times the tags, and
	// a quarter line as its 32-byte sub-blocks of 128-byte lines.
	TagFactor, SubBlock int
	// HitLatency is the bank latency of a hit before decompression,
	// default MGPUSim's 20 cycles; the directory's 2 cycles come before.
	HitLatency int
	// Decompressors is sim/cache's unit count (default 1).
	Decompressors int
	// EPAccesses is the policy's EP length in accesses of one L1 (0: the
	// policy's default, LATTE-CC's 256). MGPUSim spreads a kernel over 64
	// L1s, so a small input gives each few EPs; a shorter EP is a
	// sensitivity setting, not a default.
	EPAccesses int
	// SampleEvery is the period, in cycles, of the ready-wavefront
	// sampling for Eq. 4 (default 4).
	SampleEvery int
	// Observe, when set, sees every call the caches make to sim/cache.
	Observe func(Event)
}

// EventKind names a call to sim/cache.
type EventKind uint8

const (
	EventLoad  EventKind = iota // Lookup of a load
	EventFill                   // Fill of a line from the L2
	EventStore                  // Store (the line after the write; unused on a miss)
)

// Event is one call an L1 made to its sim/cache.
type Event struct {
	Cycle uint64
	CU    string
	Kind  EventKind
	Addr  uint64
	Line  []byte // valid during the call
}

func (cfg *Config) fill() {
	if len(cfg.Modes) == 0 {
		cfg.Modes = []string{"none", "bdi", "sc2"}
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.TagFactor, 4)
	def(&cfg.SubBlock, 16)
	def(&cfg.HitLatency, bankLatency)
	def(&cfg.Decompressors, 1)
	def(&cfg.SampleEvery, 4)
}

// Check reports whether cfg can be attached.
func (cfg Config) Check() error {
	cfg.fill()
	if cfg.SampleEvery < 0 {
		return configError("SampleEvery must be positive, got %d", cfg.SampleEvery)
	}
	_, err := newL1Cache(&cfg, 0, machineAdapter{newMachine(nil, 1*sim.GHz, 1)})
	return err
}

// Plugin is the set of compressed L1Vs of one platform.
type Plugin struct {
	cfg    Config
	engine sim.Engine
	freq   sim.Freq
	comps  []*Comp
	err    error
}

// Attach replaces every L1V of the platform with a compressed L1 of ours.
// Call it from capture.Config.Setup (or live.Config.Setup).
func Attach(p *capture.Platform, cfg Config) (*Plugin, error) {
	if p == nil || p.Simulation == nil || !p.Timing {
		return nil, configError("the L1V needs a timing platform")
	}
	cfg.fill()
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	pl := &Plugin{cfg: cfg, engine: p.Simulation.GetEngine(), freq: 1 * sim.GHz}
	for g := 1; g <= p.GPUs; g++ {
		gpu := fmt.Sprintf("GPU[%d]", g)
		internal, err := component[*directconnection.Comp](p, gpu+".InternalConn")
		if err != nil {
			return nil, err
		}
		lowMods := mem.NewInterleavedAddressPortMapper(interleave)
		lowMods.LowAddress = uint64(g) * gpuMemBytes
		lowMods.HighAddress = lowMods.LowAddress + gpuMemBytes
		lowMods.UseAddressSpaceLimitation = true
		for b := 0; b < l2Banks; b++ {
			l2, err := component[sim.Component](p, fmt.Sprintf("%s.L2Cache[%d]", gpu, b))
			if err != nil {
				return nil, err
			}
			lowMods.LowModules = append(lowMods.LowModules, l2.GetPortByName("Top").AsRemote())
		}
		r, err := component[*rdma.Comp](p, gpu+".RDMA")
		if err != nil {
			return nil, err
		}
		lowMods.ModuleForOtherAddresses = r.RDMARequestInside.AsRemote()
		for s := 0; s < shaderArrays; s++ {
			for i := 0; i < cusPerSA; i++ {
				if err := pl.attachOne(p, g, s, i, internal, lowMods); err != nil {
					return nil, err
				}
			}
		}
	}
	return pl, nil
}

// component returns the named component of type T.
func component[T sim.Component](p *capture.Platform, name string) (T, error) {
	var zero T
	c := p.Simulation.GetComponentByName(name)
	t, ok := c.(T)
	// Akita's lookup answers an unknown name with another component.
	if c == nil || c.Name() != name || !ok {
		return zero, configError("the platform has no %s of the expected type", name)
	}
	return t, nil
}

// attachOne puts our cache in place of GPU g's SA[s].L1VCache[i].
//
// MGPUSim's L1V (writearound.Comp) has its Top port connected to its
// address translator by the shader array's connection number 4i+3 (the
// builder's connectVectorMem makes four per CU in order: CU–ROB, ROB–AT,
// AT–TLB, L1V–AT, each registered as "<SA>.Conn[n]"), its Control port on
// the GPU's InternalConn, and its Bottom port on the L1-to-L2 connection,
// which the builder does not register. Our Top and Control ports take the
// names of the cache's and are plugged into the first two connections: a
// direct connection finds a port by name, and the last port plugged under
// a name wins, so the translator's requests and the command processor's
// flushes reach us; the old ports stay plugged and idle. Below, we send
// through the old cache's Bottom port (a port accepts a message whose
// source it is, from anyone) and a hook on it relays the L2's responses to
// us; the old cache, which sent nothing, drops them as unknown.
func (pl *Plugin) attachOne(p *capture.Platform, g, s, i int, internal *directconnection.Comp,
	lowMods mem.AddressToPortMapper) error {
	sa := fmt.Sprintf("GPU[%d].SA[%d]", g, s)
	old, err := component[sim.Component](p, fmt.Sprintf("%s.L1VCache[%d]", sa, i))
	if err != nil {
		return err
	}
	atConn, err := component[*directconnection.Comp](p, fmt.Sprintf("%s.Conn[%d]", sa, 4*i+3))
	if err != nil {
		return err
	}
	unit, err := component[*cu.ComputeUnit](p, fmt.Sprintf("%s.CU[%d]", sa, i))
	if err != nil {
		return err
	}
	name := fmt.Sprintf("%s.CompressedL1V[%d]", sa, i)
	c := &Comp{pl: pl, bottom: old.GetPortByName("Bottom"), lowMods: lowMods,
		data: make(map[uint64][]byte), mshr: make(map[uint64]*mshrEntry), mshrByID: make(map[string]uint64),
		writes: make(map[string]sim.Msg), lineBuf: make([]byte, lineSize)}
	c.TickingComponent = sim.NewTickingComponent(name, pl.engine, pl.freq, c)
	c.top = sim.NewPort(c, topPortBuffer, topPortBuffer, old.GetPortByName("Top").Name())
	c.ctrl = sim.NewPort(c, ctrlPortBuffer, ctrlPortBuffer, old.GetPortByName("Control").Name())
	c.AddPort("Top", c.top)
	c.AddPort("Control", c.ctrl)
	var m *machine
	kind := kinds[pl.cfg.Policy]
	if kind != kinds["static"] {
		m = newMachine(pl.engine, pl.freq, pl.cfg.SampleEvery)
		unit.AcceptHook(m)
		c.machine = m
	}
	sm := (g-1)*shaderArrays*cusPerSA + s*cusPerSA + i
	l, err := newL1Cache(&pl.cfg, sm, machineAdapter{m})
	if err != nil {
		return err
	}
	l.drop = func(addr uint64) { delete(c.data, addr) }
	c.cache = l
	// Not registered with the simulation: its ports carry the replaced
	// cache's names, which the simulation already holds.
	atConn.PlugIn(c.top)
	internal.PlugIn(c.ctrl)
	c.bottom.AcceptHook(relay{c})
	pl.comps = append(pl.comps, c)
	return nil
}

func (pl *Plugin) observe(e Event) {
	if pl.cfg.Observe != nil {
		pl.cfg.Observe(e)
	}
}

func (pl *Plugin) fail(format string, args ...any) {
	if pl.err == nil {
		pl.err = fmt.Errorf("%w: "+format, append([]any{ErrTraffic}, args...)...)
	}
}

// Err returns the first problem met, or nil.
func (pl *Plugin) Err() error {
	if pl.err != nil {
		return pl.err
	}
	for _, c := range pl.comps {
		if err := c.cache.err(); err != nil {
			return err
		}
	}
	return nil
}

// Stats are the counters of all the L1s together.
type Stats struct {
	Counters
	// ReadReqs and WriteReqs are the compute units' requests; L2Reads
	// and L2Writes what the caches sent on (misses after MSHR merging,
	// and every write).
	ReadReqs, WriteReqs, L2Reads, L2Writes uint64
	// MissCycles is Σ of the fills' latency (request to fill), Misses
	// their number; HitCycles Σ of the hits' latency.
	MissCycles, Misses, HitCycles uint64
}

// Stats returns the counters so far.
func (pl *Plugin) Stats() Stats {
	var s Stats
	for _, c := range pl.comps {
		s.add(c.cache.counters())
		s.ReadReqs += c.stats.readReqs
		s.WriteReqs += c.stats.writeReqs
		s.L2Reads += c.stats.l2Reads
		s.L2Writes += c.stats.l2Writes
		s.MissCycles += c.stats.missCycles
		s.Misses += c.stats.misses
		s.HitCycles += c.stats.hitCycles
	}
	return s
}

// add sums one cache's counters into s.
func (s *Stats) add(k Counters) {
	s.Accesses += k.Accesses
	s.LoadHits += k.LoadHits
	s.LoadMisses += k.LoadMisses
	s.StoreHits += k.StoreHits
	s.StoreMisses += k.StoreMisses
	s.Evictions += k.Evictions
	s.Fills += k.Fills
	s.Decompressions += k.Decompressions
	s.QueueWait += k.QueueWait
	s.ValidLineSum += k.ValidLineSum
	s.Lines = k.Lines // per cache, as sim/cache counts it
	s.HitsByMode = addInto(s.HitsByMode, k.HitsByMode)
	s.FillsByMode = addInto(s.FillsByMode, k.FillsByMode)
	s.ModeEPs = addInto(s.ModeEPs, k.ModeEPs)
}

func addInto(dst, src []uint64) []uint64 {
	for len(dst) < len(src) {
		dst = append(dst, 0)
	}
	for i, n := range src {
		dst[i] += n
	}
	return dst
}
