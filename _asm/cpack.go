package main

//go:generate go run . -kernels cpack -out ../cpack/plan_amd64.s -stubs ../cpack/plan_stub_amd64.go -pkg cpack

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func init() {
	generators["cpack"] = cpackPlanAVX512
}

// Offsets in the kernel's per-codec table (cpack's planTable): three
// 8-byte arrays indexed by word kind.
const (
	cpackTabSize    = 0  // code + payload bits of the kind
	cpackTabPush    = 8  // 1 if a word of the kind is pushed
	cpackTabIdxMask = 16 // 0xF8 if the kind carries a dictionary index
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
// that the lowest position. Only this scalar bookkeeping is serial; the
// compares of the next words overlap it.
func cpackPlanAVX512() {
	TEXT("cpackPlanAVX512", NOSPLIT, "func(line []byte, ops []uint8, tab *[24]uint8) int")
	Pragma("noescape")
	Doc("cpackPlanAVX512 codes the len(ops) words of line into ops as cpack's",
		"planGeneric does and returns the bits of their codes. tab holds the",
		"size, push flag and index mask of each word kind. len(ops) ≤ 32 and",
		"len(line) ≥ 4*len(ops).")
	line := Load(Param("line").Base(), GP64())
	ops := Load(Param("ops").Base(), GP64())
	tab := Load(Param("tab"), GP64())
	end := AllocLocal(8)
	lo, hi := ZMM(), ZMM()
	{
		n := Load(Param("ops").Len(), GP64())
		MOVQ(n, end)
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
	}
	mask3, mask2 := ZMM(), ZMM()
	{
		t := GP32()
		MOVL(U32(0xFFFFFF00), t)
		VPBROADCASTD(t, mask3)
		MOVL(U32(0xFFFF0000), t)
		VPBROADCASTD(t, mask2)
	}

	i, inDict, pushed, newer, p, codeBits := GP64(), GP32(), GP32(), GP32(), GP32(), GP64()
	XORQ(i, i)
	XORL(inDict, inDict)
	XORL(pushed, pushed)
	XORL(newer, newer)
	XORL(p, p)
	XORQ(codeBits, codeBits)
	done := label("cpack_done")
	CMPQ(i, end)
	JGE(LabelRef(done))
	loop := label("cpack_word")
	Label(loop)
	word := Mem{Base: line, Index: i, Scale: 4}

	Comment("Positions whose word matches word i in 4, 3 and 2 upper bytes.")
	b, xlo, xhi := ZMM(), ZMM(), ZMM()
	VPBROADCASTD(word, b)
	VPXORD(b, lo, xlo)
	VPXORD(b, hi, xhi)
	masks := make([]GPVirtual, 3)
	for lvl, sel := range []VecVirtual{nil, mask3, mask2} {
		klo, khi, k := K(), K(), K()
		if sel == nil {
			VPTESTNMD(xlo, xlo, klo)
			VPTESTNMD(xhi, xhi, khi)
		} else {
			VPTESTNMD(sel, xlo, klo)
			VPTESTNMD(sel, xhi, khi)
		}
		KUNPCKWD(klo, khi, k)
		masks[lvl] = GP32()
		KMOVD(k, masks[lvl])
	}

	Comment("Kind: the first of zzzz, mmmm, zzzx, mmmx, mmxx, xxxx that applies;",
		"m: the matching dictionary positions of a match kind.")
	kind, m, t := GP32(), GP32(), GP32()
	MOVL(U32(cpackNew), kind)
	ANDL(inDict, masks[2])
	MOVL(masks[2], m)
	MOVL(U32(cpackHalf), t)
	TESTL(masks[2], masks[2])
	CMOVLNE(t, kind)
	ANDL(inDict, masks[1])
	MOVL(U32(cpackThree), t)
	TESTL(masks[1], masks[1])
	CMOVLNE(t, kind)
	CMOVLNE(masks[1], m)
	MOVL(U32(cpackNarrow), t)
	CMPL(word, U32(0x100))
	CMOVLCS(t, kind)
	ANDL(inDict, masks[0])
	MOVL(U32(cpackFull), t)
	TESTL(masks[0], masks[0])
	CMOVLNE(t, kind)
	CMOVLNE(masks[0], m)
	MOVL(U32(cpackZero), t)
	CMPL(word, U8(0))
	CMOVLEQ(t, kind)

	Comment("Lowest slot: the lowest match pushed since the last wrap, else the lowest.")
	MOVL(m, t)
	ANDL(newer, t)
	CMOVLNE(t, m)
	slot := masks[1]
	TZCNTL(m, slot)
	BZHIL(slot, pushed, t)
	POPCNTL(t, t)
	ANDL(U8(15), t)
	SHLL(U8(3), t)
	ANDB(Mem{Base: tab, Index: kind, Scale: 1, Disp: cpackTabIdxMask}, t.As8())
	ORL(kind, t)
	MOVB(t.As8(), Mem{Base: ops, Index: i, Scale: 1})
	MOVBLZX(Mem{Base: tab, Index: kind, Scale: 1, Disp: cpackTabSize}, t)
	ADDQ(t.As64(), codeBits)

	Comment("Push: evict the oldest entry of a full dictionary, add position i.")
	e, bit := masks[2], masks[0]
	MOVBLZX(Mem{Base: tab, Index: kind, Scale: 1, Disp: cpackTabPush}, e)
	NEGL(e)
	XORL(bit, bit)
	BTSL(i.As32(), bit)
	ANDL(e, bit)
	BLSRL(inDict, m)
	MOVL(p, t)
	ANDL(e, t)
	CMPL(t, U8(16))
	CMOVLCC(m, inDict)
	ORL(bit, inDict)
	ORL(bit, pushed)
	ORL(bit, newer)
	SUBL(e, p)
	MOVL(U32(0), t)
	TESTL(U32(15), p)
	CMOVLEQ(t, newer)

	INCQ(i)
	CMPQ(i, end)
	JLT(LabelRef(loop))
	Label(done)
	Store(codeBits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
