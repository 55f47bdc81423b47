package caba

import (
	"fmt"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// benchLines returns the whole n-byte lines of the embedded sample.
func benchLines(n int) [][]byte {
	var lines [][]byte
	for _, f := range codectest.Sample() {
		for off := 0; off+n <= len(f.Data); off += n {
			lines = append(lines, f.Data[off:off+n])
		}
	}
	return lines
}

// BenchmarkCodecs measures Compress, Decompress and Size of every codec on
// the sample, in MB/s of uncompressed lines.
func BenchmarkCodecs(b *testing.B) {
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c, _ := linecomp.New(name, n)
			lines := benchLines(n)
			encs := make([][]byte, len(lines))
			for i, l := range lines {
				encs[i], _, _ = c.Compress(nil, l)
			}
			buf := make([]byte, 0, 2*n+16)
			b.Run(fmt.Sprintf("%s/%d/compress", name, n), func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					c.Compress(buf[:0], lines[i%len(lines)])
				}
			})
			b.Run(fmt.Sprintf("%s/%d/decompress", name, n), func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					c.Decompress(buf[:0], encs[i%len(encs)])
				}
			})
			b.Run(fmt.Sprintf("%s/%d/size", name, n), func(b *testing.B) {
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					c.Size(lines[i%len(lines)])
				}
			})
		}
	}
}

// BenchmarkInstructions measures the instruction counts a GPU model asks
// for per line.
func BenchmarkInstructions(b *testing.B) {
	for _, name := range names {
		const n = 128
		lc, _ := linecomp.New(name, n)
		c := lc.(AssistWarpCoster)
		lines := benchLines(n)
		encs := make([][]byte, len(lines))
		for i, l := range lines {
			encs[i], _, _ = c.Compress(nil, l)
		}
		b.Run(name+"/decompress", func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				c.DecompressInstructions(encs[i%len(encs)])
			}
		})
		b.Run(name+"/compress", func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				c.CompressInstructions(lines[i%len(lines)])
			}
		})
	}
}

// BenchmarkLaneModels measures the lane model, which the tests run on
// every corpus line: lines per second of the warp subroutines.
func BenchmarkLaneModels(b *testing.B) {
	for _, name := range names {
		const n = 128
		c, _ := linecomp.New(name, n)
		m := modelOf(c)
		lines := benchLines(n)
		encs := make([][]byte, len(lines))
		for i, l := range lines {
			encs[i], _, _ = c.Compress(nil, l)
		}
		b.Run(name+"/decompress", func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				m.decompress(encs[i%len(encs)])
			}
		})
		b.Run(name+"/compress", func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				m.compress(lines[i%len(lines)])
			}
		})
	}
}
