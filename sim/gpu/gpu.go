package gpu

import (
	"errors"
	"fmt"
	"math"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bound"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/trace/warp"
)

// ErrKernel is wrapped by Run's errors for a kernel that cannot run: nil,
// an instruction of unknown kind, a Compute of no instruction, or lines on
// an instruction that is not a load or a store.
var ErrKernel = errors.New("gpu: malformed kernel")

// Scheduling is a warp scheduler's policy.
type Scheduling uint8

const (
	GTO Scheduling = iota // greedy then oldest (the default)
	LRR                   // loose round-robin
)

func (s Scheduling) String() string {
	switch s {
	case GTO:
		return "gto"
	case LRR:
		return "lrr"
	}
	return fmt.Sprintf("Scheduling(%d)", uint8(s))
}

// Memory is what lies below the L2: DRAM behind memory controllers.
type Memory interface {
	// Access returns the latency in cycles of a request arriving at cycle
	// now: a read of a line that missed the L2, or the L2's write-back of
	// a dirty line.
	Access(now uint64, req MemRequest) (int, error)
}

// MemRequest is one request to the Memory.
type MemRequest struct {
	Write bool
	// Raw: the line is stored in DRAM uncompressed whatever its content
	// (a CABA store that overflowed the store buffer, §5.2.2).
	Raw  bool
	Addr uint64 // line-aligned
	Line []byte // the line's current content
}

// FixedLatency is a Memory whose every request takes the same time.
type FixedLatency int

// Access implements Memory.
func (f FixedLatency) Access(uint64, MemRequest) (int, error) { return int(f), nil }

// Config describes the GPU. LatteConfig gives LATTE-CC's Table II machine.
type Config struct {
	SMs         int
	WarpsPerSM  int
	BlocksPerSM int
	Schedulers  int // per SM
	Scheduling  Scheduling
	MSHRs       int // per SM

	// L1 is every SM's L1 data cache (its Modes decide what it can store;
	// its Policy is set by AttachL1). L2 is one slice of the shared L2.
	L1, L2 cache.Config
	// L2Slices slices make up the L2 (GPGPU-Sim banks it per memory
	// partition); a line belongs to slice (addr / L2Interleave) mod
	// L2Slices and is indexed there by its slice-local line number, as a
	// memory controller numbers its lines (sim/mem). Zero means 1 slice.
	L2Slices, L2Interleave int

	L2HitLatency int    // cycles from an L1 miss to an L2 hit's data
	Memory       Memory // below the L2; the default is FixedLatency(100)

	// SMWideTolerance computes LATTE-CC's Eq. 4 from the SM's sums over
	// all its schedulers, the rule before 2026-12, instead of per
	// scheduler and averaged (model-spec §3). With two schedulers it gives
	// about twice the tolerance; it exists to reproduce earlier results.
	SMWideTolerance bool

	// AttachL1, if set, is called once per SM with its L1 and its Probe,
	// to install the L1's policy (e.g. latte.New(l1, probe, …)).
	AttachL1 func(sm int, l1 *cache.Cache, probe *Probe) error

	// Interconnect is the path between the L2 slices and the SMs; its
	// zero value has unlimited bandwidth and carries lines uncompressed.
	Interconnect Interconnect
	// Assist, if set, decompresses lines that arrive compressed and
	// compresses stores with CABA's assist warps (§5.2).
	Assist *Assist
}

// Interconnect is the crossbar between the L2 slices and the SMs.
type Interconnect struct {
	// FlitBytes is what an L2 slice's response port moves per cycle; a
	// line's flits occupy it in turn and later lines wait. 0: unlimited.
	FlitBytes int
	// Codec, if set, compresses the lines the interconnect carries (fills
	// and stores); they then occupy ceil(payload / FlitBytes) flits, at
	// least one. The L1 still holds lines uncompressed.
	Codec linecomp.Codec
	// DecompressCycles is the hardware decompression of a compressed fill
	// at the SM, added to its latency (HW-BDI: 1). With Assist set,
	// decompression is the assist warp's instead.
	DecompressCycles int
}

// Assist is CABA's assist-warp cost model (§5.2): a fill that arrives
// compressed wakes its loads only after a high-priority assist warp has
// issued Decompress(line) instructions, each taking an issue slot before
// any warp; a store waits in a store buffer of StoreBuffer lines until a
// low-priority assist warp has issued Compress(line) instructions in issue
// slots no warp used, then goes out compressed; a store that finds the
// buffer full goes out uncompressed at once.
type Assist struct {
	Decompress  func(line []byte) int // instructions to decompress line as it travels (0: stored raw)
	Compress    func(line []byte) int // instructions to compress it
	StoreBuffer int                   // lines; default 8 [ours: "a few dedicated sets"]
}

// LatteConfig returns LATTE-CC's machine (Table II; model-spec §3): 15 SMs,
// 48 warps and 8 blocks per SM, 2 GTO schedulers, 32 MSHRs, the L1 of
// cache.LatteL1 with the given modes, a 768 KB 8-way L2 of 128-byte lines
// (write-back), an L2 hit after 120 cycles and a miss after 220. The L2 is
// 6 slices of 128 KB (128 sets) interleaved by 4 KB, one per memory
// controller of MAG-aware BDI's Table IV [ours: 768 KB is not a power of
// two of sets, and GPGPU-Sim banks its L2 by memory partition].
func LatteConfig(l1Modes ...linecomp.Codec) (Config, error) {
	none, err := linecomp.New("none", 128)
	if err != nil {
		return Config{}, err
	}
	return Config{
		SMs: 15, WarpsPerSM: 48, BlocksPerSM: 8, Schedulers: 2, MSHRs: 32,
		L1: cache.LatteL1(l1Modes...),
		L2: cache.Config{Sets: 128 << 10 / 128 / 8, Ways: 8, LineSize: 128, Write: cache.WriteBack,
			Modes: []linecomp.Codec{none}},
		L2Slices: 6, L2Interleave: 4096,
		L2HitLatency: 120,
		Memory:       FixedLatency(100),
	}, nil
}

