package sc

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/linecomp/linecomp"
)

// Limits and defaults of the code.
const (
	// DefaultMaxCodeLen is L, the longest codeword. Our sources do not
	// state SC²'s limit (see the package doc), so this is the value the
	// issue prescribes in that case.
	DefaultMaxCodeLen = 16
	// MaxCodeLen is the largest L a Table may have: a codeword must fit
	// in one 32-bit write.
	MaxCodeLen = 32
)

// escapeKey is the ordering key of the escape symbol: after every 32-bit
// value.
const escapeKey = uint64(1) << 32

// maxWeightSum bounds the sum of all frequencies BuildTable takes, so that
// no package weight (at most MaxCodeLen times the sum) overflows.
const maxWeightSum = uint64(1) << 58

// Symbol is one entry of a code book.
type Symbol struct {
	Value  uint32 // the 32-bit word; 0 for the escape symbol
	Escape bool   // the escape symbol: the raw word follows its code
	Len    int    // codeword length in bits, 1..MaxLen
	Code   uint32 // codeword, in the low Len bits
}

// Table is a canonical, length-limited prefix code over 32-bit values plus
// one escape symbol: the code book of an SC² compressor (its code table)
// and decompressor (its DeLUT).
//
// A Table is made by BuildTable, ParseTable or a codec's Rebuild, and never
// changes afterwards: no method modifies it, so any number of codecs and
// goroutines may share one, and a codec keeps decoding every line it
// compressed. The zero Table has no symbols; no codec takes it.
type Table struct {
	maxLen int
	keys   []uint64 // symbols in canonical order; escapeKey is the escape
	lens   []uint8  // codeword length of each, non-decreasing

	// DeLUT: for each length l, count[l] codewords starting at canonical
	// code first[l] and canonical index offset[l]; limit[l] is
	// (first[l]+count[l]) << (maxLen−l), the bound below which every
	// maxLen-bit window starts with a codeword of length ≤ l.
	count  [MaxCodeLen + 1]uint64
	first  [MaxCodeLen + 1]uint64
	offset [MaxCodeLen + 1]uint64
	limit  [MaxCodeLen + 1]uint64

	// Encoder: open-addressing hash of value → code<<8 | length; 0 is an
	// empty slot (lengths are ≥ 1).
	hkeys  []uint32
	hvals  []uint64
	hmask  uint32
	hshift uint
	escape uint64 // code<<8 | length of the escape symbol

	// Fast paths (fast.go), built only when maxLen ≤ fastMaxLen.
	enc      []uint64               // cuckoo hash: value<<32 | code<<8 | length
	encMul   uint64                 // its multiplier
	encShift uint                   // 64 − log2(len(enc))
	encEsc   uint64                 // escape code<<40 | length+32
	lut      *[1 << lutBits]lutPair // decoder: one or two codewords
	vals     []uint32               // value of each symbol, 0 for the escape
}

