package lines

import (
	"testing"

	"github.com/linecomp/linecomp"
)

// TestReserveCommit: a kernel's run written into Reserve's room after a
// line already in l is, after Commit, lines of l with their ends and bits,
// and nothing of the room past the last stream is left in Enc.
func TestReserveCommit(t *testing.T) {
	l := linecomp.Lines{Enc: []byte{0xAA}, End: []int{1}, Bits: []int{8}}
	out, at, ends, bits := Reserve(&l, 2, 5)
	if at != 1 || len(out) != 11 || len(ends) != 2 || len(bits) != 2 {
		t.Fatalf("Reserve(2 lines of 5 bytes) after 1 byte: out %d bytes from %d, %d ends, %d bits", len(out), at, len(ends), len(bits))
	}
	copy(out[at:], []byte{1, 2, 3, 4, 5, 6, 7}) // a 3-byte and a 4-byte stream, and two bytes of room
	ends[0], ends[1], bits[0], bits[1] = 4, 8, 20, 32
	Commit(&l, 2, 8)
	if l.Len() != 3 || string(l.Line(1)) != "\x01\x02\x03" || string(l.Line(2)) != "\x04\x05\x06\x07" || len(l.Enc) != 8 || l.Bits[2] != 32 {
		t.Errorf("after Commit: %d lines, line 1 % X, line 2 % X, %d bytes, bits %v", l.Len(), l.Line(1), l.Line(2), len(l.Enc), l.Bits)
	}
}

// TestDecode: the decoder gets the start of line from and the ends from it
// on, with room for every line left after dst's bytes, and Decode appends
// the lines it says it wrote; from outside the lines calls nothing.
func TestDecode(t *testing.T) {
	l := linecomp.Lines{Enc: []byte{1, 2, 3, 4, 5, 6}, End: []int{1, 3, 6}, Bits: []int{8, 16, 24}}
	var gotStart int
	var gotEnds []int
	decode := func(out, enc []byte, start int, ends []int) int {
		gotStart, gotEnds = start, ends
		if len(out) != 2*len(ends) || len(enc) != 6 {
			t.Fatalf("decode given %d bytes of room for %d lines and %d bytes of Enc", len(out), len(ends), len(enc))
		}
		out[0], out[1] = 0xA, 0xB
		return 1
	}
	dst, n := Decode([]byte{9}, &l, 1, 2, decode)
	if n != 1 || string(dst) != "\x09\x0A\x0B" || gotStart != 1 || len(gotEnds) != 2 || gotEnds[0] != 3 {
		t.Errorf("Decode from line 1: %d lines, % X; decoder given start %d, ends %v", n, dst, gotStart, gotEnds)
	}
	for _, from := range []int{-1, 3} {
		dst, n := Decode([]byte{9}, &l, from, 2, func([]byte, []byte, int, []int) int {
			t.Fatalf("from line %d: decoder called", from)
			return 0
		})
		if n != 0 || string(dst) != "\x09" {
			t.Errorf("Decode from line %d: %d lines, % X", from, n, dst)
		}
	}
}
