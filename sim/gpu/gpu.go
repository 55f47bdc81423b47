package gpu

import (
	"errors"
	"fmt"

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
	cfg, err := checkConfig(cfg)
	if err != nil {
		return nil, err
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

// checkConfig fills in cfg's defaults and returns it, or an error wrapping
// linecomp.ErrConfig that names the field that cannot work.
func checkConfig(cfg Config) (Config, error) {
	if cfg.Memory == nil {
		cfg.Memory = FixedLatency(100)
	}
	if cfg.L2Slices == 0 {
		cfg.L2Slices = 1
	}
	if cfg.L2Interleave == 0 {
		cfg.L2Interleave = cfg.L2.LineSize
	}
	bad := func(format string, args ...any) (Config, error) {
		return cfg, linecomp.ConfigError("gpu", format, args...)
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
	return cfg, nil
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
	if err := g.checkKernel(k); err != nil {
		return ks, err
	}
	start, startInst := g.now, g.stats.Instructions
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

// checkKernel reports what in k this GPU cannot run: a block larger than an
// SM holds, an instruction of unknown kind, a Compute of no instruction,
// lines on an instruction that is not a load or a store, or a payload of
// another size than the L1's lines.
func (g *GPU) checkKernel(k *Kernel) error {
	for b, blk := range k.Blocks {
		if len(blk.Warps) > g.cfg.WarpsPerSM {
			return linecomp.ConfigError("gpu", "kernel %s: block %d has %d warps, more than WarpsPerSM (%d)", k.Name, b, len(blk.Warps), g.cfg.WarpsPerSM)
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
					return fmt.Errorf("%w: kernel %s: block %d, warp %d, instruction %d is %s", ErrKernel, k.Name, b, wi, pc, bad)
				}
				for _, l := range in.Lines {
					if len(l.Data) != g.cfg.L1.LineSize {
						return fmt.Errorf("%w: kernel %s: a %d-byte payload for %d-byte lines", linecomp.ErrLineSize, k.Name, len(l.Data), g.cfg.L1.LineSize)
					}
				}
			}
		}
	}
	return nil
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
