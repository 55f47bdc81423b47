package caba

import (
	"encoding/binary"
	"math/bits"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

// FPC segment patterns of caba-fpc, the 3-bit prefixes: the "fpc" table
// of package fpc (UW-CS TR-1500) with the zero run replaced by the zero
// segment.
const (
	FPCZeroSegment   = 0b000 // every word of the segment is zero: no data
	FPCSignExt4      = 0b001 // 4-bit sign-extended: the low 4 bits
	FPCSignExt8      = 0b010 // 1-byte sign-extended: the low byte
	FPCSignExt16     = 0b011 // halfword sign-extended: the low halfword
	FPCZeroLowHalf   = 0b100 // halfword padded with a zero halfword: the high halfword
	FPCTwoHalves     = 0b101 // two halfwords, each a sign-extended byte: their low bytes, high first
	FPCRepeatedBytes = 0b110 // four equal bytes: the byte
	FPCUncompressed  = 0b111 // the word
	fpcPatterns      = 8
)

// fpcWidth is the data field of one word, in bits, per pattern.
var fpcWidth = [fpcPatterns]int{0, 4, 8, 16, 16, 16, 8, 32}

// fpcNames names the patterns, in prefix order.
var fpcNames = [fpcPatterns]string{"zero", "sext4", "sext8", "sext16", "zerolow", "halves", "repeated", "word"}

const (
	fpcTagBits = 1
	flagRaw    = 0 // the 1-bit tag of caba-fpc and caba-cpack
	flagPacked = 1
)

// Encoding numbers of caba-fpc and caba-cpack.
const (
	encCompressed = 0
	encRaw        = 1
)

// FPC is the caba-fpc codec for one line size and segment length: FPC with
// one pattern per segment of S words and all prefixes at the head of the
// line (see the package doc). It is immutable and safe for concurrent use.
type FPC struct {
	name      string
	lineSize  int
	seg       int // words per segment, S
	segs      int // segments per line, N
	headBytes int // the prefix area, ⌈3N/8⌉ bytes
	latency   linecomp.Latency
	encodings [2]linecomp.Encoding
}

// NewFPC returns the caba-fpc codec for lines of 32, 64 or 128 bytes, with
// 4 words per segment unless WithSegmentWords says 2 or 8. Its latency is
// unknown unless WithLatency sets one (see the package doc).
func NewFPC(lineSize int, opts ...Option) (*FPC, error) {
	cfg, err := build("caba-fpc", unknownLatency, opts)
	if err != nil {
		return nil, err
	}
	c := &FPC{lineSize: lineSize, latency: cfg.latency, seg: cfg.segWords}
	switch c.seg {
	case 0, 4:
		c.seg, c.name = 4, "caba-fpc"
	case 2:
		c.name = "caba-fpc-s2"
	case 8:
		c.name = "caba-fpc-s8"
	default:
		return nil, linecomp.ConfigError("caba-fpc", "WithSegmentWords(%d): a segment is 2, 4 or 8 words", c.seg)
	}
	if err := checkLineSize(c.name, lineSize); err != nil {
		return nil, err
	}
	c.segs = lineSize / 4 / c.seg
	c.headBytes = (3*c.segs + 7) / 8
	c.encodings = [2]linecomp.Encoding{{Name: "compressed", Bits: -1}, {Name: "raw", Bits: fpcTagBits + 8*lineSize}}
	return c, nil
}

func init() {
	for _, v := range []struct {
		name, variant string
		seg           int
	}{
		{"caba-fpc", "", 4},
		{"caba-fpc-s2", "segments of 2 words: more segments fit a short pattern, at more assist-warp instructions", 2},
		{"caba-fpc-s8", "segments of 8 words: fewer segments to walk, at a lower compression ratio", 8},
	} {
		linecomp.RegisterNew(linecomp.Info{Name: v.name, Algorithm: "caba-fpc", Paper: paper, Variant: v.variant, LineSizes: lineSizes},
			func(n int) (*FPC, error) { return NewFPC(n, WithSegmentWords(v.seg)) })
	}
}

func (c *FPC) Name() string              { return c.name }
func (c *FPC) LineSize() int             { return c.lineSize }
func (c *FPC) TagBits() int              { return fpcTagBits }
func (c *FPC) Latency() linecomp.Latency { return c.latency }

// SegmentWords returns the number of words per segment.
func (c *FPC) SegmentWords() int { return c.seg }

// Encodings lists the two line-level encodings: 0 "compressed", the flag 1,
// the prefixes and the segments' data, of varying length, and 1 "raw", the
// flag 0 and the line, always 1 + 8·LineSize bits.
func (c *FPC) Encodings() []linecomp.Encoding { return c.encodings[:] }

// EncodingOf returns the number of the encoding of enc from its flag. An
// empty stream gives a *linecomp.CorruptError.
func (c *FPC) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, corrupt(c.name, 0, "stream ends inside a field")
	}
	if enc[0]>>7 == flagRaw {
		return encRaw, nil
	}
	return encCompressed, nil
}

