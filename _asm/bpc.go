package main

//go:generate go run . -kernels bpc -out ../bpc/planes_amd64.s -stubs ../bpc/planes_stub_amd64.go -pkg bpc

import (
	"encoding/binary"
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func init() {
	generators["bpc"] = func() {
		for _, words := range []int{32, 16, 8} {
			bpcPlanesAVX2(words)
		}
		bpcTransposeAVX2()
		bpcRebuildAVX512(32)
		bpcRebuildAVX512(16)
		for _, words := range []int{32, 16, 8} {
			bpcPlanesAVX512(words)
		}
		for _, words := range []int{32, 16} {
			bpcEncodeAVX512(words)
		}
		for _, words := range []int{32, 16} {
			bpcParse(words)
		}
		bpcDecode64AVX512()
		bpcDecompressLines64AVX512()
	}
}

// bpcConst declares a 32-byte constant of eight 32-bit lanes.
func bpcConst(name string, v [8]uint32) Mem {
	m := GLOBL(name, attr.RODATA|attr.NOPTR)
	for i, x := range v {
		DATA(4*i, U32(x))
	}
	return m
}

var bpcConsts map[string]Mem

func bpcConstants() {
	if bpcConsts != nil {
		return
	}
	bpcConsts = map[string]Mem{
		// VPSHUFB: in each 128-bit lane, byte b of the four words to
		// bytes 4b…4b+3.
		"bytes": bpcConst("bpc_bytes", [8]uint32{0x0C080400, 0x0D090501, 0x0E0A0602, 0x0F0B0703, 0x0C080400, 0x0D090501, 0x0E0A0602, 0x0F0B0703}),
		// VPERMD: interleave the 128-bit lanes' dwords.
		"interleave": bpcConst("bpc_interleave", [8]uint32{0, 4, 1, 5, 2, 6, 3, 7}),
		// VPERMD: words 1…7, 7 (the words after each of the last eight).
		"next": bpcConst("bpc_next", [8]uint32{1, 2, 3, 4, 5, 6, 7, 7}),
	}
	for i := 0; i < 4; i++ {
		var v [8]uint32
		for l := range v {
			v[l] = uint32(31 - (8*i + l))
		}
		bpcConsts["lane"+string(rune('0'+i))] = bpcConst("bpc_lane"+string(rune('0'+i)), v)
	}
}

// bitTranspose emits the transpose of the 32×32 bit matrix whose rows are
// the 32-bit lanes of rows (four vectors, row 0 in lane 0 of rows[0]): it
// calls store(r, g) with the general register g holding output row r,
// whose bit i is bit r of input row i. The rows are regrouped so that
// vector k holds byte k of every row, byte i for row i; then VPMOVMSKB
// gathers bit 7 of all 32 bytes, and adding each vector to itself moves
// the next bit up.
func bitTranspose(rows []VecVirtual, store func(r int, g GPVirtual)) {
	shuf, inter := YMM(), YMM()
	VMOVDQU(bpcConsts["bytes"], shuf)
	VMOVDQU(bpcConsts["interleave"], inter)
	g := make([]VecVirtual, 4)
	for i, v := range rows {
		// qword k of g[i] = byte k of rows 8i…8i+7.
		g[i] = YMM()
		VPSHUFB(shuf, v, g[i])
		VPERMD(g[i], inter, g[i])
	}
	t := make([]VecVirtual, 4)
	for i := range t {
		t[i] = YMM()
	}
	VPUNPCKLQDQ(g[1], g[0], t[0]) // g0.q0 g1.q0 | g0.q2 g1.q2
	VPUNPCKHQDQ(g[1], g[0], t[1]) // g0.q1 g1.q1 | g0.q3 g1.q3
	VPUNPCKLQDQ(g[3], g[2], t[2])
	VPUNPCKHQDQ(g[3], g[2], t[3])
	b := make([]VecVirtual, 4) // b[k] byte i = byte k of row i
	for i := range b {
		b[i] = YMM()
	}
	VPERM2I128(U8(0x20), t[2], t[0], b[0])
	VPERM2I128(U8(0x20), t[3], t[1], b[1])
	VPERM2I128(U8(0x31), t[2], t[0], b[2])
	VPERM2I128(U8(0x31), t[3], t[1], b[3])
	for k, v := range b {
		for bit := 7; bit >= 0; bit-- {
			r := GP32()
			VPMOVMSKB(v, r)
			store(8*k+bit, r)
			if bit > 0 {
				VPADDB(v, v, v)
			}
		}
	}
}

// bpcBroadcast copies g into every dword lane of a new vector.
func bpcBroadcast(g Register) VecVirtual {
	x, y := XMM(), YMM()
	MOVD(g, x)
	VPBROADCASTD(x, y)
	return y
}

// packMask emits the 32-bit mask of the sign bits of the dword lanes of
// four vectors, lane 0 of v[0] in bit 0.
func packMask(v []VecVirtual, inter VecVirtual) GPVirtual {
	w01, w23 := YMM(), YMM()
	VPACKSSDW(v[1], v[0], w01)
	VPACKSSDW(v[3], v[2], w23)
	VPACKSSWB(w23, w01, w01)
	VPERMD(w01, inter, w01)
	r := GP32()
	VPMOVMSKB(w01, r)
	return r
}

// bpcPlanesAVX2 emits the AVX2 version of bpc's planesGeneric for lines
// of the given number of words (32, 16 or 8). A shorter line is read where
// it is, never past its end; the words past it count as zero, as the
// zero-padded line of planesGeneric has them (the plane mask drops their
// deltas anyway). Copying a short line into a padded buffer first would
// cost a failed store-to-load forward on the kernel's unaligned loads.
func bpcPlanesAVX2(words int) {
	bpcConstants()
	name := "bpcPlanesAVX2"
	if words != 32 {
		name = fmt.Sprintf("bpcPlanes%dAVX2", 4*words)
	}
	TEXT(name, NOSPLIT, fmt.Sprintf("func(line *[%d]byte, flip, mask uint32, dbx *[33]uint32, cls *[5]uint32)", 4*words))
	Pragma("noescape")
	Doc(name+" computes the DBX planes and the classification masks of",
		fmt.Sprintf("a %d-byte line, as planesGeneric does for it zero-padded to 128 bytes.", 4*words))
	line := Load(Param("line"), GP64())
	dbx := Load(Param("dbx"), GP64())
	cls := Load(Param("cls"), GP64())

	// lanes: all ones in the delta lanes inside the plane mask.
	mask := bpcBroadcast(Load(Param("mask"), GP32()))
	flip := bpcBroadcast(Load(Param("flip"), GP32()))
	// a^flip < b^flip unsigned is (a^flip^2^31) < (b^flip^2^31) signed.
	sign := YMM()
	VPCMPEQD(sign, sign, sign)
	VPSLLD(U8(31), sign, sign)
	VPXOR(sign, flip, flip)

	deltas := make([]VecVirtual, 4)
	borrow := make([]VecVirtual, 4)
	vectors := words / 8
	for i := 0; i < 4; i++ {
		deltas[i], borrow[i] = YMM(), YMM()
		if i >= vectors {
			// Past the line: zero words, no deltas.
			VPXOR(deltas[i], deltas[i], deltas[i])
			VPXOR(borrow[i], borrow[i], borrow[i])
			continue
		}
		w, n := YMM(), YMM()
		VMOVDQU(Mem{Base: line, Disp: 32 * i}, w)
		if i < vectors-1 {
			VMOVDQU(Mem{Base: line, Disp: 32*i + 4}, n)
		} else {
			// Not past the line: its last word follows itself (Δ = 0,
			// masked anyway).
			idx := YMM()
			VMOVDQU(bpcConsts["next"], idx)
			VPERMD(w, idx, n)
		}
		lanes := YMM()
		VPSLLVD(bpcConsts["lane"+string(rune('0'+i))], mask, lanes)
		VPSRAD(U8(31), lanes, lanes)
		VPSUBD(w, n, deltas[i])
		VPAND(lanes, deltas[i], deltas[i])
		VPXOR(flip, w, w)
		VPXOR(flip, n, n)
		VPCMPGTD(n, w, borrow[i]) // w' > n': the borrow of n − w
		VPAND(lanes, borrow[i], borrow[i])
	}
	inter := YMM()
	VMOVDQU(bpcConsts["interleave"], inter)
	// VMOVMSKPS of each borrow vector: 8 bits each.
	top := GP32()
	for i := 3; i >= 0; i-- {
		m := GP32()
		VMOVMSKPS(borrow[i], m)
		if i == 3 {
			MOVL(m, top)
		} else {
			SHLL(U8(8), top)
			ORL(m, top)
		}
	}
	MOVL(top, Mem{Base: dbx, Disp: 4 * 32})

	// DBP[0…31] into dbx, then DBX[j] = DBP[j] ^ DBP[j+1] in place.
	bitTranspose(deltas, func(r int, g GPVirtual) {
		MOVL(g, Mem{Base: dbx, Disp: 4 * r})
	})
	x := make([]VecVirtual, 4)
	p := make([]VecVirtual, 4)
	for i := 0; i < 4; i++ {
		p[i], x[i] = YMM(), YMM()
		VMOVDQU(Mem{Base: dbx, Disp: 32 * i}, p[i])
		VPXOR(Mem{Base: dbx, Disp: 32*i + 4}, p[i], x[i])
	}
	for i := 0; i < 4; i++ {
		VMOVDQU(x[i], Mem{Base: dbx, Disp: 32 * i})
	}

	zero := YMM()
	VPXOR(zero, zero, zero)
	ones := YMM()
	VPCMPEQD(ones, ones, ones)
	class := func(k int, test func(i int, t VecVirtual)) {
		t := make([]VecVirtual, 4)
		for i := range t {
			t[i] = YMM()
			test(i, t[i])
		}
		MOVL(packMask(t, inter), Mem{Base: cls, Disp: 4 * k})
	}
	class(0, func(i int, t VecVirtual) { VPCMPEQD(zero, x[i], t) })
	class(1, func(i int, t VecVirtual) { VPCMPEQD(zero, p[i], t) })
	class(2, func(i int, t VecVirtual) { VPCMPEQD(mask, x[i], t) })
	class(3, func(i int, t VecVirtual) { // x & (x − 1) = 0
		VPADDD(ones, x[i], t)
		VPAND(x[i], t, t)
		VPCMPEQD(zero, t, t)
	})
	class(4, func(i int, t VecVirtual) { // (x & −x) × 3 = x
		low := YMM()
		VPSUBD(x[i], zero, low)
		VPAND(x[i], low, low)
		VPADDD(low, low, t)
		VPADDD(low, t, t)
		VPCMPEQD(x[i], t, t)
	})
	VZEROUPPER()
	RET()
}

// bpcTransposeAVX2 emits the AVX2 version of bpc's transpose32.
func bpcTransposeAVX2() {
	bpcConstants()
	TEXT("bpcTransposeAVX2", NOSPLIT, "func(a *[32]uint32)")
	Pragma("noescape")
	Doc("bpcTransposeAVX2 transposes the 32×32 bit matrix a in place, as transpose32 does.")
	a := Load(Param("a"), GP64())
	rows := make([]VecVirtual, 4)
	for i := range rows {
		rows[i] = YMM()
		VMOVDQU(Mem{Base: a, Disp: 32 * i}, rows[i])
	}
	bitTranspose(rows, func(r int, g GPVirtual) {
		MOVL(g, Mem{Base: a, Disp: 4 * r})
	})
	VZEROUPPER()
	RET()
}

// bpcRebuildAVX512 emits the AVX-512 (VBMI, GFNI) version of bpc's
// rebuildScalar for streams without a "DBP zero" symbol: DBP[j] is then
// the XOR of DBX[j … 32], a suffix scan across lanes; the deltas are the
// bit transpose of the planes (bpcTranspose512); the words are the
// prefix sums of the deltas from the base, a scan across lanes.
//
// At 16 words (bpcRebuild64AVX512) it writes the 64 bytes of the line
// only, so that it can write into the caller's dst.
func bpcRebuildAVX512(words int) {
	name := "bpcRebuildAVX512"
	what := "the line"
	if words == 16 {
		name, what = "bpcRebuild64AVX512", "the 64-byte line"
	}
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dbx *[33]uint32, base uint32, line *[%d]byte)", 4*words))
	Pragma("noescape")
	Doc(name+" rebuilds "+what+" from the DBX planes of a stream without",
		"a \"DBP zero\" symbol and the base word, as rebuildScalar does.")
	dbx := Load(Param("dbx"), GP64())
	line := Load(Param("line"), GP64())
	// Planes 0…15 and 16…31. The caller has just written them one at a
	// time, so these loads wait for the stores to reach the cache
	// instead of taking their data from them; building the vectors from
	// 32 dword loads instead measured slower after the parse kernels
	// (bpcDecode64AVX512 keeps its planes in a register instead).
	lo, hi := ZMM(), ZMM()
	VMOVDQU32(Mem{Base: dbx}, lo)
	VMOVDQU32(Mem{Base: dbx, Disp: 64}, hi)
	top := ZMM()
	VPBROADCASTD(Mem{Base: dbx, Disp: 4 * 32}, top)
	bpcRebuildLine(words, lo, hi, top, nil, Load(Param("base"), GP32()), line)
	VZEROUPPER()
	RET()
}

