package cpack

import (
	"encoding/binary"
	"math/bits"
)

// classify returns the shortest coding of the non-zero word w given the
// valid dictionary entries dict[:valid].
func classify(w uint32, dict *[dictSlots]uint32, valid int) op {
	// key = (bytes not matched from the top) << 4 | slot; its minimum is
	// the longest match at the lowest slot.
	best := uint32(0xFF)
	for i, d := range dict[:valid] {
		miss := 4 - uint32(bits.LeadingZeros32(d^w))>>3
		best = min(best, miss<<4|uint32(i))
	}
	idx := op(best&0xF) << 3
	switch miss := best >> 4; {
	case miss == 0:
		return op(fullMatch) | idx
	case w < 0x100:
		return op(narrowWord)
	case miss == 1:
		return op(threeMatch) | idx
	case miss == 2:
		return op(halfMatch) | idx
	}
	return op(newWord)
}

// planGeneric codes every word of line into ops and returns the length in
// bits of the word codes. It is the pure-Go definition that the plan
// kernels must match op for op: the index of an op that is not a match is
// zero.
func (c *Codec) planGeneric(line []byte, ops *[maxWords]op) int {
	var dict [dictSlots]uint32
	pushes, codeBits := 0, 0
	for i := range c.lineSize / 4 {
		w := binary.LittleEndian.Uint32(line[4*i:])
		o := op(zeroWord)
		if w != 0 {
			o = classify(w, &dict, min(pushes, dictSlots))
		}
		ops[i] = o
		codeBits += int(c.sizes8[o.kind()])
		if c.pushMask>>o.kind()&1 != 0 {
			dict[pushes%dictSlots] = w
			pushes++
		}
	}
	return codeBits
}

// planLinesGeneric is planLines line by line with planOps.
func (c *Codec) planLinesGeneric(data []byte, ops []op, bits []uint16) {
	words := c.lineSize / 4
	for j := range bits {
		var line [maxWords]op
		bits[j] = uint16(c.planOps(data[j*c.lineSize:(j+1)*c.lineSize], &line))
		copy(ops[j*words:(j+1)*words], line[:words])
	}
}

// vectorPlan reports whether cpackPlan64AVX512 applies: 64-byte lines,
// whose dictionary never wraps, under the default push rule.
func (c *Codec) vectorPlan() bool { return c.lineSize == 64 && !c.gem5Push }

// vectorPlan128 reports whether cpackPlan128AVX512 applies: 128-byte
// lines under the default push rule. It plans exactly only the lines that
// push at most 16 words, whose dictionary never wraps; for the others it
// returns planWrapped and cpackPlanWrap128AVX512 plans them.
func (c *Codec) vectorPlan128() bool { return c.lineSize == 128 && !c.gem5Push }

// planWrapped is the bits cpackPlan128AVX512 gives a line whose dictionary
// wraps; no line's word codes are that long (at most 32 × 34 bits).
const planWrapped = 0xFFFF

// plan codes every word of line into ops and returns the layout and the
// total stream length in bits.
func (c *Codec) plan(line []byte, ops *[maxWords]op) (layout, total int) {
	return c.layoutOf(c.planOps(line, ops))
}

// layoutOf returns the layout and the total stream length in bits of a
// line whose word codes are codeBits long.
func (c *Codec) layoutOf(codeBits int) (layout, total int) {
	switch {
	// Every other kind is longer than a zero word, so the codes are all
	// zero-word codes exactly when the line is zero.
	case c.zeroBlock && codeBits == c.size[zeroWord]*(c.lineSize/4):
		return layoutZeroBlock, tagBits + zeroBlockBits
	case codeBits < 8*c.lineSize:
		return layoutWords, tagBits + codeBits
	}
	return layoutRaw, tagBits + 8*c.lineSize
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	var ops [maxWords]op
	_, total := c.plan(line, &ops)
	return total
}
