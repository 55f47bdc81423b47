package ref

// BPC per the bpc package doc (Kim et al., ISCA 2016; symbol priority and
// sizes as in the authors' BPCompressor.hh). Everything here is done one
// bit at a time on '0'/'1' strings.

func init() {
	register("bpc", func(l []byte) string { return bpc(l, false) })
	register("bpc-unsigned", func(l []byte) string { return bpc(l, true) })
}

// bpcPositionBits is ceil(log2(m)) for an m-bit plane.
func bpcPositionBits(m int) int {
	b := 0
	for 1<<b < m {
		b++
	}
	return b
}

func bpc(line []byte, unsigned bool) string {
	n := len(line) / 4
	m := n - 1 // bits per plane: one per delta

	// Deltas Δ_i = w_i − w_{i−1}, i = 1…n−1, as 33-bit two's-complement
	// values held in int64. The default reads the words as signed; the
	// unsigned option reads them as unsigned, so bit 32 is the borrow.
	read := func(i int) int64 {
		v := word(line, 4, i)
		if unsigned {
			return int64(v)
		}
		return signed(v, 4)
	}
	delta := make([]int64, n) // delta[0] unused
	for i := 1; i < n; i++ {
		delta[i] = read(i) - read(i-1)
	}

	// DBP[j][i−1] = bit j of Δ_i, as '0'/'1'.
	var dbp [33][]byte
	for j := 0; j <= 32; j++ {
		dbp[j] = make([]byte, m)
		for i := 1; i < n; i++ {
			dbp[j][i-1] = byte('0' + (delta[i]>>j)&1)
		}
	}
	// DBX[32] = DBP[32]; DBX[j] = DBP[j] XOR DBP[j+1].
	var dbx [33][]byte
	dbx[32] = dbp[32]
	for j := 31; j >= 0; j-- {
		dbx[j] = make([]byte, m)
		for k := 0; k < m; k++ {
			if dbp[j][k] != dbp[j+1][k] {
				dbx[j][k] = '1'
			} else {
				dbx[j][k] = '0'
			}
		}
	}
	allOf := func(p []byte, c byte) bool {
		for _, b := range p {
			if b != c {
				return false
			}
		}
		return true
	}
	// ones lists the bit indices (delta index − 1) that are set.
	ones := func(p []byte) []int {
		var o []int
		for k, b := range p {
			if b == '1' {
				o = append(o, k)
			}
		}
		return o
	}

	var s bits
	// Base word w_0: the first code whose sign-extended field holds it.
	w0 := signed(word(line, 4, 0), 4)
	switch {
	case w0 == 0:
		s.put(0b000, 3)
	case fitsSigned(w0, 4):
		s.put(0b001, 3)
		s.put(uint64(w0), 4)
	case fitsSigned(w0, 8):
		s.put(0b010, 3)
		s.put(uint64(w0), 8)
	case fitsSigned(w0, 16):
		s.put(0b011, 3)
		s.put(uint64(w0), 16)
	default:
		s.put(0b1, 1)
		s.put(uint64(w0), 32)
	}

	posBits := bpcPositionBits(m)
	run := 0
	flush := func() {
		switch {
		case run == 1:
			s.WriteString("001")
		case run >= 2:
			s.WriteString("01")
			s.put(uint64(run-2), 5)
		}
		run = 0
	}
	for j := 32; j >= 0; j-- {
		if allOf(dbx[j], '0') {
			run++
			continue
		}
		flush()
		o := ones(dbx[j])
		switch {
		case allOf(dbp[j], '0'):
			s.WriteString("00001")
		case allOf(dbx[j], '1'):
			s.WriteString("00000")
		case len(o) == 2 && o[1] == o[0]+1:
			s.WriteString("00010")
			s.put(uint64(o[0]), posBits)
		case len(o) == 1:
			s.WriteString("00011")
			s.put(uint64(o[0]), posBits)
		default:
			s.WriteString("1")
			for k := m - 1; k >= 0; k-- { // highest delta index first
				s.WriteByte(dbx[j][k])
			}
		}
	}
	flush()

	payload := s.String()
	if len(payload) < 8*len(line) {
		return "1" + payload
	}
	var raw bits
	raw.put(0, 1)
	raw.raw(line)
	return raw.String()
}
