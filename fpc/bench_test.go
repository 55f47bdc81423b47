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
	c := mustNewB(b, 64)
	benchKinds(b, c, func(buf []byte, line, enc []byte) []byte {
		buf, _ = c.Decompress(buf[:0], enc)
		return buf
	})
}

// BenchmarkEncodeKinds is BenchmarkDecodeKinds for Compress.
func BenchmarkEncodeKinds(b *testing.B) {
	c := mustNewB(b, 64)
	benchKinds(b, c, func(buf []byte, line, enc []byte) []byte {
		buf, _, _ = c.Compress(buf[:0], line)
		return buf
	})
}

// benchKinds runs op on every 64-byte corpus line (with its stream enc)
// in two sub-benchmarks, "raw" for the lines c stores raw and "coded" for
// the others, and reports ns per line. The streams lie one after another
// in one buffer, as in a linecomp.Lines, so each has spare capacity after
// it and Decompress takes the path it takes there (reading the stream in
// place), not the one for a stream with no room after it.
func benchKinds(b *testing.B, c *Codec, op func(buf []byte, line, enc []byte) []byte) {
	n := c.LineSize()
	var all []byte
	var ends []int
	var lines [][]byte
	for _, f := range codectest.Files(b) {
		for off := 0; off+n <= len(f.Data); off += n {
			var err error
			if all, _, err = c.Compress(all, f.Data[off:off+n]); err != nil {
				b.Fatal(err)
			}
			ends = append(ends, len(all))
			lines = append(lines, f.Data[off:off+n])
		}
	}
	type coded struct{ line, enc []byte }
	var kinds [2][]coded // by the stream's flag
	start := 0
	for i, end := range ends {
		enc := all[start:end]
		kinds[enc[0]>>7] = append(kinds[enc[0]>>7], coded{lines[i], enc})
		start = end
	}
	for flag, name := range []string{"raw", "coded"} {
		b.Run(name, func(b *testing.B) {
			lines := kinds[flag]
			if len(lines) == 0 {
				b.Skip("no such lines")
			}
			b.SetBytes(int64(n * len(lines)))
			b.ReportAllocs()
			buf := make([]byte, 0, 2*n+16)
			for b.Loop() {
				for _, l := range lines {
					buf = op(buf, l.line, l.enc)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(lines)), "ns/line")
		})
	}
}
