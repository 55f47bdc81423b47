package vote

import (
	"math"
	"slices"

	"github.com/linecomp/linecomp"
)

// The defaults of Tavana et al. (§V, §VII-A2) that a zero Config field takes.
const (
	DefaultSamples  = 7
	DefaultRunning  = 300
	DefaultMinVotes = 3
)

// Phases says how Samples and Running make one period of the selector.
type Phases int

const (
	// SampleThenRun: a period is Samples sampled transfers followed by
	// Running running transfers (7 + 300). It is model-spec §6's reading of
	// §VII-A2, "the sampling phase to profile 7 requests, and ... the running
	// phase to 300 requests", and the default.
	SampleThenRun Phases = iota
	// SampleWithinRun: a period is Running transfers, of which the first
	// Samples are sampled (7 of every 300: a running phase of 293). It is
	// the reading of §V, "7 samples for every 300 transactions".
	SampleWithinRun
)

func (p Phases) String() string {
	switch p {
	case SampleThenRun:
		return "sample-then-run"
	case SampleWithinRun:
		return "sample-within-run"
	}
	return "Phases(invalid)"
}

// Config configures a Selector. See the package doc for the defaults and
// the values New rejects.
type Config struct {
	Candidates []linecomp.Codec // ordered; index 0 is conventionally "none"
	Lambda     float64          // ≥ 0
	Samples    int              // transfers per sampling phase (7)
	Running    int              // transfers per running phase (300)
	MinVotes   int              // votes a candidate needs to be selected (3)

	// Phases says how Samples and Running make a period; the zero value is
	// SampleThenRun, model-spec §6's default.
	Phases Phases
}

// Phase is where a Selector is in its period.
type Phase int

const (
	// Sampling: every candidate is priced and the cheapest carries the
	// transfer and gets a vote.
	Sampling Phase = iota
	// Running: the selection carries every transfer.
	Running
)

func (p Phase) String() string {
	switch p {
	case Sampling:
		return "sampling"
	case Running:
		return "running"
	}
	return "Phase(invalid)"
}

// State is the position of the state machine.
type State struct {
	Phase     Phase
	Step      int // transfers already taken in the current phase
	Selection int // the candidate that carries running-phase transfers
}

// CandidateStats describes one candidate. Votes and PenaltySum belong to
// the latest sampling phase: they count up during it and keep the values
// that made its decision until the next sampling phase starts. The other
// fields count since New, Reset or ResetStats.
type CandidateStats struct {
	Votes      int     // votes in the latest sampling phase
	PenaltySum float64 // Σ P over the latest sampling phase's samples, won or not
	Wins       uint64  // sampled transfers this candidate won (all votes ever cast for it)
	Uses       uint64  // transfers this candidate carried, sampled or running
	Selected   uint64  // sampling phases whose decision selected it
}

// Stats counts what a Selector has done since New, Reset or ResetStats.
type Stats struct {
	Transfers uint64 // lines chosen for (Sampled + running transfers)
	Sampled   uint64 // transfers taken in a sampling phase
	Decisions uint64 // sampling phases completed
	Kept      uint64 // decisions in which no candidate had MinVotes votes, so the selection stayed
	Switches  uint64 // decisions that changed the selection
	Rejected  uint64 // lines of the wrong length, not counted anywhere else
}

// Selector is one sender's penalty vote. It is not safe for concurrent use.
type Selector struct {
	cfg      Config // with defaults resolved
	codecs   []linecomp.Codec
	latency  []float64 // λ·float64(Lc + Ld), fixed for the selector's life
	lineSize int
	running  int // transfers in a running phase under cfg.Phases

	state State
	cands []CandidateStats
	stats Stats
}

// New returns a selector in the first transfer of its first sampling phase,
// with selection 0.
func New(cfg Config) (*Selector, error) {
	cfg.Candidates = slices.Clone(cfg.Candidates)
	if err := resolve(&cfg); err != nil {
		return nil, err
	}
	s := &Selector{
		cfg:      cfg,
		codecs:   cfg.Candidates,
		latency:  make([]float64, len(cfg.Candidates)),
		lineSize: cfg.Candidates[0].LineSize(),
		running:  cfg.Running,
		cands:    make([]CandidateStats, len(cfg.Candidates)),
	}
	if cfg.Phases == SampleWithinRun {
		s.running = cfg.Running - cfg.Samples
	}
	for i, c := range cfg.Candidates {
		lc, _ := c.Latency().CompressCycles()
		ld, _ := c.Latency().DecompressCycles()
		s.latency[i] = cfg.Lambda * float64(lc+ld)
	}
	return s, nil
}

