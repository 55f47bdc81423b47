package main

//go:generate go run . -kernels fpc -out ../fpc/classify_amd64.s -stubs ../fpc/classify_stub_amd64.go -pkg fpc

import (
	"fmt"
	"math/bits"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func init() {
	// Every kernel of the package, in the order they are emitted: one
	// explicit list, so that the order never depends on init order.
	generators["fpc"] = func() {
		for _, size := range []int{32, 64, 128} {
			fpcClassify(size, false)
		}
		for _, size := range []int{32, 64, 128} {
			fpcClassify(size, true)
		}
		fpcPack64AVX512()
		fpcPack128AVX512()
		fpcCompress64Kernel(false)
		fpcCompress64Kernel(true)
		fpcCompressPair64Kernel(false)
		fpcCompressPair64Kernel(true)
		fpcCompress128Kernel(false)
		fpcCompress128Kernel(true)
		fpcUnpackBMI2()
		fpcDecompressKernel(64)
		fpcDecompressKernel(128)
		fpcDecompressLinesKernel(64)
		fpcDecompressLinesKernel(128)
	}
}

// Word kinds as the fpc package numbers them: the order of increasing code
// length, so a word's kind is the lowest-numbered pattern it matches.
const (
	fpcZero = iota
	fpcSE4
	fpcSE8
	fpcRep
	fpcSE16
	fpcLowZero
	fpcTwo
	fpcRaw
)

// fpcCodeBits is the code length of a non-zero word of each kind, by kind.
var fpcCodeBits = [8]byte{0, 7, 11, 11, 19, 19, 19, 35}

var fpcConsts = map[string]Mem{}

// fpcConst declares (once per file) a 32-byte constant of the given bytes,
// repeated to fill it.
func fpcConst(name string, b []byte) Mem {
	if m, ok := fpcConsts[name]; ok {
		return m
	}
	m := GLOBL("fpc_"+name, attr.RODATA|attr.NOPTR)
	for off := 0; off < 32; off++ {
		DATA(off, U8(b[off%len(b)]))
	}
	fpcConsts[name] = m
	return m
}

// fpcClassify emits fpcClassify<size>{AVX2,AVX512}(data []byte, kinds []uint8,
// sums []uint64), which writes for each of the len(sums) lines of data the
// kind of every word (size/4 bytes per line, to kinds) and the line's
// summary (to sums), as fpc's classifyLineGeneric defines them.
func fpcClassify(size int, avx512 bool) {
	level := "AVX2"
	if avx512 {
		level = "AVX512"
	}
	name := fmt.Sprintf("fpcClassify%d%s", size, level)
	TEXT(name, NOSPLIT, "func(data []byte, kinds []uint8, sums []uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s classifies each %d-byte line of data: the kind of every word", name, size),
		fmt.Sprintf("to kinds (%d bytes per line) and the line summary to sums.", size/4),
		fmt.Sprintf("len(data) must be at least len(sums)*%d and len(kinds) len(sums)*%d.", size, size/4))
	line := Load(Param("data").Base(), GP64())
	kinds := Load(Param("kinds").Base(), GP64())
	sums := Load(Param("sums").Base(), GP64())
	n := Load(Param("sums").Len(), GP64())
	done := label("done_fpc")
	TESTQ(n, n)
	JZ(LabelRef(done))

	zero := YMM()
	VPXOR(zero, zero, zero)
	sevens, lengths := YMM(), YMM()
	VMOVDQU(fpcConst("sevens", []byte{fpcRaw}), sevens)
	VMOVDQU(fpcConst("codebits", fpcCodeBits[:]), lengths)

	var kindBytes func() VecVirtual
	if avx512 {
		kindBytes = fpcKinds512(line, size)
	} else {
		kindBytes = fpcKinds2(line, size, zero)
	}

	loop := label("loop")
	Label(loop)
	k := kindBytes()
	fpcSummary(k, size, avx512, zero, sevens, lengths, kinds, sums)
	ADDQ(U32(size), line)
	ADDQ(U32(size/4), kinds)
	ADDQ(U8(8), sums)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(done)
	VZEROUPPER()
	RET()
}

// fpcKinds2 prepares the AVX2 classification and returns the function that
// emits it for the line at ptr: a vector holding the kinds of its words as
// bytes in word order, a YMM for 128-byte lines, else an XMM (whose upper
// half is not defined for 32-byte lines).
func fpcKinds2(ptr Register, size int, zero VecVirtual) func() VecVirtual {
	ones := YMM()
	VPCMPEQD(ones, ones, ones)
	rotate := fpcConst("rot8", []byte{1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12})
	id := func(k byte) Mem { return fpcConst(fmt.Sprintf("kind%d", k), []byte{k, 0, 0, 0}) }
	order := YMM()
	VMOVDQU(fpcConst("order", []byte{0, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 2, 0, 0, 0, 6, 0, 0, 0, 3, 0, 0, 0, 7, 0, 0, 0}), order)
	return func() VecVirtual {
		vecs := loadLine(ptr, size)
		ks := make([]VecVirtual, len(vecs))
		for i, v := range vecs {
			// signExt(s) marks the words that equal their low 32−s bits
			// sign-extended.
			signExt := func(s uint8) VecVirtual {
				t := YMM()
				VPSLLD(U8(s), v, t)
				VPSRAD(U8(s), t, t)
				VPCMPEQD(v, t, t)
				return t
			}
			// Two halves: both 16-bit halves are sign-extended bytes.
			two := YMM()
			VPSLLW(U8(8), v, two)
			VPSRAW(U8(8), two, two)
			VPCMPEQW(v, two, two)
			VPCMPEQD(ones, two, two)
			k := YMM()
			VMOVDQU(id(fpcRaw), k)
			VPBLENDVB(two, id(fpcTwo), k, k)
			lowZero := YMM()
			VPSLLD(U8(16), v, lowZero)
			VPCMPEQD(zero, lowZero, lowZero)
			VPBLENDVB(lowZero, id(fpcLowZero), k, k)
			VPBLENDVB(signExt(16), id(fpcSE16), k, k)
			rep := YMM()
			VPSHUFB(rotate, v, rep) // each word rotated by a byte
			VPCMPEQD(v, rep, rep)
			VPBLENDVB(rep, id(fpcRep), k, k)
			VPBLENDVB(signExt(24), id(fpcSE8), k, k)
			VPBLENDVB(signExt(28), id(fpcSE4), k, k)
			z := YMM()
			VPCMPEQD(zero, v, z)
			VPANDN(k, z, k) // kind 0 where the word is zero
			ks[i] = k
		}
		// Narrow the kinds from dwords to bytes. The packs work within
		// 128-bit lanes, so the result holds 4-word groups in the order
		// 0 2 4 6 | 1 3 5 7 (by group), which the permutation undoes.
		out := YMM()
		switch len(ks) {
		case 4:
			ab, cd := YMM(), YMM()
			VPACKUSDW(ks[1], ks[0], ab)
			VPACKUSDW(ks[3], ks[2], cd)
			VPACKUSWB(cd, ab, out)
		case 2:
			VPACKUSDW(ks[1], ks[0], out)
			VPACKUSWB(out, out, out)
		default:
			VPACKUSDW(ks[0], ks[0], out)
			VPACKUSWB(out, out, out)
		}
		VPERMD(out, order, out)
		return out
	}
}

// fpcKinds512 is fpcKinds2 with AVX-512 compares into mask registers and
// masked blends.
func fpcKinds512(ptr Register, size int) func() VecVirtual {
	var like VecVirtual = ZMM()
	if size == 32 {
		like = YMM()
	}
	c := func(v uint64) VecVirtual { return broadcastConst(like, 4, v) }
	off4, span4 := c(8), c(16)
	off8, span8 := c(0x80), c(0x100)
	off16, span16 := c(0x8000), c(0x10000)
	lowHalf := c(0xFFFF)
	halfOff, halfHigh := broadcastConst(like, 2, 0x80), c(0xFF00FF00)
	var ids [8]VecVirtual
	for k := range ids {
		ids[k] = c(uint64(k))
	}
	return func() VecVirtual {
		var vecs []VecVirtual
		if size == 32 {
			// vectors512 loads with VMOVDQU, which cannot reach the
			// registers 16–31 that the constants push these vectors to.
			v := YMM()
			VMOVDQU32(Mem{Base: ptr}, v)
			vecs = []VecVirtual{v}
		} else {
			vecs = vectors512(ptr, size)
		}
		narrow := make([]VecVirtual, len(vecs))
		for i, v := range vecs {
			below := func(off, span VecVirtual) OpmaskVirtual {
				t, m := vec512(v), K()
				VPADDD(off, v, t)
				VPCMPUD(U8(cmpLT), span, t, m)
				return m
			}
			k := vec512(v)
			t := vec512(v)
			two, lowZero, rep, zero := K(), K(), K(), K()
			VPADDW(halfOff, v, t)
			VPTESTNMD(halfHigh, t, two)
			VPBLENDMD(ids[fpcTwo], ids[fpcRaw], two, k)
			VPTESTNMD(lowHalf, v, lowZero)
			VPBLENDMD(ids[fpcLowZero], k, lowZero, k)
			VPBLENDMD(ids[fpcSE16], k, below(off16, span16), k)
			r := vec512(v)
			VPROLD(U8(8), v, r)
			VPCMPEQD(v, r, rep)
			VPBLENDMD(ids[fpcRep], k, rep, k)
			VPBLENDMD(ids[fpcSE8], k, below(off8, span8), k)
			VPBLENDMD(ids[fpcSE4], k, below(off4, span4), k)
			VPTESTNMD(v, v, zero)
			VPBLENDMD(ids[fpcZero], k, zero, k)
			narrow[i] = XMM()
			VPMOVDB(k, narrow[i])
		}
		if len(narrow) == 1 {
			return narrow[0]
		}
		out := YMM()
		VINSERTI32X4(U8(1), narrow[1], narrow[0].AsY(), out)
		return out
	}
}

// fpcSummary stores the kind bytes k of one line to kinds and its summary
// (zero-word mask, code bits of the non-zero words, count of raw words) to
// sums. The AVX-512 kernels use only instructions with an EVEX form, since
// their vectors may live in registers 16–31.
func fpcSummary(k VecVirtual, size int, avx512 bool, zero, sevens, lengths VecVirtual, kinds, sums Register) {
	wide := size == 128
	vec := func(v VecVirtual) Op {
		if wide {
			return v.AsY()
		}
		return v.AsX()
	}
	store := func(v, m Op) { VMOVDQU(v, m) }
	if avx512 {
		store = func(v, m Op) { VMOVDQU8(v, m) }
	}
	switch size {
	case 128:
		store(k.AsY(), Mem{Base: kinds})
	case 64:
		store(k.AsX(), Mem{Base: kinds})
	default:
		VMOVQ(k.AsX(), Mem{Base: kinds})
	}
	words := size / 4
	masked := func(r GPVirtual) {
		if words < 32 {
			ANDL(U32(uint32(1)<<words-1), r)
		}
	}
	t := YMM()
	// equal returns the mask of the bytes of k equal to those of c.
	equal := func(c VecVirtual) GPVirtual {
		r := GP32()
		if avx512 {
			m := K()
			VPCMPEQB(vec(c), vec(k), m)
			KMOVD(m, r)
		} else {
			VPCMPEQB(vec(c), vec(k), vec(t))
			VPMOVMSKB(vec(t), r)
		}
		masked(r)
		return r
	}
	zeros := equal(zero)
	raw := equal(sevens)
	POPCNTL(raw, raw)

	// Code bits: each kind's length, summed by VPSADBW per 8 bytes.
	VPSHUFB(vec(k), vec(lengths), vec(t))
	VPSADBW(vec(zero), vec(t), vec(t))
	var s Op = t.AsX() // 32-byte lines: the first 8 bytes' sum
	if size != 32 {
		if size == 128 {
			hi := XMM()
			if avx512 {
				VEXTRACTI32X4(U8(1), t.AsY(), hi)
			} else {
				VEXTRACTI128(U8(1), t.AsY(), hi)
			}
			VPADDQ(hi, t.AsX(), t.AsX())
		}
		h := XMM()
		VPSHUFD(U8(0x4E), t.AsX(), h)
		VPADDQ(h, t.AsX(), t.AsX())
	}
	sum := GP64()
	VMOVQ(s, sum)
	SHLQ(U8(32), sum)
	SHLQ(U8(48), raw.As64())
	ORQ(raw.As64(), sum)
	ORQ(zeros.As64(), sum)
	MOVQ(sum, Mem{Base: sums})
}

// Rows of fpc's pack table (table.vecEnc), 8 uint64s each, indexed by kind:
// the fields of encStep.
const (
	fpcPackPre         = 0
	fpcPackShift       = 64
	fpcPackMaskShifted = 128
	fpcPackMaskLow     = 192
	fpcPackMaskRun     = 256
	fpcPackBits        = 320
)

