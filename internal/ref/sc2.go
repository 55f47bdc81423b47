package ref

// SC² per the sc package doc (Arelakis & Stenström, ISCA 2014, as LATTE-CC
// configures it): a length-limited canonical Huffman code over 32-bit words
// plus an escape symbol, learned from a value-frequency table.

import "sort"

func init() {
	// A codec from the registry has seen nothing: its code book holds only
	// the escape symbol, so every word costs 1 + 32 bits and every line is
	// stored raw.
	register("sc2", SC2(nil, 0, 16))
}

// sc2Symbol is one symbol of the code: a 32-bit value, or the escape.
type sc2Symbol struct {
	value  uint32
	escape bool
	weight uint64
}

// sc2Before is the symbol order: values by increasing value, the escape
// after all of them.
func sc2Before(a, b sc2Symbol) bool {
	if a.escape != b.escape {
		return b.escape
	}
	return a.value < b.value
}

// SC2 returns the reference encoder of an SC² codec whose code book was
// built from freqs (value → count; zero counts get no code), an escape
// count and the maximum code length maxLen.
func SC2(freqs map[uint32]uint64, escape uint64, maxLen int) Encoder {
	var syms []sc2Symbol
	for v, f := range freqs {
		if f > 0 {
			syms = append(syms, sc2Symbol{value: v, weight: f})
		}
	}
	escWeight := escape
	if escWeight == 0 {
		escWeight = 1
	}
	syms = append(syms, sc2Symbol{escape: true, weight: escWeight})

	// Leaves by increasing weight, equal weights in symbol order.
	sort.Slice(syms, func(i, j int) bool {
		if syms[i].weight != syms[j].weight {
			return syms[i].weight < syms[j].weight
		}
		return sc2Before(syms[i], syms[j])
	})
	length := sc2PackageMerge(syms, maxLen)

	// Canonical codewords: symbols by length, then in symbol order; each
	// codeword is the previous one plus one, shifted left by the growth in
	// length.
	order := make([]int, len(syms))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if length[a] != length[b] {
			return length[a] < length[b]
		}
		return sc2Before(syms[a], syms[b])
	})
	codeOf := map[uint32]string{}
	escapeCode := ""
	code, prevLen := uint64(0), 0
	for n, i := range order {
		if n > 0 {
			code++
		}
		code <<= uint(length[i] - prevLen)
		prevLen = length[i]
		var s bits
		s.put(code, length[i])
		if syms[i].escape {
			escapeCode = s.String()
		} else {
			codeOf[syms[i].value] = s.String()
		}
	}

	return func(line []byte) string {
		var payload bits
		for i := 0; i < len(line)/4; i++ {
			w := word(line, 4, i)
			if c, ok := codeOf[uint32(w)]; ok {
				payload.WriteString(c)
			} else {
				payload.WriteString(escapeCode)
				payload.put(w, 32)
			}
		}
		var s bits
		if payload.Len() < 8*len(line) {
			s.put(1, 1)
			s.WriteString(payload.String())
		} else {
			s.put(0, 1)
			s.raw(line)
		}
		return s.String()
	}
}

// sc2PackageMerge returns the code length of each symbol of syms (sorted by
// increasing weight) under the limit maxLen, by package-merge written out
// with explicit lists: every item carries the list of leaves it contains.
func sc2PackageMerge(syms []sc2Symbol, maxLen int) []int {
	n := len(syms)
	length := make([]int, n)
	if n == 1 {
		length[0] = 1
		return length
	}
	type item struct {
		weight uint64
		leaves []int
	}
	var leafItems []item
	for i, s := range syms {
		leafItems = append(leafItems, item{s.weight, []int{i}})
	}
	list := leafItems // level maxLen
	for level := maxLen - 1; level >= 1; level-- {
		var packages []item
		for k := 0; k+1 < len(list); k += 2 {
			joined := append(append([]int{}, list[k].leaves...), list[k+1].leaves...)
			packages = append(packages, item{list[k].weight + list[k+1].weight, joined})
		}
		var merged []item
		i, j := 0, 0
		for i < len(leafItems) || j < len(packages) {
			// A leaf goes before a package of the same weight.
			if j == len(packages) || (i < len(leafItems) && leafItems[i].weight <= packages[j].weight) {
				merged = append(merged, leafItems[i])
				i++
			} else {
				merged = append(merged, packages[j])
				j++
			}
		}
		list = merged
	}
	for _, it := range list[:2*n-2] {
		for _, leaf := range it.leaves {
			length[leaf]++
		}
	}
	return length
}

// SC2Sample replays the value-frequency table of the sc package doc over
// every whole line of lineSize bytes in data: entries values with
// counterBits-bit saturating counters; a hit counts up; a miss counts the
// escape up and takes a free entry, or else the entry with the smallest
// count (the oldest inserted among equals), starting at 1. It returns the
// table's values with their counts and the escape count.
func SC2Sample(data []byte, lineSize, entries, counterBits int) (map[uint32]uint64, uint64) {
	top := uint64(1)<<counterBits - 1
	type entry struct {
		value    uint32
		count    uint64
		inserted int
	}
	var table []entry
	where := map[uint32]int{}
	var escape uint64
	clock := 0
	for off := 0; off+lineSize <= len(data); off += lineSize {
		line := data[off : off+lineSize]
		for i := 0; i < lineSize/4; i++ {
			w := uint32(word(line, 4, i))
			if k, ok := where[w]; ok {
				if table[k].count < top {
					table[k].count++
				}
				continue
			}
			if escape < top {
				escape++
			}
			clock++
			if len(table) < entries {
				where[w] = len(table)
				table = append(table, entry{w, 1, clock})
				continue
			}
			victim := 0
			for k := range table {
				if table[k].count < table[victim].count ||
					(table[k].count == table[victim].count && table[k].inserted < table[victim].inserted) {
					victim = k
				}
			}
			delete(where, table[victim].value)
			table[victim] = entry{w, 1, clock}
			where[w] = victim
		}
	}
	freqs := map[uint32]uint64{}
	for _, e := range table {
		freqs[e.value] = e.count
	}
	return freqs, escape
}
