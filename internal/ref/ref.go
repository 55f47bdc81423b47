// Package ref holds the literal reference encoders: slow, obviously correct
// transcriptions of each codec's specification (its package doc and paper),
// used only as test oracles. Each returns the whole encoding of one line as
// a string of '0' and '1', so that a mismatch with a fast codec shows the
// exact bit where they part.
//
// The references share no code with the codec packages: they read words
// with explicit byte arithmetic, try every encoding in the order the spec
// lists them and build the stream character by character.
package ref

import (
	"slices"
	"strings"
)

// Encoder returns the encoding of line (whose length is the line size) as a
// bit string.
type Encoder func(line []byte) string

var encoders = map[string]Encoder{}

// register makes e the reference for the codec registered as name.
func register(name string, e Encoder) {
	if _, dup := encoders[name]; dup {
		panic("ref: duplicate reference for " + name)
	}
	encoders[name] = e
}

// Lookup returns the reference encoder for the registry name.
func Lookup(name string) (Encoder, bool) {
	e, ok := encoders[name]
	return e, ok
}

// Names lists the codecs that have a reference encoder.
func Names() []string {
	var n []string
	for k := range encoders {
		n = append(n, k)
	}
	slices.Sort(n)
	return n
}

// bits builds a bit string, most significant bit of every field first.
type bits struct{ strings.Builder }

// put appends the low n bits of v.
func (s *bits) put(v uint64, n int) {
	if n == 0 {
		return
	}
	for i := n - 1; i >= 0; i-- {
		s.WriteByte('0' + byte(v>>uint(i)&1))
	}
}

// raw appends whole bytes, in memory order.
func (s *bits) raw(p []byte) {
	for _, b := range p {
		s.put(uint64(b), 8)
	}
}

// zeros appends n zero bits.
func (s *bits) zeros(n int) { s.WriteString(strings.Repeat("0", n)) }

// word returns the little-endian unsigned integer of k bytes at element i.
func word(line []byte, k, i int) uint64 {
	var v uint64
	for b := k - 1; b >= 0; b-- {
		v = v<<8 | uint64(line[i*k+b])
	}
	return v
}

// signed reads the low 8k bits of v as a two's-complement integer.
func signed(v uint64, k int) int64 {
	bitsK := 8 * k
	if v>>(bitsK-1)&1 == 1 && bitsK < 64 {
		return int64(v) - int64(1)<<bitsK
	}
	return int64(v)
}

// fitsSigned reports whether x lies in the n-bit two's-complement range.
func fitsSigned(x int64, n int) bool {
	if n >= 64 {
		return true
	}
	return x >= -(int64(1)<<(n-1)) && x < int64(1)<<(n-1)
}