// fpcPack64AVX512 emits fpcPack64AVX512(buf *[149]byte, line []byte, kinds
// []uint8, emit uint64, tab *[48]uint64), fpc's pack for a 64-byte line.
// The code of every word is computed side by side (table rows looked up
// with VPERMQ); a word not marked in emit gets an empty code, so the
// packing needs no list and runs unrolled over all 16 words with BMI2
// shifts (storing an empty code rewrites the bytes the last store wrote).
// A zero run's field is the distance to the next emitted word (or the
// line's end) less one, which is what pack's run field is: inside a run
// codes start every eighth word.
func fpcPack64AVX512() {
	TEXT("fpcPack64AVX512", NOSPLIT, "func(buf *[149]byte, line []byte, kinds []uint8, emit uint64, tab *[48]uint64)")
	Pragma("noescape")
	Doc("fpcPack64AVX512 writes flag 1 and the codes of the words of the 64-byte",
		"line marked in emit to buf as fpc's pack does. tab holds the encStep",
		"fields of each kind in rows of 8. len(line) ≥ 64 and len(kinds) ≥ 16.")
	fpcPackKernel(16)
}

// fpcPack128AVX512 emits fpcPack128AVX512, fpcPack64AVX512 for the 32
// words of a 128-byte line.
func fpcPack128AVX512() {
	TEXT("fpcPack128AVX512", NOSPLIT, "func(buf *[149]byte, line []byte, kinds []uint8, emit uint64, tab *[48]uint64)")
	Pragma("noescape")
	Doc("fpcPack128AVX512 writes flag 1 and the codes of the words of the",
		"128-byte line marked in emit to buf as fpc's pack does. tab holds the",
		"encStep fields of each kind in rows of 8. len(line) ≥ 128 and",
		"len(kinds) ≥ 32.")
	fpcPackKernel(32)
}

// fpcPackKernel emits the body of the pack kernels for lines of words words.
func fpcPackKernel(words int) {
	buf := Load(Param("buf"), GP64())
	line := Load(Param("line").Base(), GP64())
	kinds := Load(Param("kinds").Base(), GP64())
	emit := Load(Param("emit"), GP64())
	tab := Load(Param("tab"), GP64())
	fpcPackWords(buf, line, emit, tab, words, func(h int, dst VecVirtual) {
		VPMOVZXBQ(Mem{Base: kinds, Disp: 8 * h}, dst)
	})
	VZEROUPPER()
	RET()
}

// fpcPackWords emits the body of an FPC pack kernel for the line of words
// words (16 or 32) at line, with the kinds of words 8h to 8h+7 loaded by
// kindsOf(h, dst) as qwords, and returns a register holding the bits
// written (flag and codes).
func fpcPackWords(buf, line, emit, tab Register, words int, kindsOf func(h int, dst VecVirtual)) GPVirtual {
	codes, bits, runs := AllocLocal(8*words), AllocLocal(8*words), AllocLocal(8*words)
	rows := make([]VecVirtual, 6)
	for r := range rows {
		rows[r] = ZMM()
		VMOVDQU64(Mem{Base: tab, Disp: 64 * r}, rows[r])
	}
	pre, shift, maskShifted, maskLow, maskRun, nbits := rows[0], rows[1], rows[2], rows[3], rows[4], rows[5]
	seven := ZMM()
	{
		t := GP64()
		MOVQ(U32(7), t)
		VPBROADCASTQ(t, seven)
	}
	for h := 0; h < words/8; h++ {
		k, w, v, t, u := ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
		m := GP64()
		MOVQ(emit, m)
		if h > 0 {
			SHRQ(U8(8*h), m)
		}
		km := K()
		KMOVB(m.As32(), km)
		kindsOf(h, k)
		VPANDQ(seven, k, k)
		VPMOVZXDQ(Mem{Base: line, Disp: 32 * h}, w)
		VPERMQ(shift, k, t)
		VPSRLVQ(t, w, t)
		VPERMQ(maskShifted, k, u)
		VPANDQ(u, t, t)
		VPERMQ(maskLow, k, u)
		VPANDQ(u, w, w)
		VPERMQ(pre, k, v)
		VPTERNLOGQ(U8(0xFE), t, w, v) // pre | shifted | low
		VMOVDQA64_Z(v, km, v)
		VMOVDQU64(v, codes.Offset(64*h))
		VPERMQ_Z(nbits, k, km, u)
		VMOVDQU64(u, bits.Offset(64*h))
		VPERMQ_Z(maskRun, k, km, u)
		VMOVDQU64(u, runs.Offset(64*h))
	}
	Comment("Pack: pending bits right-aligned in acc, nacc of them; after each",
		"code the whole bytes are stored big-endian, 8 at a time.")
	e := GP64()
	MOVQ(emit, e)
	if words < 32 {
		ANDQ(U32(1<<words-1), e)
	} else {
		MOVL(e.As32(), e.As32()) // zero-extends: words 0 to 31 only
	}
	BTSQ(U8(words), e) // the line's end ends the last run
	acc, nacc, p := GP64(), GP64(), GP64()
	MOVQ(U32(1), acc)
	MOVQ(U32(1), nacc)
	XORQ(p, p)
	for i := 0; i < words; i++ {
		run, n, s, sh := GP64(), GP64(), GP64(), GP64()
		MOVQ(e, run)
		SHRQ(U8(i+1), run)
		TZCNTQ(run, run) // words to the next emitted one
		ANDQ(runs.Offset(8*i), run)
		ORQ(codes.Offset(8*i), run)
		MOVQ(bits.Offset(8*i), n)
		SHLXQ(n, acc, acc)
		ORQ(run, acc)
		ADDQ(n, nacc)
		MOVQ(U32(64), sh)
		SUBQ(nacc, sh)
		SHLXQ(sh, acc, s)
		BSWAPQ(s)
		MOVQ(s, Mem{Base: buf, Index: p, Scale: 1})
		MOVQ(nacc, sh)
		SHRQ(U8(3), sh)
		ADDQ(sh, p)
		ANDQ(U8(7), nacc)
	}
	// pack's last store, which matters only past the stream's end.
	{
		s, sh := GP64(), GP64()
		MOVQ(U32(64), sh)
		SUBQ(nacc, sh)
		SHLXQ(sh, acc, s)
		BSWAPQ(s)
		MOVQ(s, Mem{Base: buf, Index: p, Scale: 1})
	}
	SHLQ(U8(3), p)
	ADDQ(nacc, p)
	return p
}

// fpcCompress128Kernel emits fpcCompress128AVX512(buf *[129]byte, line
// *[128]byte, tab *[48]uint64) (sum uint64, bits int), the whole of fpc's
// word coding of one 128-byte line under the report's table in one call,
// as fpcCompress64Kernel is for 64 bytes: the summary, the words that emit
// a code (the non-zero ones and runCodeStarts of the zero mask), and the
// codes packed as fpc's pack does unless they are not shorter than the
// line (then the raw stream). bits is the flag and codes' length, or a
// lower bound of it no shorter than the line where it is not shorter.
//
// Each half of the line (16 words) is classified and coded as the 64-byte
// kernel does it, and packed by that kernel's dword-domain packing
// (fpcPack128): the first half after the flag, the second from bit L%64 of
// its words, L being the first's length with the flag, so that a lane
// permute by L/64 words puts it in its place in the stream. A zero run's
// count, the distance from its word to the next word that emits a code,
// comes from the emit mask of the whole line, so runs cross the halves as
// they do in the stream. A half whose codes pass 512 bits from where they
// start (most of its words raw, the other half small enough for the line
// to be coded: about 9% of the corpora's coded 128-byte lines) is packed
// into two vectors.
//
// Kernels alone, alternated in one process, against the packing it
// replaced (the second half packed from bit 0 and shifted by L with two
// permutes and two shifts a vector, a half over 512 bits packed by
// fpcPackWords's serial stores, and a 944-byte frame for them): all the
// corpora's 128-byte lines 13% faster with popcnt and 23% without; raw
// lines, whose path changed only in losing the frame, 15%.
//
// With popcnt (fpcCompress128AVX512Popcnt), each half's offsets are found
// as fpcCompress64Kernel's popcnt variant finds them, before emit; without
// it, they are summed from the codes' lengths.
func fpcCompress128Kernel(popcnt bool) {
	const size, words = 128, 32
	fpcPopcntText("fpcCompress128AVX512", popcnt, attr.NOSPLIT, "func(buf *[129]byte, line *[128]byte, tab *[48]uint64) (sum uint64, bits int)",
		" classifies the 128-byte line, returning its summary,",
		"and the length in bits of flag 1 and its word codes under the report's",
		"table; if they are shorter than the line, it writes them to buf as fpc's",
		"pack does, else the raw stream (flag 0, the line) to buf, and nothing",
		"past the stream's bytes. Where they are not shorter, bits may be a",
		"lower bound of their length that is not shorter either.",
		"tab is the table's vecEnc. It reads all of line before it writes buf,",
		"so the two may overlap.")
	line := Load(Param("line"), GP64())
	var v, k [2]VecVirtual
	var kz [2]OpmaskVirtual
	for h := range v {
		v[h] = ZMM()
		VMOVDQU64(Mem{Base: line, Disp: 64 * h}, v[h])
		k[h], kz[h] = fpcKindsDwords(v[h])
	}

	Comment("Summary: zero words, code bits of the others, raw words; the first half's code bits kept.")
	z, sum, bitsA := GP64(), GP64(), GP64()
	var nonzeroBits GPVirtual
	{
		zb, rawA, rawB := GP64(), GP64(), GP64()
		KMOVW(kz[0], z.As32())
		KMOVW(kz[1], zb.As32())
		SHLL(U8(16), zb.As32())
		ORQ(zb, z)
		fpcCodeBitsRaw(k[0], bitsA, rawA)
		fpcCodeBitsRaw(k[1], sum, rawB)
		ADDQ(bitsA, sum)
		ADDQ(rawB, rawA)
		nonzeroBits = fpcNonzeroBound(sum)
		fpcStoreSummary(sum, rawA, z)
	}
	fpcRawIfLonger(line, v[:], nonzeroBits)

	tab := Load(Param("tab"), GP64())
	var o [2]VecVirtual
	zero := ZMM()
	if popcnt {
		VPXORD(zero, zero, zero)
		for h := range o {
			o[h] = fpcNonzeroOffsets(k[h], kz[h], tab, zero, 1-h)
		}
	}

	Comment("emit: the non-zero words and runCodeStarts(zeros).")
	emit, runStarts := fpcEmit(z, words)

	total := GP64()
	fpcStreamBits(total, runStarts, nonzeroBits)
	fpcRawIfLonger(line, v[:], total)

	Comment("L, the flag and the first half's codes: its code bits and 6 for each zero-run code in it.")
	lenA := GP64()
	{
		runsA := GP64()
		MOVQ(runStarts, runsA)
		MOVWQZX(runsA.As16(), runsA)
		POPCNTQ(runsA, runsA)
		LEAQ(Mem{Base: runsA, Index: runsA, Scale: 2}, runsA)
		LEAQ(Mem{Base: bitsA, Index: runsA, Scale: 2, Disp: 1}, lenA)
	}

	// storeBytes stores the first (total+7)/8 bytes of the stream held in
	// x[0], x[1] to buf, and nothing past them.
	storeBytes := func(x [2]VecVirtual) {
		storeStreamBytes(x[:], total, Mem{Base: Load(Param("buf"), GP64())})
		Store(total, ReturnIndex(1))
		VZEROUPPER()
		RET()
	}
	if !popcnt {
		VPXORD(zero, zero, zero)
	}
	fpcPack128(v, k, o, emit, runStarts, lenA, total, tab, zero, popcnt, storeBytes)
}

// fpcHalfCodes returns the codes and lengths of half h of a 128-byte
// line's words v, kinds k, whose words that emit a code are emit.
func fpcHalfCodes(v, k [2]VecVirtual, emit GPVirtual, tab Register, h int) (code [2]VecVirtual, n VecVirtual) {
	ke := K()
	s := GP64()
	MOVQ(emit, s)
	SHRQ(U8(16*h), s)
	KMOVW(s.As32(), ke)
	return fpcWordCodes(v[h], k[h], fpcZeroRuns(emit, 32, h), ke, tab)
}

