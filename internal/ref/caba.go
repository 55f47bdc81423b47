package ref

// The three CABA formats per the caba package doc (Vijaykumar et al.,
// ISCA 2015, §5.1): caba-bdi, caba-fpc (segments of 4 words, and the s2
// and s8 variants) and caba-cpack.

func init() {
	register("caba-bdi", cabaBDI)
	register("caba-fpc", func(l []byte) string { return cabaFPC(l, 4) })
	register("caba-fpc-s2", func(l []byte) string { return cabaFPC(l, 2) })
	register("caba-fpc-s8", func(l []byte) string { return cabaFPC(l, 8) })
	register("caba-cpack", cabaCPack)
}

// cabaBDI: a 4-bit id, then the payload. The ids and the rule of which
// element takes which base are BDI's; the mask is padded with zero bits to
// a whole number of bytes. The shortest stream wins, ties to the lower id.
func cabaBDI(line []byte) string {
	L := len(line)
	best := ""
	consider := func(s string) {
		if best == "" || len(s) < len(best) { // candidates come in id order
			best = s
		}
	}

	// 0000 zeros: every byte of the line is zero.
	zero := true
	for _, b := range line {
		if b != 0 {
			zero = false
		}
	}
	if zero {
		consider("0000")
	}

	// 0001 repeated: every 8-byte word equals word 0; the payload is it.
	same := true
	for i := 1; i < L/8; i++ {
		if word(line, 8, i) != word(line, 8, 0) {
			same = false
		}
	}
	if same {
		var s bits
		s.put(0b0001, 4)
		s.put(word(line, 8, 0), 64)
		consider(s.String())
	}

	// 0010 … 0111: mask (padded to bytes), base (k bytes), n deltas (d bytes).
	for _, e := range []struct{ id, k, d int }{{2, 8, 1}, {3, 8, 2}, {4, 8, 4}, {5, 4, 1}, {6, 4, 2}, {7, 2, 1}} {
		k, d := e.k, e.d
		values := words(line, k)
		useBase, base, ok := twoBases(values,
			func(v uint64) bool { return fitsSigned(signed(v, k), 8*d) },
			func(v, base uint64) bool {
				diff := v - base
				if k < 8 {
					diff &= 1<<(8*k) - 1
				}
				return fitsSigned(signed(diff, k), 8*d)
			})
		if !ok {
			continue
		}
		var s bits
		s.put(uint64(e.id), 4)
		s.flags(useBase)
		n := len(values)
		s.zeros((8 - n%8) % 8)
		s.put(base, 8*k)
		s.deltas(values, useBase, base, 8*d)
		consider(s.String())
	}

	// 1111: the raw line.
	var s bits
	s.put(0b1111, 4)
	s.raw(line)
	consider(s.String())
	return best
}

// cabaFPCFits reports whether 32-bit word w fits FPC pattern p (prefix
// order: zero, 4-bit, 1-byte and halfword sign-extended, zero low
// halfword, two sign-extended bytes, repeated bytes, word).
func cabaFPCFits(w uint64, p int) bool {
	lo, hi := w&0xFFFF, w>>16
	switch p {
	case 0:
		return w == 0
	case 1:
		return fitsSigned(signed(w, 4), 4)
	case 2:
		return fitsSigned(signed(w, 4), 8)
	case 3:
		return fitsSigned(signed(w, 4), 16)
	case 4:
		return lo == 0
	case 5:
		return fitsSigned(signed(hi, 2), 8) && fitsSigned(signed(lo, 2), 8)
	case 6:
		b := w & 0xFF
		return w>>8&0xFF == b && w>>16&0xFF == b && w>>24 == b
	}
	return true
}

// cabaFPCData is the data field of word w under pattern p.
func cabaFPCData(w uint64, p int) string {
	var s bits
	switch p {
	case 1:
		s.put(w, 4)
	case 2, 6:
		s.put(w, 8)
	case 3:
		s.put(w, 16)
	case 4:
		s.put(w>>16, 16)
	case 5:
		s.put(w>>16, 8) // the high halfword's low byte
		s.put(w, 8)     // the low halfword's low byte
	case 7:
		s.put(w, 32)
	}
	return s.String()
}

// cabaFPC: segments of S words, each with the first pattern in prefix
// order that all its words fit; a 1 flag, the 3-bit prefixes padded to a
// whole byte, then every segment's data; or a 0 flag and the raw line when
// that is not strictly shorter.
func cabaFPC(line []byte, S int) string {
	W := len(line) / 4
	var head, data bits
	head.put(1, 1)
	for seg := 0; seg < W/S; seg++ {
		for p := 0; p < 8; p++ {
			all := true
			for j := 0; j < S; j++ {
				if !cabaFPCFits(word(line, 4, seg*S+j), p) {
					all = false
				}
			}
			if !all {
				continue
			}
			head.put(uint64(p), 3)
			for j := 0; j < S; j++ {
				data.WriteString(cabaFPCData(word(line, 4, seg*S+j), p))
			}
			break
		}
	}
	prefixes := 3 * (W / S)
	head.zeros((8 - prefixes%8) % 8)
	packed := head.String() + data.String()
	var raw bits
	raw.put(0, 1)
	raw.raw(line)
	if len(packed) < raw.Len() {
		return packed
	}
	return raw.String()
}

// cabaCPack: a 1 flag, one 12-bit code per word (2-bit code, 2-bit index,
// 8-bit byte; unused fields zero), then the dictionary values (32 bits
// each); or a 0 flag and the raw line when a word is left uncovered after
// four dictionary values.
func cabaCPack(line []byte) string {
	W := len(line) / 4
	code := make([]string, W)
	code2 := func(cc, idx, b uint64) string {
		var s bits
		s.put(cc, 2)
		s.put(idx, 2)
		s.put(b, 8)
		return s.String()
	}
	for i := 0; i < W; i++ {
		w := word(line, 4, i)
		if w == 0 {
			code[i] = code2(0b00, 0, 0) // zzzz
		} else if w>>8 == 0 {
			code[i] = code2(0b01, 0, w) // zzzx
		}
	}
	var dict []uint64
	for {
		first := -1
		for i := 0; i < W; i++ {
			if code[i] == "" {
				first = i
				break
			}
		}
		if first < 0 {
			break // every word covered
		}
		if len(dict) == 4 {
			var s bits
			s.put(0, 1)
			s.raw(line)
			return s.String()
		}
		v := word(line, 4, first)
		idx := uint64(len(dict))
		dict = append(dict, v)
		for i := 0; i < W; i++ {
			w := word(line, 4, i)
			if code[i] != "" {
				continue
			}
			if w == v {
				code[i] = code2(0b10, idx, 0) // mmmm
			} else if w>>8 == v>>8 {
				code[i] = code2(0b11, idx, w&0xFF) // mmmx
			}
		}
	}
	var s bits
	s.put(1, 1)
	for _, c := range code {
		s.WriteString(c)
	}
	for _, v := range dict {
		s.put(v, 32)
	}
	return s.String()
}