// resolve fills in the defaults of cfg and checks it.
func resolve(cfg *Config) error {
	bad := func(format string, args ...any) error { return linecomp.ConfigError("vote", format, args...) }
	if len(cfg.Candidates) == 0 {
		return bad("Candidates is empty")
	}
	for i, c := range cfg.Candidates {
		if c == nil {
			return bad("Candidates[%d] is nil", i)
		}
		if c.LineSize() != cfg.Candidates[0].LineSize() {
			return bad("Candidates[%d] (%s) takes %d-byte lines, Candidates[0] (%s) %d-byte lines",
				i, c.Name(), c.LineSize(), cfg.Candidates[0].Name(), cfg.Candidates[0].LineSize())
		}
		l := c.Latency()
		if _, ok := l.CompressCycles(); !ok {
			return bad("Candidates[%d] (%s) has an unknown compression latency", i, c.Name())
		}
		if _, ok := l.DecompressCycles(); !ok {
			return bad("Candidates[%d] (%s) has an unknown decompression latency", i, c.Name())
		}
	}
	if math.IsNaN(cfg.Lambda) || math.IsInf(cfg.Lambda, 0) || cfg.Lambda < 0 {
		return bad("Lambda is %v; it must be finite and ≥ 0", cfg.Lambda)
	}
	for _, f := range []struct {
		name string
		v    *int
		def  int
	}{{"Samples", &cfg.Samples, DefaultSamples}, {"Running", &cfg.Running, DefaultRunning}, {"MinVotes", &cfg.MinVotes, DefaultMinVotes}} {
		if *f.v < 0 {
			return bad("%s is %d; it must be ≥ 0 (0 takes the default %d)", f.name, *f.v, f.def)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if cfg.MinVotes > cfg.Samples {
		return bad("MinVotes %d exceeds Samples %d: no candidate could ever be selected", cfg.MinVotes, cfg.Samples)
	}
	switch cfg.Phases {
	case SampleThenRun:
	case SampleWithinRun:
		if cfg.Running < cfg.Samples {
			return bad("Running %d is shorter than Samples %d, which %v takes from it", cfg.Running, cfg.Samples, cfg.Phases)
		}
	default:
		return bad("Phases is %d, not a known value", int(cfg.Phases))
	}
	return nil
}

// Choose returns the index of the candidate that carries this transfer,
// advancing the sampling/running state machine of model-spec §6 by one
// transfer. A line whose length is not the candidates' line size returns
// -1, is counted in Stats.Rejected and leaves the state machine as it was.
func (s *Selector) Choose(line []byte) int {
	if len(line) != s.lineSize {
		s.stats.Rejected++
		return -1
	}
	s.stats.Transfers++
	if s.state.Phase == Running {
		i := s.state.Selection
		s.cands[i].Uses++
		s.state.Step++
		if s.state.Step == s.running {
			s.state = State{Phase: Sampling, Selection: i}
		}
		return i
	}
	return s.sample(line)
}

// ChooseErr is Choose with an error wrapping linecomp.ErrLineSize for a
// line of the wrong length.
func (s *Selector) ChooseErr(line []byte) (int, error) {
	i := s.Choose(line)
	if i < 0 {
		return -1, linecomp.LineSizeError("vote", len(line), "lines of its candidates' size")
	}
	return i, nil
}

// sample prices every candidate for one sampled transfer, votes for the
// cheapest, and decides at the end of the phase.
func (s *Selector) sample(line []byte) int {
	if s.state.Step == 0 {
		for i := range s.cands {
			s.cands[i].Votes = 0
			s.cands[i].PenaltySum = 0
		}
	}
	best, bestP := 0, 0.0
	for i, c := range s.codecs {
		p := float64(c.Size(line)) + s.latency[i]
		s.cands[i].PenaltySum += p
		if i == 0 || p < bestP {
			best, bestP = i, p
		}
	}
	w := &s.cands[best]
	w.Votes++
	w.Wins++
	w.Uses++
	s.stats.Sampled++
	s.state.Step++
	if s.state.Step == s.cfg.Samples {
		s.decide()
		s.state.Step = 0
		if s.running > 0 {
			s.state.Phase = Running
		}
	}
	return best
}

// decide ends a sampling phase: the most votes wins if it has MinVotes; a
// tie in votes goes to the smaller penalty sum, then the lower index; with
// no candidate at MinVotes the selection stays.
func (s *Selector) decide() {
	s.stats.Decisions++
	best := -1
	for i, c := range s.cands {
		if c.Votes < s.cfg.MinVotes {
			continue
		}
		if best < 0 || c.Votes > s.cands[best].Votes ||
			(c.Votes == s.cands[best].Votes && c.PenaltySum < s.cands[best].PenaltySum) {
			best = i
		}
	}
	if best < 0 {
		s.stats.Kept++
		return
	}
	if best != s.state.Selection {
		s.stats.Switches++
	}
	s.state.Selection = best
	s.cands[best].Selected++
}

// State returns the position of the state machine.
func (s *Selector) State() State { return s.state }

// Selection returns the candidate that carries running-phase transfers.
func (s *Selector) Selection() int { return s.state.Selection }

// Candidate returns the statistics of candidate i, and false if there is no
// candidate i.
func (s *Selector) Candidate(i int) (CandidateStats, bool) {
	if i < 0 || i >= len(s.cands) {
		return CandidateStats{}, false
	}
	return s.cands[i], true
}

// Stats returns the selector's counters.
func (s *Selector) Stats() Stats { return s.stats }

// Config returns the configuration with its defaults filled in.
func (s *Selector) Config() Config {
	c := s.cfg
	c.Candidates = slices.Clone(c.Candidates)
	return c
}

// Reset puts the selector back where New left it: the first transfer of a
// sampling phase, selection 0, no votes and zero counters.
func (s *Selector) Reset() {
	s.state = State{}
	clear(s.cands)
	s.stats = Stats{}
}

// ResetStats zeroes the counters (Stats and each candidate's Wins, Uses and
// Selected) and leaves the state machine, votes and penalty sums alone.
func (s *Selector) ResetStats() {
	s.stats = Stats{}
	for i := range s.cands {
		s.cands[i] = CandidateStats{Votes: s.cands[i].Votes, PenaltySum: s.cands[i].PenaltySum}
	}
}