// Stats are the counters of a run.
type Stats struct {
	Cycles       uint64
	Instructions uint64      // issued: Compute counts, memory instructions, barriers, exits
	Loads        uint64      // line accesses of loads
	Stores       uint64      // line accesses of stores
	L1           cache.Stats // summed over SMs
	L2           cache.Stats
	// L1MissLatency sums the cycles from an L1 miss (a new MSHR) to its
	// fill; L1MissFills counts those fills, MergedMisses the loads that
	// joined an existing MSHR.
	L1MissLatency, L1MissFills, MergedMisses uint64
	MemReads, MemWrites                      uint64
	// Flits on the interconnect (fills and stores), and what they would
	// be with every line uncompressed.
	Flits, UncompressedFlits uint64
	// Assist warps (CABA): instructions of high-priority decompression
	// and low-priority compression, and stores that overflowed the store
	// buffer and went out uncompressed.
	AssistDecompressInstructions, AssistCompressInstructions uint64
	UncompressedStores                                       uint64
	Kernels                                                  []KernelStats
}

// KernelStats are the cycles and instructions of one kernel.
type KernelStats struct {
	Name         string
	Cycles       uint64
	Instructions uint64
}

// IPC returns instructions per cycle.
func (s *Stats) IPC() float64 {
	if s.Cycles == 0 {
		return 0
	}
	return float64(s.Instructions) / float64(s.Cycles)
}

// Probe measures one SM for its L1 policy: LATTE-CC's latency tolerance
// (Eq. 4) and the mean L1 miss latency of each EP. It implements
// policy/latte's Machine interface.
type Probe struct {
	g      *GPU
	smWide bool   // Config.SMWideTolerance
	start  uint64 // cycle the EP began
	// Per scheduler: ready warps summed over the EP's simulated cycles,
	// issue cycles, and the times it issued from another warp than the
	// one it issued from before.
	ready, issues, switches []uint64
	missSum                 uint64
	misses                  uint64
	lastMiss                float64
}

func newProbe(g *GPU, schedulers int) Probe {
	counters := make([]uint64, 3*schedulers)
	return Probe{g: g, smWide: g.cfg.SMWideTolerance, lastMiss: float64(g.cfg.L2HitLatency),
		ready: counters[:schedulers], issues: counters[schedulers : 2*schedulers], switches: counters[2*schedulers:]}
}

// EndEP returns the latency tolerance and the mean L1 miss latency measured
// since the previous call, and starts a new measurement. The tolerance is
// Eq. 4 per warp scheduler, average_warp_available(s) ×
// average_execution_cycles_per_schedule(s), averaged over the schedulers
// (model-spec §3, revised 2026-12); under Config.SMWideTolerance it is the
// same product of the SM-wide sums. With no miss in the EP the mean miss
// latency is the previous EP's, or the L2 hit latency before the first
// miss.
func (p *Probe) EndEP() (tolerance, missLatency float64) {
	cycles := float64(p.g.now - p.start + 1)
	// perSchedule is a scheduler's issue cycles per switch of warp, or its
	// issue cycles when it never switched.
	perSchedule := func(issues, switches uint64) float64 {
		if switches == 0 {
			return float64(issues)
		}
		return float64(issues) / float64(switches)
	}
	if p.smWide {
		var ready, issues, switches uint64
		for s := range p.ready {
			ready += p.ready[s]
			issues += p.issues[s]
			switches += p.switches[s]
		}
		tolerance = float64(ready) / cycles * perSchedule(issues, switches)
	} else {
		for s := range p.ready {
			tolerance += float64(p.ready[s]) / cycles * perSchedule(p.issues[s], p.switches[s])
		}
		tolerance /= float64(len(p.ready))
	}
	if p.misses > 0 {
		p.lastMiss = float64(p.missSum) / float64(p.misses)
	}
	missLatency = p.lastMiss
	p.start = p.g.now + 1
	p.missSum, p.misses = 0, 0
	clear(p.ready)
	clear(p.issues)
	clear(p.switches)
	return tolerance, missLatency
}

type warpState struct {
	live    bool
	insts   []Inst
	pc      int
	left    uint32 // instructions left of the current Compute
	pending int    // load lines not yet returned
	barrier bool
	block   int // block slot
	age     uint64
}

func (w *warpState) ready() bool {
	return w.live && !w.barrier && w.pending == 0 && w.pc < len(w.insts)
}

type blockState struct {
	live      bool
	warps     []int // warp slots
	atBarrier int
	exited    int
}

// lsuItem is one memory instruction in the access queue: its lines enter
// the L1 one per cycle, from next on.
type lsuItem struct {
	store bool
	warp  int
	lines []Line
	next  int
}

type mshr struct {
	addr    uint64
	line    Line
	start   uint64
	waiters []int // warp slots, one entry per load line
}

