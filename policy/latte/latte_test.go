package latte_test

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sc"
	"github.com/linecomp/linecomp/sim/cache"
)

// machine is a scripted SM model: the tolerance a test sets, a fixed miss
// latency, and a count of EPs.
type machine struct {
	tolerance, miss float64
	eps             int
}

func (m *machine) EndEP() (float64, float64) { m.eps++; return m.tolerance, m.miss }

// modes returns none, BDI (LATTE-CC's 2/2 cycles) and SC² (6/14).
func modes(t testing.TB) []linecomp.Codec {
	t.Helper()
	none, err := linecomp.New("none", 128)
	if err != nil {
		t.Fatal(err)
	}
	lat, _ := linecomp.PresetLatency(linecomp.SourceLatteCC, "bdi")
	b, err := bdi.New(128, bdi.WithLatency(lat))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sc.New(128)
	if err != nil {
		t.Fatal(err)
	}
	return []linecomp.Codec{none, b, s}
}

// setup makes a 16-set cache with a policy of kind k. The 12 dedicated
// sets of period 0 interleave: G = 16/4 = 4, mode m's k-th set is 4k +
// (3k + m) mod 4: none {0, 7, 10, 13}, BDI {1, 4, 11, 14}, SC² {2, 5, 8,
// 15}; sets 3, 6, 9, 12 follow the winner. (Under StridedSets they are
// i·16/12 for i = 0..11, mode i mod 3: none {0, 4, 8, 12}, BDI {1, 5, 9,
// 13}, SC² {2, 6, 10, 14}.)
func setup(t testing.TB, k latte.Kind, epAccesses int) (*cache.Cache, *latte.Policy, *machine) {
	return setupConfig(t, latte.Config{Kind: k, EPAccesses: epAccesses})
}

