package latte

import (
	"fmt"
	"math"
	"sync"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/cache"
)

// The modes of a LATTE-CC cache, in its Config.Modes order.
const (
	ModeNone         = 0
	ModeLowLatency   = 1
	ModeHighCapacity = 2
	modes            = 3
)

// Kind selects the policy.
type Kind uint8

const (
	LatteCC  Kind = iota // least AMAT_GPU (the paper's proposal)
	HitCount             // Adaptive-Hit-Count: most hits in the dedicated sets
	CMP                  // Adaptive-CMP: Alameldeen & Wood's cost-benefit counters
	Static               // one mode everywhere (Config.StaticMode)
)

var kindNames = [...]string{"latte", "hitcount", "cmp", "static"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Machine is the SM model a policy serves.
type Machine interface {
	// EndEP returns the latency tolerance (LATTE-CC Eq. 4) and the mean L1
	// miss latency measured since the previous call, and starts a new
	// measurement. With no miss in the EP it returns the last mean, or the
	// configured L2 latency before any miss.
	EndEP() (tolerance, missLatency float64)
}

// Config configures a Policy. Zero values take the paper's defaults.
type Config struct {
	Kind       Kind
	StaticMode int // the mode of a Static policy

	// The sampling parameters (model-spec §4). A study may sweep them as
	// a sensitivity result; the defaults stay the paper's.
	EPAccesses       int // accesses per EP (256)
	LearningEPs      int // learning EPs at the start of each period (1)
	PeriodEPs        int // EPs per period, learning ones included (10)
	DedicatedPerMode int // dedicated sets per mode in the learning EPs (4)

	// InitialMissLatency is the L1 miss latency assumed before the Machine
	// has measured one: the configured L2 latency (default 120 cycles,
	// LATTE-CC Table II's minimum L2 latency). Adaptive-CMP charges it as
	// the miss penalty during the first EP.
	InitialMissLatency float64

	// CMPLimit saturates Adaptive-CMP's counters at ±CMPLimit (default
	// 2^18, wide enough never to saturate within one period's two EPs
	// of 256 accesses) [ours].
	CMPLimit int64

	// OwnLinesOnly makes N_hit and Adaptive-CMP count only hits to lines
	// stored in their set's dedicated mode. The default counts every hit
	// in a dedicated set, as the paper and model-spec §4 word it; but a
	// dedicated set still holds the lines the previous winner stored
	// there, so the literal rule credits its mode with the winner's hits
	// and the choice can alternate from one period to the next. This
	// variant exists to measure that effect.
	OwnLinesOnly bool

	// ObservedQueue estimates hit(m) from the queue positions of the hits
	// that went through mode m's own decompressor in the previous EP, the
	// rule before 2026-12. When m is not the winner only its dedicated
	// sets use its unit, which is then nearly idle, so the estimate
	// misses the contention m would meet once chosen (SC² came out at ~34
	// cycles when it costs hundreds) and LATTE-CC oscillates into the slow
	// mode. The default replays every load hit of the EP through a
	// virtual unit of each mode (model-spec §4). It exists to reproduce
	// the earlier results.
	ObservedQueue bool

	// StridedSets places the dedicated sets at i·Sets/(3·DedicatedPerMode),
	// mode i mod 3, the same sets every period: the layout before 2026-12.
	// It puts each mode on one residue (none on multiples of 8 at 32
	// sets), so strided kernels give one mode several times another's
	// accesses. The default interleaves the modes and rotates them every
	// period (model-spec §4). It exists to reproduce the earlier results.
	StridedSets bool

	// CodeBooks is the GPU-wide training hardware of the trainable modes,
	// shared by every SM's policy of one run (NewCodeBooks); nil gives this
	// cache training of its own. See CodeBooks.
	CodeBooks *CodeBooks

	// SM numbers the decisions of this policy's cache.
	SM int
}

// Decision is one EP's choice.
type Decision struct {
	SM, Period, EP int
	// Cycle is when the EP started; Capacity is the cache's effective
	// capacity over the EP before it (mean valid lines over Sets × Ways).
	Cycle                  uint64
	Capacity               float64
	Tolerance, MissLatency float64
	// QueuePosition is each mode's mean decompression queue position over
	// the EP before (of its virtual unit, or under ObservedQueue of its
	// own unit); HitLatency = the cache's hit latency + D·(position + 1).
	QueuePosition    [modes]float64
	HitLatency, AMAT [modes]float64
	NHit, NMiss      [modes]uint64
	CMP              [modes]int64 // Adaptive-CMP's counters (0 for none)
	Mode             int
}

// Policy is a LATTE-CC policy or one of its baselines for one cache.
type Policy struct {
	cfg     Config
	c       *cache.Cache
	machine Machine
	sets    int
	ways    int
	// layout holds, per set, the mode whose dedicated set it is in period
	// 0, or -1 for a follower; under rotation period p gives the set to
	// mode (layout − p) mod 3.
	layout []int8

	winner   int
	accesses int // in the current EP
	ep       int // within the period
	period   int

	nHit, nMiss [modes]uint64
	cmp         [modes]int64
	missLat     float64
	// Queue positions of this EP's hits, per mode, summed: of every load
	// hit in each mode's virtual unit (virtual holds when each of its
	// units is free), or under ObservedQueue of the hits that went
	// through the mode's own unit.
	posSum   [modes]float64
	posCount [modes]uint64
	virtual  [modes][]uint64

	// the cache's counters at the start of the EP, for its capacity
	epAccesses, epValid uint64

	// trainers[m] feeds mode m's next code book, nil for a mode whose
	// codec is not trainable.
	trainers  [modes]linecomp.Trainer
	observe   bool // feed fills to the trainers this EP
	decisions []Decision
	modeEPs   [modes]uint64
	err       error
}

// New makes a policy for c and installs it as c's policy. c must have three
// modes (none, low latency, high capacity) unless the policy is Static.
func New(c *cache.Cache, m Machine, cfg Config) (*Policy, error) {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.EPAccesses, 256)
	def(&cfg.LearningEPs, 1)
	def(&cfg.PeriodEPs, 10)
	def(&cfg.DedicatedPerMode, 4)
	if cfg.CMPLimit == 0 {
		cfg.CMPLimit = 1 << 18
	}
	if cfg.InitialMissLatency == 0 {
		cfg.InitialMissLatency = 120
	}
	bad := func(format string, args ...any) (*Policy, error) {
		return nil, linecomp.ConfigError("latte", format, args...)
	}
	if c == nil {
		return bad("the cache is nil")
	}
	ccfg := c.Config()
	n := len(ccfg.Modes)
	switch {
	case m == nil && cfg.Kind != Static:
		return bad("Machine is nil")
	case cfg.Kind > Static:
		return bad("unknown Kind %d", cfg.Kind)
	case cfg.Kind == Static && (cfg.StaticMode < 0 || cfg.StaticMode >= n):
		return bad("StaticMode %d: the cache has %d modes", cfg.StaticMode, n)
	case cfg.Kind != Static && n != modes:
		return bad("the cache has %d modes; %s needs 3 (none, low latency, high capacity)", n, cfg.Kind)
	case !(cfg.InitialMissLatency > 0) || math.IsInf(cfg.InitialMissLatency, 0):
		return bad("InitialMissLatency must be a positive number of cycles, got %v", cfg.InitialMissLatency)
	case cfg.EPAccesses < 0 || cfg.LearningEPs < 0 || cfg.DedicatedPerMode < 0 || cfg.CMPLimit < 0:
		return bad("EPAccesses %d, LearningEPs %d, DedicatedPerMode %d and CMPLimit %d must be positive",
			cfg.EPAccesses, cfg.LearningEPs, cfg.DedicatedPerMode, cfg.CMPLimit)
	case cfg.PeriodEPs <= cfg.LearningEPs:
		return bad("PeriodEPs %d must exceed LearningEPs %d: a period needs an adaptive EP", cfg.PeriodEPs, cfg.LearningEPs)
	case cfg.Kind != Static && cfg.DedicatedPerMode > ccfg.Sets/modes:
		// Also what the interleaved layout needs: G = Sets/DedicatedPerMode ≥ 3.
		return bad("%d sets cannot hold DedicatedPerMode %d dedicated sets per mode: the layout needs Sets ≥ 3 × %d (at least 16 sets at 4 per mode)",
			ccfg.Sets, cfg.DedicatedPerMode, cfg.DedicatedPerMode)
	}
	p := &Policy{cfg: cfg, c: c, machine: m, sets: ccfg.Sets, ways: ccfg.Ways}
	if cfg.Kind != Static {
		p.layout = dedicatedLayout(ccfg.Sets, cfg.DedicatedPerMode, cfg.StridedSets)
	} else {
		p.winner = cfg.StaticMode
	}
	for i := 0; i < n && i < modes; i++ {
		if t, ok := ccfg.Modes[i].(linecomp.Trainable); ok {
			p.trainers[i] = cfg.CodeBooks.first(t)
			p.observe = true // the first EP of the first period trains
		}
		if i != ModeNone && cfg.Kind != Static && !cfg.ObservedQueue {
			p.virtual[i] = make([]uint64, ccfg.Decompressors)
		}
	}
	p.missLat = cfg.InitialMissLatency
	c.SetPolicy(p)
	return p, nil
}