type sm struct {
	id     int
	l1     *cache.Cache
	probe  Probe
	warps  []warpState
	blocks []blockState
	last   []int // per scheduler: the warp slot issued last, or -1
	lsu    []lsuItem
	head   int
	// stalled: the access at head is a new miss and every MSHR is busy;
	// nothing changes that before one of this SM's fills.
	stalled bool
	mshrs   map[uint64]*mshr
	// CABA assist warps: decompression (high priority) and compression
	// (low priority) tasks in arrival order, and stores buffered.
	high, low []assistTask
	buffered  int
	// isReady caches each warp slot's ready(), and nready counts the
	// ready warps; refresh keeps them right after every change of a warp.
	isReady    []bool
	nready     int
	schedReady []int // ready warps per scheduler (slot w is scheduler w mod Schedulers)
	// spare MSHRs, reused so that a miss allocates nothing
	spare []*mshr
	// runPick is, during a compute run, each scheduler's warp or -1.
	runPick []int
}

// newMSHR returns an unused MSHR.
func (s *sm) newMSHR() *mshr {
	if n := len(s.spare); n > 0 {
		m := s.spare[n-1]
		s.spare = s.spare[:n-1]
		return m
	}
	return &mshr{}
}

// refresh updates the ready count after warp slot w changed.
func (s *sm) refresh(w int) {
	if r := s.warps[w].ready(); r != s.isReady[w] {
		s.isReady[w] = r
		d := -1
		if r {
			d = 1
		}
		s.nready += d
		s.schedReady[w%len(s.schedReady)] += d
	}
}

// assistTask is one assist warp: its instructions left and what to do when
// it is done (wake an MSHR's loads, or send a store).
type assistTask struct {
	left  int
	mshr  *mshr
	store Line
}

// event kinds
const (
	evWake = iota // a load line returns to a warp
	evFill        // an L1 miss returns: fill and wake the merged loads
)

// lineState is the latest content of a line the GPU has seen, and whether
// DRAM holds it uncompressed.
type lineState struct {
	data []byte
	raw  bool
}

type event struct {
	t    uint64
	seq  uint64
	kind uint8
	sm   int32
	warp int32
	addr uint64
}

// GPU is the timing model. See the package doc.
type GPU struct {
	cfg    Config
	sms    []sm
	l2     []*cache.Cache
	now    uint64
	events eventQueue
	age    uint64
	rr     int // next SM for block dispatch
	// full: the last dispatch left a block that no SM had room for, and
	// no warp has exited since (an exit is the only thing that makes room).
	full  bool
	stats Stats
	// image holds every line's latest content, for the memory's
	// write-backs; ports holds when each L2 slice's response port is free.
	image map[uint64]lineState
	// track: keep the image, for a Memory that needs write-backs' content
	// or lines that may travel raw (anything but FixedLatency, or Assist)
	track bool
	ports []uint64
	err   error // the first error met inside a cache callback
}

// The largest GPU New builds: 2^12 SMs, L2 slices, warps, blocks,
// schedulers or MSHRs per SM, and 2^26 tags over all its caches.
const (
	maxUnits = 1 << 12
	maxTags  = 1 << 26
)

