package main

//go:generate go run . -kernels cpack -out ../cpack/plan_amd64.s -stubs ../cpack/plan_stub_amd64.go -pkg cpack

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func init() {
	// Every kernel of the package, in the order they are emitted: one
	// explicit list, so that the order never depends on init order.
	generators["cpack"] = func() {
		cpackPlanAVX512()
		cpackPlan64AVX512()
		cpackEmit64AVX512()
		cpackEmit128AVX512()
		cpackCompress64AVX512()
		cpackPlan128AVX512()
		cpackPlanWrap128AVX512()
		cpackDecodeBMI2()
		cpackCompress128AVX512()
	}
}

// Offsets in the kernel's per-codec table (cpack's planTab).
const (
	cpackTabSize  = 0  // 16 bytes: code + payload bits of each word kind
	cpackTabBlock = 16 // uint32: all ones if a match blocks a push, else 0
)

// Word kinds, numbered as in cpack.
const (
	cpackZero   = 0
	cpackFull   = 1
	cpackNarrow = 2
	cpackThree  = 3
	cpackHalf   = 4
	cpackNew    = 5
)

// cpackPlanAVX512 emits cpackPlanAVX512(line []byte, ops []uint8, tab
// *[24]uint8) int, cpack's planGeneric for one line of len(ops) words.
//
// Instead of searching the dictionary word by word, it keeps the
// dictionary as a set of word positions (inDict, bit j: word j of the line
// is in the dictionary). For word i one broadcast and three VPTESTNMD per
// half line give the positions whose word equals it in all four, the upper
// three and the upper two bytes; and-ed with inDict they are the matches.
// The words of a set are pushed in position order, so the oldest entry is
// the lowest bit of inDict, and a position's slot is the number of pushed
// positions below it mod 16. The lowest slot among matches is the lowest
// position pushed since the last wrap to slot 0 (the set newer), or failing
// that the lowest position.
//
// Only the dictionary bookkeeping is serial, and it is kept short: no
// dictionary entry is below 0x100 (such a word is coded zero or narrow), so
// a word is pushed exactly when it is at least 0x100 and, under the
// default rule, has no match even in its upper two bytes. The next state
// for a push is computed beforehand and selected with CMOV. The kinds and
// slots, and the code sizes summed after the loop, are off that chain.
func cpackPlanAVX512() {
	TEXT("cpackPlanAVX512", NOSPLIT, "func(line []byte, ops []uint8, tab *[24]uint8) int")
	Pragma("noescape")
	Doc("cpackPlanAVX512 codes the len(ops) words of line into ops as cpack's",
		"planGeneric does and returns the bits of their codes. tab holds the",
		"size of each word kind and whether matches block pushes. len(ops) ≤ 32,",
		"len(line) ≥ 4*len(ops) and cap(ops) ≥ 32.")
	line := Load(Param("line").Base(), GP64())
	ops := Load(Param("ops").Base(), GP64())
	end, end1, big, block, zero := AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8)
	lo, hi := ZMM(), ZMM()
	{
		n := Load(Param("ops").Len(), GP64())
		MOVQ(n, end)
		sixteen := GP64()
		MOVQ(U32(16), sixteen)
		CMPQ(n, sixteen)
		CMOVQGT(sixteen, n)
		MOVQ(n, end1)
		Load(Param("ops").Len(), n)
		// Words 0-15 and 16-31 of the line, lanes past n zero: the masked
		// loads do not touch memory past the line.
		all := GP64()
		MOVQ(U32(1), all)
		SHLXQ(n, all, all)
		DECQ(all)
		klo, khi := K(), K()
		KMOVD(all.As32(), klo)
		KSHIFTRD(U8(16), klo, khi)
		VMOVDQU32_Z(Mem{Base: line}, klo, lo)
		VMOVDQU32_Z(Mem{Base: line, Disp: 64}, khi, hi)

		// big: the positions of words ≥ 0x100, the only ones pushed.
		t := GP32()
		c := ZMM()
		MOVL(U32(0x100), t)
		VPBROADCASTD(t, c)
		VPCMPUD(U8(5), c, lo, klo) // not less than
		VPCMPUD(U8(5), c, hi, khi)
		k := K()
		KUNPCKWD(klo, khi, k)
		KMOVD(k, t)
		MOVL(t, big)
		tab := Load(Param("tab"), GP64())
		MOVL(Mem{Base: tab, Disp: cpackTabBlock}, t)
		MOVL(t, block)
		MOVL(U32(0), zero)
	}
	mask3, mask2 := ZMM(), ZMM()
	{
		t := GP32()
		MOVL(U32(0xFFFFFF00), t)
		VPBROADCASTD(t, mask3)
		MOVL(U32(0xFFFF0000), t)
		VPBROADCASTD(t, mask2)
	}

	i, inDict, pushed, newer, p := GP64(), GP32(), GP32(), GP32(), GP32()
	XORQ(i, i)
	XORL(inDict, inDict)
	XORL(pushed, pushed)
	XORL(newer, newer)
	XORL(p, p)
	done := label("cpack_done")
	CMPQ(i, end)
	JGE(LabelRef(done))
	body := func(firstHalf bool) {
		word := Mem{Base: line, Index: i, Scale: 4}

		Comment("Positions whose word matches word i in 4, 3 and 2 upper bytes.")
		// Words 0-15 have only words 0-15 before them.
		b, xlo, xhi := ZMM(), ZMM(), ZMM()
		VPBROADCASTD(word, b)
		VPXORD(b, lo, xlo)
		if !firstHalf {
			VPXORD(b, hi, xhi)
		}
		c := make([]GPVirtual, 3)
		for lvl, sel := range []VecVirtual{nil, mask3, mask2} {
			if sel == nil {
				sel = xlo
			}
			klo := K()
			VPTESTNMD(sel, xlo, klo)
			c[lvl] = GP32()
			if firstHalf {
				KMOVW(klo, c[lvl])
			} else {
				khi, k := K(), K()
				if lvl == 0 {
					VPTESTNMD(xhi, xhi, khi)
				} else {
					VPTESTNMD(sel, xhi, khi)
				}
				KUNPCKWD(klo, khi, k)
				KMOVD(k, c[lvl])
			}
			ANDL(inDict, c[lvl])
		}

		Comment("Kind: the first of zzzz, mmmm, zzzx, mmmx, mmxx, xxxx that applies;",
			"m: the matching dictionary positions of a match kind, else 0.")
		kind, m, t := GP32(), GP32(), GP32()
		MOVL(U32(cpackNew), kind)
		MOVL(c[2], m)
		MOVL(U32(cpackHalf), t)
		TESTL(c[2], c[2])
		CMOVLNE(t, kind)
		MOVL(U32(cpackThree), t)
		TESTL(c[1], c[1])
		CMOVLNE(t, kind)
		CMOVLNE(c[1], m)
		MOVL(U32(cpackNarrow), t)
		CMPL(word, U32(0x100))
		CMOVLCS(t, kind)
		CMOVLCS(zero, m)
		MOVL(U32(cpackFull), t)
		TESTL(c[0], c[0])
		CMOVLNE(t, kind)
		CMOVLNE(c[0], m)
		MOVL(U32(cpackZero), t)
		CMPL(word, U8(0))
		CMOVLEQ(t, kind)

		Comment("Slot: of the lowest match pushed since the last wrap, else of the lowest.")
		MOVL(m, t)
		ANDL(newer, t)
		CMOVLNE(t, m)
		pos, none := c[0], c[1]
		TZCNTL(m, pos)
		SBBL(none, none) // all ones if there is no match
		BZHIL(pos, pushed, t)
		POPCNTL(t, t)
		ANDL(U8(15), t)
		ANDNL(t, none, t)
		SHLL(U8(3), t)
		ORL(kind, t)
		MOVB(t.As8(), Mem{Base: ops, Index: i, Scale: 1})

		Comment("Push: the next state if word i is pushed, then select it.")
		ibit, pbit, full, notFull, p1, nw := GP32(), GP32(), GP32(), GP32(), GP32(), GP32()
		XORL(ibit, ibit)
		BTSL(i.As32(), ibit)
		MOVL(big, pbit)
		ANDL(ibit, pbit)
		ANDL(block, c[2])
		CMOVLNE(zero, pbit)
		BLSRL(inDict, full) // evict the oldest entry
		ORL(ibit, full)
		MOVL(inDict, notFull)
		ORL(ibit, notFull)
		CMPL(p, U8(16))
		CMOVLCS(notFull, full)
		LEAL(Mem{Base: p, Disp: 1}, p1)
		MOVL(newer, nw)
		ORL(ibit, nw)
		TESTL(U32(15), p1)
		CMOVLEQ(zero, nw) // slot 15 filled: the next push wraps to slot 0
		TESTL(pbit, pbit)
		CMOVLNE(full, inDict)
		CMOVLNE(p1, p)
		CMOVLNE(nw, newer)
		ORL(pbit, pushed)

	}
	Comment("Words 0 to min(n, 16)-1.")
	loop1 := label("cpack_low")
	Label(loop1)
	body(true)
	INCQ(i)
	CMPQ(i, end1)
	JLT(LabelRef(loop1))
	CMPQ(i, end)
	JGE(LabelRef(done))
	Comment("Words 16 to n-1.")
	loop2 := label("cpack_high")
	Label(loop2)
	body(false)
	INCQ(i)
	CMPQ(i, end)
	JLT(LabelRef(loop2))
	Label(done)

	Comment("Sum the code sizes of the ops.")
	{
		n := Load(Param("ops").Len(), GP64())
		all := GP64()
		MOVQ(U32(1), all)
		SHLXQ(n, all, all)
		DECQ(all)
		k := K()
		KMOVD(all.As32(), k)
		kinds, sizes, seven, zv := YMM(), YMM(), YMM(), YMM()
		VMOVDQU8_Z(Mem{Base: ops}, k, kinds)
		t := GP32()
		MOVL(U32(7), t)
		VPBROADCASTB(t, seven)
		VPANDD(seven, kinds, kinds)
		tab := Load(Param("tab"), GP64())
		VBROADCASTI128(Mem{Base: tab, Disp: cpackTabSize}, sizes)
		VPSHUFB_Z(kinds, sizes, k, kinds)
		VPXORD(zv, zv, zv)
		VPSADBW(zv, kinds, kinds)
		x := XMM()
		VEXTRACTI128(U8(1), kinds, x)
		VPADDQ(x, kinds.AsX(), x)
		y := XMM()
		VPSHUFD(U8(0x4E), x, y)
		VPADDQ(y, x, x)
		bits := GP64()
		VMOVQ(x, bits)
		Store(bits, ReturnIndex(0))
	}
	VZEROUPPER()
	RET()
}

