package linecomp_test

import (
	"flag"
	"fmt"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
)

var benchLine = flag.Int("linecomp.line", 128, "line size for the codec benchmarks")

// benchFiles returns the full corpora when present, else the embedded
// sample, each trimmed to whole lines.
func benchFiles(b *testing.B) []codectest.File {
	files := codectest.Files(b)
	if len(files) > len(codectest.Sample()) {
		files = files[len(codectest.Sample()):] // the corpora contain the sample
	}
	for i := range files {
		files[i].Data = files[i].Data[:len(files[i].Data) / *benchLine * *benchLine]
	}
	return files
}

// BenchmarkMemcpy copies each benchmark buffer: the physical limit the
// codec throughputs are compared with.
func BenchmarkMemcpy(b *testing.B) {
	for _, f := range benchFiles(b) {
		dst := make([]byte, len(f.Data))
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(len(f.Data)))
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, f.Data)
			}
		})
	}
}

// BenchmarkCodecs runs Size, Compress and Decompress of every registered
// codec over every file, line by line into reused buffers. Throughput counts
// uncompressed bytes; "ratio" is line bits / compressed bits.
// Select with e.g. -bench 'Codecs/bdi/.*/Compress' and change the line size
// with -linecomp.line 64.
func BenchmarkCodecs(b *testing.B) {
	files := benchFiles(b)
	n := *benchLine
	for _, name := range linecomp.Names() {
		c, err := linecomp.New(name, n)
		if err != nil {
			continue
		}
		for _, f := range files {
			lines := len(f.Data) / n
			if t, ok := c.(linecomp.Trainer); ok {
				// A trainable codec (SC²) gets a fresh code book per file,
				// trained on its first tenth (at least 256 lines), as the
				// linecomp command does by default.
				if c, err = linecomp.New(name, n); err != nil {
					b.Fatal(err)
				}
				t = c.(linecomp.Trainer)
				for i := 0; i < min(max(lines/10, 256), lines); i++ {
					t.Observe(f.Data[i*n : (i+1)*n])
				}
				if err := t.Rebuild(); err != nil {
					b.Fatal(err)
				}
			}
			// Encoded once, on first use: the Decompress input and the
			// ratio metric. Filtered-out sub-benchmarks never pay for it.
			var encoded linecomp.Lines
			var ratio float64
			encode := func(b *testing.B) {
				if encoded.Len() > 0 {
					return
				}
				if err := linecomp.CompressLines(c, &encoded, f.Data); err != nil {
					b.Fatal(err)
				}
				bits := 0
				for _, nb := range encoded.Bits {
					bits += nb
				}
				ratio = float64(8*len(f.Data)) / float64(bits)
			}
			prefix := fmt.Sprintf("%s/%d/%s", name, n, f.Name)
			b.Run(prefix+"/Size", func(b *testing.B) {
				encode(b)
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				for b.Loop() {
					for i := 0; i < lines; i++ {
						c.Size(f.Data[i*n : (i+1)*n])
					}
				}
				b.ReportMetric(ratio, "ratio")
			})
			b.Run(prefix+"/Compress", func(b *testing.B) {
				encode(b)
				buf := make([]byte, 0, 2*n+16)
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				for b.Loop() {
					for i := 0; i < lines; i++ {
						buf, _, _ = c.Compress(buf[:0], f.Data[i*n:(i+1)*n])
					}
				}
				b.ReportMetric(ratio, "ratio")
			})
			b.Run(prefix+"/Decompress", func(b *testing.B) {
				encode(b)
				buf := make([]byte, 0, n)
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				for b.Loop() {
					for i := range lines {
						buf, _ = c.Decompress(buf[:0], encoded.Line(i))
					}
				}
				b.ReportMetric(ratio, "ratio")
			})
		}
	}
}

// BenchmarkSizes runs the batch entry point linecomp.Sizes of every codec
// over every file at every kernel level.
func BenchmarkSizes(b *testing.B) {
	files := benchFiles(b)
	n := *benchLine
	for _, name := range linecomp.Names() {
		c, err := linecomp.New(name, n)
		if err != nil {
			continue
		}
		for _, f := range files {
			sizes := make([]int, 0, len(f.Data)/n)
			for _, level := range cpu.Levels() {
				b.Run(fmt.Sprintf("%s/%d/%s/%s", name, n, f.Name, level), func(b *testing.B) {
					defer cpu.Set(level)()
					b.SetBytes(int64(len(f.Data)))
					b.ReportAllocs()
					for b.Loop() {
						sizes, _ = linecomp.Sizes(c, sizes[:0], f.Data)
					}
				})
			}
		}
	}
}
