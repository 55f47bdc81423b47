package main

//go:generate go run . -kernels magbdi -out ../magbdi/fit_amd64.s -stubs ../magbdi/fit_stub_amd64.go -pkg magbdi

import (
	"fmt"

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
