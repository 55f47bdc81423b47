package ref

// C-Pack (Chen et al., TVLSI 2010) and C-Pack+Z (Tavana et al., Table II)
// per the cpack package doc.
//
// Per line a 16-slot dictionary starts empty. Every word is tried against
// every code the spec lists; the shortest code wins, and among dictionary
// entries the lowest slot wins. The word is then pushed into slot
// (pushes mod 16) if the push rule says so. The stream is a 1-bit flag and
// the word codes, or a 0 flag and the raw line when the codes are not
// strictly shorter than the line.

type cpackOptions struct {
	zeroBlock bool // C-Pack+Z code table (Tavana Table II)
	gem5Push  bool // push every word not coded zero word / narrow word
}

func init() {
	register("cpack", func(l []byte) string { return cpack(l, cpackOptions{}) })
	register("cpack-gem5", func(l []byte) string { return cpack(l, cpackOptions{gem5Push: true}) })
	register("cpack-z", func(l []byte) string { return cpack(l, cpackOptions{zeroBlock: true}) })
	register("cpack-z-gem5", func(l []byte) string { return cpack(l, cpackOptions{zeroBlock: true, gem5Push: true}) })
}

// cpackCodes are the code prefixes, as bit strings, of one code table.
type cpackCodes struct {
	zeroWord, newWord, fullMatch, halfMatch, narrow, threeMatch string
}

var (
	// Chen et al. Table I: zzzz 00, xxxx 01, mmmm 10, mmxx 1100,
	// zzzx 1101, mmmx 1110.
	cpackTable = cpackCodes{"00", "01", "10", "1100", "1101", "1110"}
	// Tavana Table II: zero word 01, new word 10, word matched 1100,
	// halfword matched 1101, narrow word 1110, three bytes matched 1111
	// (00 is the zero block, handled apart).
	cpackZTable = cpackCodes{"01", "10", "1100", "1101", "1110", "1111"}
)

func cpack(line []byte, o cpackOptions) string {
	L := len(line)
	codes := cpackTable
	if o.zeroBlock {
		codes = cpackZTable
		allZero := true
		for _, b := range line {
			if b != 0 {
				allZero = false
			}
		}
		if allZero {
			return "1" + "00" // flag, zero block
		}
	}

	var dict [16]uint64
	pushes := 0
	var body bits
	for i := 0; i < L/4; i++ {
		w := word(line, 4, i)
		b3, b2, b1, b0 := w>>24&0xFF, w>>16&0xFF, w>>8&0xFF, w&0xFF

		type candidate struct {
			kind string // zzzz, xxxx, mmmm, mmxx, zzzx, mmmx
			bits string
		}
		var cands []candidate
		field := func(v uint64, n int) string {
			var s bits
			s.put(v, n)
			return s.String()
		}
		if b3 == 0 && b2 == 0 && b1 == 0 && b0 == 0 {
			cands = append(cands, candidate{"zzzz", codes.zeroWord})
		}
		cands = append(cands, candidate{"xxxx", codes.newWord + field(w, 32)})
		valid := min(pushes, 16)
		for s := 0; s < valid; s++ {
			e := dict[s]
			e3, e2, e1, e0 := e>>24&0xFF, e>>16&0xFF, e>>8&0xFF, e&0xFF
			if e3 == b3 && e2 == b2 && e1 == b1 && e0 == b0 {
				cands = append(cands, candidate{"mmmm", codes.fullMatch + field(uint64(s), 4)})
			}
			if e3 == b3 && e2 == b2 {
				cands = append(cands, candidate{"mmxx", codes.halfMatch + field(uint64(s), 4) + field(b1, 8) + field(b0, 8)})
			}
			if e3 == b3 && e2 == b2 && e1 == b1 {
				cands = append(cands, candidate{"mmmx", codes.threeMatch + field(uint64(s), 4) + field(b0, 8)})
			}
		}
		if b3 == 0 && b2 == 0 && b1 == 0 {
			cands = append(cands, candidate{"zzzx", codes.narrow + field(b0, 8)})
		}

		best := cands[0]
		for _, c := range cands[1:] {
			if len(c.bits) < len(best.bits) { // ties keep the first: lowest slot
				best = c
			}
		}
		body.WriteString(best.bits)

		push := best.kind == "xxxx"
		if o.gem5Push {
			push = best.kind != "zzzz" && best.kind != "zzzx"
		}
		if push {
			dict[pushes%16] = w
			pushes++
		}
	}

	if body.Len() < 8*L {
		return "1" + body.String()
	}
	var raw bits
	raw.put(0, 1)
	raw.raw(line)
	return raw.String()
}