// fpcPack128 packs the codes of a 128-byte line with the 64-byte kernel's
// dword-domain packing (fpcPackCodes) and stores them with storeBytes: the
// first half with the flag, from bit 1, and the second from bit L%64 of
// its words, L being lenA, the length of the flag and the first half's
// codes, so that it takes its place in the stream by one lane permute per
// output vector. With popcnt, o holds the halves' offsets without the
// zero-run codes (fpcNonzeroOffsets); without it, the offsets are summed
// from the codes' lengths here. A half whose packing would pass 512 bits
// (most of its words raw) is packed into two vectors instead, at the cost
// of a second gather and a two-table permute, rather than serially.
func fpcPack128(v, k, o [2]VecVirtual, emit, runStarts, lenA, total GPVirtual, tab Register, zero VecVirtual, popcnt bool, storeBytes func([2]VecVirtual)) {
	b := GP64()
	MOVQ(lenA, b)
	ANDQ(U8(63), b)
	vb := ZMM()
	VPBROADCASTD(b.As32(), vb)
	var code [2][2]VecVirtual
	var n [2]VecVirtual
	for h := range code {
		if popcnt {
			rs := runStarts
			if h == 1 {
				rs = GP64()
				MOVQ(runStarts, rs)
				SHRQ(U8(16), rs)
				Comment("The second half's codes from bit L%64 of its words.")
				VPADDD(vb, o[h], o[h])
			}
			fpcAddRunCodes(o[h], rs)
		}
		code[h], n[h] = fpcHalfCodes(v, k, emit, tab, h)
		if !popcnt {
			o[h] = fpcOffsets(n[h], zero, 1-h)
			if h == 1 {
				Comment("The second half's codes from bit L%64 of its words.")
				VPADDD(vb, o[h], o[h])
			}
		}
	}
	iota := iota16()

	wide := label("fpc_fused_wide")
	{
		Comment("Either half over 512 bits (the second from bit L%64): two vectors a half.")
		CMPQ(lenA, U32(512))
		JA(LabelRef(wide))
		rest := GP64()
		MOVQ(total, rest)
		SUBQ(lenA, rest)
		ADDQ(b, rest)
		CMPQ(rest, U32(512))
		JA(LabelRef(wide))
	}
	var packed [2]VecVirtual
	for h := range packed {
		packed[h] = fpcPackCodes(code[h], n[h], o[h], zero, iota, h == 0)
	}
	bswapQwords(packed[1])
	out := fpcPlaceSecondHalf(packed[1:], lenA)
	VPORQ(packed[0], out[0], out[0])
	storeBytes(out)

	Label(wide)
	var halves [2][]VecVirtual
	for h := range halves {
		halves[h] = fpcPackCodesIn(2, code[h], n[h], o[h], zero, iota, h == 0)
	}
	bswapQwords(halves[1][0])
	bswapQwords(halves[1][1])
	out = fpcPlaceSecondHalf(halves[1], lenA)
	for w := range out {
		VPORQ(halves[0][w], out[w], out[w])
	}
	storeBytes(out)
}

// fpcPlaceSecondHalf returns the words of a 128-byte line's stream that
// hold its second half's codes, packed in p (one vector, or two where they
// pass 512 bits) from bit lenA%64, lenA being the length of the flag and
// the first half's codes: lane m of the two vectors takes p's word
// m−lenA/64, or zero.
func fpcPlaceSecondHalf(p []VecVirtual, lenA GPVirtual) (out [2]VecVirtual) {
	Comment("The second half's words, which start at bit L%64, moved up L/64 words.")
	qs := ZMM()
	t := GP64()
	MOVQ(lenA, t)
	SHRQ(U8(6), t)
	VPBROADCASTQ(t, qs)
	words := bq(uint64(8 * len(p)))
	for o := range out {
		var lanes []uint64
		for i := 0; i < 8; i++ {
			lanes = append(lanes, uint64(8*o+i))
		}
		j, kc := ZMM(), K()
		VMOVDQU64(rodata(fmt.Sprintf("iota8_%d", o), lanes...), j)
		VPSUBQ(qs, j, j)
		VPCMPUQ(U8(1), words, j, kc) // 0 ≤ j < 8·len(p)
		if len(p) == 1 {
			out[o] = ZMM()
			VPERMQ_Z(p[0], j, kc, out[o])
		} else {
			VPERMI2Q_Z(p[1], p[0], kc, j)
			out[o] = j
		}
	}
	return out
}

// fpcCompress64Kernel emits fpcCompress64AVX512, fpcCompress128Kernel for a
// 64-byte line, with every step on the line's 16 words side by side and as
// few 512-bit instructions as it can (Zen 4 runs each as two 256-bit
// halves). On the Zen 5-class VM of the benchmarks a coded line is bound
// by its dependency chain rather than by its instructions: six more
// independent ones measured no change, eight dependent adds on the bit
// offsets 11% slower (README, Speed). Constants come from memory as
// embedded broadcasts rather than from general registers. The codes are
// built as two dword vectors (the code's low 32 bits from the table rows
// looked up with VPERMD at twice the kind, and its high bits, only the
// raw pattern's prefix), interleaved into quadwords; the offsets are a
// prefix sum of dword lengths that starts with the flag's bit. Only a
// word's last code can run into the next word, so the bits that spill are
// gathered from those codes rather than summed over all of them.
//
// With popcnt (fpcCompress64AVX512Popcnt, for CPUs with AVX-512
// VPOPCNTDQ), the bit offsets' prefix sum runs over the lengths of the
// non-zero words as soon as their kinds are known, and the zero-run codes
// before each word are counted into it once emit is known (a masked
// VPOPCNTD): the prefix sum no longer waits for emit's chain of scalar
// operations, and 64-byte Compress measured 4.4% faster.
func fpcCompress64Kernel(popcnt bool) {
	fpcPopcntText("fpcCompress64AVX512", popcnt, attr.NOSPLIT, "func(buf *[65]byte, line *[64]byte, tab *[48]uint64) (sum uint64, bits int)",
		" classifies the 64-byte line, returning its summary,",
		"and the length in bits of flag 1 and its word codes under the report's",
		"table; if they are shorter than the line, it writes them to buf as fpc's",
		"pack does, else the raw stream (flag 0, the line) to buf, and nothing",
		"past the stream's bytes. Where they are not shorter, bits may be a",
		"lower bound of their length that is not shorter either.",
		"tab is the table's vecEnc. It reads all of line before it writes buf,",
		"so the two may overlap.")
	line := Load(Param("line"), GP64())
	v := ZMM()
	VMOVDQU64(Mem{Base: line}, v)
	k, kz := fpcKindsDwords(v)

	Comment("Summary: zero words, code bits of the others, raw words.")
	z, sum := GP64(), GP64()
	KMOVW(kz, z.As32())
	var nonzeroBits GPVirtual
	{
		raw := GP64()
		fpcCodeBitsRaw(k, sum, raw)
		nonzeroBits = fpcNonzeroBound(sum)
		fpcStoreSummary(sum, raw, z)
	}
	fpcRawIfLonger(line, []VecVirtual{v}, nonzeroBits)

	tab := Load(Param("tab"), GP64())
	zero := ZMM()
	VPXORD(zero, zero, zero)
	var o VecVirtual
	if popcnt {
		o = fpcNonzeroOffsets(k, kz, tab, zero, 1)
	}

	Comment("emit: the non-zero words and runCodeStarts(zeros).")
	emit, runStarts := fpcEmit(z, 16)

	total := GP64()
	fpcStreamBits(total, runStarts, nonzeroBits)
	fpcRawIfLonger(line, []VecVirtual{v}, total)

	if popcnt {
		fpcAddRunCodes(o, runStarts)
	}
	ke := K()
	KMOVW(emit.As32(), ke)
	iota := iota16()

	code, n := fpcWordCodes(v, k, fpcZeroRuns(emit, 16, 0), ke, tab)
	if !popcnt {
		o = fpcOffsets(n, zero, 1)
	}
	out := fpcPack64(code, n, o, zero, iota)
	Comment("Store the stream's bytes, (total+7)/8, and nothing past them.")
	storeStreamBytes([]VecVirtual{out}, total, Mem{Base: Load(Param("buf"), GP64())})
	Store(total, ReturnIndex(1))
	VZEROUPPER()
	RET()
}

// fpcPack64 returns the stream of a 64-byte line's word codes, flag 1
// first, big-endian in one vector: code and n are the codes (quadwords,
// two vectors) and their lengths (dwords), o their bit offsets from the
// flag (dwords), zero a zero vector and iota iota16.
func fpcPack64(code [2]VecVirtual, n, o, zero, iota VecVirtual) (out VecVirtual) {
	return fpcPackCodes(code, n, o, zero, iota, true)
}

// fpcPackCodes is fpcPack64, with the flag and in big-endian bytes when
// stream is set, else the 16 codes' bits alone from bit o, each qword's
// bit 63 first and its bytes not yet swapped (the 128-byte kernels' second
// half). Its dword offsets and lengths, and the lanes that end a word
// from 16 dword compares, cost fewer instructions than the qwords of
// packCodeWordsAt (C-Pack's packing): 128-byte coded lines ran 5.6% faster
// when the 128-byte kernel moved to it (kernels alone, alternated in one
// process).
func fpcPackCodes(code [2]VecVirtual, n, o, zero, iota VecVirtual, stream bool) (out VecVirtual) {
	return fpcPackCodesIn(1, code, n, o, zero, iota, stream)[0]
}

// fpcPackCodesIn is fpcPackCodes with the words in vectors vectors: 1, or
// 2 for codes that may take up to 1024 bits (words 8w to 8w+7 in out[w]).
func fpcPackCodesIn(vectors int, code [2]VecVirtual, n, o, zero, iota VecVirtual, stream bool) (out []VecVirtual) {
	e, kend := fpcWordEnds(n, o)
	idx, kvalid := wordEndLanes(iota, kend, vectors)
	hiw, low := fpcCodeSplit(code, e, zero)
	out, sp := codeWords(hiw, low, idx, kvalid, zero)
	for w := range out {
		fpcStreamWord(out[w], sp[w], stream, w == 0)
	}
	return out
}

// fpcWordEnds returns, for 16 codes of lengths n at bit offsets o
// (dwords), e = O%64 + n, where each code ends from the start of its word,
// and kend, the lanes whose code is the last to start in its word: the
// next lane starts in a later one.
func fpcWordEnds(n, o VecVirtual) (e VecVirtual, kend OpmaskVirtual) {
	d := fpcDword
	q := ZMM()
	e = ZMM()
	VPSRLD(U8(6), o, q)
	VPANDD_BCST(d(63), o, e)
	VPADDD(n, e, e) // e = O%64 + n

	Comment("The lanes that end a word: the next lane starts in a later one.")
	kend = K()
	ones, nq := ZMM(), ZMM()
	VPTERNLOGD(U8(0xFF), ones, ones, ones)
	VALIGND(U8(1), q, ones, nq)
	VPCMPUD(U8(6), q, nq, kend) // next > this
	return e, kend
}

// fpcCodeSplit returns each code's bits in the word it starts in (hiw) and
// in the next (low), for codes (quadwords, two vectors) that end e bits
// (dwords) after the start of their word.
func fpcCodeSplit(code [2]VecVirtual, e, zero VecVirtual) (hiw, low [2]VecVirtual) {
	Comment("Each code's bits in its word (hiw) and the next (low).")
	eq := dwordsToQwords(e)
	c64 := rodata("q40", 64)
	for h := 0; h < 2; h++ {
		a, l := ZMM(), ZMM()
		hiw[h], low[h] = ZMM(), ZMM()
		VPSUBQ_BCST(c64, eq[h], a) // e − 64
		VPSRLVQ(a, code[h], hiw[h])
		VPSUBQ(a, zero, a) // 64 − e
		VPSLLVQ(a, code[h], l)
		VPORQ(l, hiw[h], hiw[h])
		VPADDQ_BCST(c64, a, a) // 128 − e
		VPSLLVQ(a, code[h], low[h])
	}
	return hiw, low
}

// fpcStreamWord makes out the words out | sp; with stream, with flag 1
// (first: out holds the stream's first words) and in big-endian bytes.
func fpcStreamWord(out, sp VecVirtual, stream, first bool) {
	if !stream {
		VPORQ(sp, out, out)
		return
	}
	if first {
		VPTERNLOGQ(U8(0xFE), rodata("fpc_flagword", 1<<63, 0, 0, 0, 0, 0, 0, 0), sp, out)
	} else {
		VPORQ(sp, out, out)
	}
	bswapQwords(out)
}

