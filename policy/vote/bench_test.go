package vote_test

import (
	"strconv"
	"testing"

	"github.com/linecomp/linecomp/policy/vote"
	"github.com/linecomp/linecomp/sample"
)

// BenchmarkChoose measures the selector with none, BDI, FPC and C-Pack+Z on
// the embedded sample's lines (64 and 128 bytes) in the default phases: 7
// of every 307 transfers price all four candidates, the rest cost a few
// counter updates.
func BenchmarkChoose(b *testing.B) {
	for _, lineSize := range []int{64, 128} {
		var lines [][]byte
		for _, f := range sample.Files() {
			lines = append(lines, splitLines(f.Data, lineSize)...)
		}
		for _, tc := range []struct {
			name string
			cfg  vote.Config
		}{
			{"default", vote.Config{Lambda: 6}},
			// Every transfer sampled: the cost of pricing all four.
			{"always-sampling", vote.Config{Lambda: 6, Samples: 7, Running: 7, Phases: vote.SampleWithinRun}},
		} {
			b.Run(tc.name+"/"+strconv.Itoa(lineSize), func(b *testing.B) {
				cfg := tc.cfg
				cfg.Candidates = tavanaCandidates(b, lineSize)
				s, err := vote.New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.SetBytes(int64(lineSize))
				k := 0
				cpu0 := cpuSeconds()
				for b.Loop() {
					s.Choose(lines[k])
					if k++; k == len(lines) {
						k = 0
					}
				}
				reportRate(b, cpu0, "transfers")
			})
		}
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
