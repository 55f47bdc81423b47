package cache_test

import (
	"testing"

	"github.com/linecomp/linecomp/sim/cache"
)

// BenchmarkReplay replays the gather trace (gatherTrace) through LATTE-CC's
// L1 geometry and reports accesses per second and allocations per access.
func BenchmarkReplay(b *testing.B) {
	trace := gatherTrace(b, 128)
	for _, name := range []string{"none", "bdi"} {
		b.Run(name, func(b *testing.B) {
			c := newCache(b, cache.LatteL1(codec(b, name, 128)))
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for i := 0; i < b.N; i++ {
				a := trace[n]
				var err error
				if a.store {
					_, err = c.Store(uint64(i), a.addr, a.line)
				} else {
					_, err = c.Load(uint64(i), a.addr, a.line)
				}
				if err != nil {
					b.Fatal(err)
				}
				if n++; n == len(trace) {
					n = 0
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "accesses/s")
		})
	}
}
