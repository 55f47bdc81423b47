package sc

import (
	"encoding/binary"
	"math/bits"

	"github.com/linecomp/linecomp/internal/bitstream"
)

// Fast paths. A Table with L ≤ fastMaxLen also carries two lookup
// structures built by init, which Size, Compress and Decompress use
// instead of the generic hash lookup, bitstream.Writer and per-length
// DeLUT scan:
//
//   - enc: a cuckoo hash of value → code<<6 | length, packed with the value
//     in one word; every value sits in one of its two slots, so a lookup
//     reads both and selects without branches (empty slots hold a value
//     that is no symbol, mapped to the escape),
//   - lut: a direct table on the next lutBits bits of the stream giving,
//     for every codeword of at most lutBits bits, the value, the codeword
//     length, the bits it consumes (32 more for the escape, whose raw word
//     follows) and the escape flag; longer codewords fall back to the
//     DeLUT limits.
//
// Decompress's fast path only takes well-formed coded streams: on anything
// else (a bit string that starts no codeword, a read past the end,
// trailing bytes, non-zero padding, an oversized stream) it defers to the
// reference decoder, which produces the exact error. Raw lines (flag 0)
// are read by bitstream.ReadRaw and written by bitstream.AppendRaw on both
// paths.

// fastMaxLen is the largest L with fast paths: an escape codeword plus its
// raw word, ≤ 24+32 bits, fits one 56-bit write of the encoder.
const fastMaxLen = 24

// lutBits is the width of the decoder's direct table.
const lutBits = 11

// A lut entry decodes one or two codewords from the next lutBits bits:
// bits 0–7 the bits consumed (0: a codeword longer than lutBits bits, or
// none, starts here), 8–13 the codeword bits before the escape's raw word,
// lutEsc when the last symbol is the escape, lutTwo when there are two
// symbols, 16–39 and 40–63 their canonical indexes.
const (
	lutEsc = 1 << 14
	lutTwo = 1 << 15
)

// maxFastEnc is the longest stream the fast decoder takes: a coded line of
// 32 words, each at most an escape of fastMaxLen bits plus its raw word.
const maxFastEnc = (1 + 32*(fastMaxLen+32) + 7) / 8

// hashMul are the odd multipliers tried, in turn, for the cuckoo hash.
var hashMul = [...]uint64{
	0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
	0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53, 0x94D049BB133111EB, 0xBF58476D1CE4E5B9,
}

// initFast builds the fast structures. hkeys/hvals must be built.
func (t *Table) initFast() {
	t.enc, t.lut = nil, nil
	if t.maxLen > fastMaxLen {
		return
	}
	// A value that is no symbol marks empty slots.
	var empty uint32
	for t.lookup(empty) != t.escape {
		empty++
	}
	var entries []uint64
	for i, k := range t.keys {
		if k == escapeKey {
			continue
		}
		l := t.lens[i]
		c := t.first[l] + uint64(i) - t.offset[l]
		entries = append(entries, k<<32|c<<8|uint64(l))
	}
	size := 2
	for size < 4*len(entries) {
		size *= 2
	}
	for ; size <= 64*len(entries)+64 && t.enc == nil; size *= 2 {
		for _, m := range hashMul {
			if slots := cuckoo(entries, size, m, uint64(empty)<<32|(t.escape&0xFF+32)); slots != nil {
				t.enc, t.encMul, t.encShift = slots, m, uint(64-bits.TrailingZeros(uint(size)))
				t.encEsc = t.escape>>8<<40 | (t.escape&0xFF + 32)
				break
			}
		}
	}
	if t.enc == nil {
		return // no fast paths; never seen in practice
	}

	// Decoder tables, on lutBits bits whatever L: a codeword of l ≤ L
	// bits is told by its first l bits.
	t.vals = make([]uint32, len(t.keys))
	for i, k := range t.keys {
		if k != escapeKey {
			t.vals[i] = uint32(k)
		}
	}
	var single [1 << lutBits]uint64 // idx<<16 | esc | length
	for i, k := range t.keys {
		l := uint(t.lens[i])
		if l > lutBits {
			break
		}
		c := t.first[l] + uint64(i) - t.offset[l]
		e := uint64(i)<<16 | uint64(l)
		if k == escapeKey {
			e |= lutEsc
		}
		lo := c << (lutBits - l)
		for j := lo; j < lo+1<<(lutBits-l); j++ {
			single[j] = e
		}
	}
	var lut [1 << lutBits]uint64
	for x := range lut {
		e1 := single[x]
		l1 := e1 & 63
		if l1 == 0 {
			continue // a longer codeword, or none
		}
		if e1&lutEsc != 0 {
			lut[x] = lutEntry(l1+32, l1, true, false, e1>>16, 0)
			continue
		}
		e2 := single[x<<l1&(1<<lutBits-1)]
		l2 := e2 & 63
		if l2 == 0 || l1+l2 > lutBits {
			lut[x] = lutEntry(l1, 0, false, false, e1>>16, 0)
			continue
		}
		if e2&lutEsc != 0 {
			lut[x] = lutEntry(l1+l2+32, l1+l2, true, true, e1>>16, e2>>16)
		} else {
			lut[x] = lutEntry(l1+l2, 0, false, true, e1>>16, e2>>16)
		}
	}
	t.lut = new([1 << lutBits]lutPair)
	for x, e := range lut {
		if e&0xFF == 0 {
			continue
		}
		nsym := 1 + e>>15&1
		p := lutPair{meta: e&0x3FFF | nsym<<16 | (nsym-1)*32<<24}
		if e&lutEsc != 0 {
			p.meta |= 0xFFFFFFFF << 32
		}
		p.vals = uint64(t.vals[e>>16&(1<<24-1)])
		if nsym == 2 {
			p.vals |= uint64(t.vals[e>>40]) << 32
		}
		t.lut[x] = p
	}
}