// New builds the GPU, its caches and, through AttachL1, the L1 policies.
// A configuration that cannot work is an error wrapping linecomp.ErrConfig
// that names the field.
func New(cfg Config) (*GPU, error) {
	if cfg.Memory == nil {
		cfg.Memory = FixedLatency(100)
	}
	if cfg.L2Slices == 0 {
		cfg.L2Slices = 1
	}
	if cfg.L2Interleave == 0 {
		cfg.L2Interleave = cfg.L2.LineSize
	}
	bad := func(format string, args ...any) (*GPU, error) {
		return nil, linecomp.ConfigError("gpu", format, args...)
	}
	fixed, _ := cfg.Memory.(FixedLatency)
	switch {
	case cfg.SMs <= 0 || cfg.SMs > maxUnits:
		return bad("SMs must be 1 to %d, got %d", maxUnits, cfg.SMs)
	case cfg.WarpsPerSM <= 0 || cfg.BlocksPerSM <= 0 || cfg.WarpsPerSM > maxUnits || cfg.BlocksPerSM > maxUnits:
		return bad("WarpsPerSM and BlocksPerSM must be 1 to %d, got %d and %d", maxUnits, cfg.WarpsPerSM, cfg.BlocksPerSM)
	case cfg.Schedulers <= 0 || cfg.Schedulers > maxUnits:
		return bad("Schedulers must be 1 to %d, got %d", maxUnits, cfg.Schedulers)
	case cfg.Scheduling > LRR:
		return bad("unknown Scheduling %d", cfg.Scheduling)
	case cfg.MSHRs <= 0 || cfg.MSHRs > maxUnits:
		return bad("MSHRs must be 1 to %d, got %d", maxUnits, cfg.MSHRs)
	case cfg.L2Slices > maxUnits:
		return bad("L2Slices must be 1 to %d, got %d", maxUnits, cfg.L2Slices)
	case !bound.Cycles(cfg.L2HitLatency):
		return bad("L2HitLatency must be 0 to %d cycles, got %d", bound.MaxCycles, cfg.L2HitLatency)
	case !bound.Cycles(int(fixed)):
		return bad("Memory FixedLatency must be 0 to %d cycles, got %d", bound.MaxCycles, fixed)
	case cfg.L1.LineSize != cfg.L2.LineSize:
		return bad("the L1 (%d-byte lines) and L2 (%d) must have one LineSize", cfg.L1.LineSize, cfg.L2.LineSize)
	case cfg.L2Slices < 0 || cfg.L2Interleave < 0 || cfg.L2.LineSize <= 0 || cfg.L2Interleave%cfg.L2.LineSize != 0:
		return bad("L2Slices (%d) must be positive and L2Interleave (%d) a multiple of the line size", cfg.L2Slices, cfg.L2Interleave)
	}
	switch ic := cfg.Interconnect; {
	case ic.FlitBytes < 0 || !bound.Cycles(ic.DecompressCycles):
		return bad("Interconnect FlitBytes (%d) must not be negative and DecompressCycles (%d) must be 0 to %d cycles", ic.FlitBytes, ic.DecompressCycles, bound.MaxCycles)
	case ic.Codec != nil && ic.Codec.LineSize() != cfg.L2.LineSize:
		return bad("the Interconnect codec %s takes %d-byte lines, the L2 has %d", ic.Codec.Name(), ic.Codec.LineSize(), cfg.L2.LineSize)
	case cfg.Assist != nil && (cfg.Assist.Decompress == nil || cfg.Assist.Compress == nil || cfg.Assist.StoreBuffer < 0):
		return bad("Assist needs Decompress and Compress and a StoreBuffer ≥ 0")
	case cfg.Assist != nil && ic.Codec == nil:
		return bad("Assist needs an Interconnect codec: assist warps handle lines that travel compressed")
	}
	if cfg.Assist != nil && cfg.Assist.StoreBuffer == 0 {
		a := *cfg.Assist
		a.StoreBuffer = 8
		cfg.Assist = &a
	}
	// Every SM builds an L1 and every slice an L2: their tags together are
	// bounded too, not only each cache's.
	for _, c := range []struct {
		field string
		n     int
		cc    cache.Config
	}{{"SMs × L1", cfg.SMs, cfg.L1}, {"L2Slices × L2", cfg.L2Slices, cfg.L2}} {
		if c.cc.Sets > 0 && c.cc.Ways > 0 && c.cc.TagFactor >= 0 {
			if _, ok := bound.Product(maxTags, c.n, c.cc.Sets, c.cc.Ways, max(c.cc.TagFactor, 1)); !ok {
				return bad("%s (%d sets × %d ways × tag factor %d) is more than %d tags", c.field, c.cc.Sets, c.cc.Ways, c.cc.TagFactor, maxTags)
			}
		}
	}
	g := &GPU{cfg: cfg, sms: make([]sm, cfg.SMs), image: map[uint64]lineState{}, ports: make([]uint64, cfg.L2Slices)}
	_, isFixed := cfg.Memory.(FixedLatency)
	g.track = !isFixed || cfg.Assist != nil
	for i := 0; i < cfg.L2Slices; i++ {
		l2, err := cache.New(cfg.L2)
		if err != nil {
			return nil, fmt.Errorf("L2: %w", err)
		}
		// An observer, not the policy: a user may set the L2's policy or
		// attach tracers without breaking the write-backs.
		l2.AddObserver(writeBacks{g, i})
		g.l2 = append(g.l2, l2)
	}
	var err error
	for i := range g.sms {
		s := &g.sms[i]
		s.id = i
		if s.l1, err = cache.New(cfg.L1); err != nil {
			return nil, fmt.Errorf("L1: %w", err)
		}
		s.probe = newProbe(g, cfg.Schedulers)
		s.warps = make([]warpState, cfg.WarpsPerSM)
		s.isReady = make([]bool, cfg.WarpsPerSM)
		s.schedReady = make([]int, cfg.Schedulers)
		s.blocks = make([]blockState, cfg.BlocksPerSM)
		s.last = make([]int, cfg.Schedulers)
		s.runPick = make([]int, cfg.Schedulers)
		for j := range s.last {
			s.last[j] = -1
		}
		s.mshrs = make(map[uint64]*mshr, cfg.MSHRs)
		if cfg.AttachL1 != nil {
			if err := cfg.AttachL1(i, s.l1, &s.probe); err != nil {
				return nil, fmt.Errorf("SM %d: attaching the L1 policy: %w", i, err)
			}
		}
	}
	return g, nil
}

// L1 returns SM i's L1 cache, or nil if there is no SM i.
func (g *GPU) L1(i int) *cache.Cache {
	if i < 0 || i >= len(g.sms) {
		return nil
	}
	return g.sms[i].l1
}

// L2 returns slice i of the shared L2, or nil if there is no slice i.
func (g *GPU) L2(i int) *cache.Cache {
	if i < 0 || i >= len(g.l2) {
		return nil
	}
	return g.l2[i]
}

// l2Slice returns the L2 slice of addr, its number and the line's
// slice-local address.
func (g *GPU) l2Slice(addr uint64) (int, *cache.Cache, uint64) {
	il, n, ls := uint64(g.cfg.L2Interleave), uint64(g.cfg.L2Slices), uint64(g.cfg.L2.LineSize)
	stripe := addr / il
	local := stripe/n*(il/ls) + addr%il/ls
	return int(stripe % n), g.l2[stripe%n], local * ls
}

// Now returns the current cycle.
func (g *GPU) Now() uint64 { return g.now }

// Stats returns the counters so far, with the caches' counters summed.
func (g *GPU) Stats() Stats {
	s := g.stats
	s.Kernels = append([]KernelStats(nil), s.Kernels...)
	s.Cycles = g.now
	s.L1 = cache.Stats{}
	for i := range g.sms {
		addCache(&s.L1, g.sms[i].l1.Stats())
	}
	s.L2 = cache.Stats{}
	for _, l2 := range g.l2 {
		addCache(&s.L2, l2.Stats())
	}
	return s
}

