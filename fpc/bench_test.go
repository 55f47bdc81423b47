package fpc

import (
	"fmt"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// BenchmarkCodec times Compress and Decompress one line at a time over the
// corpora (the sample without them), as the root BenchmarkTargets does for
// its fpc rows, whose floor is 0.18× memcpy of the same buffer; it reports
// ns per line besides MB/s.
func BenchmarkCodec(b *testing.B) {
	for _, n := range []int{64, 128} {
		var data []byte
		for _, f := range codectest.Files(b) {
			data = append(data, f.Data[:len(f.Data)/n*n]...)
		}
		c := mustNewB(b, n)
		var encoded linecomp.Lines
		if err := linecomp.CompressLines(c, &encoded, data); err != nil {
			b.Fatal(err)
		}
		lines := float64(len(data) / n)
		b.Run(fmt.Sprintf("%d/encode", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			buf := make([]byte, 0, 2*n+16)
			for b.Loop() {
				for off := 0; off < len(data); off += n {
					buf, _, _ = c.Compress(buf[:0], data[off:off+n])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/lines, "ns/line")
		})
		b.Run(fmt.Sprintf("%d/decode", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			buf := make([]byte, 0, n)
			for b.Loop() {
				for i := range encoded.Len() {
					buf, _ = c.Decompress(buf[:0], encoded.Line(i))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/lines, "ns/line")
		})
	}
}

func mustNewB(b *testing.B, n int) *Codec {
	c, err := New(n)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkDecodeKinds times Decompress of 64-byte lines over the corpora
// separately for the lines stored raw and those stored as word codes, in
// ns per line: the two paths cost differently and BenchmarkCodec's
// average hides which one a change moved.
func BenchmarkDecodeKinds(b *testing.B) {
	const n = 64
	var data []byte
	for _, f := range codectest.Files(b) {
		data = append(data, f.Data[:len(f.Data)/n*n]...)
	}
	c := mustNewB(b, n)
	var raw, coded [][]byte
	for off := 0; off < len(data); off += n {
		enc, _, err := c.Compress(nil, data[off:off+n])
		if err != nil {
			b.Fatal(err)
		}
		if enc[0]>>7 == 0 {
			raw = append(raw, enc)
		} else {
			coded = append(coded, enc)
		}
	}
	for _, kind := range []struct {
		name  string
		lines [][]byte
	}{{"raw", raw}, {"coded", coded}} {
		b.Run(kind.name, func(b *testing.B) {
			if len(kind.lines) == 0 {
				b.Skip("no such lines")
			}
			b.SetBytes(int64(n * len(kind.lines)))
			b.ReportAllocs()
			buf := make([]byte, 0, n)
			for b.Loop() {
				for _, enc := range kind.lines {
					buf, _ = c.Decompress(buf[:0], enc)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(kind.lines)), "ns/line")
		})
	}
}

// BenchmarkEncodeKinds is BenchmarkDecodeKinds for Compress: it times
// Compress of the 64-byte lines that are stored raw and of those stored as
// word codes apart, in ns per line.
func BenchmarkEncodeKinds(b *testing.B) {
	const n = 64
	var data []byte
	for _, f := range codectest.Files(b) {
		data = append(data, f.Data[:len(f.Data)/n*n]...)
	}
	c := mustNewB(b, n)
	var raw, coded [][]byte
	for off := 0; off < len(data); off += n {
		line := data[off : off+n]
		enc, _, err := c.Compress(nil, line)
		if err != nil {
			b.Fatal(err)
		}
		if enc[0]>>7 == 0 {
			raw = append(raw, line)
		} else {
			coded = append(coded, line)
		}
	}
	for _, kind := range []struct {
		name  string
		lines [][]byte
	}{{"raw", raw}, {"coded", coded}} {
		b.Run(kind.name, func(b *testing.B) {
			if len(kind.lines) == 0 {
				b.Skip("no such lines")
			}
			b.SetBytes(int64(n * len(kind.lines)))
			b.ReportAllocs()
			buf := make([]byte, 0, 2*n+16)
			for b.Loop() {
				for _, line := range kind.lines {
					buf, _, _ = c.Compress(buf[:0], line)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(kind.lines)), "ns/line")
		})
	}
}