func setupConfig(t testing.TB, cfg latte.Config) (*cache.Cache, *latte.Policy, *machine) {
	t.Helper()
	c, err := cache.New(cache.Config{Sets: 16, Ways: 4, LineSize: 128, TagFactor: 4, SubBlock: 32, HitLatency: 20, Modes: modes(t)})
	if err != nil {
		t.Fatal(err)
	}
	m := &machine{miss: 200}
	p, err := latte.New(c, m, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, p, m
}

func repeated(v uint64) []byte {
	b := make([]byte, 128)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return b
}

// TestAMATByHand: the 16 sets of setup; EPs of 32 accesses in which every
// set loads its one line twice (cycles 100 apart, so no decompression ever
// waits).
//
// EP 0: per mode 4 fills and 4 hits. Tolerance T = 10, miss = 200:
//
//	hit(none) = 20, hit(BDI) = 20 + 2·(0+1) = 22, hit(SC²) = 20 + 14 = 34
//	AMAT(none) = (4·max(20−10,0) + 4·200) / 8 = 840 / 8 = 105
//	AMAT(BDI)  = (4·12 + 800) / 8 = 106
//	AMAT(SC²)  = (4·24 + 800) / 8 = 112        → none
//
// EP 1: the lines are still there; 8 more hits per mode (hits keep counting
// for one EP), no fills: N_hit = 12, N_miss = 4:
//
//	AMAT(none) = (12·10 + 800) / 16 = 57.5, AMAT(BDI) = (12·12 + 800) / 16
//	= 59, AMAT(SC²) = (12·24 + 800) / 16 = 68  → none
//
// With T = 40 in EP 2, the decision for EP 3 hides every hit: AMAT =
// 4·200/16 = 50 for all (N_hit stopped counting after EP 1), a tie that
// goes to the lowest latency, none.
//
// The hits are far apart, so no queue ever holds two lines: the virtual
// queues (the default) and the observed ones (ObservedQueue, the earlier
// rule) agree, and so do both layouts, which give each mode 4 sets.
func TestAMATByHand(t *testing.T) {
	for _, earlier := range []bool{false, true} {
		c, p, m := setupConfig(t, latte.Config{Kind: latte.LatteCC, EPAccesses: 32, ObservedQueue: earlier, StridedSets: earlier})
		now := uint64(0)
		ep := func() {
			for s := 0; s < 16; s++ {
				for range 2 {
					now += 100
					if _, err := c.Load(now, uint64(s*128), repeated(uint64(s+1))); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		m.tolerance = 10
		ep()
		ep()
		m.tolerance = 40
		ep()
		ds := p.Decisions()
		if len(ds) != 3 {
			t.Fatalf("earlier rules %v: %d decisions, want 3 (EPs 1, 2 and 3)", earlier, len(ds))
		}
		check := func(d latte.Decision, nhit uint64, amat [3]float64) {
			t.Helper()
			if d.NHit != [3]uint64{nhit, nhit, nhit} || d.NMiss != [3]uint64{4, 4, 4} {
				t.Errorf("earlier rules %v, EP %d: N_hit %v, N_miss %v", earlier, d.EP, d.NHit, d.NMiss)
			}
			if d.QueuePosition != [3]float64{} || d.HitLatency != [3]float64{20, 22, 34} || d.AMAT != amat || d.Mode != latte.ModeNone {
				t.Errorf("earlier rules %v, EP %d: queue %v, hit %v, AMAT %v, mode %d; want AMAT %v, mode 0",
					earlier, d.EP, d.QueuePosition, d.HitLatency, d.AMAT, d.Mode, amat)
			}
		}
		check(ds[0], 4, [3]float64{105, 106, 112})
		check(ds[1], 12, [3]float64{57.5, 59, 68})
		check(ds[2], 12, [3]float64{50, 50, 50})
		if m.eps != 3 {
			t.Errorf("earlier rules %v: the machine was asked for %d EPs", earlier, m.eps)
		}
	}
}

// TestVirtualQueue: a run of hits to BDI lines raises hit(SC²) while SC²'s
// own decompressor stays idle (model-spec §4, revised 2026-12). EPs of 32
// accesses on setup's 16 sets: 16 loads fill one line per set (cycles 100,
// 200, …), then 16 hits to the lines of BDI's sets {1, 4, 11, 14}, four
// rounds, in the consecutive cycles 2000 + i, i = 0..15.
//
// SC²'s virtual unit (D = 14) takes hit i at 2000 + 14i: it waits 13i,
// position 13i/14; mean over i = 13/14 × 7.5 = 97.5/14. hit(SC²) = 20 +
// 14 × (97.5/14 + 1) = 131.5. BDI's virtual unit (D = 2) takes hit i at
// 2000 + 2i: wait i, position i/2, mean 3.75, hit(BDI) = 20 + 2 × 4.75 =
// 29.5 — the same as its real unit, which served exactly these hits.
//
// With ObservedQueue (the earlier rule) SC²'s estimate comes from its own
// unit, which served no hit: position 0, hit(SC²) = 34.
//
// Tolerance 0, miss 200, N_miss 4 per mode, N_hit(BDI) = 16: AMAT(none) =
// AMAT(SC²) = 800/4 = 200, AMAT(BDI) = (16 × 29.5 + 800)/20 = 63.6 → BDI.
func TestVirtualQueue(t *testing.T) {
	for _, tc := range []struct {
		observed bool
		pos      [3]float64
		hit      [3]float64
	}{
		{false, [3]float64{0, 3.75, 97.5 / 14}, [3]float64{20, 29.5, 131.5}},
		{true, [3]float64{0, 3.75, 0}, [3]float64{20, 29.5, 34}},
	} {
		c, p, _ := setupConfig(t, latte.Config{Kind: latte.LatteCC, EPAccesses: 32, ObservedQueue: tc.observed})
		for s := 0; s < 16; s++ {
			if _, err := c.Load(uint64(100*(s+1)), uint64(s*128), repeated(uint64(s+1))); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 16; i++ {
			s := []int{1, 4, 11, 14}[i%4]
			if r, err := c.Load(uint64(2000+i), uint64(s*128), repeated(uint64(s+1))); err != nil || !r.Hit {
				t.Fatalf("hit %d: %+v, %v", i, r, err)
			}
		}
		if st := c.Stats(); st.DecompressionsByMode[latte.ModeHighCapacity] != 0 || st.DecompressionsByMode[latte.ModeLowLatency] != 16 {
			t.Fatalf("decompressions by mode %v, want SC²'s unit idle and BDI's 16", st.DecompressionsByMode)
		}
		ds := p.Decisions()
		if len(ds) != 1 {
			t.Fatalf("%d decisions, want 1", len(ds))
		}
		d := ds[0]
		for m := range 3 {
			if math.Abs(d.QueuePosition[m]-tc.pos[m]) > 1e-12 || math.Abs(d.HitLatency[m]-tc.hit[m]) > 1e-12 {
				t.Errorf("observed %v, mode %d: queue position %v, hit %v; want %v, %v", tc.observed, m, d.QueuePosition[m], d.HitLatency[m], tc.pos[m], tc.hit[m])
			}
		}
		if d.NHit != [3]uint64{0, 16, 0} || d.Mode != latte.ModeLowLatency || math.Abs(d.AMAT[1]-63.6) > 1e-12 || d.AMAT[0] != 200 || d.AMAT[2] != 200 {
			t.Errorf("observed %v: N_hit %v, AMAT %v, mode %d; want BDI at 63.6", tc.observed, d.NHit, d.AMAT, d.Mode)
		}
	}
}

// TestDedicatedLayout: the interleaved sets of model-spec §4 at 16, 32 and
// 64 sets (mode m's k-th set k·G + (3k + m) mod G, G = Sets/4), rotated
// every period (in period p mode m takes the sets of (m + p) mod 3), and
// the earlier strided layout, which never rotates.
func TestDedicatedLayout(t *testing.T) {
	for _, tc := range []struct {
		sets    int
		strided bool
		want    [3][]int
	}{
		{16, false, [3][]int{{0, 7, 10, 13}, {1, 4, 11, 14}, {2, 5, 8, 15}}},
		{32, false, [3][]int{{0, 11, 22, 25}, {1, 12, 23, 26}, {2, 13, 16, 27}}},
		{64, false, [3][]int{{0, 19, 38, 57}, {1, 20, 39, 58}, {2, 21, 40, 59}}},
		{32, true, [3][]int{{0, 8, 16, 24}, {2, 10, 18, 26}, {5, 13, 21, 29}}},
	} {
		c, err := cache.New(cache.Config{Sets: tc.sets, Ways: 4, LineSize: 128, TagFactor: 4, SubBlock: 32, HitLatency: 20, Modes: modes(t)})
		if err != nil {
			t.Fatal(err)
		}
		p, err := latte.New(c, &machine{miss: 200}, latte.Config{EPAccesses: 1, PeriodEPs: 2, StridedSets: tc.strided})
		if err != nil {
			t.Fatal(err)
		}
		for period := 0; period < 4; period++ {
			want := tc.want
			if !tc.strided {
				for m := range 3 {
					want[m] = tc.want[(m+period)%3]
				}
			}
			if got := p.DedicatedSets(); !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) || !slices.Equal(got[2], want[2]) {
				t.Errorf("%d sets, strided %v, period %d: %v, want %v", tc.sets, tc.strided, period, got, want)
			}
			for range 2 { // one period: two EPs of one access
				c.Lookup(uint64(period), 0)
			}
		}
	}
}

// workload generates the loads of one EP: per set, lines cycled from a
// working set of n lines whose content gen makes.
type workload struct {
	base   uint64 // byte address of its region
	perSet int
	gen    func(set, i int) []byte
}

// run drives eps EPs of 256 accesses, 16 per set, through c. Each workload
// has its own address region (its generator's address), so that a phase
// never hits the lines of another.
func run(t testing.TB, c *cache.Cache, w workload, eps int, now *uint64, next *int) {
	for e := 0; e < eps; e++ {
		for a := 0; a < 256; a++ {
			s := a % 16
			i := (*next + a/16) % w.perSet
			*now += 50
			addr := w.base + uint64((i*16+s)*128)
			if _, err := c.Load(*now, addr, w.gen(s, i)); err != nil {
				t.Fatal(err)
			}
		}
		*next += 16
	}
}

// TestFollowsPhases: synthetic phases where the best mode changes. Periods
// are 10 EPs of 256 accesses; each set cycles through its working set.
//
//   - small: 3 lines a set fit uncompressed (4 ways); T = 0, so every
//     decompression cycle shows: none is best.
//   - bdi: 6 lines of one repeated value a set thrash 4 ways uncompressed
//     and fit compressed (1 sub-block each); T = 1000 hides every hit: BDI
//     and SC² tie on misses and BDI, the faster, wins.
//   - sc: 6 lines a set of random words drawn from 4 values: raw for BDI,
//     ~2 bits a word for a code book trained on them, so only SC² fits them;
//     the code book learns them in the last EP of the phase's first period,
//     so SC² wins from the second period.
//
// Each phase starts at a period boundary, in its own address region.
// LATTE-CC must choose the best mode for every adaptive EP of the first
// period of the phase (the second for SC², whose code book lags a period by
// design). Later periods are logged, not asserted: once a phase's working
// set is resident, often as a mix of lines stored in several modes, every
// access hits, AMAT_GPU is 0 for more than one mode and the tie goes to the
// faster one, at no cost, since nothing more is inserted.
func TestFollowsPhases(t *testing.T) {
	for _, own := range []bool{false, true} {
		c, p, m := setupConfig(t, latte.Config{OwnLinesOnly: own})
		now, next := uint64(0), 0
		rng := rand.New(rand.NewPCG(1, 2))
		alphabet := [4]uint32{rng.Uint32(), rng.Uint32(), rng.Uint32(), rng.Uint32()}
		scLines := map[[2]int][]byte{}
		phases := []struct {
			name      string
			tolerance float64
			w         workload
			want      int
			period    int // the period of the phase by which it must have switched
		}{
			{"small", 0, workload{1 << 24, 3, func(s, i int) []byte { return repeated(uint64(s*7 + i + 1)) }}, latte.ModeNone, 0},
			{"bdi", 1000, workload{2 << 24, 6, func(s, i int) []byte { return repeated(uint64(s*7+i+1) << 20) }}, latte.ModeLowLatency, 0},
			{"sc", 1000, workload{3 << 24, 6, func(s, i int) []byte {
				k := [2]int{s, i}
				if scLines[k] == nil {
					b := make([]byte, 128)
					for w := 0; w < 32; w++ {
						binary.LittleEndian.PutUint32(b[4*w:], alphabet[rng.IntN(4)])
					}
					scLines[k] = b
				}
				return scLines[k]
			}}, latte.ModeHighCapacity, 1},
			{"small again", 0, workload{4 << 24, 3, func(s, i int) []byte { return repeated(uint64(s*11 + i + 3)) }}, latte.ModeNone, 0},
		}
		for _, ph := range phases {
			m.tolerance = ph.tolerance
			start := len(p.Decisions())
			run(t, c, ph.w, 40, &now, &next) // 4 periods
			ds := p.Decisions()[start:]
			first := ds[ph.period*9 : (ph.period+1)*9] // its adaptive EPs
			for _, d := range first {
				if d.Mode != ph.want {
					t.Errorf("own lines %v, phase %s: period %d EP %d chose %d, want %d; AMAT %v N_hit %v N_miss %v",
						own, ph.name, d.Period, d.EP, d.Mode, ph.want, d.AMAT, d.NHit, d.NMiss)
					break
				}
			}
			other := 0
			for _, d := range ds[(ph.period+1)*9:] {
				if d.Mode != ph.want {
					other++
				}
			}
			t.Logf("own lines %v, phase %s: %d of %d later decisions differ from mode %d", own, ph.name, other, len(ds)-(ph.period+1)*9, ph.want)
		}
		if err := p.Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCodeBookLifecycle: SC² learns in the first EP, is rebuilt at the end
// of every period, and its lines are invalidated when a period starts.
func TestCodeBookLifecycle(t *testing.T) {
	c2, err := cache.New(cache.Config{Sets: 16, Ways: 4, LineSize: 128, TagFactor: 4, SubBlock: 32, HitLatency: 20, Modes: modes(t)})
	if err != nil {
		t.Fatal(err)
	}
	p, err := latte.New(c2, nil, latte.Config{Kind: latte.Static, StaticMode: latte.ModeHighCapacity})
	if err != nil {
		t.Fatal(err)
	}
	first := c2.Mode(2)
	now, next := uint64(0), 0
	w := workload{5 << 24, 3, func(s, i int) []byte { return repeated(uint64(s*7+i+1) << 33) }}
	run(t, c2, w, 1, &now, &next)
	book1 := c2.Mode(2)
	if book1 == first {
		t.Fatal("the code book was not built at the end of the first EP")
	}
	if st := c2.Stats(); st.Invalidations != 0 {
		t.Errorf("the first code book invalidated %d lines", st.Invalidations)
	}
	run(t, c2, w, 9, &now, &next) // to the end of period 0
	if c2.Mode(2) == book1 {
		t.Error("the code book was not rebuilt at the end of the period")
	}
	if st := c2.Stats(); st.Invalidations != 48 {
		t.Errorf("%d lines invalidated when period 1 started, want the 48 stored (16 sets × 3)", st.Invalidations)
	}
	if _, k, ok := c2.Contains(0); ok {
		t.Errorf("an SC² line (%d sub-blocks) survived the new code book", k)
	}
	if p.Err() != nil {
		t.Fatal(p.Err())
	}
}

// TestBaselines: with 6 compressible lines a set, Hit-Count and CMP choose
// a compressed mode for the first period's adaptive EPs; with 3 lines (no
// capacity to gain) Hit-Count sees equal hits and takes the fastest, none,
// and CMP's counters fall (decompression penalties, no extra hits), so it
// chooses none.
func TestBaselines(t *testing.T) {
	compressible := workload{6 << 24, 6, func(s, i int) []byte { return repeated(uint64(s*7+i+1) << 20) }}
	small := workload{7 << 24, 3, func(s, i int) []byte { return repeated(uint64(s*7 + i + 1)) }}
	for _, tc := range []struct {
		kind latte.Kind
		w    workload
		want []int
	}{
		{latte.HitCount, compressible, []int{latte.ModeLowLatency, latte.ModeHighCapacity}},
		{latte.CMP, compressible, []int{latte.ModeLowLatency, latte.ModeHighCapacity}},
		{latte.HitCount, small, []int{latte.ModeNone}},
		{latte.CMP, small, []int{latte.ModeNone}},
	} {
		c, p, _ := setup(t, tc.kind, 256)
		now, next := uint64(0), 0
		run(t, c, tc.w, 10, &now, &next)
		for _, d := range p.Decisions() {
			if !slices.Contains(tc.want, d.Mode) {
				t.Errorf("%s, %d lines a set: EP %d chose %d, want one of %v (N_hit %v, CMP %v)", tc.kind, tc.w.perSet, d.EP, d.Mode, tc.want, d.NHit, d.CMP)
				break
			}
		}
	}
}

// TestBadConfig: what cannot work is an ErrConfig naming the field.
func TestBadConfig(t *testing.T) {
	one, err := cache.New(cache.Config{Sets: 32, Ways: 4, LineSize: 128, Modes: modes(t)[:1]})
	if err != nil {
		t.Fatal(err)
	}
	few, err := cache.New(cache.Config{Sets: 8, Ways: 4, LineSize: 128, Modes: modes(t)})
	if err != nil {
		t.Fatal(err)
	}
	m := &machine{}
	for name, tc := range map[string]struct {
		c   *cache.Cache
		m   latte.Machine
		cfg latte.Config
	}{
		"needs 3":          {one, m, latte.Config{}},
		"DedicatedPerMode": {few, m, latte.Config{}},
		"LearningEPs":      {few, m, latte.Config{Kind: latte.Static, PeriodEPs: 3, LearningEPs: 3}},
		"cache is nil":     {nil, m, latte.Config{}},
		"Machine":          {few, nil, latte.Config{Kind: latte.CMP}},
		"StaticMode":       {one, nil, latte.Config{Kind: latte.Static, StaticMode: 1}},
		"PeriodEPs":        {few, m, latte.Config{Kind: latte.Static, PeriodEPs: 1}},
		"Kind":             {few, m, latte.Config{Kind: 9}},
	} {
		if _, err := latte.New(tc.c, tc.m, tc.cfg); !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
