package vote

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
)

// fake is a codec whose sizes the test writes into the line itself: for
// candidate i, Size(line) = line[i] bits. It lets every sequence below be
// computed by hand.
type fake struct {
	index   int
	lineLen int
	lat     linecomp.Latency
}

func (f fake) Name() string              { return fmt.Sprintf("fake%d", f.index) }
func (f fake) LineSize() int             { return f.lineLen }
func (f fake) TagBits() int              { return 0 }
func (f fake) Latency() linecomp.Latency { return f.lat }
func (f fake) Size(line []byte) int {
	if len(line) != f.lineLen {
		return -1
	}
	return int(line[f.index])
}
func (f fake) Compress(dst, line []byte) ([]byte, int, error) {
	return dst, 0, errors.New("fake codecs only have sizes")
}
func (f fake) Decompress(dst, enc []byte) ([]byte, error) {
	return dst, errors.New("fake codecs only have sizes")
}

const fakeLine = 8

// fakes returns candidates with the given (compress, decompress) latencies.
func fakes(lats ...linecomp.Latency) []linecomp.Codec {
	out := make([]linecomp.Codec, len(lats))
	for i, l := range lats {
		out[i] = fake{index: i, lineLen: fakeLine, lat: l}
	}
	return out
}

// line makes a transfer whose candidate i has size sizes[i] bits.
func line(sizes ...byte) []byte {
	l := make([]byte, fakeLine)
	copy(l, sizes)
	return l
}

// Tavana Table III latencies, plus "none".
var (
	latNone  = linecomp.Latency{}
	latBDI   = linecomp.Latency{Compress: 2, Decompress: 1}
	latFPC   = linecomp.Latency{Compress: 3, Decompress: 5}
	latCPack = linecomp.Latency{Compress: 16, Decompress: 9}
)

func mustNew(t *testing.T, cfg Config) *Selector {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// feed chooses for each line and checks the returned index.
func feed(t *testing.T, s *Selector, lines [][]byte, want []int) {
	t.Helper()
	for k, l := range lines {
		if got := s.Choose(l); got != want[k] {
			t.Fatalf("transfer %d (sizes %v): chose %d, want %d", k, l[:4], got, want[k])
		}
	}
}

func repeat(l []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = l
	}
	return out
}

