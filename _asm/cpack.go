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