// addCache adds the counters of b to a.
func addCache(a *cache.Stats, b cache.Stats) {
	a.Accesses += b.Accesses
	a.LoadHits += b.LoadHits
	a.LoadMisses += b.LoadMisses
	a.StoreHits += b.StoreHits
	a.StoreMisses += b.StoreMisses
	a.Evictions += b.Evictions
	a.Fills += b.Fills
	a.Invalidations += b.Invalidations
	a.WriteBacks += b.WriteBacks
	a.Decompressions += b.Decompressions
	a.QueueWait += b.QueueWait
	a.ValidLineSum += b.ValidLineSum
	a.Lines = b.Lines // per cache: the effective capacity stays a per-cache mean
	a.FillsByMode = addSlice(a.FillsByMode, b.FillsByMode)
	a.HitsByMode = addSlice(a.HitsByMode, b.HitsByMode)
	a.DecompressionsByMode = addSlice(a.DecompressionsByMode, b.DecompressionsByMode)
}

func addSlice(a, b []uint64) []uint64 {
	if a == nil {
		a = make([]uint64, len(b))
	}
	for i := range b {
		a[i] += b[i]
	}
	return a
}

// Run replays one kernel to completion and returns its cycles and
// instructions. The caches keep their contents for the next kernel.
func (g *GPU) Run(k *Kernel) (KernelStats, error) {
	if k == nil {
		return KernelStats{}, fmt.Errorf("%w: nil kernel", ErrKernel)
	}
	ks := KernelStats{Name: k.Name}
	start, startInst := g.now, g.stats.Instructions
	for b, blk := range k.Blocks {
		if len(blk.Warps) > g.cfg.WarpsPerSM {
			return ks, linecomp.ConfigError("gpu", "kernel %s: block %d has %d warps, more than WarpsPerSM (%d)", k.Name, b, len(blk.Warps), g.cfg.WarpsPerSM)
		}
		for wi, w := range blk.Warps {
			for pc, in := range w {
				bad := ""
				switch {
				case in.Kind < warp.Compute || in.Kind > warp.Exit:
					bad = "an instruction of unknown kind " + in.Kind.String()
				case in.Kind == warp.Compute && in.Count == 0:
					bad = "a Compute of no instruction"
				case in.Kind != warp.Load && in.Kind != warp.Store && len(in.Lines) > 0:
					bad = fmt.Sprintf("lines on a %s", in.Kind)
				}
				if bad != "" {
					return ks, fmt.Errorf("%w: kernel %s: block %d, warp %d, instruction %d is %s", ErrKernel, k.Name, b, wi, pc, bad)
				}
				for _, l := range in.Lines {
					if len(l.Data) != g.cfg.L1.LineSize {
						return ks, fmt.Errorf("%w: kernel %s: a %d-byte payload for %d-byte lines", linecomp.ErrLineSize, k.Name, len(l.Data), g.cfg.L1.LineSize)
					}
				}
			}
		}
	}
	next := 0      // next block to dispatch
	g.full = false // this kernel's blocks may be smaller
	for {
		if err := g.drainEvents(); err != nil {
			return ks, err
		}
		next = g.dispatch(k, next)
		if next == len(k.Blocks) && g.idle() {
			break
		}
		if run := g.computeRun(); run > 1 {
			for i := range g.sms {
				if s := &g.sms[i]; s.busy() {
					g.issueRun(s, run)
				}
			}
			g.now += run
			continue
		}
		// Something happens next cycle if anything happened in this one (an
		// issue or an access may free a block slot, a warp or an MSHR) or
		// some SM still has work it can do without an event.
		work := false
		for i := range g.sms {
			s := &g.sms[i]
			if !s.busy() {
				continue // nothing to issue or to send: the cycle changes nothing here
			}
			head, issued, assisted := s.head, g.stats.Instructions, len(s.high)+len(s.low)
			if err := g.lsuStep(s); err != nil {
				return ks, err
			}
			if err := g.issue(s); err != nil {
				return ks, err
			}
			work = work || s.head != head || g.stats.Instructions != issued || len(s.high)+len(s.low) != assisted || s.busy()
		}
		if g.err != nil {
			return ks, g.err
		}
		if work {
			g.now++
			continue
		}
		if g.events.len() == 0 {
			return ks, fmt.Errorf("gpu: kernel %s stalls at cycle %d with no event pending (a barrier some warp never reaches)", k.Name, g.now)
		}
		g.now = g.events.next() // nothing can happen before the next event
	}
	ks.Cycles = g.now - start
	ks.Instructions = g.stats.Instructions - startInst
	g.stats.Kernels = append(g.stats.Kernels, ks)
	return ks, nil
}

// idle reports that no warp, queued access or event is left.
func (g *GPU) idle() bool {
	if g.events.len() > 0 {
		return false
	}
	for i := range g.sms {
		s := &g.sms[i]
		if s.head < len(s.lsu) || len(s.high) > 0 || len(s.low) > 0 {
			return false
		}
		for j := range s.blocks {
			if s.blocks[j].live {
				return false
			}
		}
	}
	return true
}

// busy reports whether the SM can do something next cycle without an
// event: a ready warp or a queued access that is not waiting for an MSHR.
func (s *sm) busy() bool {
	return s.nready > 0 || s.queued() || len(s.high) > 0 || len(s.low) > 0
}

// queued reports whether an access can enter the L1.
func (s *sm) queued() bool { return s.head < len(s.lsu) && !s.stalled }

// dispatch gives blocks, from next on, to SMs round-robin while they have
// room, and returns the next block not dispatched.
func (g *GPU) dispatch(k *Kernel, next int) int {
	if g.full {
		return next // a failed round leaves rr where it was: nothing to redo
	}
	for next < len(k.Blocks) {
		blk := &k.Blocks[next]
		placed := false
		for tries := 0; tries < len(g.sms) && !placed; tries++ {
			s := &g.sms[g.rr]
			g.rr = (g.rr + 1) % len(g.sms)
			placed = s.place(blk, &g.age)
		}
		if !placed {
			g.full = true
			return next
		}
		next++
	}
	return next
}