func constant(v, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// With λ = 0 the penalty is the size alone: the smallest encoding wins
// every sample, whatever its latency.
func TestLambdaZeroSmallestWins(t *testing.T) {
	s := mustNew(t, Config{Candidates: fakes(latNone, latBDI, latFPC, latCPack)})
	// sizes (none, bdi, fpc, cpack)   winner (least size, ties to lower index)
	samples := [][]byte{
		line(255, 200, 150, 100), // cpack 100                  → 3
		line(255, 90, 150, 100),  // bdi 90                     → 1
		line(255, 200, 100, 100), // fpc and cpack tie at 100   → 2
		line(255, 200, 150, 60),  // cpack                      → 3
		line(50, 200, 150, 60),   // none 50                    → 0
		line(255, 200, 150, 10),  // cpack                      → 3
		line(255, 70, 70, 70),    // bdi, fpc, cpack tie at 70  → 1
	}
	feed(t, s, samples, []int{3, 1, 2, 3, 0, 3, 1})
	// Votes: none 1, bdi 2, fpc 1, cpack 3 → cpack (3 ≥ MinVotes 3).
	if got := s.Selection(); got != 3 {
		t.Fatalf("selection %d, want 3", got)
	}
	for i, want := range []int{1, 2, 1, 3} {
		if c, _ := s.Candidate(i); c.Votes != want {
			t.Errorf("candidate %d: %d votes, want %d", i, c.Votes, want)
		}
	}
	// PenaltySum of cpack over all seven samples, won or not:
	// 100+100+100+60+60+10+70 = 500.
	if c, _ := s.Candidate(3); c.PenaltySum != 500 {
		t.Errorf("cpack penalty sum %v, want 500", c.PenaltySum)
	}
	// The running phase carries 300 transfers with cpack even where none
	// would be smaller.
	feed(t, s, repeat(line(1, 255, 255, 255), 300), constant(3, 300))
	if st := s.State(); st.Phase != Sampling || st.Step != 0 {
		t.Fatalf("after 307 transfers: state %+v, want the start of a sampling phase", st)
	}
	// The next sampling phase prices again: none (1 bit) wins.
	feed(t, s, repeat(line(1, 255, 255, 255), 1), []int{0})
}

// A large λ makes latency decide: with λ = 32 the 25-cycle C-Pack+Z pays 800
// bits, so a 100-bit saving does not buy it.
func TestLatencyDecides(t *testing.T) {
	cands := fakes(latNone, latBDI, latFPC, latCPack)
	l := line(255, 200, 160, 100)
	// λ = 32: P = none 255+0 = 255, bdi 200+32·3 = 296, fpc 160+32·8 = 416,
	// cpack 100+32·25 = 900 → none.
	// λ = 6:  none 255, bdi 200+18 = 218, fpc 160+48 = 208, cpack 100+150 =
	// 250 → fpc.
	// λ = 0:  sizes only → cpack.
	for _, tc := range []struct {
		lambda float64
		want   int
	}{{32, 0}, {6, 2}, {0, 3}} {
		s := mustNew(t, Config{Candidates: cands, Lambda: tc.lambda})
		feed(t, s, repeat(l, 7), constant(tc.want, 7))
		if s.Selection() != tc.want {
			t.Errorf("λ=%v: selection %d, want %d", tc.lambda, s.Selection(), tc.want)
		}
	}
	// λ = 2.5: none 255, bdi 200+2.5·3 = 207.5, fpc 160+2.5·8 = 180,
	// cpack 100+2.5·25 = 162.5 → cpack, the latency not yet deciding.
	s := mustNew(t, Config{Candidates: cands, Lambda: 2.5})
	if got := s.Choose(l); got != 3 {
		t.Errorf("λ=2.5: chose %d, want 3", got)
	}
	if c, _ := s.Candidate(1); c.PenaltySum != 207.5 {
		t.Errorf("λ=2.5: bdi penalty %v, want 207.5", c.PenaltySum)
	}
}

// A tie in votes goes to the smaller sum of P over the phase's samples, won
// or not; a tie in sums to the lower index.
func TestTieInVotes(t *testing.T) {
	cands := fakes(latNone, latBDI, latFPC)
	s := mustNew(t, Config{Candidates: cands})
	// sizes (none, bdi, fpc), λ = 0:
	samples := [][]byte{
		line(200, 10, 100), // bdi
		line(200, 10, 100), // bdi
		line(200, 10, 100), // bdi
		line(200, 100, 20), // fpc
		line(200, 100, 20), // fpc
		line(200, 100, 20), // fpc
		line(5, 100, 20),   // none
	}
	// Votes: none 1, bdi 3, fpc 3. Sums: bdi 3·10 + 4·100 = 430, fpc
	// 3·100 + 4·20 = 380 → fpc, although bdi won first.
	feed(t, s, samples, []int{1, 1, 1, 2, 2, 2, 0})
	if s.Selection() != 2 {
		t.Fatalf("selection %d, want 2 (fpc, smaller penalty sum)", s.Selection())
	}

	// Equal votes and equal sums: the lower index. bdi and fpc swap sizes
	// between the two halves, so both sum to 3·10+3·40+100 = 250.
	s = mustNew(t, Config{Candidates: cands})
	samples = [][]byte{
		line(200, 40, 10), // fpc
		line(200, 40, 10), // fpc
		line(200, 40, 10), // fpc
		line(200, 10, 40), // bdi
		line(200, 10, 40), // bdi
		line(200, 10, 40), // bdi
		line(5, 100, 100), // none
	}
	feed(t, s, samples, []int{2, 2, 2, 1, 1, 1, 0})
	for i := 1; i <= 2; i++ {
		if c, _ := s.Candidate(i); c.Votes != 3 || c.PenaltySum != 250 {
			t.Fatalf("candidate %d: %d votes, sum %v; want 3, 250", i, c.Votes, c.PenaltySum)
		}
	}
	if s.Selection() != 1 {
		t.Fatalf("selection %d, want 1 (lower index on equal sums)", s.Selection())
	}
}

// With no candidate at MinVotes the previous selection stays: first the
// initial 0, later whatever an earlier phase selected.
func TestNoCandidateReachesMinVotes(t *testing.T) {
	cands := fakes(latNone, latBDI, latFPC, latCPack)
	s := mustNew(t, Config{Candidates: cands, Samples: 7, Running: 5})
	split := [][]byte{ // votes 2 bdi, 2 fpc, 2 cpack, 1 none
		line(200, 10, 50, 50), line(200, 10, 50, 50),
		line(200, 50, 10, 50), line(200, 50, 10, 50),
		line(200, 50, 50, 10), line(200, 50, 50, 10),
		line(1, 50, 50, 50),
	}
	feed(t, s, split, []int{1, 1, 2, 2, 3, 3, 0})
	if s.Selection() != 0 || s.Stats().Kept != 1 {
		t.Fatalf("selection %d, kept %d; want 0, 1", s.Selection(), s.Stats().Kept)
	}
	feed(t, s, repeat(line(200, 1, 1, 1), 5), constant(0, 5)) // running with none
	// A phase where fpc wins 7 of 7 selects it…
	feed(t, s, repeat(line(200, 50, 10, 50), 7), constant(2, 7))
	feed(t, s, repeat(line(200, 1, 1, 1), 5), constant(2, 5))
	// …and a split phase keeps it.
	feed(t, s, split, []int{1, 1, 2, 2, 3, 3, 0})
	if s.Selection() != 2 {
		t.Fatalf("selection %d after a split phase, want 2 (kept)", s.Selection())
	}
	st := s.Stats()
	if st.Decisions != 3 || st.Kept != 2 || st.Switches != 1 {
		t.Fatalf("stats %+v, want 3 decisions, 2 kept, 1 switch", st)
	}
}

// Phase boundaries over several periods of a small configuration: the
// exact index and state after every transfer.
func TestPhaseBoundaries(t *testing.T) {
	cands := fakes(latNone, latBDI)
	s := mustNew(t, Config{Candidates: cands, Samples: 2, Running: 3, MinVotes: 1})
	a := line(10, 20) // none wins
	b := line(20, 10) // bdi wins
	type step struct {
		l     []byte
		want  int
		phase Phase
		step  int // after the transfer
		sel   int
	}
	steps := []step{
		// period 1: samples a, b → votes 1-1, sums none 30, bdi 30 → none (lower index)
		{a, 0, Sampling, 1, 0}, {b, 1, Running, 0, 0},
		{b, 0, Running, 1, 0}, {b, 0, Running, 2, 0}, {b, 0, Sampling, 0, 0},
		// period 2: b, b → bdi 2 votes → bdi
		{b, 1, Sampling, 1, 0}, {b, 1, Running, 0, 1},
		{a, 1, Running, 1, 1}, {a, 1, Running, 2, 1}, {a, 1, Sampling, 0, 1},
		// period 3: b, a → 1-1, sums: none 20+10 = 30, bdi 10+20 = 30 → none
		{b, 1, Sampling, 1, 1}, {a, 0, Running, 0, 0},
		{b, 0, Running, 1, 0}, {b, 0, Running, 2, 0}, {b, 0, Sampling, 0, 0},
	}
	for k, st := range steps {
		if got := s.Choose(st.l); got != st.want {
			t.Fatalf("transfer %d: chose %d, want %d", k, got, st.want)
		}
		want := State{Phase: st.phase, Step: st.step, Selection: st.sel}
		if got := s.State(); got != want {
			t.Fatalf("after transfer %d: state %+v, want %+v", k, got, want)
		}
	}
	stats := s.Stats()
	want := Stats{Transfers: 15, Sampled: 6, Decisions: 3, Switches: 2}
	if stats != want {
		t.Fatalf("stats %+v, want %+v", stats, want)
	}
	none, _ := s.Candidate(0)
	bdi, _ := s.Candidate(1)
	// Wins: none won a (p1), a (p3) = 2; bdi won b (p1), b, b (p2), b (p3) = 4.
	// Uses: none 2 wins + 3 + 3 running = 8; bdi 4 + 3 = 7.
	if none.Wins != 2 || bdi.Wins != 4 || none.Uses != 8 || bdi.Uses != 7 || none.Selected != 2 || bdi.Selected != 1 {
		t.Fatalf("candidates %+v %+v", none, bdi)
	}
}

// The two readings of "7 samples … 300": 7 then 300 (period 307), and 7 of
// every 300 (period 300).
func TestPhasesReadings(t *testing.T) {
	cands := fakes(latNone, latBDI)
	for _, tc := range []struct {
		phases Phases
		period int
	}{{SampleThenRun, 307}, {SampleWithinRun, 300}} {
		s := mustNew(t, Config{Candidates: cands, Phases: tc.phases})
		l := line(20, 10)
		for p := 0; p < 3; p++ {
			for k := 0; k < tc.period; k++ {
				want := Running
				if k < 7 {
					want = Sampling
				}
				if s.State().Phase != want {
					t.Fatalf("%v: transfer %d of period %d: phase %v, want %v", tc.phases, k, p, s.State().Phase, want)
				}
				s.Choose(l)
			}
		}
		if got := s.Stats(); got.Sampled != 21 || got.Decisions != 3 || got.Transfers != uint64(3*tc.period) {
			t.Fatalf("%v: stats %+v", tc.phases, got)
		}
	}
	// Samples equal to Running under SampleWithinRun: every transfer is
	// sampled (the paper's "run all three concurrently" alternative).
	s := mustNew(t, Config{Candidates: cands, Samples: 3, Running: 3, MinVotes: 1, Phases: SampleWithinRun})
	feed(t, s, [][]byte{line(1, 9), line(9, 1), line(9, 1), line(1, 9), line(9, 1)}, []int{0, 1, 1, 0, 1})
	if got := s.Stats().Sampled; got != 5 {
		t.Fatalf("sampled %d, want 5", got)
	}
}

func TestDefaults(t *testing.T) {
	s := mustNew(t, Config{Candidates: fakes(latNone)})
	c := s.Config()
	if c.Samples != 7 || c.Running != 300 || c.MinVotes != 3 || c.Phases != SampleThenRun || c.Lambda != 0 {
		t.Fatalf("defaults %+v", c)
	}
}

func TestConfigErrors(t *testing.T) {
	good := fakes(latNone, latBDI)
	other := fake{index: 1, lineLen: 16, lat: latBDI}
	for _, tc := range []struct {
		cfg  Config
		want string // a word the message must contain
	}{
		{Config{}, "Candidates is empty"},
		{Config{Candidates: []linecomp.Codec{good[0], nil}}, "Candidates[1] is nil"},
		{Config{Candidates: []linecomp.Codec{good[0], other}}, "Candidates[1]"},
		{Config{Candidates: fakes(latNone, linecomp.Latency{Compress: linecomp.LatencyUnknown, Decompress: 3})}, "unknown compression latency"},
		{Config{Candidates: fakes(latNone, linecomp.Latency{Compress: 3, Decompress: linecomp.LatencyUnknown})}, "unknown decompression latency"},
		{Config{Candidates: good, Lambda: -1}, "Lambda"},
		{Config{Candidates: good, Lambda: math.NaN()}, "Lambda"},
		{Config{Candidates: good, Lambda: math.Inf(1)}, "Lambda"},
		{Config{Candidates: good, Samples: -1}, "Samples"},
		{Config{Candidates: good, Running: -5}, "Running"},
		{Config{Candidates: good, MinVotes: -2}, "MinVotes"},
		{Config{Candidates: good, Samples: 4, MinVotes: 5}, "MinVotes 5 exceeds Samples 4"},
		{Config{Candidates: good, Samples: 2}, "MinVotes 3 exceeds Samples 2"}, // the default MinVotes
		{Config{Candidates: good, Samples: 10, Running: 9, Phases: SampleWithinRun}, "Running 9"},
		{Config{Candidates: good, Phases: 7}, "Phases"},
	} {
		s, err := New(tc.cfg)
		if err == nil || s != nil {
			t.Errorf("%+v: got %v, %v; want an error", tc.cfg, s, err)
			continue
		}
		if !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %q, want ErrConfig naming %q", tc.cfg, err, tc.want)
		}
	}
}

