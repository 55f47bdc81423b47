package bpc

import (
	"fmt"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// benchData is every corpus file ($LINECOMP_CORPORA or the shared corpora)
// in one buffer, as the root BenchmarkTargets uses them.
func benchData(b testing.TB) []byte {
	var data []byte
	for _, f := range codectest.Corpora(b) {
		data = append(data, f.Data[:len(f.Data)/128*128]...)
	}
	return data
}

// BenchmarkOps times the planes transform, Size, Compress and Decompress
// line by line on the corpora at 64 and 128 bytes, to see where the time
// of each operation goes.
func BenchmarkOps(b *testing.B) {
	data := benchData(b)
	for _, n := range []int{64, 128} {
		c, _ := New(n)
		var enc linecomp.Lines
		if err := linecomp.CompressLines(c, &enc, data); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%d/planes", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var ps planeSet
			for b.Loop() {
				for off := 0; off < len(data); off += n {
					c.transform(data[off:off+n], &ps)
				}
			}
		})
		b.Run(fmt.Sprintf("%d/size", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				for off := 0; off < len(data); off += n {
					c.Size(data[off : off+n])
				}
			}
		})
		b.Run(fmt.Sprintf("%d/encode", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			buf := make([]byte, 0, 2*n+16)
			for b.Loop() {
				for off := 0; off < len(data); off += n {
					buf, _, _ = c.Compress(buf[:0], data[off:off+n])
				}
			}
		})
		b.Run(fmt.Sprintf("%d/decode", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			buf := make([]byte, 0, n)
			for b.Loop() {
				for i := range enc.Len() {
					buf, _ = c.Decompress(buf[:0], enc.Line(i))
				}
			}
		})
	}
}