// dedicatedLayout returns, per set, the mode whose dedicated set it is in
// period 0, or -1. Interleaved (model-spec §4, revised 2026-12): mode m's
// k-th set is k·G + (3k + m) mod G with G = sets / perMode, so that the
// modes' sets interleave over the residues mod G (at 32 sets and 4 per
// mode: none {0, 11, 22, 25}, low latency {1, 12, 23, 26}, high capacity
// {2, 13, 16, 27}). Strided (the earlier rule): i·sets/(3·perMode), mode
// i mod 3.
func dedicatedLayout(sets, perMode int, strided bool) []int8 {
	layout := make([]int8, sets)
	for s := range layout {
		layout[s] = -1
	}
	if strided {
		k := modes * perMode
		for i := 0; i < k; i++ {
			layout[i*sets/k] = int8(i % modes)
		}
		return layout
	}
	g := sets / perMode
	for k := 0; k < perMode; k++ {
		for m := 0; m < modes; m++ {
			layout[k*sets/perMode+(modes*k+m)%g] = int8(m)
		}
	}
	return layout
}

// FillMode implements cache.Policy.
func (p *Policy) FillMode(set int) int {
	if p.learning() {
		if m := p.dedicated(set); m >= 0 {
			return m
		}
	}
	return p.winner
}

