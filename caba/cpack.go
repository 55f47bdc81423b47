package caba

import (
	"encoding/binary"
	"math/bits"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

// Word codes of caba-cpack, the 2-bit code field of every word. Byte
// letters run from the most to the least significant byte of a
// little-endian 32-bit word.
const (
	CPackZZZZ = 0b00 // zero word
	CPackZZZX = 0b01 // upper three bytes zero: the low byte
	CPackMMMM = 0b10 // equal to a dictionary value: its index
	CPackMMMX = 0b11 // upper three bytes equal to a dictionary value's: its index and the low byte
)

// cpackNames names the word codes.
var cpackNames = [4]string{"zzzz", "zzzx", "mmmm", "mmmx"}

const (
	cpackTagBits  = 1
	cpackCodeBits = 12 // 2-bit code, 2-bit index, 8-bit byte
	cpackDict     = 4  // dictionary values at most
)

// CPack is the caba-cpack codec for one line size: C-Pack with four
// encodings, one fixed-width code per word and at most four dictionary
// values after the codes (see the package doc). It is immutable and safe
// for concurrent use.
type CPack struct {
	lineSize  int
	words     int // W
	latency   linecomp.Latency
	encodings [2]linecomp.Encoding
}

// NewCPack returns the caba-cpack codec for lines of 32, 64 or 128 bytes.
// Its latency is unknown unless WithLatency sets one (see the package
// doc). It takes WithLatency only.
func NewCPack(lineSize int, opts ...Option) (*CPack, error) {
	const name = "caba-cpack"
	cfg, err := build(name, unknownLatency, opts)
	if err != nil {
		return nil, err
	}
	if cfg.segWords != 0 {
		return nil, linecomp.ConfigError(name, "WithSegmentWords applies to caba-fpc only")
	}
	if err := checkLineSize(name, lineSize); err != nil {
		return nil, err
	}
	return &CPack{
		lineSize: lineSize, words: lineSize / 4, latency: cfg.latency,
		encodings: [2]linecomp.Encoding{{Name: "compressed", Bits: -1}, {Name: "raw", Bits: cpackTagBits + 8*lineSize}},
	}, nil
}

func init() {
	linecomp.RegisterNew(linecomp.Info{Name: "caba-cpack", Algorithm: "caba-cpack", Paper: paper, LineSizes: lineSizes},
		func(n int) (*CPack, error) { return NewCPack(n) })
}

func (c *CPack) Name() string              { return "caba-cpack" }
func (c *CPack) LineSize() int             { return c.lineSize }
func (c *CPack) TagBits() int              { return cpackTagBits }
func (c *CPack) Latency() linecomp.Latency { return c.latency }

// Encodings lists the two line-level encodings: 0 "compressed", the flag
// 1, the word codes and the dictionary (1 + 12·W + 32·D bits for D
// dictionary values, so of varying length), and 1 "raw", the flag 0 and the
// line, always 1 + 8·LineSize bits.
func (c *CPack) Encodings() []linecomp.Encoding { return c.encodings[:] }

// EncodingOf returns the number of the encoding of enc from its flag. An
// empty stream gives a *linecomp.CorruptError.
func (c *CPack) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, corrupt(c.Name(), 0, "stream ends inside a field")
	}
	if enc[0]>>7 == flagRaw {
		return encRaw, nil
	}
	return encCompressed, nil
}

// cpackPlan is a compressed line: each word's 12-bit code and the
// dictionary. ok is false when the line is stored raw.
type cpackPlan struct {
	code [32]uint16
	dict [cpackDict]uint32
	n    int // dictionary values
	ok   bool
}

// plan codes line as Algorithm 6 does: zero first, then up to four
// dictionary values, each the first word not yet covered.
func (c *CPack) plan(line []byte) cpackPlan {
	var pl cpackPlan
	var word [32]uint32
	var uncovered uint32 // bit i: word i has no code yet
	for i := range c.words {
		w := binary.LittleEndian.Uint32(line[4*i:])
		word[i] = w
		switch {
		case w == 0:
			pl.code[i] = CPackZZZZ << 10
		case w < 0x100:
			pl.code[i] = CPackZZZX<<10 | uint16(w)
		default:
			uncovered |= 1 << i
		}
	}
	for uncovered != 0 {
		if pl.n == cpackDict {
			return pl // a fifth value would be needed: raw
		}
		first := bits.TrailingZeros32(uncovered)
		v := word[first]
		pl.dict[pl.n] = v
		for u := uncovered; u != 0; u &= u - 1 {
			i := bits.TrailingZeros32(u)
			switch w := word[i]; {
			case w == v:
				pl.code[i] = CPackMMMM<<10 | uint16(pl.n)<<8
			case w>>8 == v>>8:
				pl.code[i] = CPackMMMX<<10 | uint16(pl.n)<<8 | uint16(w&0xFF)
			default:
				continue
			}
			uncovered &^= 1 << i
		}
		pl.n++
	}
	pl.ok = true
	return pl
}