// cpackPlan64AVX512 emits cpackPlan64AVX512(data []byte, ops []uint8, bits
// []uint16, tab *[24]uint8), cpack's planGeneric for len(bits) 64-byte
// lines under the default push rule, one line per 16-lane vector and no
// serial chain at all.
//
// A 64-byte line has 16 words, so at most 16 are pushed and the dictionary
// never wraps. Under the default rule a word is pushed exactly when it is
// at least 0x100 (a "big" word) and no entry matches its upper two bytes;
// by induction that is when no earlier big word has the same upper two
// bytes: if one has, it was pushed or was itself matched by an entry with
// those bytes. So the entries have distinct upper halves, and the only
// entry a big word that is not pushed can match is the first big word with
// its upper half (its representative): the match is full, three or two
// bytes as the representative agrees. A word below 0x100 is zero or narrow
// (no entry is below 0x100, so it never matches in full).
//
// The representative comes from 15 compares of the upper halves with the
// vector shifted by 1 to 15 lanes, the earliest equal lane winning; the
// slot of a pushed word is its rank among the pushed words (VPEXPANDD of
// 0, 1, 2, …), and a match's slot is its representative's (VPERMD).
func cpackPlan64AVX512() {
	TEXT("cpackPlan64AVX512", NOSPLIT, "func(data []byte, ops []uint8, bits []uint16, tab *[24]uint8)")
	Pragma("noescape")
	Doc("cpackPlan64AVX512 codes each 64-byte line of data into 16 ops as cpack's",
		"planGeneric does under the default push rule, and writes the bits of",
		"their codes to bits. tab holds the size of each word kind.",
		"len(data) ≥ 64*len(bits) and len(ops) ≥ 16*len(bits).")
	data := Load(Param("data").Base(), GP64())
	ops := Load(Param("ops").Base(), GP64())
	out := Load(Param("bits").Base(), GP64())
	n := Load(Param("bits").Len(), GP64())
	tab := Load(Param("tab"), GP64())

	plan := newCpackPlanner(tab)
	done := label("plan64_done")
	TESTQ(n, n)
	JZ(LabelRef(done))
	loop := label("plan64_loop")
	Label(loop)
	{
		op, total := plan.line(data)
		MOVW(total.As16(), Mem{Base: out})
		VPMOVDB(op, Mem{Base: ops})
	}
	ADDQ(U8(64), data)
	ADDQ(U8(16), ops)
	ADDQ(U8(2), out)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(done)
	VZEROUPPER()
	RET()
}