// place puts blk on s if a block slot and enough warp slots are free.
func (s *sm) place(blk *Block, age *uint64) bool {
	slot := -1
	for i := range s.blocks {
		if !s.blocks[i].live {
			slot = i
			break
		}
	}
	if slot < 0 {
		return false
	}
	free := 0
	for i := range s.warps {
		if !s.warps[i].live {
			free++
		}
	}
	if free < len(blk.Warps) {
		return false
	}
	b := &s.blocks[slot]
	*b = blockState{live: true, warps: b.warps[:0]}
	for _, insts := range blk.Warps {
		for i := range s.warps {
			if !s.warps[i].live {
				*age++
				s.warps[i] = warpState{live: true, insts: insts, block: slot, age: *age}
				b.warps = append(b.warps, i)
				if len(insts) == 0 { // a warp with no instruction has finished
					s.warps[i].live = false
					b.exited++
				}
				s.refresh(i)
				break
			}
		}
	}
	if b.exited == len(b.warps) {
		b.live = false
	}
	return true
}

// issue lets each scheduler of s issue one instruction: a high-priority
// assist warp's first, then a warp's, then, in a slot no warp used, a
// low-priority assist warp's.
func (g *GPU) issue(s *sm) error {
	for sc, n := range s.schedReady {
		s.probe.ready[sc] += uint64(n)
	}
	n := g.cfg.Schedulers
	for sc := 0; sc < n; sc++ {
		if len(s.high) > 0 {
			g.stats.AssistDecompressInstructions++
			if s.high[0].left--; s.high[0].left <= 0 {
				t := s.high[0]
				s.high = s.high[1:]
				g.wake(s, t.mshr)
			}
			continue
		}
		w := -1
		if s.schedReady[sc] > 0 {
			w = g.pick(s, sc)
		}
		if w < 0 {
			if len(s.low) > 0 {
				g.stats.AssistCompressInstructions++
				if s.low[0].left--; s.low[0].left <= 0 {
					t := s.low[0]
					s.low = s.low[1:]
					s.buffered--
					if err := g.storeToL2(t.store, false); err != nil {
						return err
					}
				}
			}
			continue
		}
		if w != s.last[sc] {
			s.probe.switches[sc]++
		}
		s.last[sc] = w
		s.probe.issues[sc]++
		g.stats.Instructions++
		g.step(s, w)
	}
	return nil
}

// computeRun returns for how many cycles from now the GPU does nothing but
// issue compute instructions, each scheduler from the warp it issues from
// now (recorded in runPick): no event falls due, no access is queued, no
// assist warp runs, and no warp reaches the end of its Compute before the
// last of those cycles. The cycles can then be taken in one step, with the
// state and counters that taking them one by one gives. It returns 0 when
// that does not hold, and under loose round-robin, whose schedulers change
// warps every cycle.
func (g *GPU) computeRun() uint64 {
	if g.cfg.Scheduling != GTO {
		return 0
	}
	run := uint64(math.MaxUint64)
	if g.events.len() > 0 {
		run = g.events.next() - g.now // events due now were drained
		if run < 2 {
			return 0
		}
	}
	// The cheap tests first: most cycles of a memory-bound kernel fail
	// them, and then no scheduler's pick is worth computing.
	for i := range g.sms {
		if s := &g.sms[i]; s.queued() || len(s.high) > 0 || len(s.low) > 0 {
			return 0
		}
	}
	for i := range g.sms {
		s := &g.sms[i]
		if s.nready == 0 {
			continue
		}
		for sc := range s.runPick {
			s.runPick[sc] = -1
			if s.schedReady[sc] == 0 {
				continue
			}
			w := g.pick(s, sc)
			ws := &s.warps[w]
			in := &ws.insts[ws.pc]
			if in.Kind != warp.Compute {
				return 0
			}
			left := ws.left
			if left == 0 {
				left = in.Count
			}
			s.runPick[sc] = w
			run = min(run, uint64(left))
		}
	}
	if run == math.MaxUint64 {
		return 0
	}
	return run
}

// issueRun takes k cycles of s found by computeRun: each scheduler issues k
// instructions of its warp's Compute; k is at most what any has left.
func (g *GPU) issueRun(s *sm, k uint64) {
	for sc, n := range s.schedReady {
		s.probe.ready[sc] += uint64(n) * k
	}
	for sc, w := range s.runPick {
		if w < 0 {
			continue
		}
		if w != s.last[sc] {
			s.probe.switches[sc]++
		}
		s.last[sc] = w
		s.probe.issues[sc] += k
		g.stats.Instructions += k
		ws := &s.warps[w]
		if ws.left == 0 {
			ws.left = ws.insts[ws.pc].Count
		}
		if ws.left -= uint32(k); ws.left == 0 {
			ws.pc++
		}
		s.refresh(w)
	}
}

// pick returns the warp scheduler sc of s issues from, or -1.
func (g *GPU) pick(s *sm, sc int) int {
	n := g.cfg.Schedulers
	last := s.last[sc]
	if g.cfg.Scheduling == GTO {
		if last >= 0 && s.isReady[last] {
			return last
		}
		best := -1
		for w := sc; w < len(s.warps); w += n {
			if s.isReady[w] && (best < 0 || s.warps[w].age < s.warps[best].age) {
				best = w
			}
		}
		return best
	}
	// Loose round-robin: the first ready warp after the last one.
	slots := (len(s.warps) - sc + n - 1) / n
	first := 0
	if last >= 0 {
		first = (last-sc)/n + 1
	}
	for i := 0; i < slots; i++ {
		w := sc + (first+i)%slots*n
		if s.isReady[w] {
			return w
		}
	}
	return -1
}

