package sc

import (
	"encoding/binary"
	"maps"
	"slices"

	"github.com/linecomp/linecomp"
)

// Freq is one value of a value-frequency table and how often it was seen.
type Freq struct {
	Value uint32
	Count uint64
}

// VFT is SC²'s value-frequency table: a fully associative table of E 32-bit
// values, each with a c-bit saturating use counter, plus a c-bit saturating
// counter of the words that missed (the frequency of the escape symbol).
//
// A word that hits increments its entry's counter. A word that misses
// increments the escape counter and takes a free entry, or else replaces the
// entry with the smallest count (ties to the one inserted longest ago), with
// a count of 1.
//
// A VFT is a plain data structure, not safe for concurrent use; a Codec
// guards the one that its Observe feeds. The zero VFT is an empty table of
// the default size, DefaultVFTEntries values with DefaultCounterBits-bit
// counters.
type VFT struct {
	entries  int
	maxCount uint64
	escape   uint64
	seq      uint64 // insertion counter, orders ties for eviction

	slot map[uint32]int32 // value → index into the arrays below
	val  []uint32
	cnt  []uint64
	ins  []uint64 // insertion sequence number of each slot
	heap []int32  // slot indices, a min-heap on (cnt, ins)
	pos  []int32  // position of each slot in heap
}

// MaxVFTEntries is the largest VFT that NewVFT makes. A VFT allocates
// its entries up front; a million is a thousand times LATTE-CC's table.
const MaxVFTEntries = 1 << 20

// NewVFT returns an empty table of entries values (1..MaxVFTEntries) with
// counterBits-bit counters (1..32). Other sizes give an error wrapping
// linecomp.ErrConfig.
func NewVFT(entries, counterBits int) (*VFT, error) {
	if entries < 1 || entries > MaxVFTEntries {
		return nil, linecomp.ConfigError("sc2", "VFT entries must be 1..%d, got %d", MaxVFTEntries, entries)
	}
	if counterBits < 1 || counterBits > 32 {
		return nil, linecomp.ConfigError("sc2", "VFT counter width must be 1..32 bits, got %d", counterBits)
	}
	v := &VFT{}
	v.init(entries, counterBits)
	return v, nil
}

func (v *VFT) init(entries, counterBits int) {
	*v = VFT{
		entries:  entries,
		maxCount: 1<<uint(counterBits) - 1,
		slot:     make(map[uint32]int32, entries),
		val:      make([]uint32, 0, entries),
		cnt:      make([]uint64, 0, entries),
		ins:      make([]uint64, 0, entries),
		heap:     make([]int32, 0, entries),
		pos:      make([]int32, 0, entries),
	}
}

// clone returns a deep copy of v.
func (v *VFT) clone() *VFT {
	return &VFT{
		entries:  v.entries,
		maxCount: v.maxCount,
		escape:   v.escape,
		seq:      v.seq,
		slot:     maps.Clone(v.slot),
		val:      slices.Clone(v.val),
		cnt:      slices.Clone(v.cnt),
		ins:      slices.Clone(v.ins),
		heap:     slices.Clone(v.heap),
		pos:      slices.Clone(v.pos),
	}
}

// Observe counts every whole little-endian 32-bit word of data, in order.
// Trailing bytes that do not fill a word are ignored.
func (v *VFT) Observe(data []byte) {
	for i := 0; i+4 <= len(data); i += 4 {
		v.ObserveWord(binary.LittleEndian.Uint32(data[i:]))
	}
}

// ObserveWord counts one word.
func (v *VFT) ObserveWord(w uint32) {
	if v.entries == 0 {
		v.init(DefaultVFTEntries, DefaultCounterBits)
	}
	if s, ok := v.slot[w]; ok {
		if v.cnt[s] < v.maxCount {
			v.cnt[s]++
			v.down(int(v.pos[s]))
		}
		return
	}
	if v.escape < v.maxCount {
		v.escape++
	}
	v.seq++
	if len(v.val) < v.entries {
		s := int32(len(v.val))
		v.val = append(v.val, w)
		v.cnt = append(v.cnt, 1)
		v.ins = append(v.ins, v.seq)
		v.pos = append(v.pos, int32(len(v.heap)))
		v.heap = append(v.heap, s)
		v.slot[w] = s
		v.up(len(v.heap) - 1)
		return
	}
	// The heap root is the least frequently used entry, oldest first.
	s := v.heap[0]
	delete(v.slot, v.val[s])
	v.val[s], v.cnt[s], v.ins[s] = w, 1, v.seq
	v.slot[w] = s
	v.down(0)
}

// less orders slots for eviction: smaller count first, then older insertion.
func (v *VFT) less(a, b int32) bool {
	if v.cnt[a] != v.cnt[b] {
		return v.cnt[a] < v.cnt[b]
	}
	return v.ins[a] < v.ins[b]
}

func (v *VFT) swap(i, j int) {
	v.heap[i], v.heap[j] = v.heap[j], v.heap[i]
	v.pos[v.heap[i]] = int32(i)
	v.pos[v.heap[j]] = int32(j)
}

func (v *VFT) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !v.less(v.heap[i], v.heap[p]) {
			return
		}
		v.swap(i, p)
		i = p
	}
}

func (v *VFT) down(i int) {
	n := len(v.heap)
	for {
		m := i
		if l := 2*i + 1; l < n && v.less(v.heap[l], v.heap[m]) {
			m = l
		}
		if r := 2*i + 2; r < n && v.less(v.heap[r], v.heap[m]) {
			m = r
		}
		if m == i {
			return
		}
		v.swap(i, m)
		i = m
	}
}

// Reset empties the table and the escape counter.
func (v *VFT) Reset() {
	clear(v.slot)
	v.val, v.cnt, v.ins = v.val[:0], v.cnt[:0], v.ins[:0]
	v.heap, v.pos = v.heap[:0], v.pos[:0]
	v.escape, v.seq = 0, 0
}

// Freqs returns the table's values and counts, sorted by value.
func (v *VFT) Freqs() []Freq {
	out := make([]Freq, len(v.val))
	for i := range v.val {
		out[i] = Freq{v.val[i], v.cnt[i]}
	}
	slices.SortFunc(out, func(a, b Freq) int {
		switch {
		case a.Value < b.Value:
			return -1
		case a.Value > b.Value:
			return 1
		}
		return 0
	})
	return out
}

// Escapes returns the escape counter: how many observed words missed the
// table (saturated at the counter's maximum).
func (v *VFT) Escapes() uint64 { return v.escape }

// Entries returns the table's capacity E.
func (v *VFT) Entries() int {
	if v.entries == 0 {
		return DefaultVFTEntries
	}
	return v.entries
}

// Table builds the length-limited canonical code of the table's contents,
// with codes no longer than maxLen bits. See BuildTable.
func (v *VFT) Table(maxLen int) (*Table, error) {
	return BuildTable(v.Freqs(), v.escape, maxLen)
}