// fpcFits returns the set of patterns word w fits, bit p for pattern p.
func fpcFits(w uint32) uint8 {
	var s uint8 = 1 << FPCUncompressed
	if w == 0 {
		s |= 1 << FPCZeroSegment
	}
	if w+8 < 16 {
		s |= 1 << FPCSignExt4
	}
	if w+0x80 < 0x100 {
		s |= 1 << FPCSignExt8
	}
	if w+0x8000 < 0x10000 {
		s |= 1 << FPCSignExt16
	}
	if w&0xFFFF == 0 {
		s |= 1 << FPCZeroLowHalf
	}
	if (w+0x80)&0xFF00 == 0 && (w>>16+0x80)&0xFF00 == 0 {
		s |= 1 << FPCTwoHalves
	}
	if w == w&0xFF*0x01010101 {
		s |= 1 << FPCRepeatedBytes
	}
	return s
}

// fpcPlan is the patterns of a line's segments and the payload length in
// bytes if it is stored compressed.
type fpcPlan struct {
	pattern [32]uint8 // per segment
	bytes   int       // prefix area and data
}

// plan takes, per segment, the first pattern in prefix order that every
// word of the segment fits.
func (c *FPC) plan(line []byte) fpcPlan {
	var pl fpcPlan
	pl.bytes = c.headBytes
	for s := range c.segs {
		fit := uint8(0xFF)
		for j := range c.seg {
			fit &= fpcFits(binary.LittleEndian.Uint32(line[4*(s*c.seg+j):]))
		}
		p := bits.TrailingZeros8(fit)
		pl.pattern[s] = uint8(p)
		pl.bytes += c.seg * fpcWidth[p] / 8
	}
	return pl
}

// compressed reports whether a plan's stream is strictly shorter than the
// raw line's: the flag 1 is worth it.
func (c *FPC) compressed(pl *fpcPlan) bool { return pl.bytes < c.lineSize }

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *FPC) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	pl := c.plan(line)
	if !c.compressed(&pl) {
		return fpcTagBits + 8*c.lineSize
	}
	return fpcTagBits + 8*pl.bytes
}