// payloadBytes is the payload after the flag of a compressed line with n
// dictionary values: 12 bits per word (W is even) and 4 bytes per value.
func (c *CPack) payloadBytes(n int) int { return c.words*cpackCodeBits/8 + 4*n }

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *CPack) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	pl := c.plan(line)
	if !pl.ok {
		return cpackTagBits + 8*c.lineSize
	}
	return cpackTagBits + 8*c.payloadBytes(pl.n)
}

// Compress appends the encoding of line to dst. It builds the payload
// before it writes to dst, so the two may overlap.
func (c *CPack) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.Name(), len(line), "lines of its configured size")
	}
	pl := c.plan(line)
	if !pl.ok {
		out, n := bitstream.AppendRaw(dst, flagRaw, cpackTagBits, line)
		return out, n, nil
	}
	var p [bitstream.MaxRawBytes]byte
	q := 0
	for i := 0; i < c.words; i += 2 { // two codes in three bytes
		v := uint32(pl.code[i])<<12 | uint32(pl.code[i+1])
		p[q], p[q+1], p[q+2] = byte(v>>16), byte(v>>8), byte(v)
		q += 3
	}
	for j := range pl.n {
		binary.BigEndian.PutUint32(p[q:], pl.dict[j])
		q += 4
	}
	out, n := bitstream.AppendRaw(dst, flagPacked, cpackTagBits, p[:q])
	return out, n, nil
}

// Decompress appends the line that enc encodes to dst. It rejects a wrong
// length, non-zero padding and a code with a non-zero field its encoding
// does not use. It reads all of enc before it writes to dst, so the two may
// overlap.
func (c *CPack) Decompress(dst, enc []byte) ([]byte, error) {
	var out [128]byte
	if _, _, err := c.decode(&out, enc); err != nil {
		return dst, err
	}
	return append(dst, out[:c.lineSize]...), nil
}

// decode decodes enc into out. It returns the set of word codes the line
// uses (bit e for code e; 0 for a raw line) and the dictionary values.
func (c *CPack) decode(out *[128]byte, enc []byte) (used uint8, n int, err error) {
	e, err := c.EncodingOf(enc)
	if err != nil {
		return 0, 0, err
	}
	line := out[:c.lineSize]
	if e == encRaw {
		if off, reason, ok := bitstream.ReadRaw(line, enc, cpackTagBits); !ok {
			return 0, 0, corrupt(c.Name(), off, reason)
		}
		return 0, 0, nil
	}
	var r bitstream.Reader
	r.Reset(enc)
	r.Read(cpackTagBits)
	var code [32]uint16
	for i := range c.words {
		v := uint16(r.Read(cpackCodeBits))
		cc, idx, b := v>>10, int(v>>8&3), v&0xFF
		if (cc == CPackZZZZ || cc == CPackZZZX) && idx != 0 || (cc == CPackZZZZ || cc == CPackMMMM) && b != 0 {
			return 0, 0, corrupt(c.Name(), r.Pos()-cpackCodeBits, "non-zero field that the word's code does not use")
		}
		if cc >= CPackMMMM {
			n = max(n, idx+1)
		}
		used |= 1 << cc
		code[i] = v
	}
	var dict [cpackDict]uint32
	for j := range n {
		dict[j] = uint32(r.Read(32))
	}
	if off, reason, ok := r.Problem(); !ok {
		return 0, 0, corrupt(c.Name(), off, reason)
	}
	for i := range c.words {
		v := code[i]
		b, d := uint32(v&0xFF), dict[v>>8&3]
		var w uint32
		switch v >> 10 {
		case CPackZZZX:
			w = b
		case CPackMMMM:
			w = d
		case CPackMMMX:
			w = d&^0xFF | b
		}
		binary.LittleEndian.PutUint32(line[4*i:], w)
	}
	return used, n, nil
}
