// Package lines holds the bookkeeping that a codec's batch compress kernel
// shares with linecomp.Lines: room for a run of streams written back to
// back, then the Lines extended over what the kernel wrote.
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