// Compress appends the encoding of line to dst. It builds the payload
// before it writes to dst, so the two may overlap.
func (c *FPC) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	pl := c.plan(line)
	if !c.compressed(&pl) {
		out, n := bitstream.AppendRaw(dst, flagRaw, fpcTagBits, line)
		return out, n, nil
	}
	var p [bitstream.MaxRawBytes]byte
	var head uint64 // the prefixes, segment 0 in the most significant bits
	for s := range c.segs {
		head |= uint64(pl.pattern[s]) << (8*c.headBytes - 3*(s+1))
	}
	putBE(p[:], head, c.headBytes)
	q := c.headBytes
	for s := range c.segs {
		words := line[4*s*c.seg : 4*(s+1)*c.seg]
		for j := range c.seg {
			w := binary.LittleEndian.Uint32(words[4*j:])
			switch pl.pattern[s] {
			case FPCSignExt4:
				if j%2 == 0 {
					p[q] = byte(w) << 4
				} else {
					p[q] |= byte(w) & 0xF
					q++
				}
			case FPCSignExt8, FPCRepeatedBytes:
				p[q] = byte(w)
				q++
			case FPCSignExt16:
				binary.BigEndian.PutUint16(p[q:], uint16(w))
				q += 2
			case FPCZeroLowHalf:
				binary.BigEndian.PutUint16(p[q:], uint16(w>>16))
				q += 2
			case FPCTwoHalves:
				p[q], p[q+1] = byte(w>>16), byte(w)
				q += 2
			case FPCUncompressed:
				binary.BigEndian.PutUint32(p[q:], w)
				q += 4
			}
		}
	}
	out, n := bitstream.AppendRaw(dst, flagPacked, fpcTagBits, p[:pl.bytes])
	return out, n, nil
}

// Decompress appends the line that enc encodes to dst. It rejects a wrong
// length, non-zero padding (after the prefixes or at the end) and a
// compressed stream that is not shorter than the raw line, which Compress
// never makes. It reads all of enc before it writes to dst, so the two may
// overlap.
func (c *FPC) Decompress(dst, enc []byte) ([]byte, error) {
	var out [128]byte
	if _, _, err := c.decode(&out, enc); err != nil {
		return dst, err
	}
	return append(dst, out[:c.lineSize]...), nil
}

// decode decodes enc into out and returns the patterns of its segments
// (all FPCUncompressed for a raw line, with raw true).
func (c *FPC) decode(out *[128]byte, enc []byte) (pl fpcPlan, raw bool, err error) {
	e, err := c.EncodingOf(enc)
	if err != nil {
		return pl, false, err
	}
	line := out[:c.lineSize]
	if e == encRaw {
		if off, reason, ok := bitstream.ReadRaw(line, enc, fpcTagBits); !ok {
			return pl, false, corrupt(c.name, off, reason)
		}
		return pl, true, nil
	}
	var r bitstream.Reader
	r.Reset(enc)
	r.Read(fpcTagBits)
	pl.bytes = c.headBytes
	for s := range c.segs {
		p := uint8(r.Read(3))
		pl.pattern[s] = p
		pl.bytes += c.seg * fpcWidth[p] / 8
	}
	if pad := 8*c.headBytes - 3*c.segs; r.Read(uint(pad)) != 0 {
		return pl, false, corrupt(c.name, r.Pos()-pad, "non-zero padding after the prefixes")
	}
	if off, bad := r.Overrun(); bad {
		return pl, false, corrupt(c.name, off, "stream ends inside a field")
	}
	if !c.compressed(&pl) {
		return pl, false, corrupt(c.name, fpcTagBits, "compressed stream not shorter than the raw line")
	}
	for s := range c.segs {
		p := pl.pattern[s]
		wbits := uint(fpcWidth[p])
		for j := range c.seg {
			v := uint32(r.Read(wbits))
			var w uint32
			switch p {
			case FPCSignExt4:
				w = uint32(int32(v<<28) >> 28)
			case FPCSignExt8:
				w = uint32(int32(int8(v)))
			case FPCSignExt16:
				w = uint32(int32(int16(v)))
			case FPCZeroLowHalf:
				w = v << 16
			case FPCTwoHalves:
				w = uint32(int16(int8(v>>8)))<<16 | uint32(uint16(int8(v)))
			case FPCRepeatedBytes:
				w = v * 0x01010101
			case FPCUncompressed:
				w = v
			}
			binary.LittleEndian.PutUint32(line[4*(s*c.seg+j):], w)
		}
	}
	if off, reason, ok := r.Problem(); !ok {
		return pl, false, corrupt(c.name, off, reason)
	}
	return pl, false, nil
}