// bpcRebuildLine emits the rebuild of bpcRebuildAVX512 from the DBX
// planes in vectors: lo and hi hold planes 0…15 and 16…31 (lane j of
// lo is plane j), top holds plane 32 in every lane. It writes the line's
// 4 × words bytes at line.
//
// zeros, if not nil, is a general register whose bit j says that DBP[j]
// is zero ("DBP zero" symbols; those planes' DBX must be zero): DBP[j] is
// then the XOR of DBX[j … f−1], f the lowest such plane from j on, which
// is the suffix XOR S[j] (S[33] = 0) XOR S[f] (0 without such a plane
// among 0…31: S[32] is then DBX[32], or zero for a "DBP zero" plane 32).
func bpcRebuildLine(words int, lo, hi, top VecVirtual, zeros, base, line Register) {
	zero := ZMM()
	VPXORD(zero, zero, zero)
	// Suffix XOR within each vector: lane i takes lanes i+1, i+2, … in
	// four doubling steps (VALIGND with zeros above shifts lanes down).
	for _, v := range []VecVirtual{lo, hi} {
		for k := 1; k < 16; k *= 2 {
			t := ZMM()
			VALIGND(U8(uint8(k)), v, zero, t)
			VPXORD(t, v, v)
		}
	}
	// Planes 0…15 also take the XOR of planes 16…31 (lane 0 of hi) and
	// all planes DBX[32].
	all := ZMM()
	VPBROADCASTD(hi.AsX(), all)
	VPXORD(top, lo, lo)
	VPXORD(top, hi, hi)
	VPXORD(all, lo, lo)
	if zeros != nil {
		// f for each lane: the lowest set bit of zeros at or above it,
		// 31 − the leading zeros of that bit alone.
		zv := ZMM()
		VPBROADCASTD(zeros, zv)
		c31 := ZMM()
		VPBROADCASTD(bpcConst4(31), c31)
		s := []VecVirtual{lo, hi}
		out := make([]VecVirtual, 2)
		for h := range s {
			var from [16]uint32
			for l := range from {
				from[l] = ^uint32(0) << uint(16*h+l)
			}
			sel, low, k := ZMM(), ZMM(), K()
			VPANDD(bpcConst512D(fmt.Sprintf("bpc_from%d", h), from), zv, sel)
			VPTESTMD(sel, sel, k)
			VPSUBD(sel, zero, low)
			VPANDD(sel, low, low)
			VPLZCNTD(low, low)
			VPSUBD(low, c31, low)
			VPERMI2D_Z(hi, lo, k, low)
			out[h] = low
		}
		for h := range s {
			VPXORD(out[h], s[h], s[h])
		}
	}

	// The deltas: the transpose of the DBP planes.
	d := bpcTranspose512([]VecVirtual{lo, hi})
	lo, hi = d[0], d[1]
	// Prefix sums: lane i takes lanes i, i−1, …; hi then adds the sum of
	// lo (lane 15, broadcast by VPERMD).
	lo = dwordPrefix(lo, zero, true, 0)
	if words == 32 {
		hi = dwordPrefix(hi, zero, true, 0)
	}
	// Word 0 is the base, word i+1 the base plus the sum of deltas 0…i:
	// the sums move up one lane.
	b := ZMM()
	VPBROADCASTD(base, b)
	w0 := ZMM()
	VALIGND(U8(15), zero, lo, w0)
	VPADDD(b, w0, w0)
	VMOVDQU32(w0, Mem{Base: line})
	if words == 16 {
		return
	}
	var fifteen [64]byte
	for i := 0; i < 64; i += 4 {
		fifteen[i] = 15
	}
	sum := ZMM()
	VMOVDQU64(rodataBytes("bpc_lane15", fifteen[:]), sum)
	VPERMD(lo, sum, sum)
	VPADDD(sum, hi, hi)
	// Words 16…31 likewise.
	w1 := ZMM()
	VALIGND(U8(15), lo, hi, w1)
	VPADDD(b, w1, w1)
	VMOVDQU32(w1, Mem{Base: line, Disp: 64})
}

// bpcMask32 returns the 32-bit mask of two 16-lane masks, lo in the low
// half.
func bpcMask32(lo, hi OpmaskVirtual) GPVirtual {
	a, b := GP32(), GP32()
	KMOVW(lo, a)
	KMOVW(hi, b)
	SHLL(U8(16), b)
	ORL(b, a)
	return a
}

// bpcPlanesAVX512 emits the AVX-512 (VBMI, GFNI) version of bpc's
// planesGeneric for lines of the given number of words (32, 16 or 8),
// read where they are. The bit transpose stays in vectors
// (bpcTranspose512), and the tests give their masks directly (VPTESTNMD,
// VPCMPEQD into mask registers).
func bpcPlanesAVX512(words int) {
	name := fmt.Sprintf("bpcPlanes%dAVX512", 4*words)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(line *[%d]byte, flip, mask uint32, dbx *[33]uint32, cls *[5]uint32)", 4*words))
	Pragma("noescape")
	Doc(name+" computes the DBX planes and the classification masks of",
		fmt.Sprintf("a %d-byte line, as planesGeneric does for it zero-padded to 128 bytes.", 4*words))
	line := Load(Param("line"), GP64())
	dbx := Load(Param("dbx"), GP64())
	cls := Load(Param("cls"), GP64())
	mask := Load(Param("mask"), GP32())
	flip := Load(Param("flip"), GP32())
	x, p, top := bpcTransform512(words, line, mask, flip)
	MOVL(top, Mem{Base: dbx, Disp: 4 * 32})
	for h := range x {
		VMOVDQU32(x[h], Mem{Base: dbx, Disp: 64 * h})
	}

	maskv := ZMM()
	VPBROADCASTD(mask, maskv)
	ones := ZMM()
	VPTERNLOGD(U8(0xFF), ones, ones, ones)
	zero := ZMM()
	VPXORD(zero, zero, zero)
	class := func(k int, test func(h int, out OpmaskVirtual)) {
		m := []OpmaskVirtual{K(), K()}
		for h := range m {
			test(h, m[h])
		}
		MOVL(bpcMask32(m[0], m[1]), Mem{Base: cls, Disp: 4 * k})
	}
	class(0, func(h int, out OpmaskVirtual) { VPTESTNMD(x[h], x[h], out) })
	class(1, func(h int, out OpmaskVirtual) { VPTESTNMD(p[h], p[h], out) })
	class(2, func(h int, out OpmaskVirtual) { VPCMPEQD(maskv, x[h], out) })
	class(3, func(h int, out OpmaskVirtual) { // x & (x − 1) = 0
		t := ZMM()
		VPADDD(ones, x[h], t)
		VPTESTNMD(t, x[h], out)
	})
	class(4, func(h int, out OpmaskVirtual) { // (x & −x) × 3 = x
		low, t := ZMM(), ZMM()
		VPSUBD(x[h], zero, low)
		VPANDD(x[h], low, low)
		VPADDD(low, low, t)
		VPADDD(low, t, t)
		VPCMPEQD(x[h], t, out)
	})
	VZEROUPPER()
	RET()
}

