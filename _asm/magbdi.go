package main

//go:generate go run . -kernels magbdi -out ../magbdi/fit_amd64.s -stubs ../magbdi/fit_stub_amd64.go -pkg magbdi

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func init() {
	generators["magbdi"] = func() {
		for _, size := range []int{32, 64, 128} {
			magFit(size)
		}
		for _, size := range []int{32, 64, 128} {
			magFit512(size)
		}
		magFitAll(64, 3)
		magFitAll(128, 3)
		magFitAll(128, 7)
		magFitUnsigned(64, 3)
		magFitUnsigned(128, 3)
		magFitUnsigned(128, 7)
		next := GLOBL("nextByte", attr.RODATA|attr.NOPTR)
		for j := 0; j < 64; j++ {
			DATA(j, U8(uint8(j+1)))
		}
		raw := magRawConsts{firstIdx: prevByteUnder(), prevIdx: prevByte()}
		raw.rotations = GLOBL("byteRotations", attr.RODATA|attr.NOPTR)
		for t := 0; t < 8; t++ {
			DATA(8*t, U64(byteRotation(t)))
		}
		for _, size := range []int{64, 128} {
			magRaw(size, raw)
		}
		rev := GLOBL("magBitReverse", attr.RODATA|attr.NOPTR)
		DATA(0, U64(0x8040201008040201)) // GF(2) matrix: bit i ← bit 7−i
		DATA(8, U64(0x8040201008040201))
		even := GLOBL("evenDwords", attr.RODATA|attr.NOPTR)
		for j := 0; j < 16; j++ {
			DATA(4*j, U32(uint32(2*j))) // the low dword of each qword of a pair
		}
		for _, size := range []int{64, 128} {
			magCompress(size, rev, raw, next)
			magCompressLines(size, rev, raw, next)
			magDecompress(size, rev, next, even)
		}
	}
}

// magFit emits magFit<size>AVX2(data []byte, out []uint8, offs []uint32,
// shifts []uint64), which writes for each of the len(out) lines of data the
// index of the first level i at which every 4-byte word fits with
// off = offs[i] and shift = shifts[i], or 0xFF if none does.
func magFit(size int) {
	TEXT(fmt.Sprintf("magFit%dAVX2", size), NOSPLIT, "func(data []byte, out []uint8, offs []uint32, shifts []uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("magFit%dAVX2 writes the MAG-aware BDI level of each %d-byte line of data to out.", size, size),
		"len(data) must be at least len(out)*"+fmt.Sprint(size)+" and len(shifts) at least len(offs).")
	var offs, shifts, levels Register
	zero := YMM()
	setup := func() {
		offs = Load(Param("offs").Base(), GP64())
		shifts = Load(Param("shifts").Base(), GP64())
		levels = Load(Param("offs").Len(), GP64())
		VPXOR(zero, zero, zero)
	}
	lineLoop(size, setup, func(line, out Register, advance string) {
		vecs := loadLine(line, size)
		firstLevel(out, levels, advance, func(j Register, next string) {
			off := YMM()
			VPBROADCASTD(Mem{Base: offs, Index: j, Scale: 4}, off)
			cnt := XMM()
			VMOVQ(Mem{Base: shifts, Index: j, Scale: 8}, cnt)
			fitTest(vecs, line, zero, 4, off, cnt, next)
		})
	})
}

// firstLevel emits the search for the first of levels levels whose test
// passes: test(j, next) falls through when level j fits and jumps to next
// otherwise. The level, or 0xFF for none, is stored at out.
func firstLevel(out, levels Register, advance string, test func(j Register, next string)) {
	j := GP64()
	XORQ(j, j)
	next, none, levelLoop := label("level"), label("none"), label("levels")
	Label(levelLoop)
	CMPQ(j, levels)
	JAE(LabelRef(none))
	test(j, next)
	MOVB(j.As8(), Mem{Base: out})
	JMP(LabelRef(advance))
	Label(next)
	INCQ(j)
	JMP(LabelRef(levelLoop))
	Label(none)
	MOVB(U8(0xFF), Mem{Base: out})
}

// magFit512 emits magFit<size>AVX512, the AVX-512 version of magFit.
func magFit512(size int) {
	TEXT(fmt.Sprintf("magFit%dAVX512", size), NOSPLIT, "func(data []byte, out []uint8, offs []uint32, shifts []uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("magFit%dAVX512 writes the MAG-aware BDI level of each %d-byte line of data to out.", size, size),
		"len(data) must be at least len(out)*"+fmt.Sprint(size)+" and len(shifts) at least len(offs).")
	var offs, shifts, levels Register
	lineLoop(size, func() {
		offs = Load(Param("offs").Base(), GP64())
		shifts = Load(Param("shifts").Base(), GP64())
		levels = Load(Param("offs").Len(), GP64())
	}, func(line, out Register, advance string) {
		vecs := vectors512(line, size)
		firstLevel(out, levels, advance, func(j Register, next string) {
			off := vec512(vecs[0])
			VPBROADCASTD(Mem{Base: offs, Index: j, Scale: 4}, off)
			// span = 1 << shift
			sh, one := GP64(), GP64()
			MOVQ(Mem{Base: shifts, Index: j, Scale: 8}, sh)
			MOVQ(U64(1), one)
			SHLXQ(sh, one, one)
			span := vec512(vecs[0])
			VPBROADCASTD(one.As32(), span)
			fitTest512(vecs, line, 4, off, span, next)
		})
	})
}

