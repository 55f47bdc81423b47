package fpc

import (
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// BenchmarkFPC measures Size, Compress and Decompress over every 64-byte
// line of the embedded sample, beside a memcpy of the same buffers.
// Throughput counts uncompressed bytes; bits/line is the mean stream length.
func BenchmarkFPC(b *testing.B) {
	const n = 64
	var data []byte
	for _, f := range codectest.Sample() {
		data = append(data, f.Data[:len(f.Data)/n*n]...)
	}
	b.Run("memcpy", func(b *testing.B) {
		dst := make([]byte, n)
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			for off := 0; off < len(data); off += n {
				copy(dst, data[off:off+n])
			}
		}
	})
	for _, name := range []string{"fpc", "fpc-tavana"} {
		c, err := linecomp.New(name, n)
		if err != nil {
			b.Fatal(err)
		}
		var encs [][]byte
		bits := 0
		for off := 0; off < len(data); off += n {
			e, nb, _ := c.Compress(nil, data[off:off+n])
			encs = append(encs, e)
			bits += nb
		}
		perLine := float64(bits) / float64(len(encs))
		run := func(op string, f func(i int, line []byte)) {
			b.Run(name+"/"+op, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					for i := range encs {
						f(i, data[i*n:(i+1)*n])
					}
				}
				b.ReportMetric(perLine, "bits/line")
			})
		}
		enc := make([]byte, 0, 2*n)
		dec := make([]byte, 0, n)
		run("size", func(_ int, line []byte) { c.Size(line) })
		run("compress", func(_ int, line []byte) { c.Compress(enc[:0], line) })
		run("decompress", func(i int, _ []byte) { c.Decompress(dec[:0], encs[i]) })
	}
}
