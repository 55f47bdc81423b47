package linecomp_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

var benchLine = flag.Int("linecomp.line", 128, "line size for the codec benchmarks")

// benchFiles returns the full corpora when present, else the embedded
// sample, each trimmed to whole lines.
func benchFiles(b *testing.B) []codectest.File {
	files := codectest.Sample()
	if dir, err := codectest.CorporaDir(); err == nil {
		entries, _ := os.ReadDir(dir)
		var full []codectest.File
		for _, e := range entries {
			if filepath.Ext(e.Name()) == ".md" || e.IsDir() {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				b.Fatal(err)
			}
			full = append(full, codectest.File{Name: e.Name(), Data: data})
		}
		if len(full) > 0 {
			files = full
		}
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
			// Encode once: the Decompress input and the ratio metric.
			var encs [][]byte
			var bits int
			for i := 0; i < lines; i++ {
				enc, nb, err := c.Compress(nil, f.Data[i*n:(i+1)*n])
				if err != nil {
					b.Fatal(err)
				}
				encs = append(encs, enc)
				bits += nb
			}
			ratio := float64(8*len(f.Data)) / float64(bits)
			prefix := fmt.Sprintf("%s/%d/%s", name, n, f.Name)
			b.Run(prefix+"/Size", func(b *testing.B) {
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
				buf := make([]byte, 0, n)
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				for b.Loop() {
					for _, enc := range encs {
						buf, _ = c.Decompress(buf[:0], enc)
					}
				}
				b.ReportMetric(ratio, "ratio")
			})
		}
	}
}
