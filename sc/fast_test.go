package sc

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
)

// checkFast cross-checks the fast paths (fast.go) against the reference
// ones (the generic hash lookup, bitstream.Writer, bitstream.Reader and the
// DeLUT scan) on every line of data: the same Size, the same stream, the
// same decoded line, and for altered streams (truncated, extended, bits
// flipped) the same result or the same error.
func checkFast(t *testing.T, c *Codec, name string, data []byte, mutateEvery int) {
	t.Helper()
	tb := c.table
	if tb.maxLen <= fastMaxLen && (tb.enc == nil || tb.lut == nil) {
		t.Fatalf("%s: L = %d table has no fast paths", name, tb.maxLen)
	}
	n := c.lineSize
	var dst, ref, dec, decRef []byte
	for k, off := 0, 0; off+n <= len(data); k, off = k+1, off+n {
		line := data[off : off+n]
		var e [32]uint64
		want := c.codes(line, &e)
		if want >= 8*n {
			want = 8 * n
		}
		if got := c.Size(line); got != tagBits+want {
			t.Fatalf("%s line %d: Size %d, reference %d", name, k, got, tagBits+want)
		}
		var bits, refBits int
		dst, bits, _ = c.Compress(dst[:0], line)
		ref, refBits = c.compressRef(ref[:0], line)
		if bits != refBits || !bytes.Equal(dst, ref) {
			t.Fatalf("%s line %d (%X): Compress %X (%d bits), reference %X (%d bits)", name, k, line, dst, bits, ref, refBits)
		}
		var err error
		if dec, err = c.Decompress(dec[:0], dst); err != nil || !bytes.Equal(dec, line) {
			t.Fatalf("%s line %d: Decompress(%X) = %X, %v", name, k, dst, dec, err)
		}
		if mutateEvery == 0 || k%mutateEvery != 0 {
			continue
		}
		alt := func(enc []byte) {
			var err, errRef error
			dec, err = c.Decompress(dec[:0], enc)
			decRef, errRef = c.decompressRef(decRef[:0], enc)
			if fmt.Sprint(err) != fmt.Sprint(errRef) || !bytes.Equal(dec, decRef) {
				t.Fatalf("%s line %d: Decompress(%X) = %X, %v; reference %X, %v", name, k, enc, dec, err, decRef, errRef)
			}
		}
		m := append([]byte(nil), dst...)
		alt(m[:len(m)-1])
		alt(append(m, 0))
		alt(append(m, 0x80))
		for bit := 0; bit < 8*len(m); bit += 1 + k%5 {
			m[bit/8] ^= 0x80 >> (bit % 8)
			alt(m)
			m[bit/8] ^= 0x80 >> (bit % 8)
		}
	}
}

// TestFastPaths trains codecs on the first tenth of each file (as the
// benchmarks do) and on all of it, at several code length limits so that
// the decoder table's one- and two-symbol entries, its fallback to the
// DeLUT for long codewords, and the reference path above fastMaxLen are
// all taken, and cross-checks the fast paths on every line.
func TestFastPaths(t *testing.T) {
	files := codectest.Files(t) // the sample, and the corpora when present
	for _, f := range files {
		data := f.Data[:len(f.Data)/128*128]
		for _, n := range codectest.LineSizes {
			for _, cfg := range []struct{ L, E int }{{16, 1024}, {3, 7}, {11, 1024}, {12, 1024}, {24, 1024}, {25, 64}} {
				c, err := New(n, WithMaxCodeLen(cfg.L), WithVFTEntries(cfg.E))
				if err != nil {
					t.Fatal(err)
				}
				train := data
				if cfg.L == 16 {
					train = data[:len(data)/10/n*n]
				}
				tr := newTrainer(c)
				for off := 0; off+n <= len(train); off += n {
					tr.Observe(train[off : off+n])
				}
				c = built(t, tr)
				name := fmt.Sprintf("%s n=%d L=%d E=%d", f.Name, n, cfg.L, cfg.E)
				every := 0
				if n == 128 || cfg.L == 3 {
					every = 97
				}
				if testing.Short() || cfg.L != 16 {
					data := data[:min(len(data), 1<<18)]
					checkFast(t, c, name, data, every)
					continue
				}
				checkFast(t, c, name, data, every)
			}
		}
	}
}