// magFitAll emits magFit<size>x<levels>AVX512(data []byte, out []uint8,
// offs []uint32, shifts []uint64), magFit512 for codecs of exactly levels
// levels: it tests every level of a line, with no branch, instead of
// stopping at the first that fits, so that a line's level costs no
// mispredicted jump (most lines fit none, and which level fits varies
// from line to line). The levels' offsets and spans stay in registers.
// Level j fits when every word x has x + off < span, or (x + off) − b <
// span with b the first word that does not; the widest level is tested
// first, so a conditional move leaves the first level that fits.
func magFitAll(size, levels int) {
	name := fmt.Sprintf("magFit%dx%dAVX512", size, levels)
	TEXT(name, NOSPLIT, "func(data []byte, out []uint8, offs []uint32, shifts []uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the MAG-aware BDI level of each %d-byte line of data to out, for a codec of %d levels.", name, size, levels),
		fmt.Sprintf("len(data) must be at least len(out)*%d and len(offs) and len(shifts) %d.", size, levels))
	words := size / 4
	halves := size / 64
	offV := make([]VecVirtual, levels)
	spanV := make([]VecVirtual, levels)
	lvl := make([]GPVirtual, levels)
	prefilter := levels > 1
	var preOff GPVirtual
	var preSpan VecVirtual
	lineLoop(size, func() {
		offs := Load(Param("offs").Base(), GP64())
		shifts := Load(Param("shifts").Base(), GP64())
		for j := range levels {
			offV[j], spanV[j] = ZMM(), ZMM()
			VPBROADCASTD(Mem{Base: offs, Disp: 4 * j}, offV[j])
			sh, one := GP64(), GP64()
			MOVQ(Mem{Base: shifts, Disp: 8 * j}, sh)
			MOVQ(U64(1), one)
			SHLXQ(sh, one, one)
			VPBROADCASTD(one.As32(), spanV[j])
			lvl[j] = GP32()
			MOVL(U32(j), lvl[j])
		}
		if prefilter {
			// 2^wmax and 2^(wmax+1)
			sh, one := GP64(), GP64()
			MOVQ(Mem{Base: shifts, Disp: 8 * (levels - 1)}, sh)
			MOVQ(U64(1), one)
			SHLXQ(sh, one, one)
			preOff = GP32()
			MOVL(one.As32(), preOff)
			ADDL(one.As32(), one.As32())
			preSpan = ZMM()
			VPBROADCASTD(one.As32(), preSpan)
		}
	}, func(line, out Register, advance string) {
		raw := label("raw")
		vecs := vectors512(line, size)
		res := GP32()
		MOVL(U32(noLevelByte), res)
		for j := levels - 1; j >= 0; j-- {
			u := make([]VecVirtual, halves)
			imm := make([]OpmaskVirtual, halves)
			for h, v := range vecs {
				u[h] = ZMM()
				VPADDD(offV[j], v, u[h])
				imm[h] = K()
				VPCMPUD(U8(cmpLT), spanV[j], u[h], imm[h])
			}
			at, immAll := baseIndex(imm, words)
			if j == levels-1 && prefilter {
				// The prefilter (see magbdi's kernelParams): words that are no
				// immediate at the widest level lie within 2^wmax of the
				// first of them, r, either way, or the line fits no level.
				bo := GP32()
				MOVL(Mem{Base: line, Index: at.As64(), Scale: 4}, bo)
				SUBL(preOff, bo)
				bov := ZMM()
				VPBROADCASTD(bo, bov)
				pre := make([]OpmaskVirtual, halves)
				for h, v := range vecs {
					t := ZMM()
					VPSUBD(bov, v, t)
					pre[h] = K()
					VPCMPUD(U8(cmpLT), preSpan, t, pre[h])
				}
				if halves == 2 {
					preAll := K()
					KUNPCKWD(pre[0], pre[1], preAll)
					KORTESTD(immAll, preAll)
				} else {
					KORTESTW(immAll, pre[0])
				}
				JCC(LabelRef(raw))
			}
			b := ZMM()
			VPBROADCASTD(Mem{Base: line, Index: at.As64(), Scale: 4}, b)
			ok := make([]OpmaskVirtual, halves)
			for h := range vecs {
				VPSUBD(b, u[h], u[h]) // x + off − b
				ok[h] = K()
				VPCMPUD(U8(cmpLT), spanV[j], u[h], ok[h])
			}
			if halves == 2 {
				okAll := K()
				KUNPCKWD(ok[0], ok[1], okAll)
				KORTESTD(immAll, okAll)
			} else {
				KORTESTW(immAll, ok[0])
			}
			CMOVLCS(lvl[j], res) // every word fits: CF
		}
		MOVB(res.As8(), Mem{Base: out})
		if prefilter {
			JMP(LabelRef(advance))
			Label(raw)
			MOVB(U8(noLevelByte), Mem{Base: out})
		}
	})
}