// step issues warp w's next instruction.
func (g *GPU) step(s *sm, w int) {
	ws := &s.warps[w]
	in := &ws.insts[ws.pc]
	switch in.Kind {
	case warp.Compute:
		if ws.left == 0 {
			ws.left = in.Count
		}
		if ws.left--; ws.left == 0 {
			ws.pc++
		}
	case warp.Load, warp.Store:
		if len(in.Lines) > 0 {
			s.lsu = append(s.lsu, lsuItem{store: in.Kind == warp.Store, warp: w, lines: in.Lines})
		}
		if in.Kind == warp.Load {
			ws.pending += len(in.Lines)
			g.stats.Loads += uint64(len(in.Lines))
		} else {
			g.stats.Stores += uint64(len(in.Lines))
		}
		ws.pc++
	case warp.Barrier:
		ws.pc++
		ws.barrier = true
		b := &s.blocks[ws.block]
		b.atBarrier++
		s.release(b)
	case warp.Exit:
		ws.pc = len(ws.insts)
		ws.live = false
		g.full = false
		s.last[w%g.cfg.Schedulers] = -1 // the slot's next warp is another warp
		b := &s.blocks[ws.block]
		b.exited++
		s.release(b)
		if b.exited == len(b.warps) {
			b.live = false
		}
	}
	s.refresh(w)
}

// release lets a block's warps past the barrier once every live one is at
// it.
func (s *sm) release(b *blockState) {
	if b.atBarrier == 0 || b.atBarrier < len(b.warps)-b.exited {
		return
	}
	for _, w := range b.warps {
		s.warps[w].barrier = false
		s.refresh(w)
	}
	b.atBarrier = 0
}

// lsuStep lets the head of s's access queue enter the L1.
func (g *GPU) lsuStep(s *sm) error {
	if s.head == len(s.lsu) {
		s.lsu, s.head = s.lsu[:0], 0
		return nil
	}
	if s.stalled {
		return nil
	}
	it := &s.lsu[s.head]
	line := it.lines[it.next]
	addr := line.Addr
	if it.store {
		if _, err := s.l1.Store(g.now, addr, line.Data); err != nil {
			return err
		}
		s.advance(it)
		return g.store(s, line)
	}
	if len(s.mshrs) == g.cfg.MSHRs && s.mshrs[addr] == nil {
		if _, _, ok := s.l1.Contains(addr); !ok {
			s.stalled = true // a new miss, and every MSHR busy: wait
			return nil
		}
	}
	g.see(line, false)
	r := s.l1.Lookup(g.now, addr)
	s.advance(it) // it stays valid: nothing appends to the queue here
	if r.Hit {
		// A hit wins even over a pending miss to the line (a write-back
		// L1 may hold a stored line whose load miss is still out).
		g.events.push(event{t: g.now + uint64(r.Latency), kind: evWake, sm: int32(s.id), warp: int32(it.warp)})
		return nil
	}
	// The MSHRs are looked up only on a miss: most accesses hit.
	if m := s.mshrs[addr]; m != nil {
		m.waiters = append(m.waiters, it.warp)
		g.stats.MergedMisses++
		return nil
	}
	t, err := g.fetch(line)
	if err != nil {
		return err
	}
	m := s.newMSHR()
	m.addr, m.line, m.start, m.waiters = addr, line, g.now, append(m.waiters[:0], it.warp)
	s.mshrs[addr] = m
	g.events.push(event{t: t, kind: evFill, sm: int32(s.id), addr: addr})
	return nil
}

// advance moves the access queue past the line of it that entered the L1.
func (s *sm) advance(it *lsuItem) {
	if it.next++; it.next == len(it.lines) {
		s.head++
	}
}

// see records the latest content of a line; a load leaves a raw line raw.
func (g *GPU) see(l Line, raw bool) {
	if !g.track {
		return
	}
	st := g.image[l.Addr]
	g.image[l.Addr] = lineState{data: l.Data, raw: st.raw || raw}
}

// fetch sends an L1 miss to the L2 (and the memory on an L2 miss) and over
// the interconnect, and returns the cycle its line reaches the SM, the
// hardware decompression included.
func (g *GPU) fetch(l Line) (uint64, error) {
	lat := uint64(g.cfg.L2HitLatency)
	slice, l2, local := g.l2Slice(l.Addr)
	raw := g.image[l.Addr].raw
	if !l2.Lookup(g.now, local).Hit {
		ml, err := g.cfg.Memory.Access(g.now+lat, MemRequest{Addr: l.Addr, Line: l.Data, Raw: raw})
		if err != nil {
			return 0, err
		}
		if !bound.Cycles(ml) {
			return 0, linecomp.ConfigError("gpu", "the Memory answered a read of %#x at cycle %d with a latency of %d cycles; want 0 to %d", l.Addr, g.now+lat, ml, bound.MaxCycles)
		}
		g.stats.MemReads++
		lat += uint64(ml)
		if _, err := l2.Fill(g.now+lat, local, l.Data); err != nil {
			return 0, err
		}
	}
	t := g.transfer(slice, g.now+lat, l.Data, raw)
	if g.compressed(l.Data, raw) && g.cfg.Assist == nil {
		t += uint64(g.cfg.Interconnect.DecompressCycles)
	}
	return t, g.err
}