// Offsets in cpack's emit table for the emit kernel (Codec.vecEmit), each
// a row of 8 uint64s indexed by word kind.
const (
	cpackEmitField   = 0   // code prefix shifted above the payload
	cpackEmitLowMask = 64  // the word's bits kept in the payload
	cpackEmitLowBits = 128 // how far the index sits above them
	cpackEmitSize    = 192 // code + payload bits
)

// cpackEmit64AVX512 emits cpackEmit64AVX512(buf *[145]byte, line []byte,
// ops []uint8, tab *[32]uint64), cpack's emit for a 64-byte line: the
// fields of the 16 words are computed side by side (table lookups with
// VPERMQ, the index shifted into place with VPSLLVQ), and only the packing
// is serial, unrolled, with BMI2 shifts.
func cpackEmit64AVX512() {
	TEXT("cpackEmit64AVX512", NOSPLIT, "func(buf *[145]byte, line []byte, ops []uint8, tab *[32]uint64)")
	Pragma("noescape")
	Doc("cpackEmit64AVX512 writes flag 1 and the word codes of the 16 ops of the",
		"64-byte line to buf as cpack's emit does. tab holds each kind's field,",
		"low mask, low bits and size. len(line) ≥ 64 and len(ops) ≥ 16.")
	cpackEmitWords(16)
}

// cpackEmit128AVX512 emits cpackEmit128AVX512, cpackEmit64AVX512 for the
// 32 words of a 128-byte line.
func cpackEmit128AVX512() {
	TEXT("cpackEmit128AVX512", NOSPLIT, "func(buf *[145]byte, line []byte, ops []uint8, tab *[32]uint64)")
	Pragma("noescape")
	Doc("cpackEmit128AVX512 writes flag 1 and the word codes of the 32 ops of the",
		"128-byte line to buf as cpack's emit does, if they are shorter than the",
		"line. tab holds each kind's field, low mask, low bits and size.",
		"len(line) ≥ 128 and len(ops) ≥ 32.")
	cpackEmitWords(32)
}

// cpackEmitWords is the body of the emit kernels for lines of words words.
func cpackEmitWords(words int) {
	buf := Load(Param("buf"), GP64())
	line := Load(Param("line").Base(), GP64())
	ops := Load(Param("ops").Base(), GP64())
	tab := Load(Param("tab"), GP64())
	cpackEmitBody(buf, line, Mem{Base: ops}, tab, words)
	VZEROUPPER()
	RET()
}

// cpackEmitBody emits the emit kernels' work for a line of words words at
// line whose ops are the bytes at ops; tab is vecEmit.
func cpackEmitBody(buf, line Register, ops Mem, tab Register, words int) {
	fields, sizes := AllocLocal(8*words), AllocLocal(8*words)
	field, lowMask, lowBits, size := ZMM(), ZMM(), ZMM(), ZMM()
	VMOVDQU64(Mem{Base: tab, Disp: cpackEmitField}, field)
	VMOVDQU64(Mem{Base: tab, Disp: cpackEmitLowMask}, lowMask)
	VMOVDQU64(Mem{Base: tab, Disp: cpackEmitLowBits}, lowBits)
	VMOVDQU64(Mem{Base: tab, Disp: cpackEmitSize}, size)
	seven := ZMM()
	{
		t := GP64()
		MOVQ(U32(7), t)
		VPBROADCASTQ(t, seven)
	}
	for h := 0; h < words/8; h++ {
		o, w, kind, idx, t, f := ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
		VPMOVZXBQ(ops.Offset(8*h), o)
		VPMOVZXDQ(Mem{Base: line, Disp: 32 * h}, w)
		VPANDQ(seven, o, kind)
		VPSRLQ(U8(3), o, idx)
		VPERMQ(lowBits, kind, t)
		VPSLLVQ(t, idx, idx)
		VPERMQ(lowMask, kind, t)
		VPANDQ(t, w, w)
		VPERMQ(field, kind, f)
		VPTERNLOGQ(U8(0xFE), idx, w, f) // f | w | idx
		VMOVDQU64(f, fields.Offset(64*h))
		VPERMQ(size, kind, t)
		VMOVDQU64(t, sizes.Offset(64*h))
	}
	Comment("Pack: pending bits right-aligned in acc, nacc of them; after each",
		"code the whole bytes are stored big-endian, 8 at a time.")
	acc, nacc, p, n, s, sh := GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	MOVQ(U32(1), acc)
	MOVQ(U32(1), nacc)
	XORQ(p, p)
	for i := 0; i < words; i++ {
		MOVQ(sizes.Offset(8*i), n)
		SHLXQ(n, acc, acc)
		ORQ(fields.Offset(8*i), acc)
		ADDQ(n, nacc)
		MOVQ(U32(64), sh)
		SUBQ(nacc, sh)
		SHLXQ(sh, acc, s)
		BSWAPQ(s)
		MOVQ(s, Mem{Base: buf, Index: p, Scale: 1})
		MOVQ(nacc, sh)
		SHRQ(U8(3), sh)
		ADDQ(sh, p)
		if words > 16 {
			// emitGeneric's stores wrap at byte 128; a stream shorter
			// than the line never reaches it.
			ANDQ(U8(127), p)
		}
		ANDQ(U8(7), nacc)
	}
}

// cpackPlanner holds the constants of the 64-byte plan.
type cpackPlanner struct {
	iota, ones, big, mask3, fill, sentinel, sizes, zero VecVirtual
	kindConst                                           []VecVirtual
}

// newCpackPlanner loads the plan's constants; tab is cpack's planTab.
func newCpackPlanner(tab Register) *cpackPlanner {
	bcast := func(v uint32) VecVirtual {
		r, z := GP32(), ZMM()
		MOVL(U32(v), r)
		VPBROADCASTD(r, z)
		return z
	}
	p := &cpackPlanner{iota: iota16()}
	p.ones, p.big, p.mask3 = bcast(1), bcast(0x100), bcast(0xFFFFFF00)
	p.fill = bcast(0xFFFFFFFF) // shifted in: equal to no key
	p.sentinel = bcast(0x10000)
	VPADDD(p.iota, p.sentinel, p.sentinel) // the key of a word below 0x100: unique
	p.kindConst = make([]VecVirtual, cpackNew+1)
	for k := cpackFull; k <= cpackNew; k++ {
		p.kindConst[k] = bcast(uint32(k))
	}
	p.sizes = ZMM()
	VPMOVZXBD(Mem{Base: tab, Disp: cpackTabSize}, p.sizes)
	p.zero = ZMM()
	VPXORD(p.zero, p.zero, p.zero)
	return p
}