// codeWords returns the 64-bit words of a packing of 16 codes, hiw and low
// being each code's bits in the word it starts in and in the next (qwords,
// two vectors, which it changes), idx and kvalid wordEndLanes's lists of
// the lanes whose code is the last to start in a word (one or two
// vectors, which it changes): in out[w], for words 8w to 8w+7, the sum of
// hiw over the codes that start in each word (a difference of prefix
// sums), and in sp[w] the spill of the word before's last code. Only a
// word's last code can run into the next word, so the spills are gathered
// from those codes, not summed over all of them. The word is out | sp.
// The last vector's gathers overwrite hiw[0] and low[0], the others' copy
// their lists first.
func codeWords(hiw, low [2]VecVirtual, idx []VecVirtual, kvalid []OpmaskVirtual, zero VecVirtual) (out, sp []VecVirtual) {
	Comment("Each word: the sum of hiw over the codes that start in it (a difference of",
		"prefix sums), and the spill of the last code of the word before.")
	qwordPrefix(hiw)
	g := make([]VecVirtual, len(idx))
	s := make([]VecVirtual, len(idx))
	for w := range idx {
		if w == len(idx)-1 {
			g[w], s[w] = hiw[0], low[0]
			VPERMT2Q_Z(hiw[1], idx[w], kvalid[w], g[w])
			VPERMT2Q_Z(low[1], idx[w], kvalid[w], s[w])
			continue
		}
		g[w], s[w] = ZMM(), idx[w]
		VMOVDQA64(idx[w], g[w])
		VPERMI2Q_Z(hiw[1], hiw[0], kvalid[w], g[w])
		VPERMI2Q_Z(low[1], low[0], kvalid[w], s[w])
	}
	prevG, prevS := zero, zero
	for w := range idx {
		sh, o, x := ZMM(), ZMM(), ZMM()
		VALIGNQ(U8(7), prevG, g[w], sh) // lane i: g[i−1]; lane 0 the vector before's last, or 0
		VPSUBQ_Z(sh, g[w], kvalid[w], o)
		VALIGNQ(U8(7), prevS, s[w], x) // spills land in the next word
		out, sp = append(out, o), append(sp, x)
		prevG, prevS = g[w], s[w]
	}
	return out, sp
}

// fpcCompressPair64Kernel emits fpcCompressPair64AVX512 (and with popcnt
// its VPOPCNTDQ variant): fpcCompress64Kernel's work on two 64-byte lines
// at once, each step for one line and then the other, so that each line's
// dependency chain runs in the other's waits. A line alone leaves much of
// the core idle: called on independent lines one after the other, the
// one-line kernel ran no faster than when each line's address waited on
// the line before (throwaway benchmark), so consecutive calls do not
// overlap. A line that the codes of its non-zero words already make raw
// is written raw at once, and the other line goes on alone; a line whose
// codes turn out no shorter than the line once its zero runs are counted
// is written raw at the end. The two streams go back to back from out,
// the second after the first's bytes, and the kernel returns each one's
// length in bits (1 + 8·64 for a raw one).
func fpcCompressPair64Kernel(popcnt bool) {
	fpcPopcntText("fpcCompressPair64AVX512", popcnt, attr.NOSPLIT, "func(out *[130]byte, line0, line1 *[64]byte, tab *[48]uint64) (bits0, bits1 int)",
		" writes the streams of the 64-byte lines line0 and line1",
		"under the report's table back to back from out, each its word codes or, where",
		"they are not shorter than the line, raw, and returns each one's length in bits.",
		"tab is the table's vecEnc.")
	const rawBits = 1 + 8*64
	lines := []string{"line0", "line1"}
	type lineState struct {
		v, k, o, n      VecVirtual
		code            [2]VecVirtual
		kz              OpmaskVirtual
		nonzero, z      GPVirtual
		emit, runStarts GPVirtual
		total           GPVirtual
		out             VecVirtual
	}
	var st [2]lineState
	for h := range st {
		line := Load(Param(lines[h]), GP64())
		st[h].v = ZMM()
		VMOVDQU64(Mem{Base: line}, st[h].v)
	}
	for h := range st {
		st[h].k, st[h].kz = fpcKindsDwords(st[h].v)
	}
	for h := range st {
		s := &st[h]
		s.z, s.nonzero = GP64(), GP64()
		KMOVW(s.kz, s.z.As32())
		fpcCodeBitsOf(s.k, s.nonzero)
		INCQ(s.nonzero) // the flag
	}

	// storeRaw writes line h's raw stream at at, returns its length and
	// moves at past it.
	storeRaw := func(h int, at Register) {
		rawStreamOf(at, Load(Param(lines[h]), GP64()), []VecVirtual{st[h].v})
		total := GP64()
		MOVQ(U32(rawBits), total)
		Store(total, ReturnIndex(h))
		ADDQ(U8(rawBits/8+1), at)
	}
	// codes emits the rest of the work on lines hs, step by step, and
	// writes their streams in turn at at, moving it past each.
	codes := func(hs []int, at Register) {
		tab := Load(Param("tab"), GP64())
		zero := ZMM()
		VPXORD(zero, zero, zero)
		if popcnt {
			for _, h := range hs {
				st[h].o = fpcNonzeroOffsets(st[h].k, st[h].kz, tab, zero, 1)
			}
		}
		for _, h := range hs {
			st[h].emit, st[h].runStarts = fpcEmit(st[h].z, 16)
		}
		for _, h := range hs {
			st[h].total = GP64()
			fpcStreamBits(st[h].total, st[h].runStarts, st[h].nonzero)
			if popcnt {
				fpcAddRunCodes(st[h].o, st[h].runStarts)
			}
		}
		for _, h := range hs {
			s := &st[h]
			ke := K()
			KMOVW(s.emit.As32(), ke)
			s.code, s.n = fpcWordCodes(s.v, s.k, fpcZeroRuns(s.emit, 16, 0), ke, tab)
			if !popcnt {
				s.o = fpcOffsets(s.n, zero, 1)
			}
		}
		iota := iota16()
		for _, h := range hs {
			st[h].out = fpcPack64(st[h].code, st[h].n, st[h].o, zero, iota)
		}
		Comment("Each stream: raw where the codes are no shorter than the line.")
		for _, h := range hs {
			s := &st[h]
			raw, stored := label("fpc_pair_raw"), label("fpc_pair_stored")
			CMPQ(s.total, U32(rawBits))
			JAE(LabelRef(raw))
			storeStreamBytes([]VecVirtual{s.out}, s.total, Mem{Base: at})
			Store(s.total, ReturnIndex(h))
			nb := GP64()
			LEAQ(Mem{Base: s.total, Disp: 7}, nb)
			SHRQ(U8(3), nb)
			ADDQ(nb, at)
			JMP(LabelRef(stored))
			Label(raw)
			storeRaw(h, at)
			Label(stored)
		}
	}

	Comment("A line that the codes of its non-zero words make raw goes raw now.")
	raw0, only0, bothRaw := label("fpc_pair_raw0"), label("fpc_pair_only0"), label("fpc_pair_both_raw")
	CMPQ(st[0].nonzero, U32(rawBits))
	JAE(LabelRef(raw0))
	CMPQ(st[1].nonzero, U32(rawBits))
	JAE(LabelRef(only0))
	codes([]int{0, 1}, Load(Param("out"), GP64()))
	VZEROUPPER()
	RET()

	Label(only0)
	{
		at := Load(Param("out"), GP64())
		codes([]int{0}, at)
		storeRaw(1, at)
		VZEROUPPER()
		RET()
	}

	Label(raw0)
	CMPQ(st[1].nonzero, U32(rawBits))
	JAE(LabelRef(bothRaw))
	{
		at := Load(Param("out"), GP64())
		storeRaw(0, at)
		codes([]int{1}, at)
		VZEROUPPER()
		RET()
	}

	Label(bothRaw)
	{
		at := Load(Param("out"), GP64())
		storeRaw(0, at)
		storeRaw(1, at)
		VZEROUPPER()
		RET()
	}
}

// fpcPopcntText starts the kernel base, or with popcnt its VPOPCNTDQ
// variant base+"Popcnt", whose doc comment says so after doc (whose first
// line goes on after the kernel's name).
func fpcPopcntText(base string, popcnt bool, flags attr.Attribute, sig string, doc ...string) {
	name := base
	if popcnt {
		name += "Popcnt"
	}
	TEXT(name, flags, sig)
	Pragma("noescape")
	doc[0] = name + doc[0]
	if popcnt {
		doc = append(doc, "It needs AVX-512 VPOPCNTDQ.")
	}
	Doc(doc...)
}

// fpcOffsets returns the bit offsets of 16 codes of lengths n (dwords)
// from bit start (1 after the flag, or 0): lane i holds start + n0 + … +
// n(i−1). zero is a zero vector. The offsets are on the kernels' critical
// chain, and dwordPrefix is short in latency: 64-byte Compress of coded
// lines ran 3% faster with it and 128-byte 6% (kernels alone, alternated
// in one process).
func fpcOffsets(n, zero VecVirtual, start int) VecVirtual {
	Comment("Bit offsets O: a prefix sum of the start and the lengths before.")
	return dwordPrefix(n, zero, false, start)
}

// fpcNonzeroOffsets returns the popcnt variants' first bit offsets of
// the 16 words of kinds k (dwords), zero words kz: start plus the code
// lengths of the non-zero words before each (from tab's row of lengths),
// which wait for the kinds only; fpcAddRunCodes adds the zero-run codes.
func fpcNonzeroOffsets(k VecVirtual, kz OpmaskVirtual, tab Register, zero VecVirtual, start int) VecVirtual {
	Comment("Bit offsets O, first without the zero-run codes: from the lengths of",
		"the non-zero words, which wait for the kinds only.")
	knz, i2, nz := K(), ZMM(), ZMM()
	KNOTW(kz, knz)
	VPADDD(k, k, i2)
	VPERMD_Z(Mem{Base: tab, Disp: fpcPackBits}, i2, knz, nz)
	return fpcOffsets(nz, zero, start)
}

// fpcAddRunCodes adds to the offsets o of 16 words 6 bits for each
// zero-run code before each word, the codes of the words set in the low
// 16 bits of runStarts (fpcEmit's): a masked VPOPCNTD.
func fpcAddRunCodes(o VecVirtual, runStarts GPVirtual) {
	Comment("O: 6 bits more for each zero-run code before.")
	r, t := ZMM(), ZMM()
	VPBROADCASTD(runStarts.As32(), r)
	var below []uint64
	for j := uint64(0); j < 16; j += 2 {
		below = append(below, (1<<j-1)|(1<<(j+1)-1)<<32)
	}
	VPANDD(rodata("fpc_below16", below...), r, r)
	VPOPCNTD(r, r)
	VPSLLD(U8(1), r, t)
	VPSLLD(U8(2), r, r)
	VPADDD(r, t, t) // 6 per code
	VPADDD(t, o, o)
}

// fpcDword is a dword constant in memory, for an embedded broadcast.
func fpcDword(x uint32) Mem { return rodata(fmt.Sprintf("fpc_d%x", x), uint64(x)) }

// fpcKindsDwords returns the kinds of the 16 words in v as dwords (the
// lowest-numbered pattern each word matches) and the mask of its zero
// words.
func fpcKindsDwords(v VecVirtual) (k VecVirtual, kz OpmaskVirtual) {
	d := fpcDword
	Comment("Kinds as dwords: the lowest-numbered pattern each word matches.")
	// The sign-extension patterns from the count of leading zeros of the
	// word with its sign bits flipped to zero (SE4 is at most 7, SE8 at
	// most 127, SE16 at most 32767; 32 for 0 and −1, the table's index 0),
	// then each other pattern that matches lowers the kind with a masked
	// minimum, as the kinds are numbered by code length.
	k, kz = ZMM(), K()
	{
		var se [32]uint32
		for l := range se {
			switch {
			case l == 0 || l >= 29:
				se[l] = fpcSE4
			case l >= 25:
				se[l] = fpcSE8
			case l >= 17:
				se[l] = fpcSE16
			default:
				se[l] = fpcRaw
			}
		}
		var ws [16]uint64
		for i := range ws {
			ws[i] = uint64(se[2*i]) | uint64(se[2*i+1])<<32
		}
		low := ZMM()
		VMOVDQU64(rodata("fpc_se_lo", ws[:8]...), low)
		VPSRAD(U8(31), v, k)
		VPXORD(v, k, k)
		VPLZCNTD(k, k)
		VPERMI2D(rodata("fpc_se_hi", ws[8:]...), low, k)
		half, t, two := ZMM(), ZMM(), K()
		VPBROADCASTD(d(0x00800080), half)
		VPADDW(half, v, t)
		VPTESTNMD_BCST(d(0xFF00FF00), t, two) // both halves sign-extended bytes
		VPMINUD_BCST(d(fpcTwo), k, two, k)
		lowZero := K()
		VPTESTNMD_BCST(d(0xFFFF), v, lowZero)
		VPMINUD_BCST(d(fpcLowZero), k, lowZero, k)
		r, rep := ZMM(), K()
		VPROLD(U8(8), v, r)
		VPCMPEQD(v, r, rep)
		VPMINUD_BCST(d(fpcRep), k, rep, k)
		VPTESTNMD(v, v, kz)
		VPMINUD_BCST(d(fpcZero), k, kz, k)
	}
	return k, kz
}

