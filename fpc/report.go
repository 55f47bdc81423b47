package fpc

import (
	"fmt"

	"github.com/linecomp/linecomp"
)

// Encodings lists the line-level encodings, numbered as EncodingOf reports
// them: 0 "compressed", the flag 1 and word codes, of varying length; 1
// "raw", the flag 0 and the line, always 1 + 8·LineSize bits; and for
// "fpc-tavana" 2 "zeros", the flag 1 and the zero-block code, always 4
// bits. The flag alone does not tell the length of a compressed line, so
// linecomp.TagGivesSize is false.
func (c *Codec) Encodings() []linecomp.Encoding { return c.encodings }

// Numbers of the encodings, as Encodings lists them.
const (
	encCompressed = iota
	encRaw
	encZeros // fpc-tavana only
)

// EncodingOf returns the number of the encoding of enc, read from its
// first four bits at most: the flag, and for "fpc-tavana" the first
// prefix, which tells the zero block. An empty stream gives an error
// wrapping linecomp.ErrCorrupt. It does not check the rest of the stream.
func (c *Codec) EncodingOf(enc []byte) (int, error) {
	switch {
	case len(enc) == 0:
		return 0, &linecomp.CorruptError{Codec: c.name, Offset: 0, Reason: "stream ends inside a field"}
	case enc[0]>>7 == rawFlag:
		return encRaw, nil
	case c.tab.tavana && enc[0]>>(7-prefixBits)&(1<<prefixBits-1) == TavanaZeroBlock:
		return encZeros, nil
	}
	return encCompressed, nil
}

// Pattern is a way FPC stores a word, as CountPatterns counts it. The
// patterns of both tables are numbered alike: pattern p is number p + 1 of
// Tavana et al.'s Table II, the shape of their Table VI (the share of words
// per pattern), followed by the "fpc" table's uncompressed word.
type Pattern int

const (
	PatternZeroBlock        Pattern = iota // a word of an all-zero line coded by the zero-block code ("fpc-tavana")
	PatternZeroWord                        // a zero word; in "fpc" part of a zero run
	PatternRepeatedBytes                   // four equal bytes
	PatternSignExt4                        // 4-bit sign-extended
	PatternSignExt8                        // 1-byte sign-extended
	PatternSignExt16                       // halfword sign-extended
	PatternZeroLowHalf                     // halfword padded with a zero low halfword
	PatternTwoHalves                       // two halfwords, each a sign-extended byte
	PatternRaw                             // a word of a line stored raw (flag 0)
	PatternUncompressedWord                // a word coded by prefix 111 ("fpc")
	NumPatterns
)

var patternNames = [NumPatterns]string{
	PatternZeroBlock: "zero-block", PatternZeroWord: "zero-word", PatternRepeatedBytes: "repeated-bytes",
	PatternSignExt4: "sign-ext-4", PatternSignExt8: "sign-ext-8", PatternSignExt16: "sign-ext-16",
	PatternZeroLowHalf: "zero-low-half", PatternTwoHalves: "two-halves", PatternRaw: "raw",
	PatternUncompressedWord: "uncompressed-word",
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
var patternOf = [nKinds]Pattern{
	kZero: PatternZeroWord, kSE4: PatternSignExt4, kSE8: PatternSignExt8, kRep: PatternRepeatedBytes,
	kSE16: PatternSignExt16, kLowZero: PatternZeroLowHalf, kTwo: PatternTwoHalves, kRaw: PatternUncompressedWord,
}

// Patterns returns the names of the patterns, indexed by Pattern: the
// counts of CountPatterns are in this order. The slice is the package's
// own and must not be modified. Both tables list all NumPatterns; a table
// never uses some of them ("fpc" the zero block, "fpc-tavana" the
// uncompressed word).
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
	var kinds [chunkLines * maxWords]uint8
	var sums [chunkLines]uint64
	words := n / 4
	for len(data) > 0 {
		lines := min(len(data)/n, chunkLines)
		c.classifyLines(data[:lines*n], kinds[:], sums[:lines])
		for i, s := range sums[:lines] {
			switch b := c.codeBits(summary(s)); {
			case !c.fits(b):
				counts[PatternRaw] += words
			case c.tab.tavana && b == prefixBits:
				counts[PatternZeroBlock] += words
			default:
				for _, k := range kinds[i*words : (i+1)*words] {
					counts[patternOf[k&7]]++
				}
			}
		}
		data = data[lines*n:]
	}
	return nil
}
