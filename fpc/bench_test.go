package fpc

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
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

// BenchmarkCorpora measures the per-line entry points and the batch ones
// at every kernel level on the full corpora (when present), 128-byte lines:
//
//	go test -run '^$' -bench 'Corpora/fpc/mem_core_py' ./fpc
func BenchmarkCorpora(b *testing.B) {
	const n = 128
	files, err := codectestCorpora()
	if err != nil {
		b.Skip(err)
	}
	for _, name := range []string{"fpc", "fpc-tavana"} {
		c, _ := linecomp.New(name, n)
		for _, f := range files {
			data := f.Data[:len(f.Data)/n*n]
			lines := len(data) / n
			var enc linecomp.Lines
			linecomp.CompressLines(c, &enc, data)
			for _, level := range cpu.Levels() {
				run := func(op string, body func()) {
					b.Run(fmt.Sprintf("%s/%s/%s/%s", name, f.Name, op, level), func(b *testing.B) {
						defer cpu.Set(level)()
						b.SetBytes(int64(len(data)))
						for b.Loop() {
							body()
						}
					})
				}
				buf := make([]byte, 0, 2*n+16)
				sizes := make([]int, 0, lines)
				var out linecomp.Lines
				run("Size", func() {
					for i := range lines {
						c.Size(data[i*n : (i+1)*n])
					}
				})
				run("Compress", func() {
					for i := range lines {
						buf, _, _ = c.Compress(buf[:0], data[i*n:(i+1)*n])
					}
				})
				run("Decompress", func() {
					for i := range lines {
						buf, _ = c.Decompress(buf[:0], enc.Line(i))
					}
				})
				run("Sizes", func() { sizes, _ = linecomp.Sizes(c, sizes[:0], data) })
				run("CompressLines", func() { out.Reset(); linecomp.CompressLines(c, &out, data) })
			}
		}
	}
}

// codectestCorpora returns the four files the issue measures on.
func codectestCorpora() ([]codectest.File, error) {
	dir, err := codectest.CorporaDir()
	if err != nil {
		return nil, err
	}
	var out []codectest.File
	for _, name := range []string{"mem_core_py.bin", "img_astronaut.rgba8", "graph_mesh_copter2.colidx.i32", "rand_aes256ctr.bin"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out = append(out, codectest.File{Name: name, Data: data})
	}
	return out, nil
}