// fpcCodeBitsRaw sets bits to the code bits of the 16 kinds (dwords) in k,
// the sum of fpcCodeBits over them, and raw to the number of raw words.
func fpcCodeBitsRaw(k VecVirtual, bits, raw GPVirtual) {
	fpcCodeBitsOf(k, bits)
	m := K()
	VPCMPEQD_BCST(fpcDword(fpcRaw), k, m)
	KMOVW(m, raw.As32())
	POPCNTL(raw.As32(), raw.As32())
}

// fpcCodeBitsOf sets bits to the code bits of the 16 kinds (dwords) in k,
// the sum of fpcCodeBits over them.
func fpcCodeBitsOf(k VecVirtual, bits GPVirtual) {
	kb, lens, zx := XMM(), XMM(), XMM()
	VPMOVDB(k, kb)
	VMOVDQU8(fpcConst("codebits", fpcCodeBits[:]), lens)
	VPSHUFB(kb, lens, lens)
	VPXORD(zx, zx, zx)
	VPSADBW(zx, lens, lens)
	h := XMM()
	VPSHUFD(U8(0x4E), lens, h)
	VPADDQ(h, lens, lens)
	VMOVQ(lens, bits)
}

// fpcWordCodes returns the codes of the 16 words in v, of kinds k (dwords),
// under the table rows at tab (vecEnc): code[h] holds those of words 8h to
// 8h+7 right-aligned in quadwords, n their lengths as dwords. runs holds a
// zero-run code's count less one at its word; a word not set in ke (not
// emitted) gets an empty code.
func fpcWordCodes(v, k, runs VecVirtual, ke OpmaskVirtual, tab Register) (code [2]VecVirtual, n VecVirtual) {
	row := func(off int) Mem { return Mem{Base: tab, Disp: off} }
	d := fpcDword
	Comment("Codes' low and high dwords and lengths; a word not emitted has an empty code.")
	i2, lo, hi := ZMM(), ZMM(), ZMM()
	n = ZMM()
	VPADDD(k, k, i2) // the low dword of a table row's quadword
	VPERMD(row(fpcPackPre), i2, lo)
	{
		ml, sh, ms, mr := ZMM(), ZMM(), ZMM(), ZMM()
		VPERMD(row(fpcPackMaskLow), i2, ml)
		VPTERNLOGD(U8(0xF8), ml, v, lo) // pre | w&maskLow
		VPERMD(row(fpcPackShift), i2, sh)
		VPSRLVD(sh, v, sh)
		VPERMD(row(fpcPackMaskShifted), i2, ms)
		VPTERNLOGD(U8(0xF8), ms, sh, lo) // | w>>shift & maskShifted
		VPERMD(row(fpcPackMaskRun), i2, mr)
		VPTERNLOGD_Z(U8(0xF8), mr, runs, ke, lo) // | run & maskRun
		i3 := ZMM()
		VPADDD_BCST(d(1), i2, i3)
		VPERMD_Z(row(fpcPackPre), i3, ke, hi) // the prefix's bits above 32
		VPERMD_Z(row(fpcPackBits), i2, ke, n)
	}
	for h := range code {
		var ws []uint64
		for j := 0; j < 8; j++ {
			ws = append(ws, uint64(8*h+j)|uint64(16+8*h+j)<<32)
		}
		code[h] = ZMM()
		VMOVDQU64(rodata(fmt.Sprintf("fpc_ilv%d", h), ws...), code[h])
		VPERMI2D(hi, lo, code[h]) // words 8h to 8h+7 as quadwords
	}
	return code, n
}

// fpcStoreSummary stores the summary of a line, as fpcSummary lays it
// out, as the kernel's first result: the zero words z, codeBits (bits
// 32–47) and the raw words (from bit 48). It changes codeBits and raw;
// codeBits holds the summary after it.
func fpcStoreSummary(codeBits, raw, z GPVirtual) {
	SHLQ(U8(32), codeBits)
	SHLQ(U8(48), raw)
	ORQ(raw, codeBits)
	ORQ(z, codeBits)
	Store(codeBits, ReturnIndex(0))
}

// fpcRawIfLonger ends a fused Compress kernel when the codes, total bits
// with the flag, are no shorter than the line at line, loaded into vecs:
// it returns total and writes the raw stream (all of the line is read
// before buf is written). Otherwise the kernel goes on to pack the codes.
func fpcRawIfLonger(line Register, vecs []VecVirtual, total GPVirtual) {
	size := 64 * len(vecs)
	Comment("Codes no shorter than the line: the line is raw, nothing to pack.")
	packIt := label("fpc_fused_pack")
	CMPQ(total, U32(1+8*size))
	JLT(LabelRef(packIt))
	Store(total, ReturnIndex(1))
	rawStreamOf(Load(Param("buf"), GP64()), line, vecs)
	VZEROUPPER()
	RET()
	Label(packIt)
}

// fpcNonzeroBound returns the flag and codes of a line's non-zero words,
// one more than their code bits codeBits (fpcCodeBitsRaw's): a lower
// bound of the stream, so that a line it makes no shorter is raw
// (fpcRawIfLonger) without the zero runs' mask and count (about 35
// instructions), and the kernel returns that bound as its length. About
// half the 64-byte lines of the corpora are raw. fpcStreamBits completes
// the bound with the zero runs. It is taken from codeBits before
// fpcStoreSummary moves them into the summary, so that the test whether
// the line is raw, a branch that the mix of lines mispredicts, waits for
// one add rather than for the summary's shifts and the bits' extraction
// from it (five operations more).
func fpcNonzeroBound(codeBits GPVirtual) GPVirtual {
	bound := GP64()
	LEAQ(Mem{Base: codeBits, Disp: 1}, bound)
	return bound
}

// fpcZeroRuns returns, for words 16h to 16h+15 of a line of words words
// (16 or 32) whose words that emit a code are emit, the distance from each
// word to the next word that emits, less one: a zero-run code's count
// field at its word (the counts of other words are not used). It is the
// number of trailing zeros of emit >> (j+1) for word j, with a bit at
// words−1−j standing for the line's end, found as 31 less the leading
// zeros of its lowest set bit.
func fpcZeroRuns(emit GPVirtual, words, h int) VecVirtual {
	Comment("Zero runs: for each word, the distance to the next word that emits, less one.")
	var shifts, ends []uint64
	for i := 0; i < 16; i += 2 {
		j := uint64(16*h + i)
		shifts = append(shifts, (j+1)|(j+2)<<32)
		end := uint64(words) - 1 - j
		ends = append(ends, 1<<end|(1<<(end-1))<<32)
	}
	e, x, zero, runs := ZMM(), ZMM(), ZMM(), ZMM()
	VPBROADCASTD(emit.As32(), e)
	VPSRLVD(rodata(fmt.Sprintf("fpc_runshift%d_%d", words, h), shifts...), e, e)
	VPORD(rodata(fmt.Sprintf("fpc_runend%d_%d", words, h), ends...), e, e)
	VPXORD(zero, zero, zero)
	VPSUBD(e, zero, x)
	VPANDD(e, x, x) // the lowest set bit
	VPLZCNTD(x, x)
	VPXORD_BCST(rodata("d31", 31), x, runs) // 31 − x, x being at most 31
	return runs
}

// dwordsToQwords returns the 16 dwords of v zero-extended to quadwords,
// the first eight in the first vector.
func dwordsToQwords(v VecVirtual) [2]VecVirtual {
	q := [2]VecVirtual{ZMM(), ZMM()}
	VPMOVZXDQ(v.AsY(), q[0])
	y := YMM()
	VEXTRACTI64X4(U8(1), v, y)
	VPMOVZXDQ(y, q[1])
	return q
}

// fpcEmit returns the mask of the words that emit a code, of a line of
// words words whose zero words are z (no bits above the line's): the
// non-zero words and runCodeStarts(z); and runStarts, those zero words
// alone (the zero-run codes), which it finds first: a zero word starts a
// code when its distance d from the first zero of its run is 0, 8, 16 or
// 24, that is when the zeros before it end one word, 8 or more words, 16
// or more… before it and one word fewer does not.
func fpcEmit(z GPVirtual, words int) (emit, runStarts GPVirtual) {
	shl := func(a GPVirtual, n uint8) GPVirtual {
		r := GP64()
		MOVQ(a, r)
		SHLQ(U8(n), r)
		return r
	}
	// d = 0: z &^ (z << 1)
	runStarts = shl(z, 1)
	ANDNQ(z, runStarts, runStarts)
	z1 := shl(z, 1)
	ANDQ(z, z1)
	z3 := shl(z1, 2)
	ANDQ(z1, z3)
	z7 := shl(z3, 4)
	ANDQ(z3, z7)
	z8 := shl(z7, 1)
	ANDQ(z, z8) // zero, and the 8 words before it
	long := []GPVirtual{z8}
	// A run of 17 zeros needs 17 words, and one of 25 words 25.
	if words == 32 {
		z16 := shl(z8, 8)
		ANDQ(z8, z16)
		z24 := shl(z8, 16)
		ANDQ(z16, z24)
		long = append(long, z16, z24)
	}
	for _, r := range long {
		t := shl(r, 1)
		ANDNQ(r, t, t)
		ORQ(t, runStarts)
	}
	// The non-zero words: KMOVD zero-extends, so z has no bits above
	// the line's.
	emit = GP64()
	MOVQ(z, emit)
	NOTQ(emit)
	if words < 32 {
		ANDQ(U32(1<<words-1), emit)
	} else {
		MOVL(emit.As32(), emit.As32())
	}
	ORQ(runStarts, emit)
	return emit, runStarts
}

// fpcStreamBits sets total to the length of flag 1 and a line's word
// codes: nonzeroBits, the flag and the codes of its non-zero words
// (fpcNonzeroBound's bound), and 6 bits for each zero-run code
// (runStarts, from fpcEmit).
func fpcStreamBits(total, runStarts, nonzeroBits GPVirtual) {
	runs := GP64()
	POPCNTQ(runStarts, runs) // zero-run codes, 6 bits each
	LEAQ(Mem{Base: runs, Index: runs, Scale: 2}, runs)
	LEAQ(Mem{Base: nonzeroBits, Index: runs, Scale: 2}, total) // flag + codes
}

// wordEndLanes lists, for a packing of codes into 64-bit words, the lanes
// set in kend (the lanes of the codes that end a word) in order, as qwords
// of idx, 8 words a vector (vectors of them, 1 or 2), and returns in
// kvalid[w] one bit per word listed in idx[w]: kend's popcount, at most 8
// words of 512 bits a vector.
func wordEndLanes(iota VecVirtual, kend OpmaskVirtual, vectors int) (idx []VecVirtual, kvalid []OpmaskVirtual) {
	d := ZMM()
	VPCOMPRESSD_Z(iota, kend, d)
	idx = append(idx, ZMM())
	VPMOVZXDQ(d.AsY(), idx[0])
	if vectors == 2 {
		hi := YMM()
		VEXTRACTI32X8(U8(1), d, hi)
		idx = append(idx, ZMM())
		VPMOVZXDQ(hi, idx[1])
	}
	k := K()
	t, c := GP64(), GP64()
	KMOVW(kend, t.As32())
	POPCNTL(t.As32(), c.As32())
	MOVL(U32(1<<(8*vectors)-1), t.As32())
	BZHIL(c.As32(), t.As32(), t.As32())
	KMOVW(t.As32(), k)
	kvalid = append(kvalid, k)
	if vectors == 2 {
		k1 := K()
		KSHIFTRW(U8(8), k, k1)
		kvalid = append(kvalid, k1)
	}
	return idx, kvalid
}

// storeStreamBytes stores the first (bits+7)/8 bytes of the stream held in
// vs (64 bytes a vector, at most 64·len(vs) bytes) to out and nothing past
// them: out may be the caller's dst, whose bytes after the stream are not
// the kernel's.
func storeStreamBytes(vs []VecVirtual, bits Register, out Mem) {
	nb, m := GP64(), GP64()
	LEAQ(Mem{Base: bits, Disp: 7}, nb)
	SHRQ(U8(3), nb)
	var zero GPVirtual
	if len(vs) > 1 {
		zero = GP64()
		XORL(zero.As32(), zero.As32())
	}
	for i, v := range vs {
		if i > 0 {
			SUBQ(U8(64), nb)
			CMOVQCS(zero, nb) // none of this vector's bytes
		}
		MOVQ(I32(-1), m)
		BZHIQ(nb, m, m) // an index of 64 or more keeps every bit
		k := K()
		KMOVQ(m, k)
		VMOVDQU8(v, k, out.Offset(64*i))
	}
}

