package link_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/multi"
	"github.com/linecomp/linecomp/policy/vote"
	"github.com/linecomp/linecomp/sim/link"
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

// syntheticTraffic turns a payload stream into transfers among GPUs 1–4
// (80% reads, 20% writes, uniformly 0 to maxGapPS apart). The payloads are
// real data (memory images, not captured link traffic); the pattern is
// made up. With 64-byte lines, maxGapPS = 8000 (4 cycles apart on
// average) saturates the bus even with the vote compressing.
func syntheticTraffic(data []byte, lineSize int, seed, maxGapPS uint64) []link.Transfer {
	rng := rand.New(rand.NewPCG(seed, 11))
	var out []link.Transfer
	var at uint64
	for off := 0; off+lineSize <= len(data); off += lineSize {
		src := uint32(1 + rng.IntN(4))
		dst := 1 + (src+uint32(rng.IntN(3)))%4
		op := link.Read
		if rng.IntN(5) == 0 {
			op = link.Write
		}
		at += rng.Uint64N(maxGapPS)
		out = append(out, link.Transfer{Time: at, Src: src, Dst: dst, Op: op, Data: data[off : off+lineSize]})
	}
	return out
}

// refSelector is a plain reading of model-spec §6's vote for one sender.
type refSelector struct {
	n, selection int
	votes        []int
	sums         []float64
}

func (s *refSelector) choose(cands []linecomp.Codec, lambda float64, line []byte) int {
	const samples, running, minVotes = 7, 300, 3
	pos := s.n % (samples + running)
	s.n++
	if pos >= samples {
		return s.selection
	}
	if pos == 0 {
		s.votes = make([]int, len(cands))
		s.sums = make([]float64, len(cands))
	}
	winner := 0
	ps := make([]float64, len(cands))
	for i, c := range cands {
		lat := c.Latency()
		ps[i] = float64(c.Size(line)) + lambda*float64(lat.Compress+lat.Decompress)
		s.sums[i] += ps[i]
		if ps[i] < ps[winner] {
			winner = i
		}
	}
	s.votes[winner]++
	if pos == samples-1 {
		best := slices.MaxFunc([]int{0, 1, 2, 3}[:len(cands)], func(a, b int) int {
			if s.votes[a] != s.votes[b] {
				return s.votes[a] - s.votes[b]
			}
			if c := cmp.Compare(s.sums[b], s.sums[a]); c != 0 {
				return c
			}
			return b - a
		})
		if s.votes[best] >= minVotes {
			s.selection = best
		}
	}
	return winner
}

type refResult struct {
	choices                          []int
	payload, uncompressed, wire, bus uint64
	uses                             map[string]uint64
}

// referenceReplay computes model-spec §6's replay counters directly: per
// sender a refSelector, Fig. 4's header bytes written out (ReadReq 16,
// DataReady 4, WriteReq 13, WriteAck 4), payloads rounded up to bytes.
func referenceReplay(cands []linecomp.Codec, lambda float64, ts []link.Transfer) refResult {
	res := refResult{uses: map[string]uint64{}}
	sel := map[uint32]*refSelector{}
	cyc := func(b uint64) uint64 { return (b + 19) / 20 }
	for _, tr := range ts {
		s := sel[tr.Src]
		if s == nil {
			s = &refSelector{}
			sel[tr.Src] = s
		}
		i := s.choose(cands, lambda, tr.Data)
		res.choices = append(res.choices, i)
		size := uint64(cands[i].Size(tr.Data))
		res.payload += size
		res.uncompressed += uint64(8 * len(tr.Data))
		res.uses[cands[i].Name()]++
		payloadBytes := (size + 7) / 8
		if tr.Op == link.Read {
			res.wire += 16 + 4 + payloadBytes
			res.bus += cyc(16) + cyc(4+payloadBytes)
		} else {
			res.wire += 13 + payloadBytes + 4
			res.bus += cyc(13+payloadBytes) + cyc(4)
		}
	}
	return res
}

