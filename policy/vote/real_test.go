package vote_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/multi"
	"github.com/linecomp/linecomp/policy/vote"
)

// tavanaCandidates returns none, BDI, FPC and C-Pack+Z at lineSize with the
// latencies of Tavana Table III: the members of tavana-best.
func tavanaCandidates(t testing.TB, lineSize int) []linecomp.Codec {
	t.Helper()
	best, err := linecomp.New("tavana-best", lineSize)
	if err != nil {
		t.Fatal(err)
	}
	return best.(*multi.Codec).Members()
}

// referenceChoices is a second, deliberately plain reading of model-spec §6:
// the position in the period decides the phase, every sample prices every
// candidate afresh, and the decision sorts the candidates by (most votes,
// least penalty sum, lowest index).
func referenceChoices(cands []linecomp.Codec, lambda float64, samples, running, minVotes int, lines [][]byte) []int {
	period := samples + running
	selection := 0
	votes := make([]int, len(cands))
	sums := make([]float64, len(cands))
	out := make([]int, 0, len(lines))
	for n, line := range lines {
		pos := n % period
		if pos >= samples {
			out = append(out, selection)
			continue
		}
		if pos == 0 {
			clear(votes)
			clear(sums)
		}
		winner := 0
		var pWinner float64
		for i, c := range cands {
			lat := c.Latency()
			p := float64(c.Size(line)) + lambda*float64(lat.Compress+lat.Decompress)
			sums[i] += p
			if i == 0 || p < pWinner {
				winner, pWinner = i, p
			}
		}
		votes[winner]++
		out = append(out, winner)
		if pos == samples-1 {
			order := make([]int, len(cands))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int {
				if votes[a] != votes[b] {
					return votes[b] - votes[a]
				}
				return cmp.Compare(sums[a], sums[b])
			})
			if votes[order[0]] >= minVotes {
				selection = order[0]
			}
		}
	}
	return out
}

func splitLines(data []byte, n int) [][]byte {
	var out [][]byte
	for off := 0; off+n <= len(data); off += n {
		out = append(out, data[off:off+n])
	}
	return out
}

// TestRealCodecsAgainstReference runs the selector with the real codecs on
// real data and compares every choice with referenceChoices. The payload
// streams are memory images (the embedded sample, and the corpora when
// present) cut into lines in address order, standing in for inter-GPU
// traffic: they are real data, not captured link traffic.
func TestRealCodecsAgainstReference(t *testing.T) {
	for _, lineSize := range []int{64, 128} {
		cands := tavanaCandidates(t, lineSize)
		for _, f := range codectest.Files(t) {
			lines := splitLines(f.Data, lineSize)
			for _, cfg := range []struct{ samples, running, minVotes int }{{7, 300, 3}, {7, 1, 3}, {5, 2, 2}} {
				for _, lambda := range []float64{0, 6, 32, 0.7} {
					name := fmt.Sprintf("%d/%s/%d-%d-%d/λ=%v", lineSize, f.Name, cfg.samples, cfg.running, cfg.minVotes, lambda)
					want := referenceChoices(cands, lambda, cfg.samples, cfg.running, cfg.minVotes, lines)
					s, err := vote.New(vote.Config{Candidates: cands, Lambda: lambda, Samples: cfg.samples, Running: cfg.running, MinVotes: cfg.minVotes})
					if err != nil {
						t.Fatal(err)
					}
					uses := make([]uint64, len(cands))
					for k, l := range lines {
						got := s.Choose(l)
						if got != want[k] {
							t.Fatalf("%s: transfer %d: chose %d (%s), reference %d (%s)", name, k, got, cands[got].Name(), want[k], cands[want[k]].Name())
						}
						uses[got]++
					}
					for i := range cands {
						if c, _ := s.Candidate(i); c.Uses != uses[i] {
							t.Fatalf("%s: candidate %d counts %d uses, carried %d", name, i, c.Uses, uses[i])
						}
					}
				}
			}
		}
	}
}

// TestRealCodecsDirections checks the directions the paper reports on
// data where they must hold: on ciphertext (AES) nothing compresses, so at
// λ = 0 and above the vote keeps "none" for every running transfer; on an
// all-zero stream every codec compresses, so λ = 0 picks the smallest
// encoding and λ = 32 the fastest compressing one.
func TestRealCodecsDirections(t *testing.T) {
	cands := tavanaCandidates(t, 64)
	found := false
	for _, f := range codectest.Files(t) {
		if f.Name != "rand_aes256ctr.bin" {
			continue
		}
		found = true
		for _, lambda := range []float64{0, 6, 32} {
			s, _ := vote.New(vote.Config{Candidates: cands, Lambda: lambda})
			for _, l := range splitLines(f.Data, 64) {
				s.Choose(l)
			}
			if c, _ := s.Candidate(0); c.Selected != s.Stats().Decisions {
				t.Errorf("λ=%v on ciphertext: none selected %d of %d decisions", lambda, c.Selected, s.Stats().Decisions)
			}
		}
	}
	if !found {
		t.Fatal("no ciphertext in the embedded sample")
	}
	zero := make([]byte, 64)
	sizes := make([]int, len(cands))
	for i, c := range cands {
		sizes[i] = c.Size(zero)
	}
	smallest := 0
	for i := range sizes {
		if sizes[i] < sizes[smallest] {
			smallest = i
		}
	}
	for _, tc := range []struct {
		lambda float64
		want   int
	}{{0, smallest}, {32, 1}} { // 1 = BDI, 3 cycles
		s, _ := vote.New(vote.Config{Candidates: cands, Lambda: tc.lambda})
		for range 7 {
			s.Choose(zero)
		}
		if s.Selection() != tc.want {
			t.Errorf("λ=%v on zero lines (sizes %v): selection %d, want %d", tc.lambda, sizes, s.Selection(), tc.want)
		}
	}
}