// iota16 returns a vector of the dwords 0 to 15.
func iota16() VecVirtual {
	iota := ZMM()
	VPMOVZXBD(rodata("iota16", 0x0706050403020100, 0x0F0E0D0C0B0A0908), iota)
	return iota
}

var rodatas = map[string]Mem{}

// rodata declares (once per generated file) a read-only constant of the
// given little-endian 64-bit words.
func rodata(name string, words ...uint64) Mem {
	if m, ok := rodatas[name]; ok {
		return m
	}
	m := GLOBL("k_"+name, attr.RODATA|attr.NOPTR)
	for i, w := range words {
		DATA(8*i, U64(w))
	}
	rodatas[name] = m
	return m
}

// bq returns a vector with v in every 64-bit lane, broadcast from memory.
func bq(v uint64) VecVirtual {
	z := ZMM()
	VPBROADCASTQ(rodata(fmt.Sprintf("q%x", v), v), z)
	return z
}

// rawStream writes the raw stream of the n-byte line at line (n a multiple
// of 64) to the n+1 bytes at buf: flag 0, then the line, as
// bitstream.AppendRaw writes it with a 1-bit tag of 0. It loads the line
// and calls rawStreamOf.
func rawStream(buf, line Register, n int) {
	rawStreamOf(buf, line, vectors512(line, n))
}

// rawStreamOf is rawStream of the line at line already loaded into vecs:
// tagShiftedStream with a tag of one bit, 0 (the first byte's top bit
// comes from a zero vector, not from the mask), then the last byte. All of
// the line is read before buf is written, so the two may overlap.
func rawStreamOf(buf, line Register, vecs []VecVirtual) {
	n := 64 * len(vecs)
	last := rawStreamLast(line, n)
	zero := ZMM()
	VPXORQ(zero, zero, zero)
	var topBits [64]byte
	for j := range topBits {
		topBits[j] = 0x80
	}
	tagShiftedStream(buf, vecs, rodata("byteRotation1", byteRotation(1)),
		rodataBytes("topBits", topBits[:]), zero, prevByteUnder(), prevByte())
	rawStreamStoreLast(buf, last, n)
}

// rawStreamLast loads the last byte of the n-byte line at line, whose
// lowest bit is the last byte of its raw stream.
func rawStreamLast(line Register, n int) GPVirtual {
	last := GP32()
	MOVBLZX(Mem{Base: line, Disp: n - 1}, last)
	return last
}

// rawStreamStoreLast writes the last byte of rawStream from the line's
// last byte, last (which it changes).
func rawStreamStoreLast(buf Register, last GPVirtual, n int) {
	SHLL(U8(7), last)
	MOVB(last.As8(), Mem{Base: buf, Disp: n})
}

// packCodes512 writes flag 1 and 16 codes to the 64 bytes at buf, zero
// after them: code[h] holds the codes of words 8h to 8h+7 right-aligned in
// 64-bit lanes, n[h] their lengths (an empty code is 0 of length 0). Every
// code must be shorter than 64 bits and the flag and codes at most 512.
// packCodes512Vector's comment says how it works; cpack's fused kernel
// uses it.
func packCodes512(buf Register, code, n [2]VecVirtual) {
	VMOVDQU64(packCodes512Vector(code, n), Mem{Base: buf})
}

// packCodes512Vector is packCodes512 without the store: it returns the 64
// bytes. It packs without a serial chain: each code c of n bits
// starts at bit O (the flag, then the lengths before it: a prefix sum) and
// lies in the big-endian 64-bit words O/64 and, if it crosses, the next:
// with e = O%64 + n, the first word gets c << (64−e) or c >> (e−64), the
// next c << (128−e) (VPSLLVQ and VPSRLVQ give zero for a shift of 64 or
// more, which selects the right one). The codes' bits are disjoint, so a
// word is the sum of what falls in it: the difference of prefix sums at
// the last code starting in it and in the word before. Codes are at most
// 35 bits, so every word up to the last code's has a code starting in it,
// and VPCOMPRESSD of the lanes that end a word lists those last codes in
// word order.
func packCodes512Vector(code, n [2]VecVirtual) VecVirtual {
	out := packCodeWords(code, n, 1)
	Comment("The flag, big-endian bytes.")
	orFlag(out)
	bswapQwords(out)
	return out
}

// orFlag sets the top bit of the first 64-bit word of v, a stream's flag 1.
func orFlag(v VecVirtual) {
	r := GP64()
	MOVQ(U64(1<<63), r)
	f := ZMM()
	VMOVQ(r, f.AsX())
	VPORQ(f, v, v)
}

// bswapQwords reverses the bytes of each 64-bit lane of v, making the
// big-endian words of a stream its bytes in order.
func bswapQwords(v VecVirtual) {
	VPSHUFB(bswapIndex(), v, v)
}

// bswapIndex returns the VPSHUFB index that reverses the bytes of each
// 64-bit lane, broadcast from one 16-byte constant.
func bswapIndex() VecVirtual {
	bsw := ZMM()
	VBROADCASTI32X4(rodata("bswap64", 0x0001020304050607, 0x08090A0B0C0D0E0F), bsw)
	return bsw
}

// packCodeWords is packCodes512Vector's packing without the flag and the
// byte order: the 16 codes from bit start on (1 after a flag, 0 for codes
// that follow others), as 64-bit words (lane 0 first, its top bit the
// stream's first), zero before start and after the last code.
func packCodeWords(code, n [2]VecVirtual, start int) VecVirtual {
	Comment("Bit offsets: O = start + the lengths before.")
	end := [2]VecVirtual{ZMM(), ZMM()}
	VMOVDQA64(n[0], end[0])
	VMOVDQA64(n[1], end[1])
	qwordPrefix(end) // O + n − start
	var first VecVirtual
	if start != 0 {
		first = bq(uint64(start))
	}
	var o [2]VecVirtual
	for h := range o {
		o[h] = ZMM()
		VPSUBQ(n[h], end[h], o[h])
		if first != nil {
			VPADDQ(first, o[h], o[h]) // O
		}
	}
	return packCodeWordsAt(code, n, o)
}

// qwordPrefix makes x[0], x[1] (16 qword lanes) their inclusive prefix
// sums.
func qwordPrefix(x [2]VecVirtual) {
	zero := ZMM()
	VPXORQ(zero, zero, zero)
	for h := 0; h < 2; h++ {
		for _, sh := range []int{1, 2, 4} {
			t := ZMM()
			VALIGNQ(U8(8-sh), zero, x[h], t) // lane i: x[i−sh], or 0
			VPADDQ(t, x[h], x[h])
		}
	}
	t := ZMM()
	VPERMQ(x[0], bq(7), t) // lane 7 of the first half
	VPADDQ(t, x[1], x[1])
}

// packCodeWordsAt is packCodeWords with the codes' bit offsets O given, in
// the qwords of o.
func packCodeWordsAt(code, n, o [2]VecVirtual) VecVirtual {
	zero := ZMM()
	VPXORQ(zero, zero, zero)
	c63, c64, c128 := bq(63), bq(64), bq(128)
	iota := iota16()
	Comment("e = O%64 + n.")
	var hiw, low, q [2]VecVirtual
	for h := 0; h < 2; h++ {
		e := ZMM()
		q[h] = ZMM()
		VPSRLQ(U8(6), o[h], q[h])
		VPANDQ(c63, o[h], e)
		VPADDQ(n[h], e, e)
		hiw[h], low[h] = ZMM(), ZMM()
		a, b := ZMM(), ZMM()
		VPSUBQ(e, c64, a) // 64 − e
		VPSLLVQ(a, code[h], a)
		VPSUBQ(c64, e, b) // e − 64
		VPSRLVQ(b, code[h], b)
		VPORQ(a, b, hiw[h])
		VPSUBQ(e, c128, a) // 128 − e
		VPSLLVQ(a, code[h], low[h])
	}
	Comment("The lanes that end a word: the next lane starts in a later one.")
	kend := K()
	{
		big, nx0, nx1 := bq(^uint64(0)), ZMM(), ZMM()
		VALIGNQ(U8(1), q[0], q[1], nx0)
		VALIGNQ(U8(1), q[1], big, nx1)
		k0, k1 := K(), K()
		VPCMPUQ(U8(6), q[0], nx0, k0) // next > this
		VPCMPUQ(U8(6), q[1], nx1, k1)
		KUNPCKBW(k0, k1, kend)
	}
	idx, kvalid := wordEndLanes(iota, kend, 1)
	out, sp := codeWords(hiw, low, idx, kvalid, zero)
	VPORQ(sp[0], out[0], out[0])
	return out[0]
}

// Offsets in a row of fpc's decode table (table.decTab), one 16-byte row
// per 3-bit prefix: decStep in the form the kernel reads.
const (
	fpcDecTotal   = 0  // uint8: prefix + data bits
	fpcDecUp      = 2  // uint8
	fpcDecDown    = 3  // uint8
	fpcDecDataCtl = 14 // uint16: BEXTR control (start | len<<8) of the data in the window
	fpcDecMul     = 4  // uint32
	fpcDecMaskTwo = 8  // uint32
	fpcDecMaskRun = 12 // uint8
	fpcDecAdvance = 13 // uint8
)

// fpcUnpackBMI2 emits fpcUnpackBMI2(out *[128]byte, in *[149]byte, tab
// *[128]byte, n int) (pos uint, i int), fpc's table.unpack.
//
// The Go loop loads the stream at each code's bit position, then looks up
// its prefix: load, lookup and the step to the next position make one
// chain. Here the next prefix comes from the window already loaded (at
// least 57 bits, and a code is at most 35), so the next lookup starts as
// soon as this code's length is known, while the window is reloaded at the
// new position for the data beside it.
func fpcUnpackBMI2() {
	TEXT("fpcUnpackBMI2", NOSPLIT, "func(out *[128]byte, in *[149]byte, tab *[128]byte, n int) (pos uint, i int)")
	Pragma("noescape")
	Doc("fpcUnpackBMI2 decodes word codes from in, starting after the flag, into",
		"out until they cover at least n words, as fpc's unpack does, and returns",
		"the bit position after the last code and the number of words covered.",
		"tab is the table's decTab; n ≤ 32.")
	out := Load(Param("out"), GP64())
	in := Load(Param("in"), GP64())
	tab := Load(Param("tab"), GP64())
	n := Load(Param("n"), GP64())

	pos, win, v, i := GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: in}, win)
	BSWAPQ(win)
	SHLQ(U8(1), win) // past the flag
	MOVQ(U32(1), pos)
	MOVQ(win, v)
	SHRQ(U8(57), v)
	ANDL(U32(0x70), v.As32()) // prefix × 16
	XORL(i.As32(), i.As32())
	loop := label("fpc_unpack")
	done := label("fpc_unpack_done")
	CMPQ(i, n)
	JGE(LabelRef(done))
	Label(loop)
	{
		e := GP64()
		LEAQ(Mem{Base: tab, Index: v, Scale: 1}, e)
		total, nv := GP64(), GP64()
		MOVBQZX(Mem{Base: e, Disp: fpcDecTotal}, total)
		Comment("The next prefix, from this window.")
		SHLXQ(total, win, nv)
		SHRQ(U8(57), nv)
		ANDL(U32(0x70), nv.As32())

		Comment("The data field x (BEXTR of the window) and the word.")
		x, sh := GP64(), GP64()
		MOVWQZX(Mem{Base: e, Disp: fpcDecDataCtl}, sh)
		BEXTRQ(sh, win, x)
		w, two, t := GP64(), GP32(), GP32()
		MOVBQZX(Mem{Base: e, Disp: fpcDecUp}, sh)
		SHLXQ(sh, x, w)
		MOVBQZX(Mem{Base: e, Disp: fpcDecDown}, sh)
		SARXQ(sh, w, w)
		IMULL(Mem{Base: e, Disp: fpcDecMul}, w.As32())
		Comment("Two halves: each a sign-extended byte (VPMOVSXBW of its two bytes).")
		hv := XMM()
		VMOVD(x.As32(), hv)
		VPMOVSXBW(hv, hv)
		VMOVD(hv, two)
		MOVL(Mem{Base: e, Disp: fpcDecMaskTwo}, t)
		ANDL(t, two)
		ANDNL(w.As32(), t, w.As32())
		ORL(two, w.As32())
		at := GP64()
		MOVQ(i, at)
		ANDL(U8(31), at.As32())
		MOVL(w.As32(), Mem{Base: out, Index: at, Scale: 4})
		Comment("Words covered: one, or the zero run's count.")
		MOVBLZX(Mem{Base: e, Disp: fpcDecMaskRun}, t)
		ANDL(x.As32(), t)
		ADDQ(t.As64(), i)
		MOVBLZX(Mem{Base: e, Disp: fpcDecAdvance}, t)
		ADDQ(t.As64(), i)

		Comment("Step to the next code and reload the window there.")
		ADDQ(total, pos)
		by, c := x, sh
		MOVQ(pos, by)
		SHRQ(U8(3), by)
		MOVQ(Mem{Base: in, Index: by, Scale: 1}, win)
		BSWAPQ(win)
		MOVL(pos.As32(), c.As32())
		ANDL(U8(7), c.As32())
		SHLXQ(c, win, win)
		MOVQ(nv, v)
	}
	CMPQ(i, n)
	JLT(LabelRef(loop))
	Label(done)
	Store(pos, ReturnIndex(0))
	Store(i, ReturnIndex(1))
	RET()
}

