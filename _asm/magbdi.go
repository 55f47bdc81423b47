package main

//go:generate go run . -kernels magbdi -out ../magbdi/fit_amd64.s -stubs ../magbdi/fit_stub_amd64.go -pkg magbdi

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

func init() {
	generators["magbdi"] = func() {
		for _, size := range []int{32, 64, 128} {
			magFit(size)
		}
		for _, size := range []int{32, 64, 128} {
			magFit512(size)
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
	line := Load(Param("data").Base(), GP64())
	out := Load(Param("out").Base(), GP64())
	n := Load(Param("out").Len(), GP64())
	offs := Load(Param("offs").Base(), GP64())
	shifts := Load(Param("shifts").Base(), GP64())
	levels := Load(Param("offs").Len(), GP64())
	zero := YMM()
	VPXOR(zero, zero, zero)
	done := label("done_mag")
	TESTQ(n, n)
	JZ(LabelRef(done))
	loop := label("loop")
	Label(loop)
	vecs := loadLine(line, size)
	j := GP64()
	XORQ(j, j)
	next, none, advance := label("level"), label("none"), label("advance")
	levelLoop := label("levels")
	Label(levelLoop)
	CMPQ(j, levels)
	JAE(LabelRef(none))
	off := YMM()
	VPBROADCASTD(Mem{Base: offs, Index: j, Scale: 4}, off)
	cnt := XMM()
	VMOVQ(Mem{Base: shifts, Index: j, Scale: 8}, cnt)
	fitTest(vecs, line, zero, 4, off, cnt, next)
	MOVB(j.As8(), Mem{Base: out})
	JMP(LabelRef(advance))
	Label(next)
	INCQ(j)
	JMP(LabelRef(levelLoop))
	Label(none)
	MOVB(U8(0xFF), Mem{Base: out})
	Label(advance)
	ADDQ(U32(size), line)
	INCQ(out)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(done)
	VZEROUPPER()
	RET()
}

// magFit512 emits magFit<size>AVX512, the AVX-512 version of magFit.
func magFit512(size int) {
	TEXT(fmt.Sprintf("magFit%dAVX512", size), NOSPLIT, "func(data []byte, out []uint8, offs []uint32, shifts []uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("magFit%dAVX512 writes the MAG-aware BDI level of each %d-byte line of data to out.", size, size),
		"len(data) must be at least len(out)*"+fmt.Sprint(size)+" and len(shifts) at least len(offs).")
	line := Load(Param("data").Base(), GP64())
	out := Load(Param("out").Base(), GP64())
	n := Load(Param("out").Len(), GP64())
	offs := Load(Param("offs").Base(), GP64())
	shifts := Load(Param("shifts").Base(), GP64())
	levels := Load(Param("offs").Len(), GP64())
	done := label("done_mag512")
	TESTQ(n, n)
	JZ(LabelRef(done))
	loop := label("loop")
	Label(loop)
	vecs := vectors512(line, size)
	j := GP64()
	XORQ(j, j)
	next, none, advance := label("level"), label("none"), label("advance")
	levelLoop := label("levels")
	Label(levelLoop)
	CMPQ(j, levels)
	JAE(LabelRef(none))
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
	MOVB(j.As8(), Mem{Base: out})
	JMP(LabelRef(advance))
	Label(next)
	INCQ(j)
	JMP(LabelRef(levelLoop))
	Label(none)
	MOVB(U8(0xFF), Mem{Base: out})
	Label(advance)
	ADDQ(U32(size), line)
	INCQ(out)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(done)
	VZEROUPPER()
	RET()
}