// BuildTable returns the optimal canonical prefix code, with codewords of
// at most maxLen bits, for values with the given frequencies plus an escape
// symbol of frequency max(escape, 1). Values of frequency zero get no code.
// The construction is deterministic; the package doc gives every rule. A
// maxLen outside 1..MaxCodeLen, more symbols than codes of maxLen bits, a
// value listed twice or frequencies summing to more than 2^58 give an error
// wrapping linecomp.ErrConfig.
func BuildTable(freqs []Freq, escape uint64, maxLen int) (*Table, error) {
	if maxLen < 1 || maxLen > MaxCodeLen {
		return nil, linecomp.ConfigError("sc2 table", "maximum code length must be 1..%d, got %d", MaxCodeLen, maxLen)
	}
	type leaf struct{ weight, key uint64 }
	leaves := make([]leaf, 0, len(freqs)+1)
	sum := max(escape, 1)
	for _, f := range freqs {
		if f.Count == 0 {
			continue
		}
		if f.Count > maxWeightSum || sum+f.Count > maxWeightSum {
			return nil, linecomp.ConfigError("sc2 table", "frequencies sum to more than 2^58")
		}
		sum += f.Count
		leaves = append(leaves, leaf{f.Count, uint64(f.Value)})
	}
	leaves = append(leaves, leaf{max(escape, 1), escapeKey})
	if maxLen < 64 && uint64(len(leaves)) > uint64(1)<<uint(maxLen) {
		return nil, linecomp.ConfigError("sc2 table", "%d symbols do not fit a code of maximum length %d", len(leaves), maxLen)
	}
	slices.SortFunc(leaves, func(a, b leaf) int { return cmp(a.key, b.key) })
	for i := 1; i < len(leaves); i++ {
		if leaves[i].key == leaves[i-1].key {
			return nil, linecomp.ConfigError("sc2 table", "value %#08x listed twice", leaves[i].key)
		}
	}
	// Package-merge wants the leaves by increasing weight; equal weights
	// are ordered by symbol (value, then the escape).
	slices.SortFunc(leaves, func(a, b leaf) int {
		if a.weight != b.weight {
			return cmp(a.weight, b.weight)
		}
		return cmp(a.key, b.key)
	})
	weights := make([]uint64, len(leaves))
	for i, l := range leaves {
		weights[i] = l.weight
	}
	lens := limitedLengths(weights, maxLen)

	// Canonical order: by length, then by symbol.
	type sym struct {
		key uint64
		len uint8
	}
	syms := make([]sym, len(leaves))
	for i, l := range leaves {
		syms[i] = sym{l.key, lens[i]}
	}
	slices.SortFunc(syms, func(a, b sym) int {
		if a.len != b.len {
			return cmp(a.len, b.len)
		}
		return cmp(a.key, b.key)
	})
	t := &Table{maxLen: maxLen, keys: make([]uint64, len(syms)), lens: make([]uint8, len(syms))}
	for i, s := range syms {
		t.keys[i], t.lens[i] = s.key, s.len
	}
	t.init() // finds no duplicate: the leaves were checked above
	return t, nil
}

