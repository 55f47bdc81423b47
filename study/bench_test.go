package study_test

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/study"
)

// BenchmarkLatte replays each sample warp trace under LATTE-CC (the policy,
// its virtual queues and the SC² training included) and reports L1
// accesses per second and allocations per access; sim/gpu's BenchmarkReplay
// is the same machine with a static BDI L1 and no policy.
func BenchmarkLatte(b *testing.B) {
	for _, tr := range sample.Traces() {
		if tr.Stream != "warps" {
			continue
		}
		b.Run(tr.Bench, func(b *testing.B) {
			b.ReportAllocs()
			var accesses uint64
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := 0; i < b.N; i++ {
				r, err := study.RunLatte(study.Params{"policy": "latte"}, bytes.NewReader(tr.Data))
				if err != nil {
					b.Fatal(err)
				}
				accesses += r.L1Accesses
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(accesses), "allocs/access")
			b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "L1-accesses/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(accesses), "ns/access")
		})
	}
}
