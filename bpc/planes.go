package bpc

import (
	"encoding/binary"
	"math/bits"
)

// planeSet is the transform of one line as the kernels compute it: the DBX
// planes and, for DBX[0…31], one bit per plane for each test the symbol
// classification needs. Plane 32 (DBX[32] = DBP[32]) is classified by
// symbols from dbx[32] alone. The layout is fixed: the assembly kernels
// write it by offset.
type planeSet struct {
	dbx [planeCount]uint32 // DBX[0…32]
	cls [classes]uint32    // cls[k] bit j: plane j passes test k
}

// The tests of planeSet.cls, in the order the kernels write them.
const (
	clsZero    = iota // DBX[j] = 0
	clsDBPZero        // DBP[j] = 0
	clsOnes           // DBX[j] = the plane mask (all ones)
	clsSingle         // DBX[j] has at most one one
	clsPair           // DBX[j] is two adjacent ones, or zero
	classes
)

// transformPadded computes the planes of line, a line of the codec's
// size, with the pure-Go definition: shorter lines are zero-padded to 32
// words, and the plane mask drops the deltas past the line's end.
func (c *Codec) transformPadded(line []byte, ps *planeSet) {
	var buf [128]byte
	copy(buf[:], line)
	planesGeneric(&buf, c.flip(), c.planeMask, ps)
}

// planesGeneric is the pure-Go transform of a line, zero-padded to 128
// bytes, into ps:
// the definition the assembly kernels must match bit for bit. flip is
// 1<<31 for the signed plane 32 and 0 for the unsigned one; mask keeps the
// planes' n−1 bits.
func planesGeneric(line *[128]byte, flip, mask uint32, ps *planeSet) {
	// Bit 32 of a 33-bit delta is the borrow of the subtraction done on
	// 33-bit extensions of the words. Flipping the sign bit of both words
	// turns the signed comparison into an unsigned one, so the borrow of
	// the zero-extended subtraction serves both variants without a branch.
	var rows [32]uint32 // rows[k] = low 32 bits of Δ_{k+1}
	var top uint32      // bit k = bit 32 of Δ_{k+1}
	for k := range 31 {
		a := binary.LittleEndian.Uint32(line[4*k+4:])
		b := binary.LittleEndian.Uint32(line[4*k:])
		rows[k] = a - b
		top |= boolBit(a^flip < b^flip) << uint(k)
	}
	transpose32(&rows)
	top &= mask
	ps.dbx[32] = top
	above := top
	var zero, dbpZero, ones, single, pair uint32
	for j := 31; j >= 0; j-- {
		p := rows[j] & mask
		x := p ^ above
		above = p
		ps.dbx[j] = x
		zero |= boolBit(x == 0) << uint(j)
		dbpZero |= boolBit(p == 0) << uint(j)
		ones |= boolBit(x == mask) << uint(j)
		single |= boolBit(x&(x-1) == 0) << uint(j)
		pair |= boolBit((x&-x)*3 == x) << uint(j)
	}
	ps.cls = [classes]uint32{zero, dbpZero, ones, single, pair}
}

func boolBit(b bool) uint32 {
	var u uint32
	if b {
		u = 1
	}
	return u
}

// transpose32 transposes a 32×32 bit matrix in place: afterwards bit c of
// a[r] is what bit r of a[c] was. It swaps the off-diagonal blocks of
// 16×16, then 8×8, … 1×1 sub-matrices. Rows r and r+16 share a 64-bit
// word, so the 16×16 swap happens inside each word and every later round
// swaps two rows per operation: 16 + 4 × 8 masked swaps.
func transpose32(a *[32]uint32) {
	var q [16]uint64
	for i := range q {
		q[i] = uint64(a[i]) | uint64(a[i+16])<<32
	}
	for i := range q {
		x := q[i]
		t := (x>>16 ^ x>>32) & 0xFFFF
		q[i] = x ^ (t<<32 | t<<16)
	}
	m := uint64(0x00FF00FF00FF00FF) // the low half of every 2s-bit column group
	for s := uint(8); s != 0; s, m = s>>1, m^(m<<(s>>1)) {
		// Rows r with bit s clear pair with rows r+s.
		for r := uint(0); r < 16; r = (r + s + 1) &^ s {
			t := (q[r]>>s ^ q[r+s]) & m
			q[r+s] ^= t
			q[r] ^= t << s
		}
	}
	for i := range q {
		a[i] = uint32(q[i])
		a[i+16] = uint32(q[i] >> 32)
	}
}

// symbolMasks are the 33-bit masks of the symbol each DBX plane takes: bit
// j describes plane j.
type symbolMasks struct {
	zero  uint64 // all-zero plane, part of a run
	short uint64 // 00001 (DBP zero) or 00000 (all ones): 5 bits
	pos   uint64 // 00010/00011 + position
	raw   uint64 // 1 + the plane
}

// masks classifies every plane of ps in the BPC authors' priority.
func (c *Codec) masks(ps *planeSet) symbolMasks {
	x := ps.dbx[32]
	zero := uint64(ps.cls[clsZero]) | uint64(boolBit(x == 0))<<32
	// DBP[32] = DBX[32], so for a non-zero plane 32 "DBP zero" never holds.
	ones := uint64(ps.cls[clsOnes]) | uint64(boolBit(x == c.planeMask))<<32
	one := uint64(ps.cls[clsSingle]|ps.cls[clsPair]) | uint64(boolBit(x&(x-1) == 0 || (x&-x)*3 == x))<<32
	nz := zero ^ (1<<planeCount - 1)
	short := nz & (uint64(ps.cls[clsDBPZero]) | ones)
	pos := nz &^ short & one
	return symbolMasks{zero: zero, short: short, pos: pos, raw: nz &^ short &^ pos}
}

// payloadBits is the length of the bit-plane stream after the flag.
func (c *Codec) payloadBits(base uint32, m symbolMasks) int {
	_, codeBits, fieldBits := baseCode(base)
	starts := m.zero &^ (m.zero << 1) // the lowest plane of each zero run
	singles := starts &^ (m.zero >> 1)
	return int(codeBits+fieldBits) +
		(2+runBits)*bits.OnesCount64(starts) - (2+runBits-3)*bits.OnesCount64(singles) +
		5*bits.OnesCount64(m.short) +
		(5+int(c.posBits))*bits.OnesCount64(m.pos) +
		(1+c.planeBits)*bits.OnesCount64(m.raw)
}
