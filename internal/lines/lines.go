// Package lines holds the bookkeeping that a codec's batch kernels share
// with linecomp.Lines: for a compress kernel, room for a run of streams
// written back to back, then the Lines extended over what the kernel
// wrote; for a decompress kernel, the run of streams from a line on and
// room for the lines it decodes.
package lines

import (
	"slices"

	"github.com/linecomp/linecomp"
)

// Reserve grows l for n more lines of at most maxBytes bytes each and
// returns the room a kernel writes them into: out, whose first at bytes
// are l's streams so far, and the ends and bits of the n new lines.
func Reserve(l *linecomp.Lines, n, maxBytes int) (out []byte, at int, ends, bits []int) {
	at = len(l.Enc)
	l.Enc = slices.Grow(l.Enc, n*maxBytes)
	l.End = slices.Grow(l.End, n)
	l.Bits = slices.Grow(l.Bits, n)
	return l.Enc[:at+n*maxBytes], at, l.End[len(l.End) : len(l.End)+n], l.Bits[len(l.Bits) : len(l.Bits)+n]
}

// Commit extends l over the n lines that a kernel wrote into the room
// Reserve returned, their streams ending at offset end.
func Commit(l *linecomp.Lines, n, end int) {
	l.Enc = l.Enc[:end]
	l.End = l.End[:len(l.End)+n]
	l.Bits = l.Bits[:len(l.Bits)+n]
}

// Decode runs decode, a batch decompress kernel for lines of lineSize
// bytes, on the lines of src from line from on, appends the lines it
// decoded to dst and returns how many there are. decode gets room for
// every line left (out), src.Enc, the offset where line from starts and
// the end offsets from line from on; it returns how many lines it wrote to
// the start of out, and must stop before a line whose end offset is
// before its start or past src.Enc. A from outside src's lines decodes
// nothing.
func Decode(dst []byte, src *linecomp.Lines, from, lineSize int, decode func(out, enc []byte, start int, ends []int) int) ([]byte, int) {
	if from < 0 || from >= len(src.End) {
		return dst, 0
	}
	start := 0
	if from > 0 {
		start = src.End[from-1]
	}
	ends := src.End[from:]
	n := len(dst)
	dst = slices.Grow(dst, len(ends)*lineSize)
	decoded := decode(dst[n:n+len(ends)*lineSize], src.Enc, start, ends)
	return dst[:n+decoded*lineSize], decoded
}