// bpcTranspose512 emits the transpose of the 32×32 bit matrix whose rows
// are the 32 dword lanes of rows (row 0 in lane 0 of rows[0]) and returns
// the two vectors of the transposed rows: lane j holds bit j of every
// input row. It stays in vectors: qword q = 4k + c gathers byte k of rows
// 8c+7 … 8c (VPERMI2B; reversed, as the affine transform reads its
// matrix from the top byte), GF2P8AFFINEQB with each such 8×8 block as
// its matrix and the bytes 1, 2, 4, … 128 as input transposes every block
// at once, and a second VPERMI2B puts the bytes in row order.
func bpcTranspose512(rows []VecVirtual) []VecVirtual {
	bpcTranspose512Consts()
	cols := ZMM()
	VMOVDQU64(bpcConsts512["cols"], cols)
	g := []VecVirtual{ZMM(), ZMM()}
	for h := range g {
		VMOVDQU64(bpcConsts512[fmt.Sprintf("gather%d", h)], g[h])
		VPERMI2B(rows[1], rows[0], g[h])
		VGF2P8AFFINEQB(U8(0), g[h], cols, g[h])
	}
	out := []VecVirtual{ZMM(), ZMM()}
	for h := range out {
		VMOVDQU64(bpcConsts512[fmt.Sprintf("scatter%d", h)], out[h])
		VPERMI2B(g[1], g[0], out[h])
	}
	return out
}

// bpcTranspose512Consts declares bpcTranspose512's constants once, in
// bpcConsts512.
func bpcTranspose512Consts() {
	if bpcConsts512 != nil {
		return
	}
	var gather [2][64]byte
	for q := 0; q < 16; q++ {
		k, c := q/4, q%4
		for m := 0; m < 8; m++ {
			gather[q/8][8*(q%8)+m] = byte(4*(8*c+7-m) + k)
		}
	}
	var colBytes [64]byte
	for i := range colBytes {
		colBytes[i] = 1 << (i % 8)
	}
	// Byte b of qword 4k + c is then byte c of output row 8k + b, which
	// goes to byte 4(8k + b) + c.
	var scatter [2][64]byte
	for pos := 0; pos < 128; pos++ {
		j, c := pos/4, pos%4
		k, b := j/8, j%8
		scatter[pos/64][pos%64] = byte(32*k + 8*c + b)
	}
	bpcConsts512 = map[string]Mem{
		"cols":     rodataBytes("bpc_cols", colBytes[:]),
		"gather0":  rodataBytes("bpc_gather0", gather[0][:]),
		"gather1":  rodataBytes("bpc_gather1", gather[1][:]),
		"scatter0": rodataBytes("bpc_scatter0", scatter[0][:]),
		"scatter1": rodataBytes("bpc_scatter1", scatter[1][:]),
	}
}

var bpcConsts512 map[string]Mem

// bpcTransposeWords is bpcTranspose512's first vector for rows of 16 bits:
// the transpose of the 32×16 bit matrix whose rows are the 32 word lanes
// of rows (row 0 in the lowest), lane j (j < 16) holding bit j of every
// row. Bytes 2 and 3 of bpcTranspose512's rows would be zero, so its
// gather reads only bytes 0 and 1 of each row (the first vector) and its
// scatter only that vector: one VPERMB each, from the words themselves,
// with no widening to dwords first (three instructions and about 9 cycles
// less).
func bpcTransposeWords(rows VecVirtual) VecVirtual {
	bpcTranspose512Consts()
	var gather [64]byte
	for q := 0; q < 8; q++ {
		k, c := q/4, q%4
		for m := 0; m < 8; m++ {
			gather[8*q+m] = byte(2*(8*c+7-m) + k)
		}
	}
	g, cols, out := ZMM(), ZMM(), ZMM()
	VMOVDQU64(rodataBytes("bpc_gather_words", gather[:]), g)
	VPERMB(rows, g, g)
	VMOVDQU64(bpcConsts512["cols"], cols)
	VGF2P8AFFINEQB(U8(0), g, cols, g)
	VMOVDQU64(bpcConsts512["scatter0"], out)
	VPERMB(g, out, out)
	return out
}

// bpcTransform512 emits the transform of bpcPlanesAVX512 for a line of
// the given number of words at line, with the plane mask and flip of
// planesGeneric in general registers: it returns the vectors of DBX[0…31]
// and DBP[0…31] (lane j of vector j/16) and DBX[32] = DBP[32].
func bpcTransform512(words int, line, mask, flipGP Register) (x, p []VecVirtual, top GPVirtual) {
	// The delta lanes: bit i of the plane mask is delta i (Δ_{i+1}).
	klo, khi := K(), K()
	KMOVD(mask, klo)
	KSHIFTRD(U8(16), klo, khi)
	flip := ZMM()
	VPBROADCASTD(flipGP, flip)

	zero := ZMM()
	VPXORD(zero, zero, zero)
	w := []VecVirtual{ZMM(), ZMM()}
	next := []VecVirtual{ZMM(), ZMM()}
	switch words {
	case 32:
		VMOVDQU32(Mem{Base: line}, w[0])
		VMOVDQU32(Mem{Base: line, Disp: 64}, w[1])
		VALIGND(U8(1), w[0], w[1], next[0])
		VALIGND(U8(1), w[1], w[1], next[1]) // lane 15 is no delta
	case 16:
		VMOVDQU32(Mem{Base: line}, w[0])
		VALIGND(U8(1), w[0], w[0], next[0]) // lane 15 is no delta
	default:
		VMOVDQU(Mem{Base: line}, w[0].AsY()) // the upper lanes are zeroed
		VALIGND(U8(1), w[0], w[0], next[0])
	}
	vecs := 1
	if words == 32 {
		vecs = 2
	}
	d := []VecVirtual{ZMM(), ZMM()}
	borrow := []OpmaskVirtual{K(), K()}
	ks := []OpmaskVirtual{klo, khi}
	for i := 0; i < 2; i++ {
		if i >= vecs {
			VPXORD(d[i], d[i], d[i])
			KXORW(borrow[i], borrow[i], borrow[i])
			continue
		}
		VPSUBD_Z(w[i], next[i], ks[i], d[i])
		// Plane 32: the borrow of next − w, an unsigned comparison of
		// the words with flip XORed in (predicate 1: less than).
		VPXORD(flip, w[i], w[i])
		VPXORD(flip, next[i], next[i])
		VPCMPUD(U8(1), w[i], next[i], ks[i], borrow[i])
	}
	top = bpcMask32(borrow[0], borrow[1])

	p = bpcTranspose512(d)
	// DBX[j] = DBP[j] ^ DBP[j+1]; lane 15 of the upper vector takes
	// DBP[32], the top bits.
	topv := ZMM()
	VPBROADCASTD(top, topv)
	x = []VecVirtual{ZMM(), ZMM()}
	VALIGND(U8(1), p[0], p[1], x[0])
	VALIGND(U8(1), p[1], topv, x[1])
	for h := range x {
		VPXORD(p[h], x[h], x[h])
	}
	return x, p, top
}

// bpcEncodeBuf is the length of the encode kernels' output buffer: the
// longest stream they can write (a 34-bit base code and 33 raw planes of
// 32 bits at 128 bytes: 1,090 bits, 137 bytes) and the 8 bytes of the
// last unaligned store.
const bpcEncodeBuf = 160

// bpcConst512D declares a 64-byte constant of sixteen 32-bit lanes.
func bpcConst512D(name string, v [16]uint32) Mem {
	m := GLOBL(name, attr.RODATA|attr.NOPTR)
	for i, x := range v {
		DATA(4*i, U32(x))
	}
	return m
}

// bpcRunConsts returns, for the planes of vector h (plane 16h + l in lane
// l), the mask of the planes below each plane and the constant that turns
// the leading zeros of the non-zero planes below it into the length of
// the run of zero planes starting at it: (1<<j) − 1 and j − 31, plane 32
// taking all 32 planes below.
func bpcRunConsts(h int) (below, add Mem) {
	name := fmt.Sprintf("bpc_below%d", h)
	if m, ok := bpcConsts512[name]; ok {
		return m, bpcConsts512[fmt.Sprintf("bpc_runadd%d", h)]
	}
	var b, a [16]uint32
	for l := range b {
		j := 16*h + l
		b[l] = uint32(uint64(1)<<uint(min(j, 32)) - 1)
		a[l] = uint32(int32(j - 31))
	}
	bpcConsts512[name] = bpcConst512D(name, b)
	bpcConsts512[fmt.Sprintf("bpc_runadd%d", h)] = bpcConst512D(fmt.Sprintf("bpc_runadd%d", h), a)
	return bpcConsts512[name], bpcConsts512[fmt.Sprintf("bpc_runadd%d", h)]
}