// compressed reports whether line travels compressed on the interconnect.
func (g *GPU) compressed(line []byte, raw bool) bool {
	c := g.cfg.Interconnect.Codec
	return c != nil && !raw && c.Size(line) < 8*len(line)+c.TagBits()
}

// transfer puts line on the response port of an L2 slice at cycle t and
// returns when it arrives: after the flits queued before it, its own
// included in the port's time but not in its latency (the L2 latency
// counts one line's transfer).
func (g *GPU) transfer(slice int, t uint64, line []byte, raw bool) uint64 {
	flits, full := g.flits(line, raw)
	g.stats.Flits += uint64(flits)
	g.stats.UncompressedFlits += uint64(full)
	fb := g.cfg.Interconnect.FlitBytes
	if fb == 0 {
		return t
	}
	start := max(t, g.ports[slice])
	g.ports[slice] = start + uint64(flits)
	return start
}

// flits returns the flits line takes on the interconnect, and the flits it
// takes uncompressed (with unlimited bandwidth, 32-byte flits are counted).
func (g *GPU) flits(line []byte, raw bool) (flits, full int) {
	fb := g.cfg.Interconnect.FlitBytes
	if fb == 0 {
		fb = 32
	}
	full = (len(line) + fb - 1) / fb
	if !g.compressed(line, raw) {
		return full, full
	}
	c := g.cfg.Interconnect.Codec
	bytes := (c.Size(line) - c.TagBits() + 7) / 8
	return max(1, (bytes+fb-1)/fb), full
}

// store sends a store's line towards the L2: through the store buffer and
// a compression assist warp with CABA, compressed by hardware with an
// interconnect codec, or as it is.
func (g *GPU) store(s *sm, l Line) error {
	a := g.cfg.Assist
	if a == nil || !g.compressed(l.Data, false) {
		return g.storeToL2(l, false)
	}
	if s.buffered == a.StoreBuffer {
		g.stats.UncompressedStores++
		return g.storeToL2(l, true)
	}
	s.buffered++
	s.low = append(s.low, assistTask{left: max(1, a.Compress(l.Data)), store: l})
	return nil
}

// storeToL2 writes l into its L2 slice; raw marks it stored uncompressed.
func (g *GPU) storeToL2(l Line, raw bool) error {
	if g.track {
		g.image[l.Addr] = lineState{data: l.Data, raw: raw}
	}
	_, l2, local := g.l2Slice(l.Addr)
	flits, full := g.flits(l.Data, raw)
	g.stats.Flits += uint64(flits)
	g.stats.UncompressedFlits += uint64(full)
	if _, err := l2.Store(g.now, local, l.Data); err != nil {
		return err
	}
	return g.err
}

// writeBacks observes an L2 slice: it sends every dirty line the slice
// evicts to the memory, with the line's latest content.
type writeBacks struct {
	g     *GPU
	slice int
}

func (w writeBacks) Observe(e cache.Event) {
	if e.Kind != cache.Evict || !e.Dirty {
		return
	}
	g := w.g
	addr := g.globalAddr(w.slice, e.Addr)
	st, ok := g.image[addr]
	if !ok && g.track { // cannot happen: every line the L2 holds was seen
		if g.err == nil {
			g.err = fmt.Errorf("gpu: the L2 wrote back line %#x, which no access brought", addr)
		}
		return
	}
	ml, err := g.cfg.Memory.Access(e.Now, MemRequest{Write: true, Raw: st.raw, Addr: addr, Line: st.data})
	if err == nil && !bound.Cycles(ml) {
		err = linecomp.ConfigError("gpu", "the Memory answered a write-back of %#x at cycle %d with a latency of %d cycles; want 0 to %d", addr, e.Now, ml, bound.MaxCycles)
	}
	if err != nil && g.err == nil {
		g.err = err
	}
	g.stats.MemWrites++
}

// globalAddr turns a slice-local line address back into the global one.
func (g *GPU) globalAddr(slice int, local uint64) uint64 {
	il, n, ls := uint64(g.cfg.L2Interleave), uint64(g.cfg.L2Slices), uint64(g.cfg.L2.LineSize)
	perStripe := il / ls
	line := local / ls
	return (line/perStripe*n+uint64(slice))*il + line%perStripe*ls
}

// drainEvents handles every event due at or before now.
func (g *GPU) drainEvents() error {
	for {
		e, ok := g.events.pop(g.now)
		if !ok {
			return nil
		}
		s := &g.sms[e.sm]
		switch e.kind {
		case evWake:
			s.warps[e.warp].pending--
			s.refresh(int(e.warp))
		case evFill:
			m := s.mshrs[e.addr]
			delete(s.mshrs, e.addr)
			s.stalled = false
			if _, err := s.l1.Fill(e.t, e.addr, m.line.Data); err != nil {
				return err
			}
			lat := e.t - m.start
			s.probe.missSum += lat
			s.probe.misses++
			g.stats.L1MissLatency += lat
			g.stats.L1MissFills++
			if a := g.cfg.Assist; a != nil && g.compressed(m.line.Data, g.image[e.addr].raw) {
				if n := a.Decompress(m.line.Data); n > 0 {
					s.high = append(s.high, assistTask{left: n, mshr: m})
					continue
				}
			}
			g.wake(s, m)
		}
	}
}

// wake gives an MSHR's line to every load waiting for it, and frees the
// MSHR for reuse.
func (g *GPU) wake(s *sm, m *mshr) {
	for _, w := range m.waiters {
		s.warps[w].pending--
		s.refresh(w)
	}
	m.line = Line{}
	s.spare = append(s.spare, m)
}
