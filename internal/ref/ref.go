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

// twoBases applies the base rule BDI and MAG-aware BDI share: element i
// (value values[i]) uses the implicit zero base when fitsZero holds;
// otherwise the first such element becomes the explicit base and every
// later one must satisfy fitsBase. It reports which elements use the base,
// the base (zero if none does) and whether the line fits. A single-base
// scheme is the same rule with fitsZero always false: element 0 becomes
// the base.
func twoBases(values []uint64, fitsZero func(v uint64) bool, fitsBase func(v, base uint64) bool) (useBase []bool, base uint64, ok bool) {
	useBase = make([]bool, len(values))
	haveBase := false
	for i, v := range values {
		if fitsZero(v) {
			continue
		}
		if !haveBase {
			base, haveBase = v, true
		}
		if !fitsBase(v, base) {
			return nil, 0, false
		}
		useBase[i] = true
	}
	return useBase, base, true
}

// flags appends one bit per element, element 0 first: 1 = uses the base.
func (s *bits) flags(useBase []bool) {
	for _, b := range useBase {
		if b {
			s.put(1, 1)
		} else {
			s.put(0, 1)
		}
	}
}

// deltas appends each element's width-bit delta: its value less the base
// where it uses the base, else its value (against the zero base).
func (s *bits) deltas(values []uint64, useBase []bool, base uint64, width int) {
	for i, v := range values {
		if useBase[i] {
			v -= base
		}
		s.put(v, width)
	}
}

// words returns the n little-endian k-byte elements of line.
func words(line []byte, k int) []uint64 {
	out := make([]uint64, len(line)/k)
	for i := range out {
		out[i] = word(line, k, i)
	}
	return out
}