// New copies the candidate list: changing the caller's slice afterwards
// changes nothing.
func TestCandidatesCopied(t *testing.T) {
	cands := fakes(latNone, latBDI)
	s := mustNew(t, Config{Candidates: cands, Samples: 1, MinVotes: 1})
	cands[1] = nil
	if got := s.Choose(line(20, 10)); got != 1 {
		t.Fatalf("chose %d, want 1", got)
	}
}

func TestWrongLength(t *testing.T) {
	s := mustNew(t, Config{Candidates: fakes(latNone, latBDI)})
	s.Choose(line(20, 10))
	before := s.State()
	for _, l := range [][]byte{nil, make([]byte, fakeLine-1), make([]byte, fakeLine+1)} {
		if got := s.Choose(l); got != -1 {
			t.Fatalf("len %d: chose %d, want -1", len(l), got)
		}
		if i, err := s.ChooseErr(l); i != -1 || !errors.Is(err, linecomp.ErrLineSize) {
			t.Fatalf("len %d: ChooseErr = %d, %v; want -1 and ErrLineSize", len(l), i, err)
		}
	}
	if s.State() != before {
		t.Fatalf("state moved on rejected lines: %+v, was %+v", s.State(), before)
	}
	if st := s.Stats(); st.Rejected != 6 || st.Transfers != 1 {
		t.Fatalf("stats %+v, want 6 rejected, 1 transfer", st)
	}
	if i, err := s.ChooseErr(line(20, 10)); i != 1 || err != nil {
		t.Fatalf("ChooseErr on a good line = %d, %v", i, err)
	}
}