// lutPair is the decoder table's entry: meta holds the bits consumed
// (bits 0–7; 0: a codeword longer than lutBits bits, or none), the
// codeword bits before the escape's raw word (8–13), the number of words
// (16–17), where the raw word goes in vals (24–29: 0 or 32) and the mask
// of the raw word (32–63: all ones when the last symbol is the escape);
// vals holds the words, the first in the low half.
type lutPair struct{ meta, vals uint64 }

// lutEntry packs a decoder table entry: the bits consumed, the codeword
// bits before the escape's raw word, whether the last symbol is the escape,
// whether there are two symbols, and their canonical indexes.
func lutEntry(consumed, rawAt uint64, esc, two bool, idx1, idx2 uint64) uint64 {
	e := consumed | rawAt<<8 | idx1<<16 | idx2<<40
	if esc {
		e |= lutEsc
	}
	if two {
		e |= lutTwo
	}
	return e
}

// cuckoo places entries (value<<32 | payload) in size slots, each at
// slot h1 or h2 of its value under multiplier m, or returns nil.
func cuckoo(entries []uint64, size int, m uint64, empty uint64) []uint64 {
	slots := make([]uint64, size)
	used := make([]bool, size)
	shift := uint(64 - bits.TrailingZeros(uint(size)))
	for i := range slots {
		slots[i] = empty
	}
	for _, e := range entries {
		h1, _ := cuckooSlots(uint32(e>>32), m, shift)
		pos := h1
		for kick := 0; ; kick++ {
			if !used[pos] {
				used[pos], slots[pos] = true, e
				break
			}
			if kick == 200 {
				return nil
			}
			e, slots[pos] = slots[pos], e
			a, b := cuckooSlots(uint32(e>>32), m, shift)
			if pos == a {
				pos = b
			} else {
				pos = a
			}
		}
	}
	return slots
}

// cuckooSlots returns the two slots of v: the top and the next bits of
// v·m.
func cuckooSlots(v uint32, m uint64, shift uint) (int, int) {
	p := uint64(v) * m
	mask := uint64(1)<<(64-shift) - 1
	return int(p >> shift), int(p >> (shift - (64 - shift)) & mask)
}

// sizeFast is Size's payload length with the fast hash.
func (c *Codec) sizeFast(t *Table, line []byte) int {
	enc, m, shift := t.enc, t.encMul, t.encShift
	escLen := t.encEsc & 0xFF
	mask := uint64(len(enc) - 1)
	n := uint64(0)
	for i := 0; i+4 <= len(line); i += 4 {
		v := binary.LittleEndian.Uint32(line[i:])
		p := uint64(v) * m
		e1 := enc[p>>(shift&63)&mask]
		e2 := enc[p>>((2*shift-64)&63)&mask]
		r := escLen
		if uint32(e1>>32) == v {
			r = e1
		}
		if uint32(e2>>32) == v {
			r = e2
		}
		n += r & 0xFF
	}
	return int(n)
}

// compressFast is Compress with the fast hash and a 64-bit accumulator
// storing 8 bytes at a time. A first pass finds every word's field and the
// payload length, a second packs the fields.
func (c *Codec) compressFast(t *Table, dst, line []byte) ([]byte, int) {
	var fields [32]uint64
	total := fieldsOf(t, line, &fields)
	if total >= uint(8*len(line)) {
		return bitstream.AppendRaw(dst, 0, tagBits, line)
	}
	return packFields(dst, fields[:len(line)/4]), int(1 + total)
}

// fieldsOf stores every word's field in fields and returns the payload
// length. The field of v is code<<8 | length for a value with a codeword
// (at most 24+8 bits), else the escape's codeword and v, as
// (escape<<32 | v)<<8 | length. Empty slots hold the escape's length
// (plus 32) under a value that is no symbol.
func fieldsOf(t *Table, line []byte, fields *[32]uint64) uint {
	enc, m, shift, esc := t.enc, t.encMul, t.encShift, t.encEsc
	total := uint(0)
	mask := uint64(len(enc) - 1)
	escLen := esc & 0xFF
	for i := 0; i+4 <= len(line); i += 4 {
		v := binary.LittleEndian.Uint32(line[i:])
		p := uint64(v) * m
		e1 := enc[p>>(shift&63)&mask]
		e2 := enc[p>>((2*shift-64)&63)&mask]
		r := escLen
		if uint32(e1>>32) == v {
			r = uint64(uint32(e1))
		}
		if uint32(e2>>32) == v {
			r = uint64(uint32(e2))
		}
		if r == escLen {
			r = esc | uint64(v)<<8
		}
		total += uint(r & 0xFF)
		fields[i>>2&31] = r
	}
	return total
}