// magFitUnsigned emits magFitUnsigned<size>x<levels>AVX512, magFitAll for
// unsigned deltas (offs all zero), in two stages. Every line first takes
// the widest level's test, with r its first word of 2^wmax or more (the
// base there). A line that fails it fits no narrower level either unless
// r − 2^wmax < 2^wnext, wnext the second widest width (see below); such a
// line, most lines of real memory, is written raw after that one test.
// Any other line takes every narrower level's test without a branch, as
// magFitAll does, so the one data-dependent branch per line is "fits the
// widest level".
//
// Why: let level w < wmax fit, b its base. If there is no word of 2^wmax
// or more, the widest level fits. If b ≥ 2^wmax, b is also the first
// such word, r = b, and every such word lies in [b, b + 2^w), so the
// widest level fits too. Otherwise b < 2^wmax, and r, a word that is no
// immediate at w, lies in [b, b + 2^w): r − 2^wmax < b + 2^w − 2^wmax <
// 2^w ≤ 2^wnext.
func magFitUnsigned(size, levels int) {
	name := fmt.Sprintf("magFitUnsigned%dx%dAVX512", size, levels)
	TEXT(name, NOSPLIT, "func(data []byte, out []uint8, shifts []uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the MAG-aware BDI level of each %d-byte line of data to out, for an unsigned codec of %d levels.", name, size, levels),
		fmt.Sprintf("len(data) must be at least len(out)*%d and len(shifts) %d.", size, levels))
	words := size / 4
	halves := size / 64
	top := levels - 1
	spanV := make([]VecVirtual, levels)
	thrV := make([]VecVirtual, levels)
	lvl := make([]GPVirtual, levels)
	var wmaxSpan, nextSpan Register
	lineLoop(size, func() {
		shifts := Load(Param("shifts").Base(), GP64())
		for j := range levels {
			spanV[j] = ZMM()
			sh, one := GP64(), GP64()
			MOVQ(Mem{Base: shifts, Disp: 8 * j}, sh)
			MOVQ(U64(1), one)
			SHLXQ(sh, one, one)
			VPBROADCASTD(one.As32(), spanV[j])
			lvl[j] = GP32()
			MOVL(U32(j), lvl[j])
			if j < top {
				// 127 + w: the float exponent byte of 2^w
				thrV[j] = vecOf(size / 4)
				thr := GP64()
				LEAQ(Mem{Base: sh, Disp: 127}, thr)
				VPBROADCASTB(thr.As32(), thrV[j])
			}
			switch j {
			case top:
				wmaxSpan = one.As32()
			case top - 1:
				nextSpan = one.As32()
			}
		}
	}, func(line, out Register, advance string) {
		vecs := vectors512(line, size)
		res := GP32()
		MOVL(U32(noLevelByte), res)
		// test emits level j's test and leaves its first base-needing word
		// (word 0 when there is none) in a register.
		test := func(j int) GPVirtual {
			imm := make([]OpmaskVirtual, halves)
			for h, v := range vecs {
				imm[h] = K()
				VPCMPUD(U8(cmpLT), spanV[j], v, imm[h])
			}
			at, immAll := baseIndex(imm, words)
			b := GP32()
			MOVL(Mem{Base: line, Index: at.As64(), Scale: 4}, b)
			bv := ZMM()
			VPBROADCASTD(b, bv)
			ok := make([]OpmaskVirtual, halves)
			for h, v := range vecs {
				d := ZMM()
				VPSUBD(bv, v, d) // x − b
				ok[h] = K()
				VPCMPUD(U8(cmpLT), spanV[j], d, ok[h])
			}
			if halves == 2 {
				okAll := K()
				KUNPCKWD(ok[0], ok[1], okAll)
				KORTESTD(immAll, okAll)
			} else {
				KORTESTW(immAll, ok[0])
			}
			CMOVLCS(lvl[j], res) // every word fits: CF
			return b
		}
		r := test(top)
		fits, rescue := GP32(), GP32()
		SBBL(fits, fits) // −1 when the widest level fits
		SUBL(wmaxSpan, r)
		CMPL(r, nextSpan)
		SBBL(rescue, rescue) // −1 when r − 2^wmax < 2^wnext
		ORL(fits, rescue)
		narrower := label("narrower")
		JNZ(LabelRef(narrower))
		MOVB(res.As8(), Mem{Base: out})
		JMP(LabelRef(advance))
		Label(narrower)
		// Each word's float exponent, floor(log2 x) + 127 (0 for x = 0),
		// one byte per word: x is no immediate at width w when that byte
		// is 127 + w or more, one byte compare for the whole line. The
		// conversion truncates toward zero so that no word of 2^24 or more
		// rounds up to the next power of two (the narrower widths of
		// today's codecs are all below 24, where every word below 2^w is
		// exact). A word x then fits a level of
		// base b when min(x, x − b) < 2^w: an immediate x < 2^w passes
		// either way, and for any other word x ≥ 2^w > x − b is required.
		// Every word fits when the OR of those minima is below 2^w.
		ex := make([]VecVirtual, halves)
		for h, v := range vecs {
			t := ZMM()
			VCVTUDQ2PS_RZ_SAE(v, t)
			VPSRLD(U8(23), t, t)
			ex[h] = XMM()
			VPMOVDB(t, ex[h])
		}
		exps := ex[0]
		if halves == 2 {
			exps = YMM()
			VINSERTI32X4(U8(1), ex[1], ex[0].AsY(), exps)
		}
		for j := top - 1; j >= 0; j-- {
			far := K()
			VPCMPUB(U8(cmpNLT), thrV[j], exps, far) // no immediate at w
			at := GP32()
			KMOVD(far, at)
			TZCNTL(at, at)
			ANDL(U32(words-1), at) // every word an immediate: any base will do
			bv := ZMM()
			VPBROADCASTD(Mem{Base: line, Index: at.As64(), Scale: 4}, bv)
			m := make([]VecVirtual, halves)
			for h, v := range vecs {
				m[h] = ZMM()
				VPSUBD(bv, v, m[h]) // x − b
				VPMINUD(v, m[h], m[h])
			}
			if halves == 2 {
				VPORD(m[1], m[0], m[0])
			}
			ok := K()
			VPCMPUD(U8(cmpLT), spanV[j], m[0], ok)
			KORTESTW(ok, ok)
			CMOVLCS(lvl[j], res) // every word fits: CF
		}
		MOVB(res.As8(), Mem{Base: out})
	})
}

// baseIndex emits the index of a line's first word that is not an
// immediate, by the per-vector immediate masks imm of its words, into a new
// register: 0 when every word is one (any base will do then). It also
// returns the line's immediate mask, the two vectors' joined.
func baseIndex(imm []OpmaskVirtual, words int) (GPVirtual, OpmaskVirtual) {
	immAll := imm[0]
	if len(imm) == 2 {
		immAll = K()
		KUNPCKWD(imm[0], imm[1], immAll) // imm[1]:imm[0]
	}
	at := GP32()
	KMOVD(immAll, at)
	NOTL(at)
	TZCNTL(at, at)
	ANDL(U32(words-1), at) // every word an immediate: TZCNT gives words, masked to 0
	return at, immAll
}

