package bdi

import "encoding/binary"

// The encode kernels (AVX-512 VBMI and GFNI, 64- and 128-byte lines) write
// a base-delta encoding with a few byte permutes driven by a parameter
// block per encoding, built here. Offsets in the block, the same as in
// _asm/bdi.go:
const (
	encPIdx       = 0   // [64]byte: packed-delta byte j ← byte of the differences
	encQIdx       = 64  // [128]byte: unshifted stream byte j ← P (0–63) or H (64+)
	encNIdx       = 192 // [128]byte: stream byte j+1, for the 4-bit shift
	encNKeep      = 320 // [2]uint64: bit j set when stream byte j+1 exists
	encOff        = 336 // uint64: x fits the zero base when x + off < span
	encSpan       = 344 // uint64
	encIDHigh     = 352 // uint64: the id << 56
	encStore      = 360 // [2]uint64: bit j set when stream byte j exists
	encParamsSize = 384 // 3·128, which the one-call kernels address with a shift
)

// encodeParams describes one base-delta encoding at one line size to an
// encode kernel. The kernel computes the differences D (the lanes that do
// not fit the zero base less the base), P = the d low bytes of each
// difference in big-endian order, and H = the mask bytes (element 0 in the
// high bit of byte 0) at 0, the big-endian base at 8 and the id in a byte
// that neither uses (7 for 8-byte elements, whose mask is at most 2 bytes;
// 15 otherwise, whose base is at most 4 bytes). The stream before its 4-bit
// shift is q = id, mask, base, P, which the kernel gathers from (P, H) by
// the indexes at encQIdx (64+i is H[i]).
type encodeParams = [encParamsSize]byte

// encodeTables are best (256 bytes, by fit mask) and then the encodeParams
// of each base-delta encoding, in one block: the one-call compress kernels
// take one pointer to both, a store and an address fewer in Compress's
// call of every line (measured below, bdiCompress in _asm/bdi.go).
type encodeTables [encodeTablesSize]byte

const encodeTablesSize = 256 + len(baseDelta)*encParamsSize

// best maps a fit mask to the smallest encoding it allows.
func (t *encodeTables) best() *[256]uint8 { return (*[256]uint8)(t[:256]) }

// enc is the parameter block of base-delta encoding i (baseDelta[i]).
func (t *encodeTables) enc(i int) *encodeParams {
	return (*encodeParams)(t[256+i*encParamsSize:])
}

// block is t as the kernels' argument type.
func (t *encodeTables) block() *[encodeTablesSize]byte { return (*[encodeTablesSize]byte)(t) }

// buildEncodeParams fills enc for every base-delta encoding.
func (c *Codec) buildEncodeParams() {
	for i, e := range baseDelta {
		p := c.tables.enc(i)
		n := c.lineSize / e.k
		mb := c.maskBits(e.k) / 8 // 0 for B+Δ
		h := 1 + mb + e.k         // id, mask, base
		qlen := h + n*e.d
		for j := 0; j < n*e.d; j++ { // delta j/d, its bytes high first
			p[encPIdx+j] = byte(j/e.d*e.k + e.d - 1 - j%e.d)
		}
		idPos := byte(15)
		if e.k == 8 {
			idPos = 7
		}
		src := func(j int) byte {
			switch {
			case j == 0:
				return 64 + idPos
			case j <= mb:
				return 64 + byte(j-1)
			case j < h:
				return 64 + 8 + byte(j-1-mb)
			case j-h < 64:
				return byte(j - h)
			}
			return 0
		}
		var keep, store [2]uint64
		for j := 0; j < 128; j++ {
			p[encQIdx+j] = src(j)
			p[encNIdx+j] = src(j + 1)
			if j+1 < qlen {
				keep[j/64] |= 1 << (j % 64)
			}
			if j < qlen {
				store[j/64] |= 1 << (j % 64)
			}
		}
		for i := range 2 {
			binary.LittleEndian.PutUint64(p[encNKeep+8*i:], keep[i])
			binary.LittleEndian.PutUint64(p[encStore+8*i:], store[i])
		}
		off, span := c.deltaOffset[e.d], c.deltaSpan[e.d]
		if c.singleBase { // no element fits the zero base: all take element 0
			off, span = 0, 0
		}
		binary.LittleEndian.PutUint64(p[encOff:], off)
		binary.LittleEndian.PutUint64(p[encSpan:], span)
		binary.LittleEndian.PutUint64(p[encIDHigh:], uint64(e.id)<<56)
	}
}

// The decode kernels (same CPUs and line sizes) read a base-delta stream
// back with a parameter block per encoding. Offsets, as in _asm/bdi.go:
const (
	decDIdx       = 0   // [128]byte: line byte j ← payload byte (a delta byte)
	decBIdx       = 128 // [64]byte: byte j of lane 0 ← payload byte (the base)
	decDKeep      = 192 // [2]uint64: bit j set when line byte j takes a delta byte
	decLoad       = 208 // [2]uint64: bit j set when stream byte j exists
	decMaskAnd    = 224 // uint64: base lanes = mask bits & decMaskAnd | decMaskOr
	decMaskOr     = 232 // uint64
	decShift      = 240 // uint64: 8(k − d), the sign-extending shift
	decParamsSize = 248
)

// decodeParams describes one base-delta encoding at one line size to a
// decode kernel. The kernel undoes the stream's 4-bit shift into the
// payload P (mask bytes, big-endian base, big-endian deltas); the indexes
// at decDIdx put each delta's bytes, high first, into the top bytes of its
// lane, so that an arithmetic right shift by 8(k − d) sign-extends it.
type decodeParams = [decParamsSize]byte

// buildDecodeParams fills dec for every base-delta encoding.
func (c *Codec) buildDecodeParams() {
	for i, e := range baseDelta {
		p := &c.dec[i]
		n := c.lineSize / e.k
		mb := c.maskBits(e.k) / 8
		var keep, load [2]uint64
		for j := 0; j < c.lineSize; j++ {
			lane, b := j/e.k, j%e.k
			if t := e.k - 1 - b; t < e.d { // t = 0: the delta's high byte
				p[decDIdx+j] = byte(mb + e.k + lane*e.d + t)
				keep[j/64] |= 1 << (j % 64)
			}
		}
		for j := 0; j < e.k; j++ { // the base, little-endian in lane 0
			p[decBIdx+j] = byte(mb + e.k - 1 - j)
		}
		for j := 0; j < (c.encodedBits(e.id)+7)/8; j++ {
			load[j/64] |= 1 << (j % 64)
		}
		full := ^uint64(0) >> uint(64-n)
		and, or := full, uint64(0)
		if c.singleBase {
			and, or = 0, full
		}
		for h := range 2 {
			binary.LittleEndian.PutUint64(p[decDKeep+8*h:], keep[h])
			binary.LittleEndian.PutUint64(p[decLoad+8*h:], load[h])
		}
		binary.LittleEndian.PutUint64(p[decMaskAnd:], and)
		binary.LittleEndian.PutUint64(p[decMaskOr:], or)
		binary.LittleEndian.PutUint64(p[decShift:], uint64(8*(e.k-e.d)))
	}
}