// recorder wraps each sender's selector and logs every choice in call
// order, which is record order.
type recorder struct {
	sel *vote.Selector
	log *[]int
}

func (r recorder) Choose(line []byte) int {
	i := r.sel.Choose(line)
	*r.log = append(*r.log, i)
	return i
}

// TestReplayAgainstReference replays real payload streams through the vote
// and the link and compares every transfer's candidate and every counter
// with referenceReplay.
func TestReplayAgainstReference(t *testing.T) {
	cands := tavanaCandidates(t, 64)
	for fi, f := range codectest.Files(t) {
		ts := syntheticTraffic(f.Data, 64, uint64(fi), 8000)
		for _, lambda := range []float64{0, 6, 32} {
			name := fmt.Sprintf("%s/λ=%v", f.Name, lambda)
			want := referenceReplay(cands, lambda, ts)
			var log []int
			r := mustReplay(t, link.ReplayConfig{
				Link: link.Config{Candidates: cands, Nodes: 5},
				NewChooser: func(c []linecomp.Codec) (link.Chooser, error) {
					s, err := vote.New(vote.Config{Candidates: c, Lambda: lambda})
					return recorder{s, &log}, err
				},
			})
			for _, tr := range ts {
				mustAdd(t, r, tr)
			}
			res := mustFinish(t, r)
			for k := range ts {
				if log[k] != want.choices[k] {
					t.Fatalf("%s: transfer %d from GPU %d: chose %d, reference %d", name, k, ts[k].Src, log[k], want.choices[k])
				}
			}
			if res.Transfers != uint64(len(ts)) || res.PayloadBits != want.payload || res.UncompressedPayloadBits != want.uncompressed ||
				res.WireBytes != want.wire || res.BusCycles != want.bus {
				t.Fatalf("%s: result %+v\nreference %+v", name, res, want)
			}
			for _, c := range cands {
				if res.Uses[c.Name()] != want.uses[c.Name()] {
					t.Fatalf("%s: uses %v, reference %v", name, res.Uses, want.uses)
				}
			}
			// Energy: Tavana Table III per 512-bit line, once per transfer.
			wantPJ := float64(res.Uses["bdi"])*1.3 + float64(res.Uses["fpc-tavana"])*36.9 + float64(res.Uses["cpack-z"])*40.0
			if !strings.HasPrefix(res.CodecEnergyNotes["cpack-z"], "tavana: cpack-z compress+decompress 40 pJ") {
				t.Fatalf("%s: energy notes %v", name, res.CodecEnergyNotes)
			}
			if math.Abs(res.CodecEnergyPJ-wantPJ) > 1e-6*wantPJ || res.UnpricedTransfers != 0 {
				t.Fatalf("%s: codec energy %v pJ (%d unpriced), want %v", name, res.CodecEnergyPJ, res.UnpricedTransfers, wantPJ)
			}
		}
	}
}

// TestReplayStatic: with a fixed codec every transfer is carried by it.
func TestReplayStatic(t *testing.T) {
	cands := tavanaCandidates(t, 64)
	f := codectest.Sample()[0]
	ts := syntheticTraffic(f.Data, 64, 1, 8000)
	for i, c := range cands {
		r := mustReplay(t, link.ReplayConfig{Link: link.Config{Candidates: cands}, NewChooser: link.Static(i)})
		var bits uint64
		for _, tr := range ts {
			mustAdd(t, r, tr)
			bits += uint64(c.Size(tr.Data))
		}
		res := mustFinish(t, r)
		if res.Uses[c.Name()] != uint64(len(ts)) || res.PayloadBits != bits {
			t.Fatalf("static %s: %+v, want all %d transfers and %d bits", c.Name(), res, len(ts), bits)
		}
		if i == 0 && res.PayloadBits != res.UncompressedPayloadBits {
			t.Fatalf("static none: %d payload bits, %d uncompressed", res.PayloadBits, res.UncompressedPayloadBits)
		}
	}
}
