package ref

// FPC per the fpc package doc (Alameldeen & Wood, UW-CS TR-1500, 2004), and
// the fpc-tavana variant exactly as Table II of Tavana et al. lists it.
//
// Both streams open with one flag bit: 1 = the word codes follow, 0 = the
// raw line follows. The codes are used only when they are strictly shorter
// than the line.

func init() {
	register("fpc", fpc)
	register("fpc-tavana", fpcTavana)
}

// fpcCode is one candidate code for one word: its 3-bit prefix and the data
// field that follows it, as a bit string.
type fpcCode struct {
	prefix uint64
	data   string
}

func (c fpcCode) String() string {
	var s bits
	s.put(c.prefix, 3)
	return s.String() + c.data
}

// field returns v as an n-bit bit string.
func field(v uint64, n int) string {
	var s bits
	s.put(v, n)
	return s.String()
}

// fpcPatterns returns every pattern of the TR's table that the 32-bit word w
// (given as an unsigned value) matches, other than the zero run, in prefix
// order.
func fpcPatterns(w uint64, tavana bool) []fpcCode {
	v := signed(w, 4)         // the word as int32
	hi := signed(w>>16, 2)    // high halfword as int16
	lo := signed(w&0xFFFF, 2) // low halfword as int16
	b0, b1, b2, b3 := w&0xFF, w>>8&0xFF, w>>16&0xFF, w>>24
	var out []fpcCode
	add := func(fpcPrefix, tavanaPrefix uint64, data string) {
		p := fpcPrefix
		if tavana {
			p = tavanaPrefix
		}
		out = append(out, fpcCode{p, data})
	}
	if tavana && w == 0 {
		add(0, 0b001, "") // zero word, no data
	}
	if fitsSigned(v, 4) {
		add(0b001, 0b011, field(w, 4))
	}
	if fitsSigned(v, 8) {
		add(0b010, 0b100, field(w, 8))
	}
	if fitsSigned(v, 16) {
		add(0b011, 0b101, field(w, 16))
	}
	if w&0xFFFF == 0 {
		add(0b100, 0b110, field(w>>16, 16)) // the high halfword
	}
	if fitsSigned(hi, 8) && fitsSigned(lo, 8) {
		// the high halfword's low byte, then the low halfword's low byte
		add(0b101, 0b111, field(b2, 8)+field(b0, 8))
	}
	if b0 == b1 && b1 == b2 && b2 == b3 {
		add(0b110, 0b010, field(b0, 8))
	}
	if !tavana {
		add(0b111, 0, field(w, 32)) // uncompressed word
	}
	return out
}

// fpcBest picks the shortest code, ties to the lower prefix. ok is false if
// there is no candidate.
func fpcBest(cands []fpcCode) (best fpcCode, ok bool) {
	for _, c := range cands {
		n, bn := 3+len(c.data), 3+len(best.data)
		if !ok || n < bn || n == bn && c.prefix < best.prefix {
			best, ok = c, true
		}
	}
	return best, ok
}

// fpcFinish wraps the word codes in the stream: flag 1 and the codes if
// they are strictly shorter than the line, otherwise flag 0 and the raw line.
func fpcFinish(line []byte, codes string, ok bool) string {
	var s bits
	if ok && len(codes) < 8*len(line) {
		s.put(1, 1)
		s.WriteString(codes)
		return s.String()
	}
	s.put(0, 1)
	s.raw(line)
	return s.String()
}

func fpc(line []byte) string {
	n := len(line) / 4
	codes := ""
	for i := 0; i < n; {
		if word(line, 4, i) == 0 {
			// 000: a run of 1–8 zero words, taken greedily; field = count−1.
			count := 0
			for i < n && count < 8 && word(line, 4, i) == 0 {
				count++
				i++
			}
			codes += field(0b000, 3) + field(uint64(count-1), 3)
			continue
		}
		best, _ := fpcBest(fpcPatterns(word(line, 4, i), false)) // 111 always matches
		codes += best.String()
		i++
	}
	return fpcFinish(line, codes, true)
}

func fpcTavana(line []byte) string {
	n := len(line) / 4
	allZero := true
	for i := 0; i < n; i++ {
		if word(line, 4, i) != 0 {
			allZero = false
		}
	}
	if allZero {
		// 000: zero block, the whole line, no payload.
		return fpcFinish(line, field(0b000, 3), true)
	}
	codes := ""
	for i := 0; i < n; i++ {
		best, ok := fpcBest(fpcPatterns(word(line, 4, i), true))
		if !ok {
			return fpcFinish(line, "", false) // no code for this word
		}
		codes += best.String()
	}
	return fpcFinish(line, codes, true)
}