// line plans the 64-byte line at data and returns its 16 ops as dwords and
// the bits of their codes.
func (p *cpackPlanner) line(data Register) (VecVirtual, GPVirtual) {
	iota, ones, big, mask3, fill, sentinel, sizes, zero, kindConst := p.iota, p.ones, p.big, p.mask3, p.fill, p.sentinel, p.sizes, p.zero, p.kindConst
	w := ZMM()
	VMOVDQU32(Mem{Base: data}, w)
	kbig, ksmall := K(), K()
	VPCMPUD(U8(5), big, w, kbig) // not less than 0x100
	KNOTW(kbig, ksmall)
	key := ZMM()
	VPSRLD(U8(16), w, key)
	VMOVDQA32(sentinel, ksmall, key)

	Comment("rep: the first lane with lane i's key.")
	rep, d := ZMM(), ZMM()
	VMOVDQA32(iota, rep)
	VMOVDQA32(iota, d)
	for s := 1; s < 16; s++ {
		sh, k := ZMM(), K()
		VALIGND(U8(uint8(16-s)), fill, key, sh) // lane i: key[i-s]
		VPCMPEQD(sh, key, k)
		VPSUBD(ones, d, d) // lane i: i-s
		VMOVDQA32(d, k, rep)
	}
	kpush, kmatch, kfull, kthree, kzero := K(), K(), K(), K(), K()
	VPCMPEQD(iota, rep, kpush)
	KANDW(kbig, kpush, kpush)
	KANDNW(kbig, kpush, kmatch) // big and not pushed

	Comment("Kind: the first of zzzz, mmmm, zzzx, mmmx, mmxx, xxxx that applies.")
	x := ZMM()
	VPERMD(w, rep, x) // lane i: word rep[i]
	VPXORD(w, x, x)
	VPTESTNMD(x, x, kfull)
	VPTESTNMD(mask3, x, kthree)
	kind := ZMM()
	VMOVDQA32(kindConst[cpackHalf], kind)
	VMOVDQA32(kindConst[cpackThree], kthree, kind)
	VMOVDQA32(kindConst[cpackFull], kfull, kind)
	VMOVDQA32(kindConst[cpackNew], kpush, kind)
	VMOVDQA32(kindConst[cpackNarrow], ksmall, kind)
	VPTESTNMD(w, w, kzero)
	VMOVDQA32(zero, kzero, kind)

	Comment("Code bits: the sum of the sizes of the kinds.")
	sz := ZMM()
	VPERMD(sizes, kind, sz)
	b := XMM()
	VPMOVDB(sz, b)
	VPSADBW(zero.AsX(), b, b)
	hi := XMM()
	VPSHUFD(U8(0x4E), b, hi)
	VPADDQ(hi, b, b)
	total := GP64()
	VMOVQ(b, total)

	Comment("Slots of the matches: the rank of their representative among the pushed.")
	rank, slot := ZMM(), ZMM()
	VPEXPANDD_Z(iota, kpush, rank)
	VPERMD(rank, rep, slot)
	VPSLLD(U8(3), slot, slot)
	VPORD(slot, kind, kmatch, kind)
	return kind, total
}

// cpackCompress64AVX512 emits cpackCompress64AVX512(buf *[145]byte, line
// []byte, plan *[24]uint8, emit *[32]uint64) int, Compress's word coding
// of a 64-byte line under the default push rule in one call: the plan of
// cpackPlan64AVX512, then, if the codes are shorter than the line, the
// fields of cpackEmit64AVX512 packed by packCodes512 with no serial chain.
func cpackCompress64AVX512() {
	TEXT("cpackCompress64AVX512", NOSPLIT, "func(buf *[145]byte, line []byte, plan *[24]uint8, emit *[32]uint64) int")
	Pragma("noescape")
	Doc("cpackCompress64AVX512 plans the 64-byte line as cpack's planGeneric",
		"does under the default push rule and returns the bits of its word",
		"codes; if they are fewer than 512, it writes flag 1 and the codes to",
		"buf[:64] as cpack's emit does, zero after them, else the raw stream",
		"(flag 0, the line) to buf[:65]. plan is planTab, emit vecEmit.",
		"len(line) ≥ 64.")
	line := Load(Param("line").Base(), GP64())
	tab := Load(Param("plan"), GP64())
	op, total := newCpackPlanner(tab).line(line)
	Store(total, ReturnIndex(0))
	pack := label("cpack_fused_pack")
	CMPQ(total, U32(8*64))
	JLT(LabelRef(pack))
	rawStream(Load(Param("buf"), GP64()), line, 64)
	VZEROUPPER()
	RET()
	Label(pack)

	emit := Load(Param("emit"), GP64())
	rows := make([]Mem, 4)
	for r := range rows {
		rows[r] = Mem{Base: emit, Disp: 64 * r}
	}
	seven := ZMM()
	{
		t := GP64()
		MOVQ(U32(7), t)
		VPBROADCASTQ(t, seven)
	}
	var code, n [2]VecVirtual
	for h := 0; h < 2; h++ {
		o, w, kind, idx, t := ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
		if h == 0 {
			VPMOVZXDQ(op.AsY(), o)
		} else {
			y := YMM()
			VEXTRACTI64X4(U8(1), op, y)
			VPMOVZXDQ(y, o)
		}
		VPMOVZXDQ(Mem{Base: line, Disp: 32 * h}, w)
		VPANDQ(seven, o, kind)
		VPSRLQ(U8(3), o, idx)
		VPERMQ(rows[cpackEmitLowBits/64], kind, t)
		VPSLLVQ(t, idx, idx)
		VPERMQ(rows[cpackEmitLowMask/64], kind, t)
		VPANDQ(t, w, w)
		code[h], n[h] = ZMM(), ZMM()
		VPERMQ(rows[cpackEmitField/64], kind, code[h])
		VPTERNLOGQ(U8(0xFE), idx, w, code[h]) // field | low | index
		VPERMQ(rows[cpackEmitSize/64], kind, n[h])
	}
	buf := Load(Param("buf"), GP64())
	packCodes512(buf, code, n)
	VZEROUPPER()
	RET()
}

// cpackWrapped is what cpackPlan128AVX512 writes as a line's bits when the
// line pushes more than 16 words, so that its dictionary wraps and the
// plan does not hold: no line's codes are that long (at most 32 × 34 bits).
const cpackWrapped = 0xFFFF