// vecOf returns a vector register of n bytes, 16 or 32.
func vecOf(n int) VecVirtual {
	if n == 32 {
		return YMM()
	}
	return XMM()
}

// noLevelByte is the fit kernels' level of a line that fits no level.
const noLevelByte = 0xFF

// magRaw emits magRaw<size>(out []byte, line []byte, tag uint64), which
// writes the raw MAG-aware BDI stream of line to out: the all-ones code of
// tag bits (1 ≤ tag ≤ 7), the line, then zero padding, size+1 bytes, made
// by tagShiftedStream. The last byte is read before anything is written.
func magRaw(size int, raw magRawConsts) {
	name := fmt.Sprintf("magRaw%d", size)
	TEXT(name, NOSPLIT, "func(out []byte, line []byte, tag uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the raw MAG-aware BDI stream of a %d-byte line, with a tag-bit all-ones code, to out.", name, size),
		fmt.Sprintf("len(line) must be at least %d, len(out) at least %d, and 1 ≤ tag ≤ 7.", size, size+1))
	outp := Load(Param("out").Base(), GP64())
	line := Load(Param("line").Base(), GP64())
	tag := Load(Param("tag"), GP64())
	vecs := vectors512(line, size)
	magRawBody(size, outp, line, tag, vecs, raw)
	VZEROUPPER()
	RET()
}

// magRawBody emits magRaw's stream of the line at line, already loaded into
// vecs, with a tag-bit all-ones code, to outp.
func magRawBody(size int, outp, line, tag Register, vecs []VecVirtual, raw magRawConsts) {
	// up = 8 − tag; hi = the bits a byte keeps of q << up: 0xFF << up.
	up, r := GP64(), GP64()
	MOVQ(U64(8), up)
	SUBQ(tag, up)
	last := GP64()
	MOVBQZX(Mem{Base: line, Disp: size - 1}, last)
	SHLXQ(up, last, last)
	MOVQ(U64(0xFF), r)
	SHLXQ(up, r, r)
	hi := ZMM()
	VPBROADCASTB(r.As32(), hi)
	rot := GP64()
	LEAQ(raw.rotations, rot) // a static address takes no index register
	tagShiftedStream(outp, vecs, Mem{Base: rot, Index: tag, Scale: 8}, hi, hi, raw.firstIdx, raw.prevIdx)
	MOVB(last.As8(), Mem{Base: outp, Disp: size})
}

// magRawConsts are the constants of magRawBody: the indices of
// tagShiftedStream and byteRotation(t) at t = 0…7.
type magRawConsts struct {
	firstIdx, prevIdx, rotations Mem
}

// magUnrawBody emits the decoding of the checked raw stream at encp
// (size+1 bytes, a tag-bit code) to outp: line byte j is
// (e[j] << tag) | (e[j+1] >> (8 − tag)).
func magUnrawBody(size int, outp, encp, tag Register, nextIdx Mem) {
	e := make([]VecVirtual, size/64+1)
	for h := range e {
		e[h] = ZMM()
		if h < size/64 {
			VMOVDQU64(Mem{Base: encp, Disp: 64 * h}, e[h])
			continue
		}
		one, r := K(), GP64()
		MOVQ(U64(1), r)
		KMOVQ(r, one)
		VMOVDQU8_Z(Mem{Base: encp, Disp: 64 * h}, one, e[h])
	}
	down, r := GP64(), GP64()
	MOVQ(U64(8), down)
	SUBQ(tag, down)
	MOVQ(U64(0xFF), r)
	SHLXQ(tag, r, r)
	hi := ZMM()
	VPBROADCASTB(r.As32(), hi)
	tagX, downX := XMM(), XMM()
	VMOVQ(tag, tagX)
	VMOVQ(down, downX)
	for h := 0; h < size/64; h++ {
		b := ZMM()
		VMOVDQU64(nextIdx, b)
		VPERMI2B(e[h+1], e[h], b) // byte j ← byte j+1 of the pair
		VPSLLW(tagX, e[h], e[h])
		VPSRLW(downX, b, b)
		VPTERNLOGQ(U8(0xE4), hi, b, e[h]) // e&hi | b&^hi
	}
	for h := 0; h < size/64; h++ {
		VMOVDQU64(e[h], Mem{Base: outp, Disp: 64 * h})
	}
}

// Offsets in the parameter block that magbdi's kernelParams builds
// (magbdi/kernel.go declares the same values): a header, then one record
// per level, then the levels' pack and unpack tables.
const (
	mpLevels = 0   // number of levels
	mpTag    = 8   // bits of the encoding field
	mpFull   = 16  // one bit per word of the line
	mpPre    = 24  // u64: nonzero when the kernel runs the prefilter
	mpPreImm = 32  // u32 off, u32 span: the prefilter's immediate test
	mpPreDif = 40  // u32 off, u32 span: its test against the first other
	mpBits   = 64  // 8 u64: the stream length in bits of each code
	mpLevel0 = 128 // the first level record; each is mpLevelLen bytes
	mpShift  = 7   // log2 of mpLevelLen

	mlOff       = 0  // u32: the fit test's offset, 2^(w−1) signed, else 0
	mlSpan      = 4  // u32: 2^w
	mlWidth     = 8  // u64: w
	mlFieldMask = 16 // u32: 2^w − 1
	mlSignBit   = 20 // u32: 2^(w−1) signed, else 0
	mlPairMask  = 24 // u64: (2^w − 1) << w
	mlPack      = 32 // u64: offset in the block of the level's pack entries
	mlN0        = 40 // u64: pack entries of the first output vector
	mlN1        = 48 // u64: pack entries of the second output vector
	mlUnpack    = 56 // u64: offset in the block of the level's unpack tables
	mlStore     = 64 // 2 u64: the stream's bytes, as masks of two vectors
	mlSteps     = 80 // u64: merge steps after the pairing (0 to 4)
	mlStepW     = 88 // 4 u64: each merge step's field width before it

	packEntryLen = 192 // qword indexes, left shifts, right shifts
)

