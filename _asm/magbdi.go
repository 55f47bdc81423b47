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
		prev := GLOBL("prevByte", attr.RODATA|attr.NOPTR)
		for j := 0; j < 64; j++ {
			DATA(j, U8(uint8(63+j))) // of one vector (mod 64) byte j−1; of a pair byte 63+j
		}
		next := GLOBL("nextByte", attr.RODATA|attr.NOPTR)
		for j := 0; j < 64; j++ {
			DATA(j, U8(uint8(j+1)))
		}
		for _, size := range []int{64, 128} {
			magRaw(size, prev)
			magUnraw(size, next)
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

// magRaw emits magRaw<size>(out []byte, line []byte, tag uint64), which
// writes the raw MAG-aware BDI stream of line to out: the all-ones code of
// tag bits (1 ≤ tag ≤ 7), the line, then zero padding, size+1 bytes. With
// q = the code's byte then the line, stream byte j is
// (q[j] << (8 − tag)) | (q[j+1] >> tag): word shifts, then a bitwise
// select of the bits that stay in each byte. The last byte is read before
// anything is written.
func magRaw(size int, prevIdx Mem) {
	name := fmt.Sprintf("magRaw%d", size)
	TEXT(name, NOSPLIT, "func(out []byte, line []byte, tag uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the raw MAG-aware BDI stream of a %d-byte line, with a tag-bit all-ones code, to out.", name, size),
		fmt.Sprintf("len(line) must be at least %d, len(out) at least %d, and 1 ≤ tag ≤ 7.", size, size+1))
	outp := Load(Param("out").Base(), GP64())
	line := Load(Param("line").Base(), GP64())
	tag := Load(Param("tag"), GP64())
	vecs := vectors512(line, size)
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
	upX, tagX := XMM(), XMM()
	VMOVQ(up, upX)
	VMOVQ(tag, tagX)
	// The code byte: tag ones.
	code, first := ZMM(), K()
	MOVQ(U64(1), r)
	KMOVQ(r, first)
	SHLXQ(tag, r, r)
	DECQ(r)
	VPBROADCASTB(r.As32(), code)
	for half, n := range vecs {
		q := ZMM()
		VMOVDQU64(prevIdx, q) // byte j ← byte j−1, 63 for j = 0
		if half == 0 {
			VPERMB(n, q, q)
			VMOVDQU8(code, first, q) // byte 0: the code
		} else {
			VPERMI2B(n, vecs[0], q) // byte j ← line byte 63+j
		}
		t := ZMM()
		VPSLLW(upX, q, q)
		VPSRLW(tagX, n, t)
		VPTERNLOGQ(U8(0xE4), hi, t, q) // q&hi | t&^hi
		VMOVDQU64(q, Mem{Base: outp, Disp: 64 * half})
	}
	MOVB(last.As8(), Mem{Base: outp, Disp: size})
	VZEROUPPER()
	RET()
}

// magUnraw emits magUnraw<size>(out []byte, enc []byte, tag uint64), which
// writes the line of the raw stream enc (size+1 bytes, checked) to out:
// line byte j is (e[j] << tag) | (e[j+1] >> (8 − tag)).
func magUnraw(size int, nextIdx Mem) {
	name := fmt.Sprintf("magUnraw%d", size)
	TEXT(name, NOSPLIT, "func(out []byte, enc []byte, tag uint64)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the line of a checked %d-byte raw MAG-aware BDI stream with a tag-bit code to out.", name, size+1),
		fmt.Sprintf("len(enc) must be at least %d, len(out) at least %d, and 1 ≤ tag ≤ 7.", size+1, size))
	outp := Load(Param("out").Base(), GP64())
	encp := Load(Param("enc").Base(), GP64())
	tag := Load(Param("tag"), GP64())
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
	VZEROUPPER()
	RET()
}