// cpackPlan128AVX512 emits cpackPlan128AVX512(data []byte, ops []uint8,
// bits []uint16, tab *[24]uint8), cpack's planGeneric for len(bits)
// 128-byte lines under the default push rule, two 16-lane vectors per
// line and no serial chain.
//
// cpackPlan64AVX512's argument (a big word is pushed exactly when no
// earlier big word has its upper two bytes, and otherwise matches the
// first such word) holds as long as no entry has been evicted, that is up
// to the 16th push. A 128-byte line has 32 words: if the plan finds at
// most 16 pushes, no push ever evicted an entry and the plan is exact. If
// it finds more, the 17th push overwrote slot 0 and later words may see a
// different dictionary: the kernel writes cpackWrapped as the line's bits
// and the caller plans that line with the serial kernel.
func cpackPlan128AVX512() {
	TEXT("cpackPlan128AVX512", NOSPLIT, "func(data []byte, ops []uint8, bits []uint16, tab *[24]uint8)")
	Pragma("noescape")
	Doc("cpackPlan128AVX512 codes each 128-byte line of data into 32 ops as",
		"cpack's planGeneric does under the default push rule, and writes the",
		"bits of their codes to bits, or 0xFFFF (and ops that mean nothing) if",
		"the line pushes more than 16 words. tab holds the size of each word",
		"kind. len(data) ≥ 128*len(bits) and len(ops) ≥ 32*len(bits).")
	data := Load(Param("data").Base(), GP64())
	ops := Load(Param("ops").Base(), GP64())
	out := Load(Param("bits").Base(), GP64())
	n := Load(Param("bits").Len(), GP64())
	tab := Load(Param("tab"), GP64())

	plan := newCpackPlanner(tab)
	iota1, sentinel1 := plan.upper()
	wrapped := GP64()
	MOVQ(U32(cpackWrapped), wrapped)
	done := label("plan128_done")
	TESTQ(n, n)
	JZ(LabelRef(done))
	loop := label("plan128_loop")
	Label(loop)
	{
		op0, op1, total := plan.line128(data, iota1, sentinel1, wrapped, nil)
		MOVW(total.As16(), Mem{Base: out})
		VPMOVDB(op0, Mem{Base: ops})
		VPMOVDB(op1, Mem{Base: ops, Disp: 16})
	}
	ADDQ(U32(128), data)
	ADDQ(U8(32), ops)
	ADDQ(U8(2), out)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(done)
	VZEROUPPER()
	RET()
}

// bcastD returns a vector with v in every 32-bit lane.
func bcastD(v uint32) VecVirtual {
	r, z := GP32(), ZMM()
	MOVL(U32(v), r)
	VPBROADCASTD(r, z)
	return z
}

// line128 plans the 128-byte line at data as line does a 64-byte one and
// returns the ops of words 0-15 and 16-31 as dwords and the bits of their
// codes, or wrapped if the line pushes more than 16 words. iota1 holds
// the dwords 16 to 31, sentinel1 the keys of small words 16 to 31. If
// prevsOut is not nil, the words' predecessors go there (32 bytes), for
// wrapped128.
func (p *cpackPlanner) line128(data Register, iota1, sentinel1 VecVirtual, wrapped GPVirtual, prevsOut *Mem) (VecVirtual, VecVirtual, GPVirtual) {
	iota, big, mask3, sentinel, sizes, zero, kindConst := p.iota, p.big, p.mask3, p.sentinel, p.sizes, p.zero, p.kindConst
	w := [2]VecVirtual{ZMM(), ZMM()}
	key := [2]VecVirtual{ZMM(), ZMM()}
	kbig := [2]OpmaskVirtual{K(), K()}
	ksmall := [2]OpmaskVirtual{K(), K()}
	idx := [2]VecVirtual{iota, iota1}
	sent := [2]VecVirtual{sentinel, sentinel1}
	for h := 0; h < 2; h++ {
		VMOVDQU32(Mem{Base: data, Disp: 64 * h}, w[h])
		VPCMPUD(U8(5), big, w[h], kbig[h]) // not less than 0x100
		KNOTW(kbig[h], ksmall[h])
		VPSRLD(U8(16), w[h], key[h])
		VMOVDQA32(sent[h], ksmall[h], key[h])
	}

	prev := p.predecessors(key, idx)
	if prevsOut != nil {
		VPMOVDB(prev[0], prevsOut.Offset(0))
		VPMOVDB(prev[1], prevsOut.Offset(16))
	}
	Comment("rep: the first word of the line with word i's key, the end of its",
		"chain of predecessors (five rounds of pointer doubling).")
	rep := [2]VecVirtual{prev[0], prev[1]}
	for round := 0; round < 5; round++ {
		n0, n1 := ZMM(), ZMM()
		VPERMD(rep[0], rep[0], n0) // words 0-15 point below 16
		VMOVDQA32(rep[0], n1)
		VPERMT2D(rep[1], rep[1], n1)
		rep = [2]VecVirtual{n0, n1}
	}
	kpush, kmatch := [2]OpmaskVirtual{K(), K()}, [2]OpmaskVirtual{K(), K()}
	kind := [2]VecVirtual{ZMM(), ZMM()}
	for h := 0; h < 2; h++ {
		kfull, kthree, kzero := K(), K(), K()
		VPCMPEQD(idx[h], rep[h], kpush[h])
		KANDW(kbig[h], kpush[h], kpush[h])
		KANDNW(kbig[h], kpush[h], kmatch[h]) // big and not pushed

		Comment("Kind: the first of zzzz, mmmm, zzzx, mmmx, mmxx, xxxx that applies.")
		x := ZMM()
		if h == 0 {
			VPERMD(w[0], rep[0], x) // lane i: word rep[i]
		} else {
			VMOVDQA32(w[0], x)
			VPERMT2D(w[1], rep[1], x)
		}
		VPXORD(w[h], x, x)
		VPTESTNMD(x, x, kfull)
		VPTESTNMD(mask3, x, kthree)
		VMOVDQA32(kindConst[cpackHalf], kind[h])
		VMOVDQA32(kindConst[cpackThree], kthree, kind[h])
		VMOVDQA32(kindConst[cpackFull], kfull, kind[h])
		VMOVDQA32(kindConst[cpackNew], kpush[h], kind[h])
		VMOVDQA32(kindConst[cpackNarrow], ksmall[h], kind[h])
		VPTESTNMD(w[h], w[h], kzero)
		VMOVDQA32(zero, kzero, kind[h])
	}

	Comment("Code bits: the sum of the sizes of the kinds.")
	total := GP64()
	{
		sz, sz1 := ZMM(), ZMM()
		VPERMD(sizes, kind[0], sz)
		VPERMD(sizes, kind[1], sz1)
		VPADDD(sz1, sz, sz) // at most 68 a lane
		b := XMM()
		VPMOVDB(sz, b)
		VPSADBW(zero.AsX(), b, b)
		hi := XMM()
		VPSHUFD(U8(0x4E), b, hi)
		VPADDQ(hi, b, b)
		VMOVQ(b, total)
	}

	Comment("Slots of the matches: the rank of their representative among the pushed.")
	rank0, rank1, base := ZMM(), ZMM(), ZMM()
	pushes, p1 := GP32(), GP32()
	KMOVW(kpush[0], pushes)
	POPCNTL(pushes, pushes)
	VPBROADCASTD(pushes, base)
	VPADDD(iota, base, base)
	KMOVW(kpush[1], p1)
	POPCNTL(p1, p1)
	ADDL(p1, pushes)
	CMPL(pushes, U8(16))
	CMOVQHI(wrapped, total)
	VPEXPANDD_Z(iota, kpush[0], rank0)
	VPEXPANDD_Z(base, kpush[1], rank1)
	for h := 0; h < 2; h++ {
		slot := ZMM()
		if h == 0 {
			VPERMD(rank0, rep[0], slot)
		} else {
			VMOVDQA32(rank0, slot)
			VPERMT2D(rank1, rep[1], slot)
		}
		VPSLLD(U8(3), slot, slot)
		VPORD(slot, kind[h], kmatch[h], kind[h])
	}
	return kind[0], kind[1], total
}