// fpcDecTotals packs the code length (prefix and data) of each prefix of the
// report's table, a byte per prefix: prefix p's at bits 8p to 8p+7.
const fpcDecTotals = 6 | 7<<8 | 11<<16 | 19<<24 | 19<<32 | 19<<40 | 11<<48 | 35<<56

// fpcDecompressKernel emits fpcDecompress<size>AVX512(out *[size]byte, enc
// []byte) (ok bool): fpc's Decompress of a well-formed stream of the
// report's table, or false (nothing written) for any stream the fast path
// of Decompress does not accept, which Decompress then hands to its
// other decoders.
//
// A raw stream (flag 0, size+1 bytes, zero padding) is the line shifted left
// by one bit. A stream of word codes is read in place (big-endian loads,
// MOVBE) when enc's capacity covers every load the walk can make, and
// otherwise from a zero-padded copy on the stack (masked loads: nothing
// past enc's capacity is read). The walk over the codes keeps
// the stream in a 64-bit bit buffer with at least 56 bits ahead (refilled
// after each code from a load at a byte pointer that only moves by whole
// bytes, so the load does not wait for the code being decoded) and takes
// each code's length from a register table indexed by its prefix; the next
// prefix comes from the shifted buffer before the refill. It only saves each
// code's window (the code at its top) in its word's lane of a vector
// (fpcWalk); the words are built from the windows eight at a time with
// vector table lookups, and stored only when the stream checks out: codes
// covering exactly the line, the stream ending with the last code, zero
// padding.
func fpcDecompressKernel(size int) {
	name := fmt.Sprintf("fpcDecompress%dAVX512", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out *[%d]byte, enc []byte) bool", size))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s decodes a well-formed %d-byte line's stream under", name, size),
		"fpc's report table, raw or of word codes, into out and returns true;",
		"for any other stream, and for one of word codes whose capacity is short",
		fmt.Sprintf("of the walk's %d-byte reach, it writes nothing and returns false.", fpcWalkReach(size/4)),
		"It reads all of enc before it writes out, so the two may overlap.")
	words := size / 4
	enc := Load(Param("enc").Base(), GP64())
	n := Load(Param("enc").Len(), GP64())
	fail := label("fpc_dec_fail")
	TESTQ(n, n)
	JZ(LabelRef(fail))
	codes := label("fpc_dec_codes")
	TESTB(U8(0x80), Mem{Base: enc})
	JNZ(LabelRef(codes))

	CMPQ(n, U32(size+1))
	JNE(LabelRef(fail))
	fpcRawLine(enc, Load(Param("out"), GP64()), size, fail)
	fpcReturnBool(1)
	VZEROUPPER()
	RET()

	Label(codes)
	CMPQ(n, U32(fpcCodeStreamLimit(size)))
	JA(LabelRef(fail))
	w := newFpcWalk(words, true)
	reach := fpcWalkReach(words)
	Comment(fmt.Sprintf("The walk reads the stream in place, and only when enc's capacity covers its %d-byte", reach),
		"reach (its bytes past len(enc) are read but never decoded: a stream is",
		"accepted only if its codes end inside it); Go copies a stream whose",
		"capacity does not into a buffer that does. The kernel then needs no",
		"frame: one cost a call about 1 ns even when unused (a throwaway",
		"benchmark), and 64-byte coded lines ran 10% faster without it and",
		"without the copy's code (kernels alone, alternated in one process).")
	base, first := GP64(), GP64()
	{
		c := Load(Param("enc").Cap(), GP64())
		CMPQ(c, U32(reach))
		JB(LabelRef(fail))
		MOVBEQQ(Mem{Base: enc}, first)
		MOVQ(enc, base)
	}
	totals, tabs := fpcWalkConstants(words)
	w.start(base, first)
	w.loop(totals, tabs, "fpc_dec_loop")
	w.check(base, Load(Param("enc").Base(), GP64()), Load(Param("enc").Len(), GP64()), fail)
	w.build(fpcDecWordConstants(), Load(Param("out"), GP64()))
	fpcReturnBool(1)
	VZEROUPPER()
	RET()
	Label(fail)
	fpcReturnBool(0)
	VZEROUPPER()
	RET()
}

// fpcRawLine decodes the raw stream (flag 0) at enc, size+1 bytes, into
// the line at out, or jumps to fail, writing nothing, if the last byte's
// low 7 bits, the stream's padding, are not zero.
func fpcRawLine(enc, out Register, size int, fail string) {
	Comment("Raw: size+1 bytes, the last one's low 7 bits zero; each big-endian",
		"word of the line is the stream's at the same byte shifted left by one",
		"bit, with the top bit of the byte after it.")
	TESTB(U8(0x7F), Mem{Base: enc, Disp: size})
	JNZ(LabelRef(fail))
	bsw := bswapIndex()
	var res []VecVirtual
	for v := 0; v < size/64; v++ {
		a, b := ZMM(), ZMM()
		VMOVDQU64(Mem{Base: enc, Disp: 64 * v}, a)
		VMOVDQU64(Mem{Base: enc, Disp: 64*v + 1}, b)
		VPSHUFB(bsw, a, a)
		VPSLLQ(U8(1), a, a)
		VPSRLQ(U8(63), b, b) // the top bit of the byte after the word
		VPORQ(b, a, a)
		VPSHUFB(bsw, a, a)
		res = append(res, a)
	}
	for v, a := range res {
		VMOVDQU64(a, Mem{Base: out, Disp: 64 * v})
	}
}

