package ref

// BDI per the bdi package doc (Pekhimenko et al., PACT 2012; encodings as
// in Table II of Tavana et al.).

type bdiOptions struct {
	symmetric  bool // gem5: a d-byte delta excludes −2^(8d−1)
	singleBase bool // B+Δ: first element is the base, no zero base, no mask
}

func init() {
	register("bdi", func(l []byte) string { return bdi(l, bdiOptions{}) })
	register("bdi-symmetric", func(l []byte) string { return bdi(l, bdiOptions{symmetric: true}) })
	register("bdi-single", func(l []byte) string { return bdi(l, bdiOptions{singleBase: true}) })
}

func bdiFits(x int64, d int, o bdiOptions) bool {
	if o.symmetric && x == -(int64(1)<<(8*d-1)) {
		return false
	}
	return fitsSigned(x, 8*d)
}

func bdi(line []byte, o bdiOptions) string {
	L := len(line)
	type candidate struct {
		id   int
		bits string
	}
	var cands []candidate

	// 0000: every byte zero.
	allZero := true
	for _, b := range line {
		if b != 0 {
			allZero = false
		}
	}
	if allZero {
		var s bits
		s.put(0b0000, 4)
		cands = append(cands, candidate{0, s.String()})
	}

	// 0001: all 8-byte words equal.
	rep := true
	for i := 1; i < L/8; i++ {
		if word(line, 8, i) != word(line, 8, 0) {
			rep = false
		}
	}
	if rep {
		var s bits
		s.put(0b0001, 4)
		s.put(word(line, 8, 0), 64)
		cands = append(cands, candidate{1, s.String()})
	}

	// 0010..0111: base k bytes, delta d bytes.
	for _, e := range []struct{ id, k, d int }{{2, 8, 1}, {3, 8, 2}, {4, 8, 4}, {5, 4, 1}, {6, 4, 2}, {7, 2, 1}} {
		mod := func(x uint64) uint64 { // reduce mod 2^(8k)
			if e.k == 8 {
				return x
			}
			return x & (1<<(8*e.k) - 1)
		}
		values := words(line, e.k)
		useBase, base, ok := twoBases(values,
			func(v uint64) bool { return !o.singleBase && bdiFits(signed(v, e.k), e.d, o) },
			func(v, base uint64) bool { return bdiFits(signed(mod(v-base), e.k), e.d, o) })
		if !ok {
			continue
		}
		var s bits
		s.put(uint64(e.id), 4)
		if !o.singleBase {
			s.flags(useBase)
		}
		s.put(base, 8*e.k) // zero when no element needs it
		s.deltas(values, useBase, base, 8*e.d)
		cands = append(cands, candidate{e.id, s.String()})
	}

	// 1111: the raw line.
	var s bits
	s.put(0b1111, 4)
	s.raw(line)
	cands = append(cands, candidate{15, s.String()})

	best := cands[0]
	for _, c := range cands[1:] {
		if len(c.bits) < len(best.bits) { // ties keep the lower id, found first
			best = c
		}
	}
	return best.bits
}