// cpackPlanWrap128AVX512 emits cpackPlanWrap128AVX512(line []byte, ops
// []uint8, tab *[24]uint8) int, cpack's planGeneric for one 128-byte line
// under the default push rule, for the lines whose dictionary wraps
// (cpackPlan128AVX512 gives up on them).
//
// Under the default rule no two entries share their upper two bytes (a
// word is pushed only if no entry has them), so a big word (≥ 0x100) can
// only match the entry with its upper half, if there is one: the entry
// that the last earlier big word with that half (its predecessor) was
// pushed as or matched. A big word without a predecessor is pushed. One
// with a predecessor matches that entry if at most 15 words were pushed
// between the entry and it (the 16th push after it overwrites its slot),
// and is pushed otherwise. So the serial part is a loop over the big words
// with a predecessor only, each a lookup of the predecessor's entry and a
// POPCNT of the pushes between; the predecessors (compares of the keys
// shifted by 1 to 31 words, the nearest winning) and the kinds, slots
// (push ranks, VPEXPANDD) and sizes are computed side by side.
func cpackPlanWrap128AVX512() {
	TEXT("cpackPlanWrap128AVX512", NOSPLIT, "func(line []byte, ops []uint8, tab *[24]uint8) int")
	Pragma("noescape")
	Doc("cpackPlanWrap128AVX512 codes the 32 words of the 128-byte line into ops",
		"as cpack's planGeneric does under the default push rule and returns",
		"the bits of their codes. tab holds the size of each word kind.",
		"len(line) ≥ 128 and len(ops) ≥ 32.")
	data := Load(Param("line").Base(), GP64())
	tab := Load(Param("tab"), GP64())
	p := newCpackPlanner(tab)
	iota1, sentinel1 := p.upper()
	ops := Load(Param("ops").Base(), GP64())
	total := p.wrapped128(data, iota1, sentinel1, nil, Mem{Base: ops})
	Store(total, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// upper returns the vectors of dwords 16 to 31 and of the keys of small
// words 16 to 31.
func (p *cpackPlanner) upper() (iota1, sentinel1 VecVirtual) {
	iota1, sentinel1 = ZMM(), ZMM()
	sixteen := bcastD(16)
	VPADDD(p.iota, sixteen, iota1)
	VPADDD(p.sentinel, sixteen, sentinel1)
	return iota1, sentinel1
}

// wrapped128 emits the body of cpackPlanWrap128AVX512 for the line at
// data: it writes the 32 ops to opsOut and returns the bits of their codes.
// The words' predecessors are computed, or read from prevsIn if it is not
// nil (as line128 wrote them).
func (p *cpackPlanner) wrapped128(data Register, iota1, sentinel1 VecVirtual, prevsIn *Mem, opsOut Mem) GPVirtual {
	iota, big, mask3, sentinel, sizes, zero, kindConst := p.iota, p.big, p.mask3, p.sentinel, p.sizes, p.zero, p.kindConst
	// prevs: each word's predecessor; ents: each word's entry, at first
	// the word itself.
	prevs, ents := AllocLocal(32), AllocLocal(32)
	w := [2]VecVirtual{ZMM(), ZMM()}
	key := [2]VecVirtual{ZMM(), ZMM()}
	idx := [2]VecVirtual{iota, iota1}
	sent := [2]VecVirtual{sentinel, sentinel1}
	bigs, preds := GP32(), GP32() // masks of the big words, of those with a predecessor
	for h := 0; h < 2; h++ {
		kbig, ksmall := K(), K()
		VMOVDQU32(Mem{Base: data, Disp: 64 * h}, w[h])
		VPCMPUD(U8(5), big, w[h], kbig) // not less than 0x100
		KNOTW(kbig, ksmall)
		VPSRLD(U8(16), w[h], key[h])
		VMOVDQA32(sent[h], ksmall, key[h])
		VPMOVDB(idx[h], ents.Offset(16*h))
		if h == 0 {
			KMOVW(kbig, bigs)
		} else {
			t := GP32()
			KMOVW(kbig, t)
			SHLL(U8(16), t)
			ORL(t, bigs)
		}
	}
	var prev [2]VecVirtual
	if prevsIn == nil {
		prev = p.predecessors(key, idx)
		VPMOVDB(prev[0], prevs.Offset(0))
		VPMOVDB(prev[1], prevs.Offset(16))
	} else {
		prevs = *prevsIn
		prev = [2]VecVirtual{ZMM(), ZMM()}
		VPMOVZXBD(prevs.Offset(0), prev[0])
		VPMOVZXBD(prevs.Offset(16), prev[1])
	}
	for h := 0; h < 2; h++ {
		kpred := K()
		VPCMPD(U8(4), idx[h], prev[h], kpred) // not equal
		if h == 0 {
			KMOVW(kpred, preds)
		} else {
			t := GP32()
			KMOVW(kpred, t)
			SHLL(U8(16), t)
			ORL(t, preds)
		}
	}
	todo, pushed := preds, GP32()
	ANDL(bigs, todo)          // big words with a predecessor
	ANDNL(bigs, todo, pushed) // big words without: pushed

	Comment("The serial part: a word with a predecessor matches its entry if at",
		"most 15 pushes came between, else it is pushed.")
	done := label("wrap_done")
	TESTL(todo, todo)
	JZ(LabelRef(done))
	loop := label("wrap_loop")
	Label(loop)
	{
		i, e, t, n, alt := GP32(), GP32(), GP32(), GP32(), GP32()
		TZCNTL(todo, i)
		MOVBLZX(prevs.Idx(i.As64(), 1), e)
		MOVBLZX(ents.Idx(e.As64(), 1), e)
		BZHIL(i, pushed, t) // pushes before word i
		LEAL(Mem{Base: e, Disp: 1}, n)
		SHRXL(n, t, t) // and after its entry
		POPCNTL(t, t)
		MOVL(pushed, alt)
		BTSL(i, alt)
		CMPL(t, U8(15))
		CMOVLHI(alt, pushed)
		CMOVLHI(i, e)
		MOVB(e.As8(), ents.Idx(i.As64(), 1))
		BLSRL(todo, todo)
		JNZ(LabelRef(loop))
	}
	Label(done)

	Comment("Kinds, slots (the push rank of the entry) and sizes from each word's entry.")
	kpush := [2]OpmaskVirtual{K(), K()}
	rank := [2]VecVirtual{ZMM(), ZMM()}
	{
		k := K()
		KMOVD(pushed, k)
		KMOVW(k, kpush[0])
		KSHIFTRD(U8(16), k, kpush[1])
		c, base := GP32(), ZMM()
		MOVL(pushed, c)
		ANDL(U32(0xFFFF), c)
		POPCNTL(c, c)
		VPBROADCASTD(c, base)
		VPADDD(iota, base, base)
		VPEXPANDD_Z(iota, kpush[0], rank[0])
		VPEXPANDD_Z(base, kpush[1], rank[1])
	}
	kind := [2]VecVirtual{ZMM(), ZMM()}
	fifteen := bcastD(15)
	for h := 0; h < 2; h++ {
		ent := ZMM()
		VPMOVZXBD(ents.Offset(16*h), ent)
		kmatch, kfull, kthree, kzero := K(), K(), K(), K()
		kbig, ksmall := K(), K()
		{
			t := GP32()
			MOVL(bigs, t)
			if h == 1 {
				SHRL(U8(16), t)
			}
			KMOVW(t, kbig)
		}
		KNOTW(kbig, ksmall)
		KANDNW(kbig, kpush[h], kmatch) // big and not pushed
		x := ZMM()
		VMOVDQA32(w[0], x)
		VPERMT2D(w[1], ent, x) // lane i: word ent[i]
		VPXORD(w[h], x, x)
		VPTESTNMD(x, x, kfull)
		VPTESTNMD(mask3, x, kthree)
		VMOVDQA32(kindConst[cpackHalf], kind[h])
		VMOVDQA32(kindConst[cpackThree], kthree, kind[h])
		VMOVDQA32(kindConst[cpackFull], kfull, kind[h])
		VMOVDQA32(kindConst[cpackNew], kpush[h], kind[h])
		VMOVDQA32(kindConst[cpackNarrow], ksmall, kind[h])
		VPTESTNMD(w[h], w[h], kzero)
		VMOVDQA32(zero, kzero, kind[h])
		slot := ZMM()
		VMOVDQA32(rank[0], slot)
		VPERMT2D(rank[1], ent, slot) // lane i: push rank of ent[i]
		VPANDD(fifteen, slot, slot)
		VPSLLD(U8(3), slot, slot)
		op := ZMM()
		VMOVDQA32(kind[h], op)
		VPORD(slot, kind[h], kmatch, op)
		VPMOVDB(op, opsOut.Offset(16*h))
	}
	Comment("Code bits: the sum of the sizes of the kinds.")
	total := GP64()
	{
		sz, sz1 := ZMM(), ZMM()
		VPERMD(sizes, kind[0], sz)
		VPERMD(sizes, kind[1], sz1)
		VPADDD(sz1, sz, sz) // at most 68 a lane
		b := XMM()
		VPMOVDB(sz, b)
		VPSADBW(zero.AsX(), b, b)
		hi := XMM()
		VPSHUFD(U8(0x4E), b, hi)
		VPADDQ(hi, b, b)
		VMOVQ(b, total)
	}
	return total
}

// Offsets in a row of cpack's decode table (Codec.decTab), one 32-byte row
// per value of a code's first four bits. A BEXTR control is start | len<<8
// for the window (the stream left-aligned from the code's first bit).
const (
	cpackDecTotal   = 0  // uint8: code + payload bits
	cpackDecPayCtl  = 4  // uint32: BEXTR control of the payload
	cpackDecIdxCtl  = 8  // uint32: BEXTR control of the index, len 0 if none
	cpackDecMatch   = 12 // uint32: 1 if the code has an index
	cpackDecHiMask  = 16 // uint32: the entry's bits kept
	cpackDecLowMask = 20 // uint32: the payload's bits kept
	cpackDecScratch = 24 // uint16: 0 if the word is pushed, else 16
	cpackDecPush    = 26 // uint16: 1 if the word is pushed
	cpackDecBad     = 28 // uint32: 1<<31 if the bits are no word code here
)

// cpackDecodeBMI2 emits cpackDecode{8,16,32}BMI2(line *[128]byte, buf
// *[145]byte, tab *[512]byte) int, the loop of cpack's decodeWordsGeneric
// for lines of 8, 16 and 32 words, unrolled.
//
// The Go loop loads the stream at each word's bit position, then looks up
// its code: the load, the lookup and the step to the next position make
// one chain. Here the next code's four bits are taken from the window
// already loaded (it holds at least 57 bits, and a word's code and payload
// are at most 34), so the lookup of word i+1 starts as soon as word i's
// length is known, while the window is reloaded at the new position for
// the payload beside it. BEXTR takes the payload and the index out of the
// window in one instruction each, and the checks (an index of an empty
// slot, a code that is none) are gathered in the sign bit of one register.
func cpackDecodeBMI2() {
	for _, words := range []int{8, 16, 32} {
		name := fmt.Sprintf("cpackDecode%dBMI2", words)
		TEXT(name, NOSPLIT, "func(line *[128]byte, buf *[145]byte, tab *[512]byte) int")
		Pragma("noescape")
		Doc(fmt.Sprintf("%s decodes the %d word codes that follow flag 1 in buf", name, words),
			"(a zero-padded stream) into line as cpack's decodeWordsGeneric does, and",
			"returns the bit offset after them, or 0 if a code is undefined there or",
			"a match names an empty slot. tab is decTab.")
		cpackDecodeWords(words)
	}
}

func cpackDecodeWords(words int) {
	line := Load(Param("line"), GP64())
	buf := Load(Param("buf"), GP64())
	tab := Load(Param("tab"), GP64())
	dict := AllocLocal(4 * 32)
	at := func(idx Register) Mem { return Mem{Base: dict.Base, Disp: dict.Disp, Index: idx, Scale: 4} }

	pos, win, v, pushes, bad := GP64(), GP64(), GP64(), GP32(), GP32()
	MOVQ(Mem{Base: buf}, win)
	BSWAPQ(win)
	SHLQ(U8(1), win) // past the flag
	MOVQ(U32(1), pos)
	MOVQ(win, v)
	SHRQ(U8(56), v)
	ANDL(U32(0xF0), v.As32()) // row × 16
	XORL(pushes, pushes)
	XORL(bad, bad)
	for i := 0; i < words; i++ {
		Comment(fmt.Sprintf("Word %d.", i))
		e := GP64()
		LEAQ(Mem{Base: tab, Index: v, Scale: 2}, e)
		total, nv := GP64(), GP64()
		MOVBQZX(Mem{Base: e, Disp: cpackDecTotal}, total)
		SHLXQ(total, win, nv) // the next code's first four bits, from this window
		SHRQ(U8(56), nv)
		ANDL(U32(0xF0), nv.As32())

		ctl, pay, idx, t := GP64(), GP32(), GP64(), GP32()
		MOVL(Mem{Base: e, Disp: cpackDecPayCtl}, ctl.As32())
		BEXTRQ(ctl, win, pay.As64())
		MOVL(Mem{Base: e, Disp: cpackDecIdxCtl}, ctl.As32())
		BEXTRQ(ctl, win, idx)
		Comment("pushes − (index + 1) is negative for a match of an empty slot.")
		MOVL(Mem{Base: e, Disp: cpackDecMatch}, t)
		ADDL(idx.As32(), t)
		NEGL(t)
		ADDL(pushes, t)
		ORL(t, bad)
		ORL(Mem{Base: e, Disp: cpackDecBad}, bad)
		w := GP32()
		MOVL(at(idx), w)
		ANDL(Mem{Base: e, Disp: cpackDecHiMask}, w)
		ANDL(Mem{Base: e, Disp: cpackDecLowMask}, pay)
		ORL(pay, w)
		MOVL(w, Mem{Base: line, Disp: 4 * i})
		if i < words-1 { // the last word's push is never read
			slot := idx
			MOVL(pushes, slot.As32())
			ANDL(U8(15), slot.As32())
			MOVWLZX(Mem{Base: e, Disp: cpackDecScratch}, t)
			ORL(t, slot.As32())
			MOVL(w, at(slot))
			MOVWLZX(Mem{Base: e, Disp: cpackDecPush}, t)
			ADDL(t, pushes)
		}

		ADDQ(total, pos)
		if i < words-1 {
			// Reload the window at the next code.
			by, c := idx, ctl
			MOVQ(pos, by)
			SHRQ(U8(3), by)
			MOVQ(Mem{Base: buf, Index: by, Scale: 1}, win)
			BSWAPQ(win)
			MOVL(pos.As32(), c.As32())
			ANDL(U8(7), c.As32())
			SHLXQ(c, win, win)
			MOVQ(nv, v)
		}
	}
	zero := GP64()
	XORL(zero.As32(), zero.As32())
	TESTL(bad, bad)
	CMOVQMI(zero, pos)
	Store(pos, ReturnIndex(0))
	RET()
}

// cpackCompress128AVX512 emits cpackCompress128AVX512(buf *[145]byte, line
// []byte, plan *[24]uint8, emit *[32]uint64) int, Compress's word coding of
// a 128-byte line under the default push rule in one call: the plan of
// cpackPlan128AVX512, or of cpackPlanWrap128AVX512 if the dictionary
// wraps, then, if the codes are shorter than the line, the packing of
// cpackEmit128AVX512. The ops stay on the stack between the steps.
func cpackCompress128AVX512() {
	TEXT("cpackCompress128AVX512", NOSPLIT, "func(buf *[145]byte, line []byte, plan *[24]uint8, emit *[32]uint64) int")
	Pragma("noescape")
	Doc("cpackCompress128AVX512 plans the 128-byte line as cpack's planGeneric",
		"does under the default push rule and returns the bits of its word",
		"codes; if they are fewer than 1024, it writes flag 1 and the codes to",
		"buf as cpack's emit does, else the raw stream (flag 0, the line) to",
		"buf[:129]. plan is planTab, emit vecEmit. len(line) ≥ 128.")
	line := Load(Param("line").Base(), GP64())
	tab := Load(Param("plan"), GP64())
	p := newCpackPlanner(tab)
	iota1, sentinel1 := p.upper()
	ops, bits, prevs := AllocLocal(32), AllocLocal(8), AllocLocal(32)
	wrapped := GP64()
	MOVQ(U32(cpackWrapped), wrapped)
	op0, op1, total := p.line128(line, iota1, sentinel1, wrapped, &prevs)
	VPMOVDB(op0, ops.Offset(0))
	VPMOVDB(op1, ops.Offset(16))
	MOVQ(total, bits)
	planned := label("cpack128_planned")
	CMPQ(total, wrapped)
	JNE(LabelRef(planned))
	Comment("The dictionary wraps: plan again with the wrap kernel's body.")
	t := p.wrapped128(line, iota1, sentinel1, &prevs, ops)
	MOVQ(t, bits)
	Label(planned)
	n := GP64()
	MOVQ(bits, n)
	Store(n, ReturnIndex(0))
	raw := label("cpack128_raw")
	buf := Load(Param("buf"), GP64())
	CMPQ(n, U32(8*128))
	JGE(LabelRef(raw))
	emit := Load(Param("emit"), GP64())
	cpackEmitBody(buf, line, ops, emit, 32)
	VZEROUPPER()
	RET()
	Label(raw)
	rawStream(buf, line, 128)
	VZEROUPPER()
	RET()
}

// predecessors returns, for each word of a 128-byte line whose keys are
// key (words 0-15, 16-31; idx their indices), the last earlier word with
// the same key, or the word itself if there is none: compares of the keys
// with themselves shifted by 31 words down to 1, the nearest equal word
// written last.
func (p *cpackPlanner) predecessors(key, idx [2]VecVirtual) [2]VecVirtual {
	var prev [2]VecVirtual
	for h := 0; h < 2; h++ {
		d := ZMM()
		prev[h] = ZMM()
		VMOVDQA32(idx[h], prev[h])
		top := 16*(h+1) - 1 // the largest shift that stays in the line
		VPSUBD(bcastD(uint32(top+1)), idx[h], d)
		for s := top; s >= 1; s-- {
			sh, k := ZMM(), K()
			switch {
			case h == 0:
				VALIGND(U8(uint8(16-s)), p.fill, key[0], sh) // lane i: key[i-s]
			case s < 16:
				VALIGND(U8(uint8(16-s)), key[0], key[1], sh) // lane i: word 16+i-s
			case s == 16:
				sh = key[0]
			default:
				VALIGND(U8(uint8(32-s)), p.fill, key[0], sh) // lane i: word i-(s-16)
			}
			VPCMPEQD(sh, key[h], k)
			VPADDD(p.ones, d, d) // lane i: its word's index − s
			VMOVDQA32(d, k, prev[h])
		}
	}
	return prev
}