// magCompress emits magCompress<size>(out *[size+1]byte, line *[size]byte,
// p *byte) (bits uint64), which writes the MAG-aware BDI stream of line to
// out and returns its length in bits: it tests the levels that p describes in order, as magFit512
// does, and encodes the line at the first that fits, or raw.
//
// The deltas (x − base where the lane needs the base, else x, cut to w
// bits) are packed in two steps. Pairs of 32-bit lanes become one 64-bit
// field of 2w bits (d₀ << w | d₁), so the line has words/2 fields. Each
// 64-bit big-endian word of the packed deltas is then the OR of the
// fields that overlap it, each moved into place by a left or a right
// shift: p's pack entries give, per candidate, the field each output lane
// takes (a qword permute) and the two shift counts (64 for none). The
// stream is q = code byte, base (big-endian), mask bytes (word 0 first),
// deltas (big-endian), shifted as magRaw shifts the raw line.
func magCompress(size int, rev Mem, rawc magRawConsts, nextIdx Mem) {
	name := fmt.Sprintf("magCompress%d", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out *[%d]byte, line *[%d]byte, p *byte) (bits uint64)", size+1, size))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the MAG-aware BDI stream of a %d-byte line to out and returns its length in bits.", name, size),
		"p is the start of a parameter block of magbdi's kernelParams.",
		"Requires AVX-512 VBMI and GFNI.")
	outp := Load(Param("out"), GP64())
	line := Load(Param("line"), GP64())
	p := Load(Param("p"), GP64())
	done := label("done")
	bits := magCompressLine(size, outp, line, p, done, rev, rawc, nextIdx)
	Label(done)
	Store(bits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// magCompressLines emits magCompressLines<size>(out []byte, at int, data
// []byte, ends []int, bits []int, p *byte) (end int): magCompress's body in
// a loop over the len(ends) lines of data, which writes their streams back
// to back from out[at], each one's length in bits to bits and the offset in
// out where it ends to ends, and returns the last of those offsets: the
// batch kernel of CompressLines, one call into assembly for all the lines.
// len(out) − at must be at least len(ends)·(size+1), the raw lines' length;
// len(bits) and len(data)/size at least len(ends).
func magCompressLines(size int, rev Mem, rawc magRawConsts, nextIdx Mem) {
	name := fmt.Sprintf("magCompressLines%d", size)
	TEXT(name, NOSPLIT, "func(out []byte, at int, data []byte, ends []int, bits []int, p *byte) (end int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the MAG-aware BDI streams of the len(ends) %d-byte lines of data", name, size),
		"back to back from out[at], each one's length in bits to bits and the offset in out",
		"where it ends to ends, and returns the last offset. len(out)-at must be at least",
		"len(ends)*"+fmt.Sprint(size+1)+" (raw lines' length). p is the start of a parameter block",
		"of magbdi's kernelParams. Requires AVX-512 VBMI and GFNI.")
	// The line's body needs most general registers: only the line, the
	// offset in out and the line number stay in registers across it, and
	// the slices' bases are loaded again from the arguments (with five
	// held, registers do not allocate; bdiCompressLines holds six).
	at := Load(Param("at"), GP64())
	line := Load(Param("data").Base(), GP64())
	i := GP64()
	XORL(i.As32(), i.As32())
	loop, exit := label("lines"), label("exit")
	Label(loop)
	CMPQ(i, Load(Param("ends").Len(), GP64()))
	JAE(LabelRef(exit))
	outp := Load(Param("out").Base(), GP64())
	ADDQ(at, outp)
	p := Load(Param("p"), GP64())
	done := label("done")
	bits := magCompressLine(size, outp, line, p, done, rev, rawc, nextIdx)
	Label(done)
	bitsOut := Load(Param("bits").Base(), GP64())
	MOVQ(bits, Mem{Base: bitsOut, Index: i, Scale: 8})
	ADDQ(U8(7), bits)
	SHRQ(U8(3), bits)
	ADDQ(bits, at)
	ends := Load(Param("ends").Base(), GP64())
	MOVQ(at, Mem{Base: ends, Index: i, Scale: 8})
	ADDQ(U32(size), line)
	INCQ(i)
	JMP(LabelRef(loop))
	Label(exit)
	Store(at, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// magCompressLine emits magCompress's work on the line at line under the
// parameter block at p: it writes the stream to outp, leaves its length in
// bits in the register it returns and jumps to done (or falls through to
// it).
func magCompressLine(size int, outp, line, p Register, done string, rev Mem, rawc magRawConsts, nextIdx Mem) GPVirtual {
	vecs := vectors512(line, size)
	bits := GP64()
	halves := size / 64
	hdrBytes := 4 + size/32 // base and mask

	levels, full, j, rec := GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: p, Disp: mpLevels}, levels)
	MOVQ(Mem{Base: p, Disp: mpFull}, full)
	XORQ(j, j)
	LEAQ(Mem{Base: p, Disp: mpLevel0}, rec)
	loop, nextLevel, raw, found := label("levels"), label("next"), label("raw"), label("found")
	base, notImm := GP64(), GP64()
	// The prefilter: a line fits no level when two words that are no
	// immediate at the widest level differ by 2^wmax or more (each is
	// within 2^w of any level's base).
	pre := GP64()
	MOVQ(Mem{Base: p, Disp: mpPre}, pre)
	TESTQ(pre, pre)
	JZ(LabelRef(loop))
	{
		off, span := ZMM(), ZMM()
		VPBROADCASTD(Mem{Base: p, Disp: mpPreImm}, off)
		VPBROADCASTD(Mem{Base: p, Disp: mpPreImm + 4}, span)
		imm := make([]OpmaskVirtual, halves)
		for i, v := range vecs {
			t := ZMM()
			VPADDD(off, v, t)
			imm[i] = K()
			VPCMPUD(U8(cmpLT), span, t, imm[i])
		}
		immBits := laneBits(imm, 16)
		big, at := GP64(), GP64()
		MOVQ(immBits, big)
		NOTQ(big)
		ANDQ(full, big)
		TZCNTQ(big, at)
		JCS(LabelRef(loop)) // every word is an immediate at every level
		bo := GP32()
		MOVL(Mem{Base: line, Index: at, Scale: 4}, bo)
		SUBL(Mem{Base: p, Disp: mpPreDif}, bo)
		bov, dspan := ZMM(), ZMM()
		VPBROADCASTD(bo, bov)
		VPBROADCASTD(Mem{Base: p, Disp: mpPreDif + 4}, dspan)
		ok := make([]OpmaskVirtual, halves)
		for i, v := range vecs {
			t := ZMM()
			VPSUBD(bov, v, t)
			ok[i] = K()
			VPCMPUD(U8(cmpLT), dspan, t, ok[i])
		}
		okBits := laneBits(ok, 16)
		ORQ(immBits, okBits)
		CMPQ(okBits, full)
		JNE(LabelRef(raw))
	}
	Label(loop)
	CMPQ(j, levels)
	JAE(LabelRef(raw))
	off, span := ZMM(), ZMM()
	VPBROADCASTD(Mem{Base: rec, Disp: mlOff}, off)
	VPBROADCASTD(Mem{Base: rec, Disp: mlSpan}, span)
	imm := make([]OpmaskVirtual, halves)
	for i, v := range vecs {
		t := ZMM()
		VPADDD(off, v, t)
		imm[i] = K()
		VPCMPUD(U8(cmpLT), span, t, imm[i])
	}
	immBits := laneBits(imm, 16)
	MOVQ(immBits, notImm)
	NOTQ(notImm)
	ANDQ(full, notImm)
	XORQ(base, base)
	at := GP64()
	TZCNTQ(notImm, at)
	JCS(LabelRef(found)) // no lane needs the base: base 0
	MOVL(Mem{Base: line, Index: at, Scale: 4}, base.As32())
	// base − off, so that x − (base − off) = x − base + off
	bo := GP32()
	MOVL(base.As32(), bo)
	SUBL(Mem{Base: rec, Disp: mlOff}, bo)
	bov := ZMM()
	VPBROADCASTD(bo, bov)
	ok := make([]OpmaskVirtual, halves)
	for i, v := range vecs {
		t := ZMM()
		VPSUBD(bov, v, t)
		ok[i] = K()
		VPCMPUD(U8(cmpLT), span, t, ok[i])
	}
	okBits := laneBits(ok, 16)
	ORQ(immBits, okBits)
	CMPQ(okBits, full)
	JE(LabelRef(found))
	Label(nextLevel)
	INCQ(j)
	ADDQ(U32(1<<mpShift), rec)
	JMP(LabelRef(loop))

	Label(raw)
	tag := GP64()
	MOVQ(Mem{Base: p, Disp: mpTag}, tag)
	magRawBody(size, outp, line, tag, vecs, rawc)
	r := GP64()
	MOVQ(U64(1), r)
	SHLXQ(tag, r, r)
	DECQ(r)
	MOVQ(Mem{Base: p, Index: r, Scale: 8, Disp: mpBits}, bits)
	JMP(LabelRef(done))

	Label(found)
	// The deltas, cut to w bits, then paired into 2w-bit fields.
	baseV, fm := ZMM(), ZMM()
	VPBROADCASTD(base.As32(), baseV)
	VPBROADCASTD(Mem{Base: rec, Disp: mlFieldMask}, fm)
	km := K()
	KMOVQ(notImm, km)
	cnt, pm := XMM(), ZMM()
	VMOVQ(Mem{Base: rec, Disp: mlWidth}, cnt)
	VPBROADCASTQ(Mem{Base: rec, Disp: mlPairMask}, pm)
	P := make([]VecVirtual, halves)
	for i, v := range vecs {
		ki := km
		if i > 0 {
			ki = K()
			KSHIFTRQ(U8(16*i), km, ki)
		}
		VPSUBD(baseV, v, ki, v) // merge masking: the others keep x
		VPANDD(fm, v, v)
		a, b := ZMM(), ZMM()
		VPSLLQ(cnt, v, a)
		VPSRLQ(U8(32), v, b)
		VPTERNLOGQ(U8(0xEC), pm, b, a) // a&pm | b
		P[i] = a
	}
	// Merge steps: while two fields fit one qword, field k takes field
	// k+s into its low bits (s = 1, 2, 4, 8 qword lanes), so the pack
	// entries see fewer, wider fields: at most three overlap an output
	// word. Lanes between the fields keep what no entry reads.
	steps := GP64()
	MOVQ(Mem{Base: rec, Disp: mlSteps}, steps)
	merged := label("merged")
	zeroV := ZMM()
	VPXORQ(zeroV, zeroV, zeroV)
	for i, s := range []int{1, 2, 4, 8}[:2+halves] {
		CMPQ(steps, U8(i+1))
		JB(LabelRef(merged))
		wX := XMM()
		VMOVQ(Mem{Base: rec, Disp: mlStepW + 8*i}, wX)
		t := make([]VecVirtual, halves)
		for h := range P {
			switch {
			case s == 8 && h == 0:
				t[h] = P[1]
			case s == 8:
				t[h] = zeroV
			case h+1 < halves:
				t[h] = ZMM()
				VALIGNQ(U8(s), P[h], P[h+1], t[h]) // (P[h+1]:P[h]) >> s qwords
			default:
				t[h] = ZMM()
				VALIGNQ(U8(s), P[h], zeroV, t[h])
			}
		}
		for h := range P {
			VPSLLQ(wX, P[h], P[h])
			VPORQ(t[h], P[h], P[h])
		}
	}
	Label(merged)

	acc := make([]VecVirtual, halves)
	for o := range acc {
		acc[o] = ZMM()
		VPXORQ(acc[o], acc[o], acc[o])
	}
	packed := label("packed")
	nonzero := P[0]
	if halves == 2 {
		nonzero = ZMM()
		VPORQ(P[0], P[1], nonzero)
	}
	nz := K()
	VPTESTMQ(nonzero, nonzero, nz)
	KORTESTB(nz, nz)
	JZ(LabelRef(packed)) // every delta is zero
	ptr := GP64()
	MOVQ(Mem{Base: rec, Disp: mlPack}, ptr)
	ADDQ(p, ptr)
	for o := range acc {
		n := GP64()
		MOVQ(Mem{Base: rec, Disp: mlN0 + 8*o}, n)
		skip, entries := label("skip"), label("entries")
		TESTQ(n, n)
		JZ(LabelRef(skip))
		Label(entries)
		g, l := ZMM(), ZMM()
		VMOVDQU64(Mem{Base: ptr}, g)
		if halves == 2 {
			VPERMI2Q(P[1], P[0], g)
		} else {
			VPERMQ(P[0], g, g)
		}
		VPSLLVQ(Mem{Base: ptr, Disp: 64}, g, l)
		VPSRLVQ(Mem{Base: ptr, Disp: 128}, g, g)
		VPTERNLOGQ(U8(0xFE), l, g, acc[o]) // acc | l | g
		ADDQ(U32(packEntryLen), ptr)
		DECQ(n)
		JNZ(LabelRef(entries))
		Label(skip)
	}
	Label(packed)

	// H: the code byte, the big-endian base, the mask bytes (each
	// bit-reversed so that word 0 is its top bit).
	x, m, lo := XMM(), GP64(), GP64()
	VMOVQ(notImm, x)
	VGF2P8AFFINEQB(U8(0), rev, x, x)
	VMOVQ(x, m)
	BSWAPL(base.As32())
	SHLQ(U8(8), base)
	MOVQ(j, lo)
	ORQ(base, lo)
	hiBytes := GP64()
	MOVQ(m, hiBytes)
	SHRQ(U8(24), hiBytes)
	SHLQ(U8(40), m)
	ORQ(m, lo)
	VMOVQ(lo, x)
	VPINSRQ(U8(1), hiBytes, x, x)
	H := x.AsZ() // the VEX writes cleared the upper lanes

	// q: H, then the deltas' bytes in big-endian order.
	q := make([]VecVirtual, halves)
	for h := range q {
		q[h] = ZMM()
		VMOVDQU64(magQIdx(size, h), q[h])
		if halves == 2 {
			VPERMI2B(acc[1], acc[0], q[h])
		} else {
			VPERMB(acc[0], q[h], q[h])
		}
	}
	hk := K()
	MOVQ(U64(1<<(hdrBytes+1)-1), r)
	KMOVQ(r, hk)
	VMOVDQU8(H, hk, q[0])

	// The stream: (q << (8 − tag)) | (q₊₁ >> tag) per byte.
	MOVQ(Mem{Base: p, Disp: mpTag}, tag)
	up := GP64()
	MOVQ(U64(8), up)
	SUBQ(tag, up)
	shiftBytesLeft(q, up, tag, nextIdx)
	for h := range q {
		store := K()
		KMOVQ(Mem{Base: rec, Disp: mlStore + 8*h}, store)
		VMOVDQU8(q[h], store, Mem{Base: outp, Disp: 64 * h}) // nothing past the stream
	}
	MOVQ(Mem{Base: p, Index: j, Scale: 8, Disp: mpBits}, bits)
	return bits
}