func cmp[T uint64 | uint8](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// limitedLengths returns optimal code lengths, none above maxLen, for
// weights sorted in increasing order (len(weights) ≤ 2^maxLen), by the
// package-merge algorithm of Larmore and Hirschberg.
//
// The list of level maxLen is the leaves. The list of level l−1 merges the
// leaves with the packages of the list of level l (its items paired in
// order, an odd last item dropped), a leaf before a package of equal weight.
// The first 2n−2 items of the level-1 list are selected; the selected items
// of level l that are packages select the first two items of level l+1
// each. A leaf's length is the number of levels at which it is selected.
// Since every list holds the leaves in order, the selected leaves at a
// level are a prefix of them, which is all this function records.
func limitedLengths(weights []uint64, maxLen int) []uint8 {
	n := len(weights)
	lens := make([]uint8, n)
	if n == 1 {
		lens[0] = 1
		return lens
	}
	isLeaf := make([][]bool, maxLen+1) // isLeaf[l][k]: item k of level l is a leaf
	prev := weights
	isLeaf[maxLen] = make([]bool, n)
	for k := range n {
		isLeaf[maxLen][k] = true
	}
	for l := maxLen - 1; l >= 1; l-- {
		cur := make([]uint64, 0, n+len(prev)/2)
		flags := make([]bool, 0, n+len(prev)/2)
		i, j := 0, 0
		for i < n || j < len(prev)/2 {
			if j == len(prev)/2 || (i < n && weights[i] <= prev[2*j]+prev[2*j+1]) {
				cur, flags = append(cur, weights[i]), append(flags, true)
				i++
			} else {
				cur, flags = append(cur, prev[2*j]+prev[2*j+1]), append(flags, false)
				j++
			}
		}
		prev, isLeaf[l] = cur, flags
	}
	take := 2*n - 2
	for l := 1; l <= maxLen && take > 0; l++ {
		leaves := 0
		for _, leaf := range isLeaf[l][:take] {
			if leaf {
				leaves++
			}
		}
		for k := range leaves {
			lens[k]++
		}
		take = 2 * (take - leaves)
	}
	return lens
}

// init derives the DeLUT and the encoder hash from maxLen, keys and lens,
// which must be in canonical order and satisfy Kraft's inequality. It
// returns the canonical index of a value that occurs twice, or −1.
func (t *Table) init() int {
	t.count = [MaxCodeLen + 1]uint64{}
	for _, l := range t.lens {
		t.count[l]++
	}
	var code, idx uint64
	for l := 1; l <= t.maxLen; l++ {
		t.first[l], t.offset[l] = code, idx
		t.limit[l] = (code + t.count[l]) << uint(t.maxLen-l)
		idx += t.count[l]
		code = (code + t.count[l]) << 1
	}
	n := len(t.keys)
	size := 2
	for size < 2*n {
		size *= 2
	}
	t.hkeys = make([]uint32, size)
	t.hvals = make([]uint64, size)
	t.hmask = uint32(size - 1)
	t.hshift = uint(32 - bits.TrailingZeros(uint(size)))
	for i, k := range t.keys {
		l := t.lens[i]
		c := t.first[l] + uint64(i) - t.offset[l]
		packed := c<<8 | uint64(l)
		if k == escapeKey {
			t.escape = packed
			continue
		}
		v := uint32(k)
		h := t.hash(v)
		for t.hvals[h] != 0 {
			if t.hkeys[h] == v {
				return i
			}
			h = (h + 1) & t.hmask
		}
		t.hkeys[h], t.hvals[h] = v, packed
	}
	t.initFast()
	return -1
}

func (t *Table) hash(v uint32) uint32 { return v * 0x9E3779B1 >> t.hshift }

// lookup returns code<<8 | length for v, or the escape's when v has no
// code.
func (t *Table) lookup(v uint32) uint64 {
	h := t.hash(v)
	for {
		e := t.hvals[h]
		if e == 0 {
			return t.escape
		}
		if t.hkeys[h] == v {
			return e
		}
		h = (h + 1) & t.hmask
	}
}

// MaxLen returns L, the longest codeword the table may hold.
func (t *Table) MaxLen() int { return t.maxLen }

// Len returns the number of symbols, the escape included.
func (t *Table) Len() int { return len(t.keys) }

// Symbols returns the code book in canonical order: by length, then by
// value, the escape after every value of its length.
func (t *Table) Symbols() []Symbol {
	out := make([]Symbol, len(t.keys))
	for i, k := range t.keys {
		l := t.lens[i]
		out[i] = Symbol{
			Value:  uint32(k),
			Escape: k == escapeKey,
			Len:    int(l),
			Code:   uint32(t.first[l] + uint64(i) - t.offset[l]),
		}
	}
	return out
}

// Code returns the codeword of v and its length; escaped reports that v
// has none, and the codeword returned is the escape's, which the raw word
// follows. The zero Table has no codewords: it returns length 0.
func (t *Table) Code(v uint32) (code uint32, length int, escaped bool) {
	if len(t.keys) == 0 {
		return 0, 0, true
	}
	e := t.lookup(v)
	return uint32(e >> 8), int(e & 0xFF), e == t.escape
}

// decode returns the canonical index of the codeword that opens window, the
// next maxLen bits of a stream, and its length; ok is false if no codeword
// does.
func (t *Table) decode(window uint64) (index uint64, length uint, ok bool) {
	for l := 1; l <= t.maxLen; l++ {
		if window < t.limit[l] {
			return window>>uint(t.maxLen-l) - t.first[l] + t.offset[l], uint(l), true
		}
	}
	return 0, 0, false
}

// MarshalBinary encodes the table in the format of the package doc. It is
// AppendBinary(nil).
func (t *Table) MarshalBinary() ([]byte, error) { return t.AppendBinary(nil) }

// AppendBinary appends the encoding of the table, in the format of the
// package doc, to dst. The zero Table, which has no symbols, has no
// encoding: it gives an error wrapping linecomp.ErrConfig.
func (t *Table) AppendBinary(dst []byte) ([]byte, error) {
	if len(t.keys) == 0 {
		return dst, linecomp.ConfigError("sc2 table", "the zero Table has no encoding")
	}
	escLen := byte(t.escape & 0xFF)
	dst = append(dst, byte(t.maxLen), escLen)
	for l := 1; l <= t.maxLen; l++ {
		dst = binary.AppendUvarint(dst, t.count[l])
	}
	for _, k := range t.keys {
		if k != escapeKey {
			dst = binary.BigEndian.AppendUint32(dst, uint32(k))
		}
	}
	return dst, nil
}

// ParseTable returns the table that data encodes. It accepts exactly the
// encodings MarshalBinary produces: anything else, including a code that is
// over-subscribed (Kraft sum above 1), symbols out of canonical order or
// repeated, no escape, or bytes left over, gives a *linecomp.CorruptError
// (wrapping linecomp.ErrCorrupt) whose Offset is a bit offset into data.
//
// ParseTable is the only way to decode a table, and it makes a new one:
// a Table never changes once built, so that every codec holding it keeps
// decoding the lines it compressed.
func ParseTable(data []byte) (*Table, error) {
	bad := func(byteOff int, reason string) error {
		return &linecomp.CorruptError{Codec: "sc2 table", Offset: 8 * byteOff, Reason: reason}
	}
	if len(data) < 2 {
		return nil, bad(len(data), "table shorter than its two header bytes")
	}
	maxLen, escLen := int(data[0]), int(data[1])
	if maxLen < 1 || maxLen > MaxCodeLen {
		return nil, bad(0, fmt.Sprintf("maximum code length %d outside 1..%d", maxLen, MaxCodeLen))
	}
	if escLen < 1 || escLen > maxLen {
		return nil, bad(1, fmt.Sprintf("escape length %d outside 1..%d", escLen, maxLen))
	}
	var count [MaxCodeLen + 1]uint64
	off := 2
	var kraft, n uint64 // kraft: Σ count[l]·2^(maxLen−l), at most 2^maxLen
	for l := 1; l <= maxLen; l++ {
		c, k := binary.Uvarint(data[off:])
		if k <= 0 {
			return nil, bad(off, fmt.Sprintf("count of length %d truncated or overlong", l))
		}
		if k != uvarintLen(c) {
			return nil, bad(off, fmt.Sprintf("count of length %d not minimally encoded", l))
		}
		if c > uint64(1)<<uint(l) {
			return nil, bad(off, fmt.Sprintf("%d codewords of length %d over-subscribe the code", c, l))
		}
		kraft += c << uint(maxLen-l)
		if kraft > uint64(1)<<uint(maxLen) {
			return nil, bad(off, fmt.Sprintf("codewords up to length %d over-subscribe the code (Kraft sum above 1)", l))
		}
		count[l] = c
		n += c
		off += k
	}
	if count[escLen] == 0 {
		return nil, bad(1, fmt.Sprintf("no codeword of length %d for the escape", escLen))
	}
	rest := uint64(len(data) - off)
	if want := 4 * (n - 1); rest != want {
		if rest < want {
			return nil, bad(len(data), fmt.Sprintf("%d values truncated", n-1))
		}
		return nil, bad(off+int(want), "trailing bytes after the last value")
	}
	valuesOff := off
	t := &Table{maxLen: maxLen, keys: make([]uint64, 0, n), lens: make([]uint8, 0, n)}
	for l := 1; l <= maxLen; l++ {
		stored := count[l]
		if l == escLen {
			stored-- // the escape is the last symbol of its length, not stored
		}
		for i := uint64(0); i < stored; i++ {
			v := uint64(binary.BigEndian.Uint32(data[off:]))
			if i > 0 && v <= t.keys[len(t.keys)-1] {
				return nil, bad(off, fmt.Sprintf("values of length %d not in strictly increasing order", l))
			}
			t.keys, t.lens = append(t.keys, v), append(t.lens, uint8(l))
			off += 4
		}
		if l == escLen {
			t.keys, t.lens = append(t.keys, escapeKey), append(t.lens, uint8(l))
		}
	}
	if dup := t.init(); dup >= 0 {
		stored := dup // index among the stored values: the escape is not stored
		if slices.Index(t.keys, escapeKey) < dup {
			stored--
		}
		return nil, bad(valuesOff+4*stored, fmt.Sprintf("value %#08x has two codewords", t.keys[dup]))
	}
	return t, nil
}

// uvarintLen is the length of the minimal unsigned varint encoding of x.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}
