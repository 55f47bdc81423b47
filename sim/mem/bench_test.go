package mem_test

import (
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/sim/mem"
)

// BenchmarkReplay replays the corpora laid out as memory images (reads of
// consecutive lines, as TestAgainstReference does) and reports requests
// per second and allocations per request.
func BenchmarkReplay(b *testing.B) {
	var lines [][]byte
	for _, f := range codectest.Files(b) {
		for off := 0; off+128 <= len(f.Data); off += 128 {
			lines = append(lines, f.Data[off:off+128])
		}
	}
	for _, name := range []string{"none", "magbdi-32", "bdi", "fpc"} {
		b.Run(name, func(b *testing.B) {
			m := newMem(b, mem.Config{LineSize: 128, Codec: codec(b, name, 128)})
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				n := i % len(lines)
				if _, err := m.Access(uint64(i), mem.Read, uint64(n)*128, lines[n]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
		})
	}
}