// shiftBytesLeft emits the shift of the byte string held in vs (vector 0
// first) left by left bits, 1 to 7, with right = 8 − left:
// v[j] = v[j] << left | v[j+1] >> right per byte, in place. nextIdx is the
// permute that takes byte j+1 (byte 63 wraps, past every stream).
// magCompress shifts its stream into place with it and magDecompress
// shifts the code bits out.
func shiftBytesLeft(vs []VecVirtual, left, right GPVirtual, nextIdx Mem) {
	r := GP64()
	MOVQ(U64(0xFF), r)
	SHLXQ(left, r, r)
	hi := ZMM()
	VPBROADCASTB(r.As32(), hi)
	leftX, rightX := XMM(), XMM()
	VMOVQ(left, leftX)
	VMOVQ(right, rightX)
	nb := make([]VecVirtual, len(vs))
	for h := range nb {
		nb[h] = ZMM()
		VMOVDQU64(nextIdx, nb[h])
		if h+1 < len(vs) {
			VPERMI2B(vs[h+1], vs[h], nb[h]) // byte j ← byte j+1 of the pair
		} else {
			VPERMB(vs[h], nb[h], nb[h])
		}
	}
	for h, v := range vs {
		VPSLLW(leftX, v, v)
		VPSRLW(rightX, nb[h], nb[h])
		VPTERNLOGQ(U8(0xE4), hi, nb[h], v) // v&hi | n&^hi
	}
}

