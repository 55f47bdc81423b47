package link_test

import (
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/policy/vote"
	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/sim/link"
)

// BenchmarkReplay measures a whole replay step per transfer: the sender's
// chooser, the carrying codec's Size, and the link carrying the transfer's
// two messages, on the embedded sample as payloads of synthetic 4-GPU
// traffic with 64-byte lines (Tavana's line size). "vote" is the penalty
// vote at λ = 6 over none, BDI, FPC and C-Pack+Z; "static-<name>" carries
// every transfer with one codec, so Size runs on every transfer (cpack-z is
// the slowest). "saturated" offers more than the bus carries, so the record
// stream keeps waiting for room (as on an untimed trace); "light" offers
// about a quarter of what it carries.
func BenchmarkReplay(b *testing.B) {
	cands := tavanaCandidates(b, 64)
	factories := []struct {
		name string
		f    link.ChooserFactory
	}{
		{"vote", func(c []linecomp.Codec) (link.Chooser, error) { return vote.New(vote.Config{Candidates: c, Lambda: 6}) }},
		{"static-none", link.Static(0)},
		{"static-cpack-z", link.Static(3)},
	}
	for _, load := range []struct {
		name     string
		maxGapPS uint64
	}{{"saturated", 8000}, {"light", 32000}} {
		var ts []link.Transfer
		for i, f := range sample.Files() {
			var offset uint64 // one timeline through all the files
			if len(ts) > 0 {
				offset = ts[len(ts)-1].Time
			}
			for _, tr := range syntheticTraffic(f.Data, 64, uint64(i), load.maxGapPS) {
				tr.Time += offset
				ts = append(ts, tr)
			}
		}
		// Times run on across passes over ts, so the replay never goes back.
		span := ts[len(ts)-1].Time + 1000
		for _, fc := range factories {
			b.Run(load.name+"/"+fc.name, func(b *testing.B) {
				r := mustReplay(b, link.ReplayConfig{Link: link.Config{Candidates: cands, Nodes: 5}, NewChooser: fc.f})
				b.ReportAllocs()
				b.SetBytes(64)
				k := 0
				var base uint64
				cpu0 := cpuSeconds()
				for b.Loop() {
					tr := ts[k]
					tr.Time += base
					if err := r.Add(tr); err != nil {
						b.Fatal(err)
					}
					if k++; k == len(ts) {
						k, base = 0, base+span
					}
				}
				if _, err := r.Finish(); err != nil {
					b.Fatal(err)
				}
				reportRate(b, cpu0, "transfers")
			})
		}
	}
}

// BenchmarkSize is the carrying codec's share of a replay step: Size alone
// on the same lines.
func BenchmarkSize(b *testing.B) {
	cands := tavanaCandidates(b, 64)
	var lines [][]byte
	for _, f := range sample.Files() {
		for off := 0; off+64 <= len(f.Data); off += 64 {
			lines = append(lines, f.Data[off:off+64])
		}
	}
	for _, c := range cands {
		b.Run(c.Name(), func(b *testing.B) {
			b.SetBytes(64)
			k := 0
			cpu0 := cpuSeconds()
			for b.Loop() {
				c.Size(lines[k])
				if k++; k == len(lines) {
					k = 0
				}
			}
			reportRate(b, cpu0, "lines")
		})
	}
}

// reportRate reports b.N per wall second and per CPU second of the
// process (see cpuSeconds), as unit/s and unit/cpu-s.
func reportRate(b *testing.B, cpu0 float64, unit string) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), unit+"/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu, unit+"/cpu-s")
	}
}
