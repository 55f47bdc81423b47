package linecomp_test

import (
	"flag"
	"fmt"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
)

var benchLine = flag.Int("linecomp.line", 128, "line size for the codec benchmarks")

// benchFiles returns the full corpora when present, else the embedded
// sample, each trimmed to whole lines.
func benchFiles(b *testing.B) []codectest.File {
	if *benchLine <= 0 {
		b.Fatalf("-linecomp.line %d: a line size must be positive", *benchLine)
	}
	files, _ := benchFilesAt(b, *benchLine)
	return files
}

// benchCodecs returns the registered codecs that take -linecomp.line,
// and fails the benchmark when there is none: a line size that no codec
// takes is a mistake, not an empty run that passes.
func benchCodecs(b *testing.B) []string {
	var names []string
	var sizes []int
	for _, in := range linecomp.Infos() {
		if slices.Contains(in.LineSizes, *benchLine) {
			names = append(names, in.Name)
		}
		sizes = append(sizes, in.LineSizes...)
	}
	if len(names) == 0 {
		slices.Sort(sizes)
		b.Fatalf("-linecomp.line %d: no registered codec takes %d-byte lines (they take %v bytes)", *benchLine, *benchLine, slices.Compact(sizes))
	}
	return names
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
// codec over every file at every kernel level, line by line into reused
// buffers, and the batch entry points CompressLines and DecompressLines over
// the whole file. Throughput counts uncompressed bytes; "ratio" is line
// bits / compressed bits. Select with e.g.
// -bench 'Codecs/^bdi$/128/.*/Compress/' and change the line size with
// -linecomp.line 64.
func BenchmarkCodecs(b *testing.B) {
	files := benchFiles(b)
	n := *benchLine
	for _, name := range benchCodecs(b) {
		for _, f := range files {
			w := &benchWork{name: name, data: f.Data}
			for _, level := range cpu.Levels() {
				prefix := fmt.Sprintf("%s/%d/%s", name, n, f.Name)
				b.Run(prefix+"/Size/"+level.String(), func(b *testing.B) {
					c := w.prepare(b)
					defer cpu.Set(level)()
					w.run(b, func() {
						for off := 0; off < len(w.data); off += n {
							c.Size(w.data[off : off+n])
						}
					})
				})
				b.Run(prefix+"/Compress/"+level.String(), func(b *testing.B) {
					c := w.prepare(b)
					defer cpu.Set(level)()
					buf := make([]byte, 0, 2*n+16)
					w.run(b, func() {
						for off := 0; off < len(w.data); off += n {
							buf, _, _ = c.Compress(buf[:0], w.data[off:off+n])
						}
					})
				})
				b.Run(prefix+"/Decompress/"+level.String(), func(b *testing.B) {
					c := w.prepare(b)
					defer cpu.Set(level)()
					buf := make([]byte, 0, n)
					w.run(b, func() {
						for i := range w.encoded.Len() {
							buf, _ = c.Decompress(buf[:0], w.encoded.Line(i))
						}
					})
				})
				b.Run(prefix+"/CompressLines/"+level.String(), func(b *testing.B) {
					c := w.prepare(b)
					defer cpu.Set(level)()
					var lines linecomp.Lines
					w.run(b, func() {
						lines.Reset()
						if err := linecomp.CompressLines(c, &lines, w.data); err != nil {
							b.Fatal(err)
						}
					})
				})
				b.Run(prefix+"/DecompressLines/"+level.String(), func(b *testing.B) {
					c := w.prepare(b)
					defer cpu.Set(level)()
					buf := make([]byte, 0, len(w.data))
					w.run(b, func() {
						var err error
						if buf, err = linecomp.DecompressLines(c, buf[:0], &w.encoded); err != nil {
							b.Fatal(err)
						}
					})
				})
			}
		}
	}
}

// benchWork is one codec on one file, set up on first use so that
// sub-benchmarks filtered out by -bench cost nothing.
type benchWork struct {
	name    string
	data    []byte
	line    int // the line size; 0 means -linecomp.line
	c       linecomp.Codec
	encoded linecomp.Lines // the Decompress input
	ratio   float64
}

// prepare makes the codec (a trainable one trained on the file's first
// tenth, at least 256 lines, as the linecomp command does by default) and
// encodes the file once.
func (w *benchWork) prepare(b *testing.B) linecomp.Codec {
	if w.c != nil {
		return w.c
	}
	line := w.line
	if line == 0 {
		line = *benchLine
	}
	c, err := linecomp.New(w.name, line)
	if err != nil {
		b.Fatal(err)
	}
	n := c.LineSize()
	lines := len(w.data) / n
	if c, err = linecomp.Train(c, w.data[:min(max(lines/10, 256), lines)*n]); err != nil {
		b.Fatal(err)
	}
	if err := linecomp.CompressLines(c, &w.encoded, w.data); err != nil {
		b.Fatal(err)
	}
	bits := 0
	for _, nb := range w.encoded.Bits {
		bits += nb
	}
	w.c, w.ratio = c, float64(8*len(w.data))/float64(bits)
	return c
}

// run times pass, one pass over the file per iteration.
func (w *benchWork) run(b *testing.B, pass func()) {
	b.SetBytes(int64(len(w.data)))
	b.ReportAllocs()
	for b.Loop() {
		pass()
	}
	b.ReportMetric(w.ratio, "ratio")
}

// BenchmarkSizes runs the batch entry point linecomp.Sizes of every codec
// over every file at every kernel level.
func BenchmarkSizes(b *testing.B) {
	files := benchFiles(b)
	n := *benchLine
	for _, name := range benchCodecs(b) {
		c, err := linecomp.New(name, n)
		if err != nil {
			b.Fatal(err)
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
