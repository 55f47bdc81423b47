package fpc

import (
	"encoding/binary"
	"math/bits"
)

// A line summary is what the classification kernels return for one line,
// besides the kind of every word: enough to give the line's size under
// either table without looking at the words again.
//
//	bits  0–31  zero-word mask: bit i set when word i is zero
//	bits 32–47  the code bits of the non-zero words: 3 + data bits each,
//	            35 for a word that fits no pattern
//	bits 48–55  how many words fit no pattern (kRaw)
//
// The code length of a non-zero word does not depend on the table: both
// give every pattern the same data field. The tables differ only in how
// they code zero words and raw words, which sizeOf applies.
type summary uint64

func (s summary) zeros() uint32 { return uint32(s) }
func (s summary) codeBits() int { return int(s >> 32 & 0xFFFF) }
func (s summary) rawWords() int { return int(s >> 48 & 0xFF) }
func makeSummary(zeros uint32, codeBits, raw int) summary {
	return summary(zeros) | summary(codeBits)<<32 | summary(raw)<<48
}

// kindBits is the code length, prefix included, of a non-zero word of each
// kind; the zero kind counts nothing here.
var kindBits = [8]uint8{kZero: 0, kSE4: 7, kSE8: 11, kRep: 11, kSE16: 19, kLowZero: 19, kTwo: 19, kRaw: 35}

// seKind maps the number of leading zeros of a word folded to its
// magnitude (w ^ w>>31, arithmetic) to the narrowest sign-extended pattern
// it fits: under 2^3 is SE4, under 2^7 SE8, under 2^15 SE16.
var seKind = func() (t [33]kind) {
	for lz := range t {
		switch {
		case lz >= 29:
			t[lz] = kSE4
		case lz >= 25:
			t[lz] = kSE8
		case lz >= 17:
			t[lz] = kSE16
		default:
			t[lz] = kRaw
		}
	}
	return t
}()

// classifyWord returns the cheapest pattern of a word, ties to the lower
// prefix (the tests check it against classify, a plain switch over the
// patterns' definitions). Kinds are numbered in order of preference, so a
// word's kind is the minimum over the patterns it matches, and the three nested sign-extended patterns come from one
// leading-zero count. (Fully branch-free forms measured slower here: the
// compiler turns min of small integers into branches anyway, and the
// pattern branches predict well on real data.)
func classifyWord(w uint32) kind {
	k := seKind[bits.LeadingZeros32(w^uint32(int32(w)>>31))]
	if w == w&0xFF*0x01010101 {
		k = min(k, kRep)
	}
	if w&0xFFFF == 0 {
		k = min(k, kLowZero)
	}
	if (w+0x80)&0xFF00|(w+0x80_0000)&0xFF00_0000 == 0 {
		k = min(k, kTwo)
	}
	if w == 0 {
		k = kZero
	}
	return k
}

// classifyLineGeneric writes the kind of every word of line to kinds and
// returns the line's summary. It is the pure-Go definition that the
// assembly kernels must match byte for byte.
func classifyLineGeneric(line []byte, kinds []uint8) summary {
	var zeros uint32
	codeBits, raw := 0, 0
	kinds = kinds[:len(line)/4]
	for i := range kinds {
		k := classifyWord(binary.LittleEndian.Uint32(line[4*i:]))
		kinds[i] = uint8(k)
		codeBits += int(kindBits[k&7])
		if k == kZero {
			zeros |= 1 << i
		}
		if k == kRaw {
			raw++
		}
	}
	return makeSummary(zeros, codeBits, raw)
}

// classifyLinesGeneric classifies each line of data: line j's kinds go to
// kinds[j*words:], its summary to sums[j].
func classifyLinesGeneric(data []byte, lineSize int, kinds []uint8, sums []uint64) {
	words := lineSize / 4
	for j := range sums {
		sums[j] = uint64(classifyLineGeneric(data[j*lineSize:(j+1)*lineSize], kinds[j*words:(j+1)*words]))
	}
}

// runCodeStarts returns the words of zero mask z at which an "fpc" zero-run
// code starts: the first zero word of each run of zeros, and every eighth
// zero word after it, since one code holds at most maxRun words.
func runCodeStarts(z uint32) uint32 {
	starts := z &^ (z << 1)
	// z8 marks the zero words with at least 8 zero words before them in
	// their run; its own run starts are at offset 8 of a long run.
	z1 := z & (z << 1)
	z3 := z1 & (z1 << 2)
	z7 := z3 & (z3 << 4)
	z8 := z & (z7 << 1)
	z16 := z8 & (z8 << 8)
	z24 := z16 & (z8 << 16)
	return starts | z8&^(z8<<1) | z16&^(z16<<1) | z24&^(z24<<1)
}

// codeBits returns the length of the word codes that summary s describes
// under the codec's table, or -1 if a word has no code (Tavana's table).
func (c *Codec) codeBits(s summary) int {
	z := s.zeros()
	if !c.tab.tavana {
		return s.codeBits() + (prefixBits+runBits)*bits.OnesCount32(runCodeStarts(z))
	}
	switch {
	case s.rawWords() != 0:
		return -1
	case z == c.allWords:
		return prefixBits // the zero block
	}
	return s.codeBits() + prefixBits*bits.OnesCount32(z)
}

// sizeOf returns the stream length of a line with summary s.
func (c *Codec) sizeOf(s summary) int {
	return c.streamBits(c.codeBits(s))
}