var magQIdxs = map[[2]int]Mem{}

// magQIdx declares (once) the byte permute that builds vector h of
// magCompress's q from the packed deltas: byte i of q (after the code
// byte and the 4+size/32 header bytes) is byte i − 1 − header of the
// big-endian delta stream, held in little-endian qwords.
func magQIdx(size, h int) Mem {
	if m, ok := magQIdxs[[2]int{size, h}]; ok {
		return m
	}
	m := GLOBL(fmt.Sprintf("magQIdx%d_%d", size, h), attr.RODATA|attr.NOPTR)
	skip := 1 + 4 + size/32
	for i := 0; i < 64; i++ {
		d := 64*h + i - skip
		idx := 0
		if d >= 0 {
			idx = d&^7 | (7 - d&7)
		}
		DATA(i, U8(uint8(idx)))
	}
	magQIdxs[[2]int{size, h}] = m
	return m
}

// magDecompress emits magDecompress<size>(out *[size]byte, enc []byte, p
// *byte, code uint64), which writes the line of the checked stream enc to
// out: a raw one as magUnrawBody does, a compressed one as follows. The stream
// loses its code bits as
// magUnrawBody shifts the raw line; then each delta's eight bytes (those that
// hold it, big-endian) are gathered into a qword lane by the level's byte
// permute, shifted right into place, cut to w bits and sign-extended
// ((d & (2^w − 1)) ^ s − s, s = 2^(w−1) signed, else 0), and the lanes that
// the mask selects get the base.
func magDecompress(size int, rev, nextIdx, evenIdx Mem) {
	name := fmt.Sprintf("magDecompress%d", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out *[%d]byte, enc []byte, p *byte, code uint64)", size))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the %d-byte line of the checked MAG-aware BDI stream enc, whose code is code, to out.", name, size),
		"len(enc) must be the stream's length, and p the start of a parameter block of magbdi's kernelParams.",
		"Requires AVX-512 VBMI and GFNI.")
	outp := Load(Param("out"), GP64())
	encp := Load(Param("enc").Base(), GP64())
	p := Load(Param("p"), GP64())
	rec := Load(Param("code"), GP64())
	// Streams are mostly decoded in order from one buffer (linecomp.Lines):
	// fetch the one some lines on early. A prefetch never faults.
	PREFETCHT0(Mem{Base: encp, Disp: 512})
	compressed := label("compressed")
	CMPQ(rec, Mem{Base: p, Disp: mpLevels})
	JB(LabelRef(compressed))
	tag0 := GP64()
	MOVQ(Mem{Base: p, Disp: mpTag}, tag0)
	magUnrawBody(size, outp, encp, tag0, nextIdx)
	VZEROUPPER()
	RET()

	Label(compressed)
	n := Load(Param("enc").Len(), GP64())
	SHLQ(U8(mpShift), rec)
	ADDQ(p, rec)
	ADDQ(U8(mpLevel0), rec)
	halves := size / 64

	// The stream, zero past its end.
	ones, m := GP64(), GP64()
	MOVQ(I64(-1), ones)
	e := make([]VecVirtual, halves)
	for h := range e {
		if h > 0 {
			zero := GP64()
			XORQ(zero, zero)
			SUBQ(U8(64), n)
			CMOVQCS(zero, n)
		}
		BZHIQ(n, ones, m) // an index of 64 or more keeps every bit
		k := K()
		KMOVQ(m, k)
		e[h] = ZMM()
		VMOVDQU8_Z(Mem{Base: encp, Disp: 64 * h}, k, e[h])
	}
	// Without the code bits: e[j] << tag | e[j+1] >> (8 − tag).
	tag, down := GP64(), GP64()
	MOVQ(Mem{Base: p, Disp: mpTag}, tag)
	MOVQ(U64(8), down)
	SUBQ(tag, down)
	shiftBytesLeft(e, tag, down, nextIdx)

	// The base and the lane mask.
	base, mask := GP64(), GP64()
	VMOVQ(e[0].AsX(), base)
	BSWAPL(base.As32())
	x := XMM()
	VGF2P8AFFINEQB(U8(0), rev, e[0].AsX(), x)
	VMOVQ(x, mask)
	SHRQ(U8(32), mask)
	ANDQ(Mem{Base: p, Disp: mpFull}, mask)
	km := K()
	KMOVQ(mask, km)
	baseV := ZMM()
	VPBROADCASTD(base.As32(), baseV)

	// The deltas.
	u := GP64()
	MOVQ(Mem{Base: rec, Disp: mlUnpack}, u)
	ADDQ(p, u)
	fields := size / 32 // qword vectors
	g := make([]VecVirtual, fields)
	for f := range g {
		g[f] = ZMM()
		VMOVDQU64(Mem{Base: u, Disp: 64 * f}, g[f])
		if halves == 2 {
			VPERMI2B(e[1], e[0], g[f])
		} else {
			VPERMB(e[0], g[f], g[f])
		}
		VPSRLVQ(Mem{Base: u, Disp: 64 * (fields + f)}, g[f], g[f])
	}
	fm, sb := ZMM(), ZMM()
	VPBROADCASTD(Mem{Base: rec, Disp: mlFieldMask}, fm)
	VPBROADCASTD(Mem{Base: rec, Disp: mlSignBit}, sb)
	for h := 0; h < halves; h++ {
		d := ZMM()
		VMOVDQU64(evenIdx, d)
		VPERMI2D(g[2*h+1], g[2*h], d)
		VPTERNLOGD(U8(0x6A), sb, fm, d) // d&fm ^ sb
		VPSUBD(sb, d, d)
		kh := km
		if h > 0 {
			kh = K()
			KSHIFTRQ(U8(16), km, kh)
		}
		VPADDD(baseV, d, kh, d)
		VMOVDQU64(d, Mem{Base: outp, Disp: 64 * h})
	}
	VZEROUPPER()
	RET()
}