// packFields appends the flag 1 and the fields (field<<8 | length, at
// most 56 bits each, fewer than 1024 bits in all) to dst.
func packFields(dst []byte, fields []uint64) []byte {
	var buf [128 + 8]byte
	acc, nacc := uint64(1)<<63, uint(1)
	p := uint(0)
	for _, f := range fields {
		nacc += uint(f & 0xFF)
		acc |= f >> 8 << ((64 - nacc) & 63)
		binary.BigEndian.PutUint64(buf[p&127:], acc)
		p += nacc >> 3
		acc <<= nacc & 56
		nacc &= 7
	}
	return append(dst, buf[:p+(nacc+7)/8]...)
}

// decompressFast decodes a well-formed coded stream (flag 1) into out and
// reports whether it was one.
func (c *Codec) decompressFast(t *Table, out, enc []byte) bool {
	n := len(out)
	if len(enc) > maxFastEnc {
		return false
	}
	var b [256 + 8]byte
	copy(b[:], enc)
	var ob [256 + 8]byte // the line; 8 bytes of slack
	L := uint(t.maxLen)
	lut, vals := t.lut, t.vals
	nw := n / 4
	// s holds at least lutBits bits from pos, taken from the previous
	// load: the table lookup does not wait for the load at pos, which
	// supplies the raw words and the next s.
	pos := uint(1)
	s := binary.BigEndian.Uint64(b[:]) << 1
	i := 0
	for {
		i, pos = decodeShort(lut, &b, &ob, i, nw, pos, s)
		if i+2 > nw {
			break
		}
		// A codeword longer than lutBits bits, or none: the DeLUT.
		f := binary.BigEndian.Uint64(b[pos>>3&255:]) << (pos & 7)
		e := t.decodeAny(f>>(64-L), lutBits+1, L)
		if e == 0 {
			return false
		}
		raw := uint32(f << (e >> 8 & 63) >> 32)
		binary.LittleEndian.PutUint32(ob[4*i&255:], vals[e>>16&(1<<24-1)]|raw&-uint32(e>>14&1))
		i++
		pos += uint(e & 0xFF)
		s = binary.BigEndian.Uint64(b[pos>>3&255:]) << (pos & 7)
	}
	if i < nw {
		f := binary.BigEndian.Uint64(b[pos>>3&255:]) << (pos & 7)
		e := t.decodeAny(f>>(64-L), 1, L)
		if e == 0 {
			return false
		}
		raw := uint32(f << (e >> 8 & 63) >> 32)
		binary.LittleEndian.PutUint32(ob[4*i&255:], vals[e>>16&(1<<24-1)]|raw&-uint32(e>>14&1))
		pos += uint(e & 0xFF)
	}
	copy(out, ob[:n])
	end := uint(8 * len(enc))
	if pos > end || uint(len(enc)) != (pos+7)/8 {
		return false
	}
	if pad := end - pos; pad > 0 && enc[len(enc)-1]&(1<<pad-1) != 0 {
		return false
	}
	return true
}

// decodeShort decodes symbols, two words at a time or fewer, from bit pos
// of b (s holding its next bits) into ob from word i, while at least two
// words remain and the table knows the codewords. It returns the next
// word and position. It calls nothing, so that its loop keeps everything
// in registers.
func decodeShort(lut *[1 << lutBits]lutPair, b, ob *[256 + 8]byte, i, nw int, pos uint, s uint64) (int, uint) {
	for i+2 <= nw {
		f := binary.BigEndian.Uint64(b[pos>>3&255:]) << (pos & 7)
		e := &lut[s>>(64-lutBits)]
		m := e.meta
		if m&0xFF == 0 {
			break
		}
		c := uint(m & 0xFF)
		// The escape's raw word follows the codewords; f holds at
		// least 57 bits from pos.
		r := uint64(uint32(f<<(m>>8&63)>>32)&uint32(m>>32)) << (m >> 24 & 63)
		binary.LittleEndian.PutUint64(ob[4*i&255:], e.vals|r)
		i += int(m >> 16 & 3)
		pos += c
		s = f << (c & 63)
	}
	return i, pos
}

// decodeAny decodes the codeword at the start of window, the next L bits,
// known to be at least from bits long, into a one-symbol lut entry, or
// returns 0 if none starts there.
func (t *Table) decodeAny(window uint64, from, L uint) uint64 {
	for l := from; l <= L; l++ {
		if window < t.limit[l] {
			i := window>>(L-l) - t.first[l] + t.offset[l]
			if t.keys[i] == escapeKey {
				return lutEntry(uint64(l)+32, uint64(l), true, false, i, 0)
			}
			return lutEntry(uint64(l), 0, false, false, i, 0)
		}
	}
	return 0
}