// learning reports whether the current EP is a learning EP, in which the
// dedicated sets use their own modes.
func (p *Policy) learning() bool { return p.ep < p.cfg.LearningEPs && p.cfg.Kind != Static }

// Observe implements cache.Policy.
func (p *Policy) Observe(e cache.Event) {
	switch e.Kind {
	case cache.Fill:
		if p.learning() {
			if m := p.dedicated(e.Set); m >= 0 {
				p.nMiss[m]++
			}
		}
		if p.observe {
			for _, t := range p.trainers {
				if t != nil {
					t.Observe(e.Data)
				}
			}
		}
	case cache.LoadHit:
		p.queuePositions(e)
		if p.ep <= p.cfg.LearningEPs {
			if m := p.dedicated(e.Set); m >= 0 && (!p.cfg.OwnLinesOnly || e.Mode == m) {
				p.nHit[m]++
				p.countCMP(m, e)
			}
		}
	case cache.AccessEnd:
		if p.accesses++; p.accesses == p.cfg.EPAccesses {
			p.endEP(e.Now)
		}
	}
}

// queuePositions adds a load hit's queue position to each mode's sum:
// by default the position it would have in every compressed mode's virtual
// unit, as if that mode stored every line (Eq. 3 with the contention of
// all the EP's hits); under ObservedQueue its real position, in its own
// mode's unit, when it went through one.
func (p *Policy) queuePositions(e cache.Event) {
	if p.cfg.ObservedQueue {
		if e.Compressed && e.Mode < modes {
			if d := p.decompress(e.Mode); d > 0 {
				p.posSum[e.Mode] += float64(e.Wait) / float64(d)
			}
			p.posCount[e.Mode]++
		}
		return
	}
	for m, units := range p.virtual {
		if units == nil {
			continue
		}
		if d := p.decompress(m); d > 0 {
			p.posSum[m] += float64(cache.Queue(units, e.Now, d)) / float64(d)
			p.posCount[m]++
		}
	}
}

