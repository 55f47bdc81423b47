package cpack

import (
	"fmt"

	"github.com/linecomp/linecomp"
)

// Numbers of the encodings, as Encodings lists them.
const (
	encCompressed = iota
	encRaw
	encZeros // C-Pack+Z only
)

// Encodings lists the line-level encodings, numbered as EncodingOf reports
// them: 0 "compressed", the flag 1 and word codes, of varying length; 1
// "raw", the flag 0 and the line, always 1 + 8·LineSize bits; and for
// C-Pack+Z 2 "zeros", the flag 1 and the zero-block code, always 3 bits.
// The flag alone does not tell the length of a compressed line, so
// linecomp.TagGivesSize is false.
func (c *Codec) Encodings() []linecomp.Encoding { return c.encodings }

// EncodingOf returns the number of the encoding of enc, read from its
// first code at most: the flag, then for C-Pack+Z whether the first code is
// the zero block. An empty stream, and for C-Pack a first code 1111, which
// is undefined, give an error wrapping linecomp.ErrCorrupt. It does not
// check the rest of the stream.
func (c *Codec) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, &linecomp.CorruptError{Codec: c.name, Offset: 0, Reason: "stream ends inside a field"}
	}
	if enc[0]>>7 == rawFlag {
		return encRaw, nil
	}
	// The first code is in bits 1 to 4 of the first byte.
	k := c.short[enc[0]>>5&3]
	if k < 0 {
		k = c.long[enc[0]>>3&3]
	}
	switch {
	case k < 0:
		return 0, &linecomp.CorruptError{Codec: c.name, Offset: tagBits, Reason: "undefined code 1111"}
	case wordKind(k) == zeroBlockKind:
		return encZeros, nil
	}
	return encCompressed, nil
}

// Pattern is a way C-Pack stores a word, as CountPatterns counts it. The
// patterns of every variant are numbered alike: pattern p is number p + 1
// of Tavana et al.'s Table II for C-Pack+Z, the shape of their Table VI
// (the share of words per pattern).
type Pattern int

const (
	PatternZeroBlock  Pattern = iota // a word of an all-zero line coded by the zero-block code (C-Pack+Z)
	PatternZeroWord                  // zzzz: a zero word
	PatternNewWord                   // xxxx: a word stored whole (and pushed into the dictionary)
	PatternFullMatch                 // mmmm: a word equal to a dictionary entry
	PatternHalfMatch                 // mmxx: the upper two bytes match an entry
	PatternNarrowWord                // zzzx: the upper three bytes are zero
	PatternThreeMatch                // mmmx: the upper three bytes match an entry
	PatternRaw                       // a word of a line stored raw (flag 0)
	NumPatterns
)

var patternNames = [NumPatterns]string{
	PatternZeroBlock: "zero-block", PatternZeroWord: "zzzz", PatternNewWord: "xxxx", PatternFullMatch: "mmmm",
	PatternHalfMatch: "mmxx", PatternNarrowWord: "zzzx", PatternThreeMatch: "mmmx", PatternRaw: "raw",
}

// String returns the pattern's name, as Patterns lists it.
func (p Pattern) String() string {
	if p < 0 || p >= NumPatterns {
		return fmt.Sprintf("Pattern(%d)", int(p))
	}
	return patternNames[p]
}

// patternOf is the pattern of a word of each kind in a line coded word by
// word.
var patternOf = [8]Pattern{
	zeroWord: PatternZeroWord, fullMatch: PatternFullMatch, narrowWord: PatternNarrowWord,
	threeMatch: PatternThreeMatch, halfMatch: PatternHalfMatch, newWord: PatternNewWord,
}

// Patterns returns the names of the patterns, indexed by Pattern: the
// counts of CountPatterns are in this order. The slice is the package's
// own and must not be modified. Every variant lists all NumPatterns;
// C-Pack never uses the zero block.
func (c *Codec) Patterns() []string { return patternNames[:] }

// CountPatterns adds to counts[p] the number of words of data, a whole
// number of lines, that Compress stores with pattern p: every word of a
// line stored raw counts as PatternRaw, every word of a line coded by the
// zero-block code as PatternZeroBlock, and every other word as the pattern
// of its code. counts must have NumPatterns entries; otherwise, or if data
// is not a whole number of lines, it returns an error wrapping
// linecomp.ErrConfig or linecomp.ErrPartialLine and counts nothing. It does
// not allocate.
func (c *Codec) CountPatterns(counts []int, data []byte) error {
	if len(counts) != int(NumPatterns) {
		return linecomp.ConfigError(c.name, "CountPatterns needs %d counts, got %d", NumPatterns, len(counts))
	}
	n := c.lineSize
	if len(data)%n != 0 {
		return fmt.Errorf("%w: %s: %d bytes is %d %d-byte lines and %d bytes over", linecomp.ErrPartialLine, c.name, len(data), len(data)/n, n, len(data)%n)
	}
	words := n / 4
	for ; len(data) > 0; data = data[n:] {
		var ops [maxWords]op
		switch layout, _ := c.plan(data[:n], &ops); layout {
		case layoutRaw:
			counts[PatternRaw] += words
		case layoutZeroBlock:
			counts[PatternZeroBlock] += words
		default:
			for _, o := range ops[:words] {
				counts[patternOf[o.kind()]]++
			}
		}
	}
	return nil
}