// bpcEncodeAVX512 emits the whole bit-plane encoder of a line of the
// given number of words (32 or 16) for AVX-512 with VBMI, GFNI and CD: the
// transform of bpcPlanesAVX512, then every plane's symbol (code and
// length) at once in vector lanes, the emitted ones (non-zero planes and
// the top plane of each zero run) packed together by VPCOMPRESSD, and the
// stream built from them MSB-first in a 64-bit accumulator stored as
// big-endian words. It returns the stream's length in bits with the flag;
// at 128 bytes the caller falls back to the raw line when that is not
// shorter, and at 64 bytes the kernel writes the raw stream itself
// (bpcPack64).
func bpcEncodeAVX512(words int) {
	name := fmt.Sprintf("bpcEncode%dAVX512", 4*words)
	outLen := bpcEncodeBuf
	doc := []string{name + " writes the bit-plane stream (flag 1) of a 128-byte line",
		"to out, as encode does, and returns its length in bits. A stream that loses to",
		"the raw line (rawPayload) is not written."}
	if words == 16 {
		outLen = 65 // bpcPack64 writes the stream's bytes only
		doc = []string{name + " writes the stream of a 64-byte line to out, as encode does,",
			"and returns its length in bits: the bit-plane stream (flag 1), or the raw",
			"stream (flag 0, the line, 513 bits) where that one loses to the raw line",
			"(rawPayload). It writes the stream's bytes only, and reads all of line before",
			"it writes out."}
	}
	TEXT(name, NOSPLIT, fmt.Sprintf("func(line *[%d]byte, flip uint32, out *[%d]byte) int", 4*words, outLen))
	Pragma("noescape")
	Doc(doc...)
	m := words - 1 // plane bits
	posBits := 4   // ceil(log2(m))
	if words == 32 {
		posBits = 5
	}
	line := Load(Param("line"), GP64())
	mask := GP32()
	MOVL(U32(uint32(1)<<uint(m)-1), mask)
	x, p, top := bpcTransform512(words, line, mask, Load(Param("flip"), GP32()))
	// Plane 32 is lane 0 of a third vector; DBP[32] = DBX[32].
	x2 := ZMM()
	VMOVD(top, x2.AsX())
	xs := []VecVirtual{x[0], x[1], x2}
	ps := []VecVirtual{p[0], p[1], x2}
	zero, ones := ZMM(), ZMM()
	VPXORD(zero, zero, zero)
	VPTERNLOGD(U8(0xFF), ones, ones, ones)
	bc := func(v uint32) VecVirtual {
		z := ZMM()
		VPBROADCASTD(bpcConst4(v), z)
		return z
	}
	maskv := bc(uint32(1)<<uint(m) - 1)

	// The run lengths need the non-zero planes below each plane.
	kz0, kz1, kz32 := K(), K(), K()
	VPTESTNMD(xs[0], xs[0], kz0)
	VPTESTNMD(xs[1], xs[1], kz1)
	KUNPCKWD(kz0, kz1, kz32)
	nzg := GP32()
	KMOVD(kz32, nzg)
	NOTL(nzg)
	nzv := ZMM()
	VPBROADCASTD(nzg, nzv)

	// At 128 bytes the emitted symbols go to the stack, packed, for the
	// scalar packer; at 64 bytes every plane keeps its lane, a plane
	// without a symbol an empty code, for bpcPack64.
	var codes, lens Mem
	var total VecVirtual // lane sums of the emitted symbols' lengths
	var planeCodes, planeLens []VecVirtual
	var code32, len32 GPVirtual // plane 32's symbol at 64 bytes
	if words == 32 {
		codes = AllocLocal(4 * 64)
		lens = AllocLocal(4 * 64)
		total = ZMM()
		// Slots 0 and 1 are empty symbols before the first.
		MOVQ(U32(0), codes)
		MOVQ(U32(0), lens)
	}
	head := bc(uint32(1) << uint(m))
	rawLen := bc(uint32(1 + m))
	posLen := bc(uint32(5 + posBits))
	posBase := bc(uint32(2<<uint(posBits) + 31))
	posSingle := bc(uint32(1 << uint(posBits)))
	five := bc(5)
	one := bc(1)
	three := bc(3)
	seven := bc(7)
	runBase := bc(0b01<<5 - 2) // 01 + (n − 2)
	var count GPVirtual
	if words == 32 {
		count = GP64()
		XORQ(count, count)
	}
	// Every plane's symbol, in the authors' priority (masks in bpc.go),
	// from the tests of its lane, each kind's masks applied as soon as
	// they are known (there are seven mask registers). (KANDNW a, b, d is
	// d = a ∧ ¬b.)
	for h := 0; h < 3; h++ {
		x := xs[h]
		kz := K()
		VPTESTNMD(x, x, kz)
		code, length := ZMM(), ZMM()
		VPORD(head, x, code)
		VMOVDQA32(rawLen, length)

		// 00001 (DBP zero) and 00000 (all ones).
		kd, ko, short := K(), K(), K()
		VPTESTNMD(ps[h], ps[h], kd)
		VPCMPEQD(maskv, x, ko)
		KORW(kd, ko, short)
		KANDNW(short, kz, short)
		VMOVDQA32(zero, short, code)
		VMOVDQA32(five, short, length)
		KANDW(short, kd, kd)
		VMOVDQA32(one, kd, code)

		// 00010/00011 + position: the position of the lowest one is
		// 31 − its leading zeros, below the kind.
		k1, k2, pos := K(), K(), K()
		t := ZMM()
		VPADDD(ones, x, t)
		VPTESTNMD(t, x, k1) // x & (x − 1) = 0: at most one one
		low, t2 := ZMM(), ZMM()
		VPSUBD(x, zero, low)
		VPANDD(x, low, low)
		VPADDD(low, low, t2)
		VPADDD(low, t2, t2)
		VPCMPEQD(x, t2, k2) // (x & −x) × 3 = x: two adjacent ones or none
		KORW(k1, k2, pos)
		KANDNW(pos, kz, pos)
		KANDNW(pos, short, pos)
		KANDW(pos, k1, k1) // 00011 rather than 00010
		lz, pc := ZMM(), ZMM()
		VPLZCNTD(low, lz)
		VPSUBD(lz, posBase, pc)
		VPADDD(posSingle, pc, k1, pc)
		VMOVDQA32(pc, pos, code)
		VMOVDQA32(posLen, pos, length)

		// The top plane of a run: zero, with a non-zero plane above it
		// (or none: plane 32).
		runTop, emit := K(), K()
		if h < 2 {
			up, kup := ZMM(), K()
			VALIGND(U8(1), xs[h], xs[h+1], up) // lane l: plane 16h + l + 1
			VPTESTNMD(up, up, kup)
			KANDNW(kz, kup, runTop)
			KNOTW(kz, emit)
			KORW(emit, runTop, emit)
		} else {
			// Plane 32 always has a symbol; the other lanes none.
			g := GP32()
			MOVL(U32(1), g)
			KMOVW(g, emit)
			KANDW(kz, emit, runTop)
		}
		// Runs: the length is the leading zeros of the non-zero planes
		// below, plus j − 31.
		below, add := bpcRunConsts(h)
		rl, rc, rlen := ZMM(), ZMM(), ZMM()
		VPANDD(below, nzv, rl)
		VPLZCNTD(rl, rl)
		VPADDD(add, rl, rl)
		VPADDD(runBase, rl, rc)
		VMOVDQA32(seven, rlen)
		kone := K()
		VPCMPEQD(one, rl, kone)
		VMOVDQA32(one, kone, rc) // 001: a single zero plane
		VMOVDQA32(three, kone, rlen)
		VMOVDQA32(rc, runTop, code)
		VMOVDQA32(rlen, runTop, length)
		if words == 16 {
			if h == 2 {
				code32, len32 = GP64(), GP64()
				VMOVD(code.AsX(), code32.As32())
				VMOVD(length.AsX(), len32.As32())
				continue
			}
			VMOVDQA32_Z(code, emit, code)
			VMOVDQA32_Z(length, emit, length)
			planeCodes = append(planeCodes, code)
			planeLens = append(planeLens, length)
			continue
		}
		// The emitted symbols, packed after those of the planes below.
		VPCOMPRESSD_Z(code, emit, code)
		VPCOMPRESSD_Z(length, emit, length)
		if h == 0 {
			VMOVDQA32(length, total)
		} else {
			VPADDD(length, total, total)
		}
		VMOVDQU32(code, Mem{Base: codes.Base, Disp: codes.Disp + 8, Index: count, Scale: 4})
		VMOVDQU32(length, Mem{Base: lens.Base, Disp: lens.Disp + 8, Index: count, Scale: 4})
		if h < 2 {
			n := GP32()
			KMOVW(emit, n)
			POPCNTL(n, n)
			ADDQ(n.As64(), count)
		} else {
			INCQ(count)
		}
	}

	// The flag and the base word's code (baseCode): with s = w_0 XOR its
	// sign, the field is 4 bits if s < 8, 8 if s < 128, 16 if s < 32768,
	// else 32 (code 1); w_0 = 0 is code 000 without a field.
	base, s := GP32(), GP32()
	MOVL(Mem{Base: line}, base)
	MOVL(base, s)
	SARL(U8(31), s)
	XORL(base, s)
	width, hc, hl := GP64(), GP64(), GP64() // field bits, code with flag, its bits
	MOVQ(U64(32), width)
	MOVQ(U64(0b11), hc)
	MOVQ(U64(2), hl)
	four := GP64()
	MOVQ(U64(4), four)
	for _, c := range []struct {
		limit uint32
		width uint64
		code  uint64
	}{{32768, 16, 0b1011}, {128, 8, 0b1010}, {8, 4, 0b1001}} {
		w, cd := GP64(), GP64()
		MOVQ(U64(c.width), w)
		MOVQ(U64(c.code), cd)
		CMPL(s, U32(c.limit))
		CMOVQCS(w, width)
		CMOVQCS(cd, hc)
		CMOVQCS(four, hl)
	}
	z, zc := GP64(), GP64()
	XORQ(z, z)
	MOVQ(U64(0b1000), zc)
	TESTL(base, base)
	CMOVQEQ(z, width)
	CMOVQEQ(zc, hc)
	acc, n := GP64(), GP64()
	SHLXQ(width, hc, acc)
	field := GP64()
	BZHIQ(width, base.As64(), field)
	ORQ(field, acc)
	MOVQ(hl, n)
	ADDQ(width, n)
	if words == 16 {
		bpcPack64(name, Load(Param("out"), GP64()), acc, n, planeCodes, planeLens, code32, len32)
		return
	}
	o := GP64()
	XORQ(o, o)
	// A stream that loses to the raw line (rawPayload) is not packed:
	// its length, the symbols' lengths summed, is all Compress uses.
	for _, k := range []int{8, 4, 2, 1} {
		t := ZMM()
		VALIGND(U8(uint8(k)), total, total, t)
		VPADDD(t, total, total)
	}
	bits := GP64()
	VMOVD(total.AsX(), bits.As32())
	ADDQ(n, bits)
	CMPQ(bits, U32(1+8*4*uint32(words)))
	JAE(LabelRef(name + "_raw"))
	out := Load(Param("out"), GP64())
	// put stores the top n bits of acc (its low n bits, n ≤ 63) at out + o
	// as a big-endian word and keeps the bits of a part byte.
	put := func() {
		sh, w := GP64(), GP64()
		MOVQ(n, sh)
		NEGQ(sh)
		SHLXQ(sh, acc, w)
		BSWAPQ(w)
		MOVQ(w, Mem{Base: out, Index: o, Scale: 1})
		full := GP64()
		MOVQ(n, full)
		SHRQ(U8(3), full)
		ADDQ(full, o)
		ANDQ(U8(7), n)
	}
	put()
	// The symbols from the last packed (plane 32's side) to the first,
	// one at a time (codes of up to 32 bits).
	const step = 1
	Label(name + "_loop")
	for k := 0; k < step; k++ {
		c, l := GP64(), GP64()
		MOVL(Mem{Base: codes.Base, Disp: codes.Disp + 4 - 4*k, Index: count, Scale: 4}, c.As32())
		MOVL(Mem{Base: lens.Base, Disp: lens.Disp + 4 - 4*k, Index: count, Scale: 4}, l.As32())
		SHLXQ(l, acc, acc)
		ORQ(c, acc)
		ADDQ(l, n)
	}
	put()
	SUBQ(U8(uint8(step)), count)
	JG(LabelRef(name + "_loop"))
	SHLQ(U8(3), o)
	ADDQ(n, o)
	Store(o, ReturnIndex(0))
	VZEROUPPER()
	RET()
	Label(name + "_raw")
	Store(bits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// bpcPack64 emits the packer of bpcEncode64AVX512 and its return: acc
// holds the flag and the base word's code (its low n bits), codes and
// lens the symbols of planes 0…31 in the dword lanes of two vectors (an
// empty code of length 0 for a plane without one), code32 and len32 plane
// 32's. It stays in registers: the stream is built as a 512-bit number
// whose top bit is the stream's first, so that plane 0's symbol, the
// stream's last, sits lowest. The planes' codes (at most 16 bits) are
// merged in fours into 64-bit chunks (at most 64 bits), planes 4j…4j+3 in
// lane j; chunk j starts at 512 less the head's length (flag, base code
// and plane 32's symbol, at most 50 bits, all in the top word) less the
// lengths of chunks j…7, an in-register suffix sum that needs no total.
// Each chunk then goes into all eight words at once, shifted left by its
// start − 64w or right by the opposite (VPSLLVQ and VPSRLVQ give 0 for
// counts of 64 or more, negative ones included), and ORed: chunks are
// disjoint. One byte permute makes the number the stream's bytes, and a
// masked store writes those only (out may be the caller's dst). A stream
// that loses to the raw line is not packed: the raw stream is written
// instead, as fpc's kernels write it (rawStream), so that Compress takes
// the kernel's stream as it is.
func bpcPack64(name string, out Register, acc, n GPVirtual, codes, lens []VecVirtual, code32, len32 GPVirtual) {
	zero := ZMM()
	VPXORQ(zero, zero, zero)
	low32 := bpcBroadcast8(0xFFFFFFFF)
	// Pairs of planes 2i, 2i+1 in qword lane i: plane 2i+1 comes first
	// in the stream, so above.
	var pc, pl [2]VecVirtual
	for h := 0; h < 2; h++ {
		odd, le, ce, lo := ZMM(), ZMM(), ZMM(), ZMM()
		VPSRLQ(U8(32), codes[h], odd)
		VPANDQ(low32, lens[h], le)
		VPSLLVQ(le, odd, odd)
		VPANDQ(low32, codes[h], ce)
		pc[h] = ZMM()
		VPORQ(ce, odd, pc[h])
		VPSRLQ(U8(32), lens[h], lo)
		pl[h] = ZMM()
		VPADDQ(lo, le, pl[h])
	}
	// Fours: pairs 2j and 2j+1 of the sixteen.
	var ev, od [16]uint32
	for j := 0; j < 8; j++ {
		ev[2*j], od[2*j] = uint32(2*j), uint32(2*j+1)
	}
	even, odd := bpcConstD("bpc_evenq", ev), bpcConstD("bpc_oddq", od)
	pick := func(m Mem, v [2]VecVirtual) VecVirtual {
		x, ix := ZMM(), ZMM()
		VMOVDQU64(m, ix)
		VMOVDQA64(v[0], x)
		VPERMT2Q(v[1], ix, x)
		return x
	}
	ce, co, le, lo := pick(even, pc), pick(odd, pc), pick(even, pl), pick(odd, pl)
	chunk, length := ZMM(), ZMM()
	VPSLLVQ(le, co, co)
	VPORQ(ce, co, chunk)
	VPADDQ(lo, le, length)
	// The head (flag, base code, plane 32's symbol: at most 50 bits) at
	// the top of the stream, in the top word.
	head := GP64() // its length
	MOVQ(n, head)
	ADDQ(len32, head)
	SHLXQ(len32, acc, acc)
	ORQ(code32, acc)
	{
		sh := GP64()
		MOVQ(U32(64), sh)
		SUBQ(head, sh)
		SHLXQ(sh, acc, acc)
	}
	words := [2]VecVirtual{ZMM(), ZMM()}
	{
		hv, k7, t := ZMM(), K(), GP32()
		VPBROADCASTQ(acc, hv)
		MOVL(U32(0x80), t)
		KMOVB(t, k7)
		VMOVDQA64_Z(hv, k7, words[0])
		VPXORQ(words[1], words[1], words[1])
	}
	// A chunk starts at 512 − the head's length − the lengths of the
	// chunks from it up: a suffix sum across the lanes, which needs no
	// total.
	suffix := ZMM()
	VMOVDQA64(length, suffix)
	for _, sh := range []int{1, 2, 4} {
		t := ZMM()
		VALIGNQ(U8(sh), suffix, zero, t) // lane i: x[i+sh], or 0
		VPADDQ(t, suffix, suffix)
	}
	// The stream's length: the chunks' (lane 0) and the head's.
	bits := GP64()
	VMOVQ(suffix.AsX(), bits)
	ADDQ(head, bits)
	top, start := GP64(), ZMM()
	MOVQ(U32(512), top)
	SUBQ(head, top)
	VPBROADCASTQ(top, start)
	VPSUBQ(suffix, start, start)
	chunks, starts := AllocLocal(64), AllocLocal(64)
	VMOVDQU64(chunk, chunks)
	VMOVDQU64(start, starts)
	// A stream that loses to the raw line (rawPayload) is not packed.
	CMPQ(bits, U32(1+8*64))
	JAE(LabelRef(name + "_raw"))

	Comment("Word w takes chunk j shifted by its start − 64w, left or right;",
		"a shift of 64 bits or more, or by a negative amount, gives 0.")
	var w64 [16]uint32
	for w := 0; w < 8; w++ {
		w64[2*w] = uint32(64 * w)
	}
	wordStarts := ZMM()
	VMOVDQU64(bpcConstD("bpc_wordstarts", w64), wordStarts)
	for j := 0; j < 8; j++ {
		c, right, left, l, r := ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
		VPBROADCASTQ(Mem{Base: chunks.Base, Disp: chunks.Disp + 8*j}, c)
		VPSUBQ_BCST(Mem{Base: starts.Base, Disp: starts.Disp + 8*j}, wordStarts, right) // 64w − start
		VPSUBQ(right, zero, left)
		VPSLLVQ(left, c, l)
		VPSRLVQ(right, c, r)
		VPTERNLOGQ(U8(0xFE), l, r, words[j%2]) // |
	}
	VPORQ(words[1], words[0], words[0])

	Comment("Big-endian bytes: the top word's top byte first.")
	var rev [64]byte
	for i := range rev {
		rev[i] = byte(63 - i)
	}
	ix := ZMM()
	VMOVDQU64(rodataBytes("bpc_revbytes", rev[:]), ix)
	VPERMB(words[0], ix, words[0])
	storeStreamBytes(words[:1], bits, Mem{Base: out})
	Store(bits, ReturnIndex(0))
	VZEROUPPER()
	RET()
	Label(name + "_raw")
	rawStream(out, Load(Param("line"), GP64()), 64)
	raw := GP64()
	MOVQ(U32(1+8*64), raw)
	Store(raw, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// bpcBroadcast8 returns a vector with v in every qword, broadcast from
// an 8-byte constant.
func bpcBroadcast8(v uint64) VecVirtual {
	name := fmt.Sprintf("bpc_q%016x", v)
	m, ok := bpcConsts512[name]
	if !ok {
		m = GLOBL(name, attr.RODATA|attr.NOPTR)
		DATA(0, U64(v))
		bpcConsts512[name] = m
	}
	z := ZMM()
	VPBROADCASTQ(m, z)
	return z
}

// bpcConstD returns the 64-byte constant name of sixteen dwords,
// declared once per file.
func bpcConstD(name string, v [16]uint32) Mem {
	if m, ok := bpcConsts512[name]; ok {
		return m
	}
	m := bpcConst512D(name, v)
	bpcConsts512[name] = m
	return m
}

// bpcConst4 returns a 4-byte constant, for VPBROADCASTD: a load, where a
// broadcast from a general register takes a shuffle.
func bpcConst4(v uint32) Mem {
	return bpcConstScalar(fmt.Sprintf("bpc_d%08x", v), U32(v))
}

// bpcConstScalar declares (once per name) a read-only constant of the one
// value v, for bpcConstQ and bpcConst4.
func bpcConstScalar(name string, v Constant) Mem {
	if m, ok := bpcConsts512[name]; ok {
		return m
	}
	m := GLOBL(name, attr.RODATA|attr.NOPTR)
	DATA(0, v)
	bpcConsts512[name] = m
	return m
}

// bpcSkipSymbol steps past the symbol whose entry of bpc's symbol table
// is e (which it changes; t is scratch): the plane index j goes down by
// the planes the symbol covers (the byte at symPlanesShift, 32) and the
// bit position pos up by its length (the bits from symLenShift, 48).
func bpcSkipSymbol(e, t GPVirtual, j, pos Register) {
	MOVQ(e, t)
	SHRQ(U8(32), t)
	MOVBQZX(t.As8(), t)
	SUBQ(t, j)
	SHRQ(U8(48), e)
	ADDQ(e, pos)
}

// bpcParse emits the symbol loop of bpc's decodeFast for lines of 16 or
// 32 words (15- or 31-bit planes), with the same stores: the DBX planes
// into planes (slack planes below plane 0), each table entry taken ORed
// into flags. It returns the bit position after the last symbol and the
// plane below it (-1 for a well-formed stream). Every step peeks 64 bits
// of the stream at pos, big-endian: at 16 words it takes up to three raw
// symbols (16 bits, head bit 1) counted by one LZCNT on their head bits, then
// one symbol from the table on the ten bits after them; at 32 words one
// raw symbol (32 bits) or one symbol from the table. A step whose
// symbols are all raw goes on with constant steps, so that within a
// stretch of raw symbols the next peek does not wait for this one's.
func bpcParse(words int) {
	const slack = 5 // bpc's slack
	name := fmt.Sprintf("bpcParse%d", 4*words)
	TEXT(name, NOSPLIT, "func(enc *byte, endm8 int, last uint64, pos uint, symbols *[1024]uint64, planes *[38]uint32) (end uint, j int, flags uint64)")
	Pragma("noescape")
	Doc(name+" decodes the plane symbols of a bit-plane stream of a "+fmt.Sprint(4*words)+"-byte",
		"line from bit pos on, as decodeFast's loop does. endm8 is len(enc) − 8, last",
		"the stream's last eight bytes (big-endian, zeros before a shorter stream).")
	enc := Load(Param("enc"), GP64())
	endm8 := Load(Param("endm8"), GP64())
	last := Load(Param("last"), GP64())
	pos := Load(Param("pos"), GP64())
	symbols := Load(Param("symbols"), GP64())
	planes := Load(Param("planes"), GP64())
	ADDQ(U8(4*slack), planes)
	j, flags := GP64(), GP64()
	MOVQ(U32(32), j)
	XORQ(flags, flags)
	m := words - 1 // plane bits
	sym := words   // raw symbol bits
	heads := GP64()
	if words == 16 {
		MOVQ(U64(1<<63|1<<47|1<<31), heads) // three heads
	}

	Label(name + "_loop")
	TESTQ(j, j)
	JS(LabelRef(name + "_done"))
	// v: 64 bits of the stream from pos.
	v, i, sh := GP64(), GP64(), GP64()
	MOVQ(pos, i)
	SHRQ(U8(3), i)
	MOVQ(pos, sh)
	ANDQ(U8(7), sh)
	CMPQ(i, endm8)
	JG(LabelRef(name + "_tail"))
	MOVQ(Mem{Base: enc, Index: i, Scale: 1}, v)
	BSWAPQ(v)
	Label(name + "_peeked")
	SHLXQ(sh, v, v)

	f := GP64()
	if words == 16 {
		// Raw fields at bits 48, 32 and 16; the count from the first head
		// bit that is clear (or the stop bit): 0, 16, 32 or 48 bits.
		for r := 0; r < 3; r++ {
			MOVQ(v, f)
			SHRQ(U8(uint8(64-sym*(r+1))), f)
			ANDL(U32(1<<m-1), f.As32())
			MOVL(f.As32(), Mem{Base: planes, Index: j, Scale: 4, Disp: -4 * r})
		}
		x := GP64()
		ANDNQ(heads, v, x)
		LZCNTQ(x, x) // bits taken by raw symbols; 64 for three
		CMPQ(x, U8(48))
		JB(LabelRef(name + "_symbol"))
		SUBQ(U8(3), j)
		ADDQ(U8(48), pos)
		JMP(LabelRef(name + "_loop"))

		Label(name + "_symbol")
		ADDQ(x, pos)
		SHLXQ(x, v, v)
		SHRQ(U8(4), x)
		SUBQ(x, j)
	} else {
		MOVQ(v, f)
		SHRQ(U8(32), f)
		ANDL(U32(1<<m-1), f.As32())
		MOVL(f.As32(), Mem{Base: planes, Index: j, Scale: 4})
		TESTQ(v, v)
		JNS(LabelRef(name + "_symbol"))
		DECQ(j)
		ADDQ(U8(32), pos)
		JMP(LabelRef(name + "_loop"))
		Label(name + "_symbol")
	}
	// One symbol from the table, none if the raw ones took the last plane.
	e, t := GP64(), GP64()
	SHRQ(U8(54), v)
	MOVQ(Mem{Base: symbols, Index: v, Scale: 8}, e)
	if words == 16 {
		MOVQ(j, t)
		SARQ(U8(63), t)
		ANDNQ(e, t, e)
		MOVQ(U32(0), Mem{Base: planes, Index: j, Scale: 4, Disp: -8})
	}
	MOVL(e.As32(), Mem{Base: planes, Index: j, Scale: 4})
	ORQ(e, flags)
	bpcSkipSymbol(e, t, j, pos)
	JMP(LabelRef(name + "_loop"))

	// Near the end: the last eight bytes shifted, zero past 64 bits.
	Label(name + "_tail")
	MOVQ(i, v)
	SUBQ(endm8, v)
	SHLQ(U8(3), v)
	CMPQ(v, U8(64))
	JAE(LabelRef(name + "_zero"))
	SHLXQ(v, last, v)
	JMP(LabelRef(name + "_peeked"))
	Label(name + "_zero")
	XORQ(v, v)
	JMP(LabelRef(name + "_peeked"))

	Label(name + "_done")
	Store(pos, ReturnIndex(0))
	Store(j, ReturnIndex(1))
	Store(flags, ReturnIndex(2))
	RET()
}

// The layout of the 64-byte decode kernels' scratch area (64-byte
// aligned, bpcDecAreaBytes long): the step lengths L at 0 (640 bytes),
// the stream at bpcDecStreamAt and 64 zero bytes, from which the steps
// peek at their 64 bits, then the lines kernel's header of the area's
// stream (its length, its address and its kind). bpcDecRotsAt,
// bpcDecRawAt and bpcDecHeads are bpcDecSteps' layout and the raw
// symbols' head bits in a step's 64-bit peek.
const (
	bpcDecStreamAt  = 640
	bpcDecNAt       = 768
	bpcDecPAt       = 776
	bpcDecKindAt    = 784
	bpcDecAreaBytes = 832
	bpcDecRotsAt    = 136
	bpcDecRawAt     = 408
	bpcDecHeads     = uint64(1<<63 | 1<<47 | 1<<31)
)

// The kinds of stream in a lines kernel's area header.
const (
	bpcDecStop  = 0 // not taken: the kernel returns before it
	bpcDecRaw   = 1 // flag 0, its length not yet checked
	bpcDecCoded = 2 // flag 1, at most 64 bytes: copied, and L made
)

// bpcDecSteps returns the table of bpcDecLine's steps (declared once):
// the empty masks of planes −2 and −1, then at 8 the lanes each step
// merges into (planes j0−2 … j0 that are below 32), at 8 + bpcDecRotsAt
// the rotation that takes u's top field to lane j0 of the broadcast (lane
// l holds field l mod 4 of the rotated word), and at 8 + bpcDecRawAt + x,
// for x = 0, 16, 32 or 64 bits of raw symbols (64 for three), the mask of
// their fields without the head bits and their number.
func bpcDecSteps() Mem {
	b := make([]byte, 8+bpcDecRawAt+80)
	for j0 := 0; j0 <= 32; j0++ {
		binary.LittleEndian.PutUint32(b[8+4*j0:], uint32(uint64(7)<<uint(j0+1)>>3))
		binary.LittleEndian.PutUint64(b[8+bpcDecRotsAt+8*j0:], uint64(16*(j0+1)%64))
	}
	for x := 0; x <= 64; x += 16 {
		k := min(x, 48) / 16
		binary.LittleEndian.PutUint64(b[8+bpcDecRawAt+x:], ^(^uint64(0)>>uint(16*k))&^bpcDecHeads)
		binary.LittleEndian.PutUint64(b[8+bpcDecRawAt+x+8:], uint64(k))
	}
	return rodataBytes("bpc_dec_steps", b)
}

// bpcDecArea allocates count scratch areas of the 64-byte decode kernels,
// one after the other, and returns a register with the first's address.
func bpcDecArea(count int) GPVirtual {
	scratch := AllocLocal(count*bpcDecAreaBytes + 64)
	area := GP64()
	LEAQ(scratch, area)
	ADDQ(U8(63), area)
	ANDQ(I8(-64), area)
	return area
}

// bpcDecPrepare emits the first half of a 64-byte line's bit-plane
// decode (bpcDecode64AVX512): the stream of n bytes at enc (1 ≤ n ≤ 64),
// zeros past its end, copied into the scratch area at area, and the step
// lengths L made from it (see bpcDecLine). It returns the stream's vector.
func bpcDecPrepare(area, enc, n Register) VecVirtual {
	// For bit positions p = 64c + 8q + i (chunk c, qword q, byte i): the
	// stream bytes 8c+q … 8c+q+7 of qword q (VPERMI2B; 64 and up are
	// zero), so that, bits reversed in each byte, qword q's bit t is the
	// stream's bit 64c + 8q + t; then the control bytes of
	// VPMULTISHIFTQB that take bits p+o … p+o+7 to byte i (o = 0, 16,
	// 32), bit p+o in bit 0.
	var gather [8][64]byte
	for c := range gather {
		for q := 0; q < 8; q++ {
			for b := 0; b < 8; b++ {
				gather[c][8*q+b] = byte(8*c + q + b)
			}
		}
	}
	var ctrl [3][64]byte
	for o := range ctrl {
		for q := 0; q < 8; q++ {
			for i := 0; i < 8; i++ {
				ctrl[o][8*q+i] = byte(i + 16*o)
			}
		}
	}
	// The length of a symbol from its first bits (bit p in bit 0 of the
	// index, VPERMB reads six): 16 for a raw one (head bit 1), 7 for 01
	// (a run), 3 for 001, 9 for 0001 (a position), 5 for 0000.
	var lens [64]byte
	for t := range lens {
		switch {
		case t&1 != 0:
			lens[t] = 16
		case t&2 != 0:
			lens[t] = 7
		case t&4 != 0:
			lens[t] = 3
		case t&8 != 0:
			lens[t] = 9
		default:
			lens[t] = 5
		}
	}

	s, zero := ZMM(), ZMM()
	{
		m, kb := GP64(), K()
		MOVQ(I32(-1), m)
		BZHIQ(n, m, m)
		KMOVQ(m, kb)
		VMOVDQU8_Z(Mem{Base: enc}, kb, s)
	}
	VPXORD(zero, zero, zero)
	VMOVDQU64(s, Mem{Base: area, Disp: bpcDecStreamAt})
	VMOVDQU64(zero, Mem{Base: area, Disp: bpcDecStreamAt + 64})

	// L: bits reversed in each byte (an affine transform by the
	// anti-diagonal matrix), then per chunk of 64 positions the three
	// candidate symbols' lengths, added while the symbols before are raw.
	r := ZMM()
	VGF2P8AFFINEQB_BCST(U8(0), bpcConstQ(0x8040201008040201), s, r)
	ctl := make([]VecVirtual, 3)
	for o := range ctl {
		ctl[o] = ZMM()
		VMOVDQU64(rodataBytes(fmt.Sprintf("bpc_dec_ctl%d", o), ctrl[o][:]), ctl[o])
	}
	lut, ones := ZMM(), ZMM()
	VMOVDQU64(rodataBytes("bpc_dec_lens", lens[:]), lut)
	VPBROADCASTB(bpcConst4(1), ones)
	// Only the chunks that the stream's bytes cover are made (one branch on
	// n before each): a step from a later position starts past the
	// stream's last byte, so the stream fails its checks whatever the
	// length there, and the later chunks are filled with 1, which moves a
	// malformed stream on without reading far.
	fill := make([]string, len(gather))
	for c := range fill {
		fill[c] = label("bpc_dec_fill")
	}
	done := label("bpc_dec_made")
	for c := range gather {
		if c > 0 {
			CMPQ(n, U8(8*c))
			JBE(LabelRef(fill[c]))
		}
		q := ZMM()
		VMOVDQU64(rodataBytes(fmt.Sprintf("bpc_dec_gather%d", c), gather[c][:]), q)
		VPERMI2B(zero, r, q)
		t := make([]VecVirtual, 3)
		k := make([]OpmaskVirtual, 2)
		for o := range t {
			m := ZMM()
			VPMULTISHIFTQB(q, ctl[o], m)
			if o < 2 {
				k[o] = K()
				VPTESTMB(ones, m, k[o])
			}
			t[o] = ZMM()
			VPERMB(lut, m, t[o])
		}
		VPADDB(t[2], t[1], k[1], t[1])
		VPADDB(t[1], t[0], k[0], t[0])
		VMOVDQU64(t[0], Mem{Base: area, Disp: 64 * c})
	}
	JMP(LabelRef(done))
	for c := 1; c < len(gather); c++ {
		Label(fill[c])
		VMOVDQU64(ones, Mem{Base: area, Disp: 64 * c})
	}
	Label(done)
	VMOVDQU64(ones, Mem{Base: area, Disp: 512})
	VMOVDQU64(ones, Mem{Base: area, Disp: 576})

	return s
}

// bpcDecLine emits the second half of a 64-byte line's bit-plane decode
// (bpcDecode64AVX512), from the scratch area that bpcDecPrepare made at
// area: v0 holds the stream's first eight bytes, big-endian, and nl its
// length. It writes the line at the address that line() loads and goes
// on after its code; for a stream decodeFast gives up on, it jumps to
// fail having written nothing. Its labels start with name.
//
// The loop takes, each step, up to three raw symbols (16 bits, head bit
// 1) and the symbol after them, as bpcParse does at 16 words. The bit
// position of the next step, the loop's only long chain, does not wait
// for this step's decoding: before the loop, vector code finds the
// length of a step starting at every bit position p of the stream,
// L[p] (the raw symbols from their head bits at p, p+16 and p+32, then
// the length of the symbol after them from its first four bits), so that
// the loop steps with one byte load and an add. L is 1 from bit 512 on,
// where no stream of 64 bytes reaches, so that a malformed stream still
// ends past its last byte. The steps' decoding hangs off the positions
// and has no branch on a symbol's kind or on how many raw symbols there
// are.
//
// The planes never go through memory: planes 0…31 have 15 bits at 64
// bytes, so they fit the 16-bit lanes of one vector, plane j in lane j;
// plane 32, the first symbol's, stays in a general register. Each step
// of the loop covers planes j0, j0−1 and j0−2 with one 64-bit word u
// whose top three 16-bit fields are those planes (raw symbols' fields as
// the stream has them without their head bits; a table symbol's plane,
// or 0x8000 for a "DBP zero" symbol; zeros below it): broadcast to every
// qword, rotated so that lane j0 gets u's top field, and merged into the
// lanes j0−2…j0 that exist. A step always writes zeros below its last
// symbol, so the planes of a run, and those a later step covers, are
// right; VPMOVW2M takes the "DBP zero" planes from bit 15 at the end.
//
// The loop runs while the next step starts before the stream's last byte,
// so that its exit waits on the positions alone, not on the planes the
// steps decode (2–3% faster than exiting on the planes); where the last
// byte holds more than one step, a second loop goes on while planes are
// left. Past the last plane a malformed stream's plane index stops at −2,
// for which, as for −1, the table holds an empty mask: no step reads
// outside the table, and such a stream fails the check of j = −1.
func bpcDecLine(name string, area Register, v0 GPVirtual, nl Mem, line func() Register, fail string) {
	// The base code after the flag: 1 + 32 bits, or 0 + two bits for a
	// sign-extended field of 0, 4, 8 or 16 bits (baseCode).
	pos, bs := GP64(), GP64()
	{
		v, code, width, sh, t := GP64(), GP64(), GP64(), GP64(), GP64()
		MOVQ(v0, v)
		SHLQ(U8(1), v)
		MOVQ(v, code)
		SHRQ(U8(58), code)
		ANDL(U8(0x18), code.As32()) // 8 × the two bits
		MOVL(U32(0x10080400), width.As32())
		SHRXQ(code, width, width)
		MOVBQZX(width.As8(), width)
		MOVQ(U32(64), sh)
		SUBQ(width, sh)
		MOVQ(v, t)
		SHLQ(U8(3), t)
		SARXQ(sh, t, bs)
		z := GP64()
		XORQ(z, z)
		TESTQ(width, width)
		CMOVQEQ(z, bs)
		LEAQ(Mem{Base: width, Disp: 4}, pos)
		long, p34 := GP64(), GP64()
		MOVQ(v, long)
		SHRQ(U8(31), long)
		MOVQ(U32(34), p34)
		TESTQ(v, v)
		CMOVQMI(long, bs)
		CMOVQMI(p34, pos)
	}
	base := AllocLocal(8)
	MOVQ(bs, base)
	p32l := AllocLocal(8)
	symbols := Load(Param("symbols"), GP64())
	steps := GP64()
	LEAQ(bpcDecSteps().Offset(8), steps)
	planes := ZMM()
	VPXORD(planes, planes, planes)
	// l is the length of the last step, x the bits its raw symbols take
	// (see step).
	j, jr, l, x, hd := GP64(), GP64(), GP64(), GP64(), GP64()
	MOVQ(U32(32), j)
	MOVQ(U64(bpcDecHeads), hd)

	// peek returns the 64 bits of the stream from bit pos on.
	peek := func() GPVirtual {
		i, sh, v := GP64(), GP64(), GP64()
		MOVQ(pos, i)
		SHRQ(U8(3), i)
		MOVL(pos.As32(), sh.As32())
		ANDL(U8(7), sh.As32())
		MOVBEQQ(Mem{Base: area, Disp: bpcDecStreamAt, Index: i, Scale: 1}, v)
		SHLXQ(sh, v, v)
		return v
	}
	// step emits one step of the loop; the first takes plane 32 from u.
	step := func(first bool) {
		v := peek()
		// x: the bits taken by raw symbols, from the first head bit that
		// is clear (0, 16, 32, or 64 for three).
		ANDNQ(hd, v, x)
		LZCNTQ(x, x)
		// u: the raw fields, then the symbol's field (its plane, or
		// 0x8000 for a "DBP zero" symbol) from its entry shifted right
		// by x; the entry's low byte, the planes it covers, falls in u's
		// low field, which no lane takes. A raw symbol's entry (x = 64,
		// where the shifts leave v and the entry as they are) is zero.
		u, e, f, pl := GP64(), GP64(), GP64(), GP64()
		MOVQ(Mem{Base: steps, Disp: bpcDecRawAt, Index: x, Scale: 1}, u)
		ANDQ(v, u)
		SHLXQ(x, v, e)
		SHRQ(U8(54), e)
		SHRXQ(x, Mem{Base: symbols, Index: e, Scale: 8}, f)
		MOVBQZX(Mem{Base: symbols, Index: e, Scale: 8}, pl)
		ORQ(f, u)
		if first {
			p := GP64()
			MOVQ(u, p)
			SHRQ(U8(48), p)
			MOVQ(p, p32l)
		}
		z := ZMM()
		VPBROADCASTQ(u, z)
		VPROLVQ_BCST(Mem{Base: steps, Disp: bpcDecRotsAt, Index: j, Scale: 8}, z, z)
		k := K()
		KMOVD(Mem{Base: steps, Index: j, Scale: 4}, k)
		VMOVDQU16(z, k, planes)
		// The planes: jr after the raw symbols (below 0: they took the
		// last plane, and the symbol after them is none of the line's),
		// j after the symbol.
		SUBQ(Mem{Base: steps, Disp: bpcDecRawAt + 8, Index: x, Scale: 1}, j)
		MOVQ(j, jr)
		SUBQ(pl, j)
		CMPQ(j, I8(-2))
		CMOVQLT(bpcConstQ(^uint64(1)), j)
		// The next step's position.
		MOVBQZX(Mem{Base: area, Index: pos, Scale: 1}, l)
		ADDQ(l, pos)
	}
	lim := AllocLocal(8)
	{
		t := GP64()
		MOVQ(nl, t)
		SHLQ(U8(3), t)
		SUBQ(U8(8), t)
		MOVQ(t, lim)
	}
	step(true)
	CMPQ(pos, lim)
	JA(LabelRef(name + "_tail"))
	Label(name + "_steps")
	step(false)
	CMPQ(pos, lim)
	JBE(LabelRef(name + "_steps"))
	Label(name + "_tail")
	TESTQ(j, j)
	JS(LabelRef(name + "_checks"))
	Label(name + "_steps2")
	step(false)
	TESTQ(j, j)
	JNS(LabelRef(name + "_steps2"))

	// decodeFast's checks: all planes and no more (j = −1), and the
	// stream ends in its last byte with zero padding. Where the raw
	// symbols took the last plane, the stream ends after them.
	Label(name + "_checks")
	rawend := GP64() // the bit after the last step's raw symbols
	MOVQ(Mem{Base: steps, Disp: bpcDecRawAt + 8, Index: x, Scale: 1}, rawend)
	SHLQ(U8(4), rawend)
	SUBQ(l, rawend)
	ADDQ(pos, rawend)
	TESTQ(jr, jr)
	CMOVQLT(jr, j)
	CMOVQLT(rawend, pos)
	CMPQ(j, I8(-1))
	JNE(LabelRef(fail))
	end := GP64()
	LEAQ(Mem{Base: pos, Disp: 7}, end)
	SHRQ(U8(3), end)
	CMPQ(end, nl)
	JNE(LabelRef(fail))
	{
		// The bits from pos on (the padding, then the zeros past the
		// stream) must all be zero.
		v := peek()
		TESTQ(v, v)
		JNZ(LabelRef(fail))
	}

	// Without "DBP zero" planes among 0…31 (nearly every stream), the
	// short rebuild: DBX[32] (0 for a "DBP zero" plane 32, whose DBP is
	// then 0 = DBX[32]) XORed into plane 31 and the planes shifted up one
	// bit, so that after the transpose row i is the XOR of DBX bits that
	// DBP bit i of delta i sums (row 0 zero); DBP[j] = DBX[j] ^ … ^
	// DBX[32] is then a suffix XOR within each row, toward bit 0; row 0
	// takes the base, and the words are the rows' prefix sums.
	kz := K()
	VPMOVW2M(planes, kz)
	zeros := GP32()
	KMOVD(kz, zeros)
	out := line()
	p32 := GP32()
	MOVL(p32l, p32)
	ANDL(U32(0x7FFF), p32)
	b32 := GP32()
	MOVL(base, b32)
	TESTL(zeros, zeros)
	JNZ(LabelRef(name + "_zeros"))
	{
		t, k, top := GP32(), K(), ZMM()
		MOVL(p32, t)
		SHLL(U8(16), t)
		VPBROADCASTD(t, top)
		MOVL(U32(1<<15), t)
		KMOVW(t, k)
		VPXORD(top, planes, k, planes)
		VPSLLW(U8(1), planes, planes)
		x := bpcTransposeWords(planes)
		for _, sh := range [][]uint8{{1, 2}, {3, 6}, {9, 18}, {27}} {
			a := ZMM()
			VPSRLD(U8(sh[0]), x, a)
			if len(sh) == 1 {
				VPXORD(a, x, x)
				continue
			}
			b := ZMM()
			VPSRLD(U8(sh[1]), x, b)
			VPTERNLOGD(U8(0x96), b, a, x)
		}
		bx := XMM()
		VMOVD(b32, bx)
		VPORD(bx.AsZ(), x, x)
		zero := ZMM()
		VPXORD(zero, zero, zero)
		x = dwordPrefix(x, zero, true, 0)
		VMOVDQU32(x, Mem{Base: out})
		JMP(LabelRef(name + "_ok"))
	}

	// With "DBP zero" planes: all planes as dwords for bpcRebuildLine,
	// those planes' DBX zero.
	Label(name + "_zeros")
	VPANDD_BCST(bpcConst4(0x7FFF7FFF), planes, planes)
	lo, hi := ZMM(), ZMM()
	VPMOVZXWD(planes.AsY(), lo)
	hiY := YMM()
	VEXTRACTI64X4(U8(1), planes, hiY)
	VPMOVZXWD(hiY, hi)
	top := ZMM()
	VPBROADCASTD(p32, top)
	bpcRebuildLine(16, lo, hi, top, zeros, b32, out)
	Label(name + "_ok")

}

// bpcDecode64AVX512 emits the whole fast decoder of a 64-byte line's
// stream in one call: a raw one as fpcRawLine does (6.4 ns a line
// through Decompress, against 17 through bitstream.ReadRaw's Go path),
// and a bit-plane one as
// decodeFast does, its base code, symbols and checks, and the rebuild of
// bpcRebuildAVX512 (with the "DBP zero" planes of bpcRebuildLine), with
// bpcDecPrepare and bpcDecLine. Streams longer than 64 bytes (never
// Compress's, which are shorter than the line) are left to decodeFast's
// general path.
func bpcDecode64AVX512() {
	const name = "bpcDecode64AVX512"
	TEXT(name, 0, "func(enc *byte, n int, symbols *[1024]uint64, line *[64]byte) bool")
	Pragma("noescape")
	Doc(name+" decodes the stream of a 64-byte line at enc, n ≥ 1 bytes, into",
		"line and reports true: a raw one (flag 0) as bitstream.ReadRaw does, a bit-plane",
		"one (flag 1) as decodeFast does, with symbols the table of decode64Symbols. It",
		"reports false, having written nothing, for a raw stream ReadRaw rejects, a",
		"bit-plane stream decodeFast gives up on and one longer than 64 bytes.")
	enc := Load(Param("enc"), GP64())
	n := Load(Param("n"), GP64())
	TESTB(U8(0x80), Mem{Base: enc})
	JZ(LabelRef(name + "_raw"))
	CMPQ(n, U8(64))
	JA(LabelRef(name + "_fail"))
	area := bpcDecArea(1)
	s := bpcDecPrepare(area, enc, n)
	nl := AllocLocal(8)
	MOVQ(n, nl)
	// The first eight bytes, big-endian, for the base code.
	v0 := GP64()
	VMOVQ(s.AsX(), v0)
	BSWAPQ(v0)
	bpcDecLine(name, area, v0, nl, func() Register { return Load(Param("line"), GP64()) }, name+"_fail")
	fpcReturnBool(1)
	VZEROUPPER()
	RET()

	// A raw stream is the flag, the line and seven zero bits.
	Label(name + "_raw")
	CMPQ(n, U8(65))
	JNE(LabelRef(name + "_fail"))
	fpcRawLine(enc, Load(Param("line"), GP64()), 64, name+"_fail")
	fpcReturnBool(1)
	VZEROUPPER()
	RET()

	Label(name + "_fail")
	fpcReturnBool(0)
	VZEROUPPER()
	RET()
}

// bpcDecompressLines64AVX512 emits bpcDecompressLines64AVX512(out []byte,
// enc []byte, start int, ends []int, symbols *[1024]uint64) (lines int):
// bpcDecode64AVX512 in a loop over the streams of enc that start at start
// and end at each of ends in turn, decoding them back to back into out. It
// stops before the first stream that it does not decode (one whose end is
// before its start or past enc, or that bpcDecode64AVX512 refuses) and
// returns the number of lines decoded. len(out) must be at least
// 64·len(ends).
//
// The loop is software-pipelined: the next line's stream is copied and
// its step lengths made (bpcDecPrepare) in a second scratch area before
// this line's steps, so that that work runs in the waits of this line's
// chain of steps and its stores have reached the cache by the time the
// next line's steps read them. The loop's state lives on the stack.
func bpcDecompressLines64AVX512() {
	const name = "bpcDecompressLines64AVX512"
	TEXT(name, 0, "func(out []byte, enc []byte, start int, ends []int, symbols *[1024]uint64) (lines int)")
	Pragma("noescape")
	Doc(name+" decodes the streams of enc that start at start and end at each of",
		"ends in turn into out, 64 bytes each, as bpcDecode64AVX512 does, and returns how",
		"many it decoded: it stops before the first stream whose end is before its start",
		"or past enc, or that bpcDecode64AVX512 refuses. len(out) must be at least",
		"64·len(ends).")
	areas, i, outp := AllocLocal(8), AllocLocal(8), AllocLocal(8)
	MOVQ(bpcDecArea(2), areas)
	MOVQ(U32(0), i)
	MOVQ(Load(Param("out").Base(), GP64()), outp)
	{
		count := Load(Param("ends").Len(), GP64())
		TESTQ(count, count)
		JZ(LabelRef(name + "_stop"))
		ends, e, area := Load(Param("ends").Base(), GP64()), GP64(), GP64()
		MOVQ(Mem{Base: ends}, e)
		MOVQ(areas, area)
		bpcDecPrepareLine(name+"_first", area, Load(Param("start"), GP64()), e)
	}

	Label(name + "_loop")
	{
		// The next line's stream into the other area, where there is one.
		k, count := GP64(), Load(Param("ends").Len(), GP64())
		MOVQ(i, k)
		INCQ(k)
		CMPQ(k, count)
		JAE(LabelRef(name + "_decode"))
		ends, start, e := Load(Param("ends").Base(), GP64()), GP64(), GP64()
		MOVQ(Mem{Base: ends, Index: k, Scale: 8, Disp: -8}, start)
		MOVQ(Mem{Base: ends, Index: k, Scale: 8}, e)
		bpcDecPrepareLine(name+"_next", bpcDecAreaOf(areas, k), start, e)
	}

	// This line, by its kind.
	Label(name + "_decode")
	{
		k := GP64()
		MOVQ(i, k)
		area := bpcDecAreaOf(areas, k)
		CMPQ(Mem{Base: area, Disp: bpcDecKindAt}, U8(bpcDecCoded))
		JE(LabelRef(name + "_coded"))
		CMPQ(Mem{Base: area, Disp: bpcDecKindAt}, U8(bpcDecRaw))
		JNE(LabelRef(name + "_stop"))
		CMPQ(Mem{Base: area, Disp: bpcDecNAt}, U8(65))
		JNE(LabelRef(name + "_stop"))
		p, o := GP64(), GP64()
		MOVQ(Mem{Base: area, Disp: bpcDecPAt}, p)
		MOVQ(outp, o)
		fpcRawLine(p, o, 64, name+"_stop")
		JMP(LabelRef(name + "_advance"))
	}
	Label(name + "_coded")
	{
		k := GP64()
		MOVQ(i, k)
		area := bpcDecAreaOf(areas, k)
		v0 := GP64()
		MOVBEQQ(Mem{Base: area, Disp: bpcDecStreamAt}, v0)
		bpcDecLine(name, area, v0, Mem{Base: area, Disp: bpcDecNAt}, func() Register {
			o := GP64()
			MOVQ(outp, o)
			return o
		}, name+"_stop")
	}
	Label(name + "_advance")
	ADDQ(U8(64), outp)
	INCQ(i)
	{
		k, count := GP64(), Load(Param("ends").Len(), GP64())
		MOVQ(i, k)
		CMPQ(k, count)
		JB(LabelRef(name + "_loop"))
	}

	Label(name + "_stop")
	{
		k := GP64()
		MOVQ(i, k)
		Store(k, ReturnIndex(0))
	}
	VZEROUPPER()
	RET()
}

// bpcDecAreaOf returns k changed into the address of scratch area k mod 2
// of the two at the address in the stack slot areas.
func bpcDecAreaOf(areas Mem, k GPVirtual) GPVirtual {
	ANDL(U8(1), k.As32())
	NEGQ(k)
	ANDQ(U32(bpcDecAreaBytes), k)
	ADDQ(areas, k)
	return k
}

// bpcDecPrepareLine emits, for bpcDecompressLines64AVX512, the header of
// the stream of enc from offset start to offset end in the scratch area
// at area, and bpcDecPrepare for it where it is a bit-plane stream of at
// most 64 bytes. Its kind is bpcDecStop where end is past enc or not
// after start, bpcDecRaw for flag 0, bpcDecCoded for flag 1 and at most
// 64 bytes, and bpcDecStop for a longer one. Its labels start with name.
func bpcDecPrepareLine(name string, area, start, end Register) {
	MOVQ(U32(bpcDecStop), Mem{Base: area, Disp: bpcDecKindAt})
	CMPQ(end, Load(Param("enc").Len(), GP64()))
	JA(LabelRef(name + "_end"))
	CMPQ(start, end)
	JAE(LabelRef(name + "_end"))
	n, p := GP64(), Load(Param("enc").Base(), GP64())
	MOVQ(end, n)
	SUBQ(start, n)
	ADDQ(start, p)
	MOVQ(n, Mem{Base: area, Disp: bpcDecNAt})
	MOVQ(p, Mem{Base: area, Disp: bpcDecPAt})
	MOVQ(U32(bpcDecRaw), Mem{Base: area, Disp: bpcDecKindAt})
	TESTB(U8(0x80), Mem{Base: p})
	JZ(LabelRef(name + "_end"))
	MOVQ(U32(bpcDecStop), Mem{Base: area, Disp: bpcDecKindAt})
	CMPQ(n, U8(64))
	JA(LabelRef(name + "_end"))
	MOVQ(U32(bpcDecCoded), Mem{Base: area, Disp: bpcDecKindAt})
	bpcDecPrepare(area, p, n)
	Label(name + "_end")
}

// bpcConstQ returns an 8-byte constant, for broadcasts from memory.
func bpcConstQ(v uint64) Mem {
	return bpcConstScalar(fmt.Sprintf("bpc_q%016x", v), U64(v))
}