func TestReset(t *testing.T) {
	s := mustNew(t, Config{Candidates: fakes(latNone, latBDI), Samples: 3, Running: 2, MinVotes: 2})
	feed(t, s, repeat(line(20, 10), 4), []int{1, 1, 1, 1})
	s.ResetStats()
	if st := s.State(); st != (State{Phase: Running, Step: 1, Selection: 1}) {
		t.Fatalf("ResetStats moved the state: %+v", st)
	}
	if c, _ := s.Candidate(1); c.Votes != 3 || c.PenaltySum != 30 || c.Uses != 0 || c.Wins != 0 || c.Selected != 0 {
		t.Fatalf("after ResetStats: %+v", c)
	}
	if s.Stats() != (Stats{}) {
		t.Fatalf("after ResetStats: %+v", s.Stats())
	}
	s.Reset()
	if st := s.State(); st != (State{}) {
		t.Fatalf("after Reset: %+v", st)
	}
	if c, _ := s.Candidate(1); c != (CandidateStats{}) {
		t.Fatalf("after Reset: %+v", c)
	}
	if _, ok := s.Candidate(2); ok {
		t.Fatal("Candidate(2) of two candidates reported ok")
	}
	// Starts over exactly like a new selector: none first.
	feed(t, s, [][]byte{line(1, 10)}, []int{0})
}

func TestChooseZeroAllocs(t *testing.T) {
	s := mustNew(t, Config{Candidates: fakes(latNone, latBDI, latFPC, latCPack), Lambda: 6})
	l := line(200, 100, 50, 25)
	if n := testing.AllocsPerRun(1000, func() { s.Choose(l) }); n != 0 {
		t.Fatalf("%v allocations per Choose", n)
	}
}
