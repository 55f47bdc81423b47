package gpu_test

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/trace/warp"
)

func none(t testing.TB) linecomp.Codec {
	t.Helper()
	c, err := linecomp.New("none", 128)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// small is a one-SM machine with LATTE-CC's latencies: L1 hit 20 cycles, L2
// hit 120, L2 miss 220.
func small(t testing.TB, schedulers int, sched gpu.Scheduling, l1 ...linecomp.Codec) *gpu.GPU {
	t.Helper()
	if len(l1) == 0 {
		l1 = []linecomp.Codec{none(t)}
	}
	cfg, err := gpu.LatteConfig(l1...)
	if err != nil {
		t.Fatal(err)
	}
	cfg.SMs, cfg.Schedulers, cfg.Scheduling = 1, schedulers, sched
	g, err := gpu.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func line(v uint64) []byte {
	b := make([]byte, 128)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint64(b[8*i:], v<<20|uint64(i))
	}
	return b
}

func compute(n uint32) gpu.Inst { return gpu.Inst{Kind: warp.Compute, Count: n} }
func load(addrs ...uint64) gpu.Inst {
	in := gpu.Inst{Kind: warp.Load}
	for _, a := range addrs {
		in.Lines = append(in.Lines, gpu.Line{Addr: a, Data: line(a)})
	}
	return in
}

var (
	exit    = gpu.Inst{Kind: warp.Exit}
	barrier = gpu.Inst{Kind: warp.Barrier}
)

func kernel(warps ...[]gpu.Inst) *gpu.Kernel {
	return &gpu.Kernel{Name: "k", Blocks: []gpu.Block{{Warps: warps}}}
}

func run(t testing.TB, g *gpu.GPU, k *gpu.Kernel) gpu.KernelStats {
	t.Helper()
	ks, err := g.Run(k)
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

// TestDependentLoads: one warp, two loads that miss everywhere, then exit.
//
//	cycle 0    issue load A; the warp waits
//	cycle 1    A enters the L1: miss, L2 miss: data at 1 + 220 = 221
//	cycle 221  A returns; issue load B
//	cycle 222  B enters the L1: miss: data at 442
//	cycle 442  B returns; issue exit
//
// 443 cycles (0…442), 3 instructions. Run again (a second kernel), the
// lines hit in the L1: cycles 0 issue, 1 enter, 21 return (hit latency 20),
// 22 enter, 42 return and exit: 43 cycles.
func TestDependentLoads(t *testing.T) {
	g := small(t, 2, gpu.GTO)
	k := kernel([]gpu.Inst{load(0x1000), load(0x2000), exit})
	if ks := run(t, g, k); ks.Cycles != 443 || ks.Instructions != 3 {
		t.Errorf("cold: %+v, want 443 cycles, 3 instructions", ks)
	}
	if ks := run(t, g, k); ks.Cycles != 43 {
		t.Errorf("warm: %+v, want 43 cycles", ks)
	}
	s := g.Stats()
	if s.L1.LoadMisses != 2 || s.L1.LoadHits != 2 || s.L2.LoadMisses != 2 || s.MemReads != 2 ||
		s.L1MissFills != 2 || s.L1MissLatency != 440 || s.Cycles != 486 || s.Instructions != 6 {
		t.Errorf("stats %+v", s)
	}
}

// TestGTOvsLRR: one scheduler, two warps, each Compute 2, a load of its own
// line (a miss: 220 cycles after it enters the L1), Compute 1, Exit.
//
// GTO issues w0 C C L (cycles 0–2), then w1 C C L (3–5). w0's line enters
// at 3 and returns at 223, w1's enters at 6 and returns at 226. w0 issues C
// and exit at 223, 224; w1 at 226, 227: 228 cycles.
//
// LRR alternates: w0 C, w1 C, w0 C, w1 C, w0 L, w1 L (0–5); the lines
// enter at 5 and 6 and return at 225 and 226. At 225 w0 issues C; at 226
// both are ready and w1, next after w0, issues C; w0 exits at 227, w1 at
// 228: 229 cycles.
func TestGTOvsLRR(t *testing.T) {
	warps := func() []([]gpu.Inst) {
		return [][]gpu.Inst{
			{compute(2), load(0x1000), compute(1), exit},
			{compute(2), load(0x2000), compute(1), exit},
		}
	}
	for _, tc := range []struct {
		s    gpu.Scheduling
		want uint64
	}{{gpu.GTO, 228}, {gpu.LRR, 229}} {
		g := small(t, 1, tc.s)
		if ks := run(t, g, kernel(warps()...)); ks.Cycles != tc.want || ks.Instructions != 10 {
			t.Errorf("%s: %+v, want %d cycles", tc.s, ks, tc.want)
		}
	}
}

// TestBarrier: w1 reaches the barrier at cycle 0 and waits for w0, which
// computes 5 cycles first (one scheduler, GTO: w0 is older). w0 issues C×5
// (0–4) and the barrier (5); w1's barrier issued... Order: GTO picks w0
// (oldest) for 0–4, barrier at 5; then w1 (ready) issues its barrier at 6,
// which releases both; w0 (older) issues C at 7 and exit at 8, w1 C at 9,
// exit at 10: 11 cycles.
func TestBarrier(t *testing.T) {
	g := small(t, 1, gpu.GTO)
	k := kernel(
		[]gpu.Inst{compute(5), barrier, compute(1), exit},
		[]gpu.Inst{barrier, compute(1), exit},
	)
	if ks := run(t, g, k); ks.Cycles != 11 || ks.Instructions != 11 {
		t.Errorf("%+v, want 11 cycles and 11 instructions", ks)
	}
	// A warp that exits does not hold the others at a barrier.
	k = kernel([]gpu.Inst{exit}, []gpu.Inst{barrier, exit})
	if _, err := g.Run(k); err != nil {
		t.Errorf("a barrier after the other warp exited: %v", err)
	}
}

// TestDecompressionQueue: four warps (one scheduler) load the same line,
// stored compressed with a 14-cycle decompression, one after another. Their
// accesses enter the L1 in cycles 1, 2, 3, 4 (after the fill by a first
// kernel): the one decompressor makes them wait 0, 13, 26 and 39 cycles
// (Eq. 3 with the arrival offsets): 78 in all.
func TestDecompressionQueue(t *testing.T) {
	slow, err := bdi.New(128, bdi.WithLatency(linecomp.Latency{Compress: 2, Decompress: 14}))
	if err != nil {
		t.Fatal(err)
	}
	g := small(t, 1, gpu.GTO, slow)
	run(t, g, kernel([]gpu.Inst{load(0x1000), exit}))
	before := g.Stats().L1
	run(t, g, kernel(
		[]gpu.Inst{load(0x1000), exit}, []gpu.Inst{load(0x1000), exit},
		[]gpu.Inst{load(0x1000), exit}, []gpu.Inst{load(0x1000), exit}))
	after := g.Stats().L1
	if d, w := after.Decompressions-before.Decompressions, after.QueueWait-before.QueueWait; d != 4 || w != 78 {
		t.Errorf("%d decompressions waiting %d cycles, want 4 and 78", d, w)
	}
}

// TestMSHRMerging: two warps load the same missing line; the second access
// merges into the first's MSHR: one L2 access, one fill, both warps wake.
func TestMSHRMerging(t *testing.T) {
	g := small(t, 2, gpu.GTO)
	run(t, g, kernel([]gpu.Inst{load(0x1000), exit}, []gpu.Inst{load(0x1000), exit}))
	s := g.Stats()
	if s.MergedMisses != 1 || s.L1MissFills != 1 || s.L2.Accesses != 1 || s.L1.LoadMisses != 2 {
		t.Errorf("stats %+v", s)
	}
}

// TestProbe: the tolerance of Eq. 4 over a stretch where one scheduler
// issued 10 instructions from 2 warps with 2 switches and the SM had 2, 2,
// …, 1 ready warps: average available × cycles per schedule.
// probed returns LATTE-CC's machine cut to one SM with one scheduler, and
// that SM's latency-tolerance probe.
func probed(t *testing.T) (*gpu.GPU, *gpu.Probe) {
	t.Helper()
	return probedWith(t, 1, false)
}

func probedWith(t *testing.T, schedulers int, smWide bool) (*gpu.GPU, *gpu.Probe) {
	t.Helper()
	var probe *gpu.Probe
	cfg, err := gpu.LatteConfig(none(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.SMs, cfg.Schedulers, cfg.SMWideTolerance = 1, schedulers, smWide
	cfg.AttachL1 = func(sm int, l1 *cache.Cache, p *gpu.Probe) error { probe = p; return nil }
	g, err := gpu.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g, probe
}

func TestProbe(t *testing.T) {
	g, probe := probed(t)
	// GTO: w0 issues C×4, exit (cycles 0–4), w1 C×4, exit (5–9). Ready
	// warps: 2 in cycles 0–4, 1 in 5–9: 15 over the 10 cycles 0–9 (the
	// probe's EP ends in cycle 10, after the kernel: 11 cycles). Issues 10,
	// switches 2: tolerance = 15/11 × 10/2.
	run(t, g, kernel([]gpu.Inst{compute(4), exit}, []gpu.Inst{compute(4), exit}))
	tol, miss := probe.EndEP()
	avail := 15.0 / 11 // a variable: computed in float64, as the model does
	if want := avail * 5; tol != want || miss != 120 {
		t.Errorf("tolerance %v, miss latency %v; want %v and the L2 latency 120", tol, miss, want)
	}
}

// TestProbePerScheduler: Eq. 4 per warp scheduler (model-spec §3, revised
// 2026-12). Two schedulers; warp slots 0 and 2 belong to scheduler 0, slot
// 1 to scheduler 1. GTO:
//
//	scheduler 0: w0 C×4, exit (cycles 0–4); w2 C×4, exit (5–9)
//	             ready warps 2 in cycles 0–4, 1 in 5–9: 15; issues 10,
//	             switches 2 (to w0, to w2): 5 cycles per schedule
//	scheduler 1: w1 C×9, exit (cycles 0–9); ready 1 in each: 10; issues
//	             10, switches 1: 10 cycles per schedule
//
// The EP ends in cycle 10 (11 cycles). Per scheduler: (15/11 × 5 + 10/11 ×
// 10) / 2 = 175/22. SM-wide sums (the earlier rule): 25/11 × 20/3 = 500/33,
// about twice as much.
func TestProbePerScheduler(t *testing.T) {
	k := kernel([]gpu.Inst{compute(4), exit}, []gpu.Inst{compute(9), exit}, []gpu.Inst{compute(4), exit})
	for _, tc := range []struct {
		smWide bool
		want   float64
	}{{false, (15.0/11*5 + 10.0/11*10) / 2}, {true, 25.0 / 11 * (20.0 / 3)}} {
		g, probe := probedWith(t, 2, tc.smWide)
		if ks := run(t, g, k); ks.Cycles != 10 {
			t.Fatalf("SM-wide %v: %d cycles, want 10", tc.smWide, ks.Cycles)
		}
		if tol, _ := probe.EndEP(); math.Abs(tol-tc.want) > 1e-12 {
			t.Errorf("SM-wide %v: tolerance %v, want %v", tc.smWide, tol, tc.want)
		}
	}
}

// TestComputeRun: a long Compute that an event interrupts (one SM, one GTO
// scheduler). The GPU takes such runs in one step; every count must be
// what taking the cycles one by one gives.
//
//	cycle 0        w0 (older) issues its load; the warp waits
//	cycle 1        the load enters the L1: a miss, back at 1 + 220 = 221;
//	               w1 issues the first of its 400 computes
//	cycle 221      w0 is ready again, but GTO stays with w1
//	cycles 1–400   w1's computes; 401 its exit
//	cycles 402–701 w0's 300 computes; 702 its exit: 703 cycles
//
// Ready warps at each issue: 2 at cycle 0, 1 in 1–220, 2 in 221–401, 1 in
// 402–702: 2 + 220 + 2×181 + 301 = 885, over the EP's 704 cycles (it ends
// in cycle 703). Issues 703, switches 3 (w0, w1, w0).
func TestComputeRun(t *testing.T) {
	g, probe := probed(t)
	ks := run(t, g, kernel([]gpu.Inst{load(0x1000), compute(300), exit}, []gpu.Inst{compute(400), exit}))
	if ks.Cycles != 703 || ks.Instructions != 703 {
		t.Errorf("%+v, want 703 cycles and 703 instructions", ks)
	}
	tol, miss := probe.EndEP()
	avail, perSchedule := 885.0/704, 703.0/3 // variables: computed in float64, as the model does
	if want := avail * perSchedule; tol != want || miss != 220 {
		t.Errorf("tolerance %v, miss latency %v; want %v and 220", tol, miss, want)
	}
}

// TestBadInput: configurations that cannot work and kernels that do not fit
// are errors, not panics.
func TestBadInput(t *testing.T) {
	cfg, err := gpu.LatteConfig(none(t))
	if err != nil {
		t.Fatal(err)
	}
	for field, mut := range map[string]func(*gpu.Config){
		"SMs":        func(c *gpu.Config) { c.SMs = 0 },
		"Schedulers": func(c *gpu.Config) { c.Schedulers = 0 },
		"MSHRs":      func(c *gpu.Config) { c.MSHRs = -1 },
		"WarpsPerSM": func(c *gpu.Config) { c.WarpsPerSM = 0 },
		"LineSize":   func(c *gpu.Config) { c.L2.LineSize = 64 },
	} {
		c := cfg
		mut(&c)
		if _, err := gpu.New(c); !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: %v", field, err)
		}
	}
	g := small(t, 2, gpu.GTO)
	big := make([][]gpu.Inst, 49)
	for i := range big {
		big[i] = []gpu.Inst{exit}
	}
	if _, err := g.Run(kernel(big...)); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("a block of 49 warps: %v", err)
	}
	short := gpu.Inst{Kind: warp.Load, Lines: []gpu.Line{{Addr: 0, Data: make([]byte, 64)}}}
	if _, err := g.Run(kernel([]gpu.Inst{short, exit})); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("a 64-byte payload: %v", err)
	}
	line := []gpu.Line{{Addr: 0, Data: make([]byte, 128)}}
	for name, in := range map[string]gpu.Inst{
		"unknown kind":              {Kind: 9},
		"kind zero":                 {},
		"Compute of no instruction": {Kind: warp.Compute},
		"lines on a Compute":        {Kind: warp.Compute, Count: 1, Lines: line},
		"lines on a Barrier":        {Kind: warp.Barrier, Lines: line},
	} {
		if _, err := g.Run(kernel([]gpu.Inst{in, exit})); !errors.Is(err, gpu.ErrKernel) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := g.Run(nil); !errors.Is(err, gpu.ErrKernel) {
		t.Errorf("nil kernel: %v", err)
	}
	if g.Now() != 0 {
		t.Errorf("rejected kernels ran: the GPU is at cycle %d", g.Now())
	}
}