// dedicated returns the mode whose dedicated set s is in the current
// period, or -1.
func (p *Policy) dedicated(s int) int {
	if p.cfg.Kind == Static || p.layout[s] < 0 {
		return -1
	}
	m := int(p.layout[s])
	if !p.cfg.StridedSets {
		m = (m - p.period%modes + modes) % modes
	}
	return m
}

func (p *Policy) decompress(m int) int {
	d, _ := p.c.Mode(m).Latency().DecompressCycles()
	return d
}

func (p *Policy) countCMP(m int, e cache.Event) {
	if p.cfg.Kind != CMP || m == ModeNone {
		return
	}
	switch {
	case e.Depth < p.ways && e.Compressed:
		p.cmp[m] -= int64(p.decompress(m))
	case e.Depth >= p.ways:
		p.cmp[m] += int64(math.Round(p.missLat))
	}
	p.cmp[m] = max(-p.cfg.CMPLimit, min(p.cmp[m], p.cfg.CMPLimit))
}

// endEP closes the current EP at cycle now and opens the next.
func (p *Policy) endEP(now uint64) {
	p.accesses = 0
	var tol, miss float64
	if p.machine != nil {
		tol, miss = p.machine.EndEP()
	}
	p.missLat = miss
	p.modeEPs[p.winner]++
	st := p.c.Stats()
	capacity := 0.0
	if n := st.Accesses - p.epAccesses; n > 0 && st.Lines > 0 {
		capacity = float64(st.ValidLineSum-p.epValid) / float64(st.Lines) / float64(n)
	}
	p.epAccesses, p.epValid = st.Accesses, st.ValidLineSum
	pos, hitLat := p.hitLatencies()
	clear(p.posSum[:])
	clear(p.posCount[:])
	for _, units := range p.virtual {
		clear(units)
	}

	last := p.ep == p.cfg.PeriodEPs-1
	firstBook := p.period == 0 && p.ep == 0
	if (firstBook || last) && p.observe {
		p.rebuild(now, last)
	}
	p.ep++
	if last {
		p.ep = 0
		p.period++
		clear(p.nHit[:])
		clear(p.nMiss[:])
		clear(p.cmp[:])
	}
	p.observe = p.ep == p.cfg.PeriodEPs-1 && p.anyTrainer()
	if p.ep >= p.cfg.LearningEPs && p.cfg.Kind != Static {
		p.decide(now, capacity, tol, miss, pos, hitLat)
	}
}

func (p *Policy) anyTrainer() bool {
	for _, t := range p.trainers {
		if t != nil {
			return true
		}
	}
	return false
}

// rebuild replaces every trainable mode's codec with one built from the
// lines its trainer observed, and starts the next sampling phase with a
// fresh trainer of the new codec; at a period's end the lines of the old
// code book go.
func (p *Policy) rebuild(now uint64, invalidate bool) {
	for m, t := range p.trainers {
		if t == nil {
			continue
		}
		next, err := t.Build()
		if err == nil {
			err = p.c.SetMode(m, next)
		}
		if err == nil {
			p.trainers[m] = next.NewTrainer()
		}
		if err != nil {
			if p.err == nil {
				p.err = fmt.Errorf("latte: rebuilding mode %d's code book: %w", m, err)
			}
			continue
		}
		if invalidate {
			p.c.InvalidateMode(now, m)
		}
	}
}

// hitLatencies returns each mode's mean queue position over the EP that
// just ended and hit(m) = HitLatency + D(m)·(mean queue position + 1).
func (p *Policy) hitLatencies() (pos, hit [modes]float64) {
	base := float64(p.c.Config().HitLatency)
	for m := 0; m < modes && m < len(p.c.Config().Modes); m++ {
		if p.posCount[m] > 0 {
			pos[m] = p.posSum[m] / float64(p.posCount[m])
		}
		d := float64(p.decompress(m))
		if m == ModeNone {
			d = 0
		}
		hit[m] = base + d*(pos[m]+1)
	}
	return pos, hit
}

