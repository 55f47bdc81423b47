package cpack

import (
	"bytes"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// TestOverlap: Compress and Decompress read all of their input before
// they write to dst, so the output may start anywhere in (or before) the
// input: dst = in[:0], dst inside in, dst a few bytes before it. Each
// result must equal the one produced into a separate buffer, for every
// registered name, on every sample and edge line.
func TestOverlap(t *testing.T) {
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			checkOverlap(t, mustNew(t, name, n))
		}
	}
}

// overlapLines returns the edge lines and the first lines of every
// sample file.
func overlapLines(n int) [][]byte {
	lines := codectest.EdgeLines(n)
	for _, f := range codectest.Sample() {
		for off := 0; off+n <= len(f.Data) && off < 64*n; off += n {
			lines = append(lines, f.Data[off:off+n])
		}
	}
	return lines
}

func checkOverlap(t *testing.T, c linecomp.Codec) {
	t.Helper()
	n := c.LineSize()
	const at = 16 // where the input starts in the shared buffer
	buf := make([]byte, at+3*n+64)
	fails := 0
	for _, line := range overlapLines(n) {
		want, bits, err := c.Compress(nil, line)
		if err != nil {
			t.Fatal(err)
		}
		// Output offsets relative to the input: before it, at it, inside it.
		for _, shift := range []int{-8, -3, 0, 1, 3, 4, 7, 8, n / 2, len(want) - 1, n - 1} {
			if shift >= n || shift >= len(want) {
				continue
			}
			copy(buf[at:], line)
			in := buf[at : at+n]
			out := buf[at+shift : at+shift]
			got, gotBits, err := c.Compress(out, in)
			if err != nil || gotBits != bits || !bytes.Equal(got, want) || &got[0] != &buf[at+shift] {
				t.Errorf("%s/%d Compress with output at input%+d: %X (%d bits, %v), want %X (%d bits)\nline %X",
					c.Name(), n, shift, got, gotBits, err, want, bits, line)
				fails++
			}
			copy(buf[at:], want)
			enc := buf[at : at+len(want)]
			out = buf[at+shift : at+shift]
			back, err := c.Decompress(out, enc)
			if err != nil || !bytes.Equal(back, line) || &back[0] != &buf[at+shift] {
				t.Errorf("%s/%d Decompress with output at input%+d: %X (%v), want %X\nstream %X",
					c.Name(), n, shift, back, err, line, want)
				fails++
			}
			if fails > 10 {
				t.Fatal("too many failures")
			}
		}
	}
}