// fpcDecompressLinesKernel emits fpcDecompressLines<size>AVX512(out []byte,
// enc []byte, start int, ends []int) (lines int): fpcDecompress<size>AVX512
// in a loop over the streams of enc that start at start and end at each of
// ends in turn, decoding them back to back into out. It stops before the
// first stream that it does not decode: one that is not well-formed, whose
// end is before its start or past enc, or of word codes without the
// capacity in enc for the walk's loads past its end (the last lines of
// enc), and returns the number of lines decoded. len(out) must be at least
// len(ends)·size.
//
// A raw stream is decoded in the loop. A stream of word codes followed by
// another is decoded with it: two walks, one step of each in turn while
// both have words to cover, so that each runs in the other's waits (a
// walk's step waits on the one before it). The loop's position, the line
// and its start, lives on the stack: the two walks take every register.
func fpcDecompressLinesKernel(size int) {
	// The windows of two 128-byte walks go to the stack: four masked
	// moves a code instead of one store made this loop about 8% slower on
	// the benchmark buffer. A walk alone is bound by its chain of steps,
	// not by the operations beside it, and keeps its windows in registers
	// at both sizes (128 bytes about 4% faster than on the stack).
	linesInRegs := size == 64
	name := fmt.Sprintf("fpcDecompressLines%dAVX512", size)
	TEXT(name, NOSPLIT, "func(out []byte, enc []byte, start int, ends []int) (lines int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s decodes the FPC streams of %d-byte lines in enc, from start", name, size),
		"to each of ends in turn, back to back into out, as fpcDecompress"+fmt.Sprint(size)+"AVX512 does, and",
		"returns how many it decoded: it stops before the first stream that is not",
		"well-formed, whose end is before its start or past enc, or of word codes",
		"within the walk's reach of the end of enc's capacity. len(out) must be at",
		"least len(ends)*"+fmt.Sprint(size)+".")
	words := size / 4
	reach := fpcWalkReach(words)
	limit := fpcCodeStreamLimit(size)
	shift := uint8(bits.TrailingZeros(uint(size)))
	st, kk := AllocLocal(8), AllocLocal(8) // the stream's start, the line
	{
		s := Load(Param("start"), GP64())
		MOVQ(s, st)
		MOVQ(U32(0), kk)
	}
	totals, tabs := fpcWalkConstants(words)
	wc := fpcDecWordConstants()
	w := [2]*fpcWalk{allocFpcWalk(words, linesInRegs), allocFpcWalk(words, linesInRegs)}
	loop, exit := label("fpc_lines"), label("fpc_lines_exit")
	codes, single, pair := label("fpc_lines_codes"), label("fpc_lines_single"), label("fpc_lines_pair")

	// stream loads the bounds of line k's stream, which ends at ends[k]
	// and starts at s: its bytes p and length n, and jumps to bad unless
	// s ≤ end ≤ len(enc) and n > 0 (unsigned, so that a negative s is
	// past enc).
	stream := func(k, s Register, bad string) (p, n, end GPVirtual) {
		p, n, end = GP64(), GP64(), GP64()
		ends := Load(Param("ends").Base(), GP64())
		MOVQ(Mem{Base: ends, Index: k, Scale: 8}, end)
		CMPQ(end, Load(Param("enc").Len(), GP64()))
		JA(LabelRef(bad))
		MOVQ(end, n)
		SUBQ(s, n)
		JBE(LabelRef(bad)) // end < s, or empty
		MOVQ(s, p)
		ADDQ(Load(Param("enc").Base(), GP64()), p)
		return p, n, end
	}
	// takesCodes jumps to bad unless a stream of word codes at s, of n
	// bytes, is no longer than the kernel takes and has the walk's reach
	// in enc's capacity.
	takesCodes := func(s, n Register, bad string) {
		CMPQ(n, U32(limit))
		JA(LabelRef(bad))
		c := Load(Param("enc").Cap(), GP64())
		SUBQ(s, c)
		CMPQ(c, U32(reach))
		JB(LabelRef(bad))
	}
	// lineOut returns the address of line k in out.
	lineOut := func(k Register) GPVirtual {
		o := GP64()
		MOVQ(k, o)
		SHLQ(U8(shift), o)
		ADDQ(Load(Param("out").Base(), GP64()), o)
		return o
	}
	// next stores the position after line k, whose stream ends at end.
	next := func(k, end Register) {
		MOVQ(end, st)
		LEAQ(Mem{Base: k, Disp: 1}, k)
		MOVQ(k, kk)
	}

	Label(loop)
	k, s := GP64(), GP64()
	MOVQ(kk, k)
	CMPQ(k, Load(Param("ends").Len(), GP64()))
	JAE(LabelRef(exit))
	MOVQ(st, s)
	p0, n0, end0 := stream(k, s, exit)
	TESTB(U8(0x80), Mem{Base: p0})
	JNZ(LabelRef(codes))
	CMPQ(n0, U32(size+1))
	JNE(LabelRef(exit))
	fpcRawLine(p0, lineOut(k), size, exit)
	next(k, end0)
	JMP(LabelRef(loop))

	Label(codes)
	takesCodes(s, n0, exit)
	first0 := GP64()
	MOVBEQQ(Mem{Base: p0}, first0)
	Comment("The next stream, if it is one of word codes the kernel takes too,",
		"goes with this one.")
	{
		k1 := GP64()
		LEAQ(Mem{Base: k, Disp: 1}, k1)
		CMPQ(k1, Load(Param("ends").Len(), GP64()))
		JAE(LabelRef(single))
		p1, n1, _ := stream(k1, end0, single)
		TESTB(U8(0x80), Mem{Base: p1})
		JZ(LabelRef(single))
		takesCodes(end0, n1, single)
		first1 := GP64()
		MOVBEQQ(Mem{Base: p1}, first1)
		w[0].reset()
		w[1].reset()
		w[0].start(p0, first0)
		w[1].start(p1, first1)
		JMP(LabelRef(pair))
	}

	Label(single)
	{
		w[0].reset()
		w[0].start(p0, first0)
		w[0].loop(totals, tabs, label("fpc_lines_walk"))
		k, s := GP64(), GP64()
		MOVQ(kk, k)
		MOVQ(st, s)
		p, n, end := stream(k, s, exit)
		w[0].check(p, p, n, exit)
		w[0].build(wc, lineOut(k))
		next(k, end)
		JMP(LabelRef(loop))
	}

	Label(pair)
	fpcWalkPair(w, totals, tabs)
	{
		k, s := GP64(), GP64()
		MOVQ(kk, k)
		MOVQ(st, s)
		for h := range w {
			p, n, end := stream(k, s, exit)
			w[h].check(p, p, n, exit)
			w[h].build(wc, lineOut(k))
			next(k, end)
			MOVQ(end, s)
		}
		JMP(LabelRef(loop))
	}

	Label(exit)
	lines := GP64()
	MOVQ(kk, lines)
	Store(lines, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// fpcWalkPair emits two walks, one step of each in turn while both have
// words to cover, then the steps of the one left.
func fpcWalkPair(w [2]*fpcWalk, totals, tabs GPVirtual) {
	Comment("Both walks while both have words to cover, then the one left.")
	words := U8(w[0].words)
	both, only0, only1, walked := label("fpc_pair_both"), label("fpc_pair_only0"), label("fpc_pair_only1"), label("fpc_pair_walked")
	Label(both)
	w[0].step(totals, tabs)
	w[1].step(totals, tabs)
	CMPQ(w[0].i, words)
	JAE(LabelRef(only1))
	CMPQ(w[1].i, words)
	JB(LabelRef(both))
	Label(only0)
	w[0].step(totals, tabs)
	CMPQ(w[0].i, words)
	JB(LabelRef(only0))
	JMP(LabelRef(walked))
	Label(only1)
	CMPQ(w[1].i, words)
	JAE(LabelRef(walked))
	w[1].step(totals, tabs)
	JMP(LabelRef(only1))
	Label(walked)
}

// fpcCodeStreamLimit is the length in bytes of the longest stream of word
// codes the decode kernels take for a line of size bytes: fpc's
// maxCodeBytes (141, a flag and 32 raw words' codes), and at most
// size/64+1 vectors (a longer stream of a 64-byte line's codes cannot be
// well formed either: 16 raw words' codes take 71 bytes).
func fpcCodeStreamLimit(size int) int { return min(64*(size/64+1), 141) }

// fpcWalkReach is how far into a stream the decode walk of a line of
// words words loads, in bytes: its last load is made after words−1 codes
// of at most 35 bits.
func fpcWalkReach(words int) int { return (1+(words-1)*35+63)/8 + 8 }

// fpcWalk is the state of one line's decode walk, the loop of
// fpcDecompressKernel: the stream from bit P on in bitbuf (at least 56
// bits), M = 8·base + P + 63 for the stream at base, the words covered i,
// the top six bits of bitbuf t58, and the windows saved so far: in
// vectors, a masked broadcast per code, so that build does not load slots
// that 8-byte stores have just written, a load that cannot be forwarded
// from them and waits for them to reach the cache; or in stack slots, one
// store per code, where the operations a code takes count more than that
// wait (two walks at 128 bytes).
type fpcWalk struct {
	words             int
	M, bitbuf, i, t58 GPVirtual
	acc               []VecVirtual // words/8 vectors of windows, or none
	slots             Mem          // without acc: the windows' slots
}

// newFpcWalk is allocFpcWalk, and zeroes the walk's windows.
func newFpcWalk(words int, inRegs bool) *fpcWalk {
	w := allocFpcWalk(words, inRegs)
	w.reset()
	return w
}

// allocFpcWalk allocates the state of a walk over a line of words words,
// its windows in vectors (inRegs) or on the stack.
func allocFpcWalk(words int, inRegs bool) *fpcWalk {
	w := &fpcWalk{words: words, M: GP64(), bitbuf: GP64(), i: GP64(), t58: GP64()}
	if !inRegs {
		w.slots = AllocLocal(8 * (words + 8))
		return w
	}
	for range words / 8 {
		w.acc = append(w.acc, ZMM())
	}
	return w
}

// reset zeroes the walk's windows for a new line: a zero window is a
// zero word, that of each word of a zero run after its first.
func (w *fpcWalk) reset() {
	for _, a := range w.acc {
		VPXORQ(a, a, a)
	}
	if w.acc != nil {
		return
	}
	z := ZMM()
	VPXORQ(z, z, z)
	for off := 0; off < 8*(w.words+8); off += 64 {
		if off+64 <= 8*(w.words+8) {
			VMOVDQU64(z, w.slots.Offset(off))
		} else {
			VMOVDQU(z.AsY(), w.slots.Offset(off))
		}
	}
}

// fpcWalkConstants loads what every walk step reads: the code lengths by
// prefix (fpcDecTotals) and the address of fpcDecWalkTables.
func fpcWalkConstants(words int) (totals, tabs GPVirtual) {
	totals, tabs = GP64(), GP64()
	MOVQ(U64(fpcDecTotals), totals)
	LEAQ(fpcDecWalkTables(words), tabs)
	return totals, tabs
}

// start sets the walk at the first code of the stream at base, whose first
// eight bytes, big-endian, are first.
func (w *fpcWalk) start(base, first Register) {
	MOVQ(first, w.bitbuf)
	SHLQ(U8(1), w.bitbuf) // past the flag
	MOVQ(base, w.M)
	SHLQ(U8(3), w.M)
	ADDQ(U8(64), w.M) // P = 1
	XORL(w.i.As32(), w.i.As32())
	MOVQ(w.bitbuf, w.t58)
	SHRQ(U8(58), w.t58)
}

// step decodes one code: it saves the window (the code at the top of
// bitbuf) in its word's lane or slot and moves on by its length and words.
//
// ptr = M>>3 is the address of the byte after those the refill has
// loaded, and c = 8·ptr − 8·base − P = 63 − M&7, the low 6 bits of
// ^M | 56. The load at ptr is the big-endian 8 bytes there. It waits only
// for M + ln and a shift, so the load for the next code's refill starts
// two operations after this code's length.
func (w *fpcWalk) step(totals, tabs GPVirtual) {
	ptr, lk, p8, ln, a, s := GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	MOVQ(w.M, ptr)
	SHRQ(U8(3), ptr)
	MOVBEQQ(Mem{Base: ptr}, lk)
	MOVQ(w.M, s)
	NOTQ(s)
	ORQ(U8(56), s) // c, in its low 6 bits
	MOVQ(w.t58, p8)
	ANDL(U8(0x38), p8.As32())
	SHRXQ(p8, totals, ln) // low 6 bits: the code's length
	if w.acc == nil {
		MOVQ(w.bitbuf, w.slots.Idx(w.i, 8))
	} else {
		v := ZMM()
		VPBROADCASTQ(w.bitbuf, v)
		for h, a := range w.acc {
			k := K()
			KMOVB(Mem{Base: tabs, Index: w.i, Scale: uint8(len(w.acc)), Disp: h}, k)
			VMOVDQA64(v, k, a)
		}
	}
	adv := GP64()
	MOVBQZX(Mem{Base: tabs, Index: w.t58, Scale: 1, Disp: fpcDecAdvanceAt(w.words)}, adv)
	ADDQ(adv, w.i)
	SHLXQ(ln, w.bitbuf, a)
	Comment("The next prefix, from the buffer before the refill (≥ 21 bits).")
	MOVQ(a, w.t58)
	SHRQ(U8(58), w.t58)
	Comment("Refill: the loaded bytes start c − ln bits after the new P.")
	SUBQ(ln, s)
	SHRXQ(s, lk, w.bitbuf)
	ORQ(a, w.bitbuf)
	ANDL(U8(63), ln.As32())
	ADDQ(ln, w.M)
}

// loop emits the walk's loop, named name: steps until the codes cover the
// line's words (or more, for a malformed stream).
func (w *fpcWalk) loop(totals, tabs GPVirtual, name string) {
	Label(name)
	w.step(totals, tabs)
	CMPQ(w.i, U8(w.words))
	JB(LabelRef(name))
}

// check jumps to fail unless the walk ended well formed: the codes cover
// exactly the line's words, the stream ends with
// the last code ((P+7)/8 = n, the stream's length) and its padding, the
// last byte's bits after P in the stream's own bytes at enc, is zero. The
// walk read the stream at base (enc or a copy of it).
func (w *fpcWalk) check(base, enc, n Register, fail string) {
	Comment("Well formed: exactly the line's words; the stream ends with the last",
		"code (P+7)/8 = len(enc); zero padding.")
	CMPQ(w.i, U8(w.words))
	JNE(LabelRef(fail))
	pos, end := GP64(), GP64()
	MOVQ(base, pos)
	SHLQ(U8(3), pos)
	NEGQ(pos)
	LEAQ(Mem{Base: w.M, Index: pos, Scale: 1, Disp: -63}, pos) // P
	LEAQ(Mem{Base: pos, Disp: 7}, end)
	SHRQ(U8(3), end)
	CMPQ(end, n)
	JNE(LabelRef(fail))
	// The bits of the last byte after P must be zero: its low −P&7.
	NEGL(pos.As32())
	ANDL(U8(7), pos.As32())
	last := GP32()
	MOVBLZX(Mem{Base: enc, Index: n, Scale: 1, Disp: -1}, last)
	BZHIL(pos.As32(), last, last)
	JNZ(LabelRef(fail))
}

// fpcDecWords holds the constants of fpcWalk.build, per prefix: the
// arithmetic right shift of the data left-aligned (window << 3), the mask
// of the word's bits, the multiplier; and the bytes of the two-halves
// word.
type fpcDecWords struct {
	sh, mk, ml, twoIdx, five VecVirtual
}

// fpcDecWordConstants loads fpcWalk.build's constants.
func fpcDecWordConstants() fpcDecWords {
	c := fpcDecWords{sh: ZMM(), mk: ZMM(), ml: ZMM(), twoIdx: ZMM(), five: bq(5)}
	VMOVDQU64(rodata("fpc_dec_sh", 0, 60, 56, 48, 32, 48, 56, 32), c.sh)
	VMOVDQU64(rodata("fpc_dec_and", 0, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFF0000, 0xFFFF, 0xFF, 0xFFFFFFFF), c.mk)
	VMOVDQU64(rodata("fpc_dec_mul", 1, 1, 1, 1, 1, 1, 0x01010101, 1), c.ml)
	VBROADCASTI32X4(rodata("fpc_dec_two", 0x8080808080018000, 0x8080808080098008), c.twoIdx)
	return c
}

// build builds the line's words from the walk's windows, the code at the
// top of each, and stores them at out.
func (w *fpcWalk) build(c fpcDecWords, out Register) {
	Comment("The words from the windows: the code at the top of each, prefix p.")
	var res []VecVirtual
	for h := 0; h < w.words/8; h++ {
		y, p, d, u := ZMM(), ZMM(), ZMM(), ZMM()
		if w.acc != nil {
			y = w.acc[h]
		} else {
			VMOVDQU64(w.slots.Offset(64*h), y)
		}
		VPSRLQ(U8(61), y, p)
		VPSLLQ(U8(3), y, d)
		VPERMQ(c.sh, p, u)
		VPSRAVQ(u, d, d)
		VPERMQ(c.mk, p, u)
		VPANDQ(u, d, d)
		VPERMQ(c.ml, p, u)
		VPMULLD(u, d, d)
		Comment("Two halves (prefix 101): each half's low byte, sign-extended.")
		two := ZMM()
		VPSHUFB(c.twoIdx, d, two)
		VPSLLW(U8(8), two, two)
		VPSRAW(U8(8), two, two)
		k := K()
		VPCMPEQQ(c.five, p, k)
		VMOVDQA64(two, k, d)
		r := YMM()
		VPMOVQD(d, r)
		res = append(res, r)
	}
	for h, r := range res {
		VMOVDQU64(r, Mem{Base: out, Disp: 32 * h}) // EVEX: r may be Y16 or above
	}
}

// fpcDecAdvanceAt is the offset of the words' advance in the tables of the
// decode walk over a line of words words (fpcDecWalkTables), after the
// masks.
func fpcDecAdvanceAt(words int) int { return words * words / 8 }

// fpcDecWalkTables returns the tables of the decode walk over a line of
// words words: at (words/8)·i, the word 1<<i in words/8 bytes, the masks of
// word i's window in the walk's vectors (byte h for vector h, which holds
// windows 8h to 8h+7); at fpcDecAdvanceAt(words)+t, the words a code moves
// on by when t is its top six bits: a zero run (prefix 000) its count, the
// low three bits plus one, any other code one.
func fpcDecWalkTables(words int) Mem {
	at := fpcDecAdvanceAt(words)
	b := make([]byte, at+64)
	for i := range words {
		m := uint64(1) << i
		for h := range words / 8 {
			b[words/8*i+h] = byte(m >> (8 * h))
		}
	}
	for t := range 64 {
		b[at+t] = 1
		if t < 8 {
			b[at+t] = byte(t + 1)
		}
	}
	return rodataBytes(fmt.Sprintf("fpc_dec_walk%d", words), b)
}

// fpcReturnBool stores v as the kernel's bool result.
func fpcReturnBool(v uint8) {
	r := GP8()
	MOVB(U8(v), r)
	Store(r, ReturnIndex(0))
}