// decide chooses the winner for the EP that starts now.
func (p *Policy) decide(now uint64, capacity, tol, miss float64, pos, hitLat [modes]float64) {
	d := Decision{SM: p.cfg.SM, Period: p.period, EP: p.ep, Cycle: now, Capacity: capacity, Tolerance: tol, MissLatency: miss,
		QueuePosition: pos, HitLatency: hitLat, NHit: p.nHit, NMiss: p.nMiss, CMP: p.cmp}
	for m := 0; m < modes; m++ {
		n := float64(p.nHit[m] + p.nMiss[m])
		if n == 0 {
			d.AMAT[m] = miss
			continue
		}
		d.AMAT[m] = (float64(p.nHit[m])*max(hitLat[m]-tol, 0) + float64(p.nMiss[m])*miss) / n
	}
	order := p.latencyOrder()
	best := order[0]
	switch p.cfg.Kind {
	case LatteCC:
		for _, m := range order[1:] {
			if d.AMAT[m] < d.AMAT[best] {
				best = m
			}
		}
	case HitCount:
		for _, m := range order[1:] {
			if p.nHit[m] > p.nHit[best] {
				best = m
			}
		}
	case CMP:
		best = ModeNone
		for _, m := range order {
			if m != ModeNone && p.cmp[m] > 0 && (best == ModeNone || p.cmp[m] > p.cmp[best]) {
				best = m
			}
		}
	}
	d.Mode = best
	p.winner = best
	p.decisions = append(p.decisions, d)
}

// latencyOrder returns the modes by decompression latency, then index.
func (p *Policy) latencyOrder() [modes]int {
	o := [modes]int{0, 1, 2}
	lat := func(m int) int {
		if m == ModeNone {
			return -1
		}
		return p.decompress(m)
	}
	for i := 1; i < modes; i++ {
		for j := i; j > 0 && (lat(o[j]) < lat(o[j-1])); j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
	return o
}

// CodeBooks is LATTE-CC's SC² training hardware for a whole GPU. The
// paper builds one SC table for all SMs (5.5 KB VFT + 7 KB compressor +
// 3 KB decompressor LUT = 15.5 KB for 15 SMs, §IV-C), so the first code
// book is learned from every SM's fills: the policies of one run share one
// CodeBooks, whose first trainer of each trainable codec every SM's
// learning-EP fills feed, and each SM builds its first code book from it
// when its own first EP ends. SMs reach their EP boundaries at different
// cycles (an EP counts one L1's accesses), so they cannot switch tables at
// one instant as the shared hardware would; from then on each SM trains
// its later code books on its own fills [ours]. A CodeBooks belongs to one
// run: the trainers are its only state, and the codecs never change, so
// runs that share codecs stay independent.
type CodeBooks struct {
	mu       sync.Mutex
	trainers map[linecomp.Trainable]linecomp.Trainer
}

// NewCodeBooks returns the training hardware of one run, to share among its
// SMs' policies (Config.CodeBooks).
func NewCodeBooks() *CodeBooks {
	return &CodeBooks{trainers: map[linecomp.Trainable]linecomp.Trainer{}}
}

// first returns the first trainer of codec t: the shared one, or with no
// CodeBooks a trainer of this cache's own.
func (b *CodeBooks) first(t linecomp.Trainable) linecomp.Trainer {
	if b == nil {
		return t.NewTrainer()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	tr, ok := b.trainers[t]
	if !ok {
		tr = t.NewTrainer()
		b.trainers[t] = tr
	}
	return tr
}

// DedicatedSets returns the dedicated sets of each mode in the current
// period, in increasing order; nil for a Static policy.
func (p *Policy) DedicatedSets() [modes][]int {
	var out [modes][]int
	for s := range p.layout {
		if m := p.dedicated(s); m >= 0 {
			out[m] = append(out[m], s)
		}
	}
	return out
}

// Decisions returns the decisions so far.
func (p *Policy) Decisions() []Decision { return append([]Decision(nil), p.decisions...) }

// ModeEPs returns how many completed EPs ran with each mode as the winner.
func (p *Policy) ModeEPs() [modes]uint64 { return p.modeEPs }

// Mode returns the current winner.
func (p *Policy) Mode() int { return p.winner }

// Err returns the first error the policy met inside the cache's calls (a
// code book that could not be rebuilt), or nil.
func (p *Policy) Err() error { return p.err }
