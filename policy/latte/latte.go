package latte

import (
	"fmt"
	"io"
	"math"
	"strconv"

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

	EPAccesses       int // accesses per EP (256)
	PeriodEPs        int // EPs per period (10)
	DedicatedPerMode int // dedicated sets per mode in the learning EP (4)

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
	HitLatency, AMAT       [modes]float64
	NHit, NMiss            [modes]uint64
	CMP                    [modes]int64 // Adaptive-CMP's counters (0 for none)
	Mode                   int
}

// Policy is a LATTE-CC policy or one of its baselines for one cache.
type Policy struct {
	cfg      Config
	c        *cache.Cache
	machine  Machine
	sets     int
	ways     int
	dedicate []int8 // per set: its mode in the learning EP, or -1

	winner   int
	accesses int // in the current EP
	ep       int // within the period
	period   int

	nHit, nMiss [modes]uint64
	cmp         [modes]int64
	missLat     float64
	// queue positions of this EP's hits, per mode
	posSum   [modes]float64
	posCount [modes]uint64

	// the cache's counters at the start of the EP, for its capacity
	epAccesses, epValid uint64

	trainers  [modes]bool
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
	case cfg.EPAccesses < 0 || cfg.PeriodEPs < 2 || cfg.DedicatedPerMode < 0 || cfg.CMPLimit < 0:
		return bad("EPAccesses %d, PeriodEPs %d (at least 2), DedicatedPerMode %d and CMPLimit %d must be positive",
			cfg.EPAccesses, cfg.PeriodEPs, cfg.DedicatedPerMode, cfg.CMPLimit)
	case cfg.Kind != Static && ccfg.Sets/modes < cfg.DedicatedPerMode: // modes × DedicatedPerMode could wrap
		return bad("%d sets cannot hold %d dedicated sets per mode", ccfg.Sets, cfg.DedicatedPerMode)
	}
	p := &Policy{cfg: cfg, c: c, machine: m, sets: ccfg.Sets, ways: ccfg.Ways, dedicate: make([]int8, ccfg.Sets)}
	for s := range p.dedicate {
		p.dedicate[s] = -1
	}
	if cfg.Kind != Static {
		k := modes * cfg.DedicatedPerMode
		for i := 0; i < k; i++ {
			p.dedicate[i*ccfg.Sets/k] = int8(i % modes)
		}
	} else {
		p.winner = cfg.StaticMode
	}
	for i := 0; i < n && i < modes; i++ {
		_, p.trainers[i] = ccfg.Modes[i].(linecomp.Trainer)
		if p.trainers[i] {
			p.observe = true // the first EP of the first period trains
		}
	}
	p.missLat = cfg.InitialMissLatency
	c.SetPolicy(p)
	return p, nil
}

// FillMode implements cache.Policy.
func (p *Policy) FillMode(set int) int {
	if p.ep == 0 && p.cfg.Kind != Static {
		if m := p.dedicate[set]; m >= 0 {
			return int(m)
		}
	}
	return p.winner
}

// Observe implements cache.Policy.
func (p *Policy) Observe(e cache.Event) {
	switch e.Kind {
	case cache.Fill:
		if p.ep == 0 && p.dedicated(e.Set) >= 0 {
			p.nMiss[p.dedicated(e.Set)]++
		}
		if p.observe {
			for m, t := range p.trainers {
				if t {
					p.c.Mode(m).(linecomp.Trainer).Observe(e.Data)
				}
			}
		}
	case cache.LoadHit:
		if e.Compressed && e.Mode < modes {
			d := p.decompress(e.Mode)
			if d > 0 {
				p.posSum[e.Mode] += float64(e.Wait) / float64(d)
			}
			p.posCount[e.Mode]++
		}
		if p.ep <= 1 {
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

// dedicated returns the mode whose dedicated set s is, or -1.
func (p *Policy) dedicated(s int) int {
	if p.cfg.Kind == Static {
		return -1
	}
	return int(p.dedicate[s])
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
	hitLat := p.hitLatencies()
	clear(p.posSum[:])
	clear(p.posCount[:])

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
	if p.ep >= 1 && p.cfg.Kind != Static {
		p.decide(now, capacity, tol, miss, hitLat)
	}
}

func (p *Policy) anyTrainer() bool {
	for _, t := range p.trainers {
		if t {
			return true
		}
	}
	return false
}

// rebuild replaces every trainable mode's codec with one built from the
// lines it observed; at a period's end the lines of the old code book go.
func (p *Policy) rebuild(now uint64, invalidate bool) {
	for m, t := range p.trainers {
		if !t {
			continue
		}
		next, err := p.c.Mode(m).(linecomp.Trainer).Rebuild()
		if err == nil {
			err = p.c.SetMode(m, next)
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

// hitLatencies returns hit(m) = HitLatency + D(m)·(mean queue position + 1)
// over the EP that just ended.
func (p *Policy) hitLatencies() [modes]float64 {
	var h [modes]float64
	base := float64(p.c.Config().HitLatency)
	for m := 0; m < modes && m < len(p.c.Config().Modes); m++ {
		pos := 0.0
		if p.posCount[m] > 0 {
			pos = p.posSum[m] / float64(p.posCount[m])
		}
		d := float64(p.decompress(m))
		if m == ModeNone {
			d = 0
		}
		h[m] = base + d*(pos+1)
	}
	return h
}

// decide chooses the winner for the EP that starts now.
func (p *Policy) decide(now uint64, capacity, tol, miss float64, hitLat [modes]float64) {
	d := Decision{SM: p.cfg.SM, Period: p.period, EP: p.ep, Cycle: now, Capacity: capacity, Tolerance: tol, MissLatency: miss,
		HitLatency: hitLat, NHit: p.nHit, NMiss: p.nMiss, CMP: p.cmp}
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

// Decisions returns the decisions so far.
func (p *Policy) Decisions() []Decision { return append([]Decision(nil), p.decisions...) }

// ModeEPs returns how many completed EPs ran with each mode as the winner.
func (p *Policy) ModeEPs() [modes]uint64 { return p.modeEPs }

// Mode returns the current winner.
func (p *Policy) Mode() int { return p.winner }

// Err returns the first error the policy met inside the cache's calls (a
// code book that could not be rebuilt), or nil.
func (p *Policy) Err() error { return p.err }

// WriteCSV writes decisions as CSV with a header row.
func WriteCSV(w io.Writer, ds []Decision) error {
	b := []byte("sm,period,ep,cycle,capacity,tolerance,miss_latency,hit_none,hit_low,hit_high,amat_none,amat_low,amat_high,nhit_none,nhit_low,nhit_high,nmiss_none,nmiss_low,nmiss_high,cmp_low,cmp_high,mode\n")
	f := func(v float64) { b = strconv.AppendFloat(b, v, 'g', 6, 64); b = append(b, ',') }
	u := func(v uint64) { b = strconv.AppendUint(b, v, 10); b = append(b, ',') }
	for _, d := range ds {
		b = strconv.AppendInt(b, int64(d.SM), 10)
		b = append(b, ',')
		u(uint64(d.Period))
		u(uint64(d.EP))
		u(d.Cycle)
		f(d.Capacity)
		f(d.Tolerance)
		f(d.MissLatency)
		for _, v := range d.HitLatency {
			f(v)
		}
		for _, v := range d.AMAT {
			f(v)
		}
		for _, v := range d.NHit {
			u(v)
		}
		for _, v := range d.NMiss {
			u(v)
		}
		b = strconv.AppendInt(b, d.CMP[1], 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, d.CMP[2], 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(d.Mode), 10)
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}
