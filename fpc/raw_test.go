package fpc

import (
	"slices"
	"testing"

	"github.com/linecomp/linecomp/internal/bitstream"
)

// decodeRawReadRaw is what Decompress of a raw stream would be without
// decodeRaw's loop: bitstream.ReadRaw straight into dst's spare capacity.
// BenchmarkRawLine keeps the loop honest against it.
func (c *Codec) decodeRawReadRaw(dst, enc []byte) []byte {
	n := c.lineSize
	out := slices.Grow(dst, n)[:len(dst)+n]
	if _, _, ok := bitstream.ReadRaw(out[len(dst):], enc, tagBits); !ok {
		return dst
	}
	return out
}

// TestDecodeRawReadRaw: the benchmark's alternative decodes what
// Decompress decodes, overlapping dst included.
func TestDecodeRawReadRaw(t *testing.T) {
	for _, n := range []int{32, 64, 128} {
		c, _ := New(n)
		line := make([]byte, n)
		for i := range line {
			line[i] = byte(i*97 + 13)
		}
		enc, bits, _ := c.Compress(nil, line)
		if bits != 1+8*n {
			t.Fatalf("%d bytes: not a raw line (%d bits)", n, bits)
		}
		if got := c.decodeRawReadRaw(enc[:0], enc); !slices.Equal(got, line) {
			t.Errorf("%d bytes: % X, want % X", n, got, line)
		}
	}
}

// BenchmarkRawLine decodes a raw 128-byte line with Decompress, whose loop
// reads the stream in place, and with bitstream.ReadRaw, which reads it in
// place too but costs a call more: the loop stays while it is faster (run
// with -count and compare the best rounds).
func BenchmarkRawLine(b *testing.B) {
	c, _ := New(128)
	line := make([]byte, 128)
	for i := range line {
		line[i] = byte(i*97 + 13)
	}
	enc, _, _ := c.Compress(nil, line)
	dst := make([]byte, 0, 128)
	b.Run("Decompress", func(b *testing.B) {
		b.SetBytes(128)
		b.ReportAllocs()
		for b.Loop() {
			c.Decompress(dst, enc)
		}
	})
	b.Run("ReadRaw", func(b *testing.B) {
		b.SetBytes(128)
		b.ReportAllocs()
		for b.Loop() {
			c.decodeRawReadRaw(dst, enc)
		}
	})
}
