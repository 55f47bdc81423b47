// Command _asm generates linecomp's amd64 kernels with avo. It is its own
// module so that avo never becomes a dependency of the library; the
// generated .s files and Go stubs are committed, and CI regenerates them and
// fails on any difference.
//
//	cd _asm && go generate
package main

//go:generate go run . -kernels bdi -out ../bdi/fit_amd64.s -stubs ../bdi/fit_stub_amd64.go -pkg bdi
//go:generate go run . -kernels magbdi -out ../magbdi/fit_amd64.s -stubs ../magbdi/fit_stub_amd64.go -pkg magbdi

import (
	"flag"
	"fmt"
	"log"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var kernels = flag.String("kernels", "", "which package's kernels to generate: bdi or magbdi")

func main() {
	flag.Parse()
	ConstraintExpr("amd64,gc,!purego,!noasm")
	switch *kernels {
	case "bdi":
		for _, size := range []int{32, 64, 128} {
			bdiFit(size)
		}
		for _, size := range []int{32, 64, 128} {
			bdiFit512(size)
		}
	case "magbdi":
		for _, size := range []int{32, 64, 128} {
			magFit(size)
		}
		for _, size := range []int{32, 64, 128} {
			magFit512(size)
		}
	default:
		log.Fatalf("-kernels %q: want bdi or magbdi", *kernels)
	}
	Generate()
}

// lane holds the AVX2 instructions that work on k-byte lanes.
type lane struct {
	add, sub, cmpeq, srl, bcast func(...Op)
}

var lanes = map[int]lane{
	8: {VPADDQ, VPSUBQ, VPCMPEQQ, VPSRLQ, VPBROADCASTQ},
	4: {VPADDD, VPSUBD, VPCMPEQD, VPSRLD, VPBROADCASTD},
	2: {VPADDW, VPSUBW, VPCMPEQW, VPSRLW, VPBROADCASTW},
}

var labels int

// label returns a name unique within the generated file.
func label(what string) string {
	labels++
	return fmt.Sprintf("%s_%d", what, labels)
}

// fitTest emits the check that the line held in vecs (its bytes start at
// line) fits a base-delta encoding with k-byte elements: a value x "fits"
// when (x + off) >> shift == 0 in k-byte arithmetic. Elements that fit
// against zero use the implicit zero base; the first one that does not is
// the explicit base, and every element must then fit against zero or
// (x − base). Control falls through when the line fits and jumps to fail
// otherwise.
func fitTest(vecs []VecVirtual, line Register, zero VecVirtual, k int, off, shift Op, fail string) {
	l := lanes[k]
	fits := label("fits")
	imm := make([]VecVirtual, len(vecs))
	masks := make([]GPVirtual, len(vecs))
	for i, v := range vecs {
		imm[i] = YMM()
		l.add(off, v, imm[i])
		l.srl(shift, imm[i], imm[i])
		l.cmpeq(zero, imm[i], imm[i])
		masks[i] = GP32()
		VPMOVMSKB(imm[i], masks[i])
	}
	// The first byte whose lane is not an immediate is where the explicit
	// base starts: scan the byte masks 64 bits at a time.
	at := GP64()
	found := label("base")
	for p := 0; p < len(vecs); p += 2 {
		w := GP64()
		if p+1 < len(vecs) {
			MOVL(masks[p+1], w.As32())
			SHLQ(U8(32), w)
		} else {
			MOVQ(U64(0xFFFFFFFF00000000), w)
		}
		ORQ(masks[p].As64(), w) // VPMOVMSKB zero-extends into the upper half
		NOTQ(w)
		next := label("half")
		TZCNTQ(w, at)
		JCS(LabelRef(next)) // TZCNT sets CF when w is zero: no base in these 64 bytes
		if p > 0 {
			ADDQ(U32(32*p), at)
		}
		JMP(LabelRef(found))
		Label(next)
	}
	JMP(LabelRef(fits)) // every element is an immediate
	Label(found)
	base := YMM()
	l.bcast(Mem{Base: line, Index: at, Scale: 1}, base)
	all := imm[0]
	for i, v := range vecs {
		d := YMM()
		l.sub(base, v, d)
		l.add(off, d, d)
		l.srl(shift, d, d)
		l.cmpeq(zero, d, d)
		VPOR(d, imm[i], imm[i])
		if i > 0 {
			VPAND(imm[i], all, all)
		}
	}
	m := GP32()
	VPMOVMSKB(all, m)
	CMPL(m, U32(0xFFFFFFFF))
	JNE(LabelRef(fail))
	Label(fits)
}

var vconsts = map[[2]uint64]Mem{}

// vconst declares (once per file) a 32-byte constant of v repeated in
// k-byte lanes.
func vconst(k int, v uint64) Mem {
	if m, ok := vconsts[[2]uint64{uint64(k), v}]; ok {
		return m
	}
	m := GLOBL(fmt.Sprintf("rep%d_%x", k, v), attr.RODATA|attr.NOPTR)
	for off := 0; off < 32; off += k {
		switch k {
		case 8:
			DATA(off, U64(v))
		case 4:
			DATA(off, U32(v))
		default:
			DATA(off, U16(v))
		}
	}
	vconsts[[2]uint64{uint64(k), v}] = m
	return m
}

// loadLine loads the line at ptr into size/32 vectors.
func loadLine(ptr Register, size int) []VecVirtual {
	vecs := make([]VecVirtual, size/32)
	for i := range vecs {
		vecs[i] = YMM()
		VMOVDQU(Mem{Base: ptr, Disp: 32 * i}, vecs[i])
	}
	return vecs
}

// Bits of the BDI kernel's per-line result: bit id is set when BDI
// encoding id is the smallest of its element width that fits.
const (
	bitZeros = 1 << 0
	bitRep   = 1 << 1
	bitB8D1  = 1 << 2
	bitB8D2  = 1 << 3
	bitB8D4  = 1 << 4
	bitB4D1  = 1 << 5
	bitB4D2  = 1 << 6
	bitB2D1  = 1 << 7
)

// bdiFit emits bdiFit<size>AVX2(data []byte, out []uint8), which writes
// for each of the len(out) lines of data a byte with the encodings the line
// fits, as bdi's fitMaskGeneric defines it.
func bdiFit(size int) {
	TEXT(fmt.Sprintf("bdiFit%dAVX2", size), NOSPLIT, "func(data []byte, out []uint8)")
	Pragma("noescape")
	Doc(fmt.Sprintf("bdiFit%dAVX2 writes the BDI fit mask of each %d-byte line of data to out.", size, size),
		"len(data) must be at least len(out)*"+fmt.Sprint(size)+".")
	consts := map[[2]int]Mem{}
	for _, kd := range [][2]int{{8, 1}, {8, 2}, {8, 4}, {4, 1}, {4, 2}, {2, 1}} {
		consts[kd] = vconst(kd[0], 1<<(8*kd[1]-1))
	}
	line := Load(Param("data").Base(), GP64())
	out := Load(Param("out").Base(), GP64())
	n := Load(Param("out").Len(), GP64())
	zero := YMM()
	VPXOR(zero, zero, zero)
	done := label("done_bdi")
	TESTQ(n, n)
	JZ(LabelRef(done))
	loop := label("loop")
	Label(loop)
	vecs := loadLine(line, size)
	res := GP32()

	// All-zero line.
	notZero := label("notzero")
	store := label("store")
	any := vecs[0]
	if len(vecs) > 1 {
		any = YMM()
		VPOR(vecs[1], vecs[0], any)
		for _, v := range vecs[2:] {
			VPOR(v, any, any)
		}
	}
	VPTEST(any, any)
	JNZ(LabelRef(notZero))
	MOVL(U32(bitZeros), res)
	JMP(LabelRef(store))
	Label(notZero)

	// Every 8-byte word equal to the first.
	notRep := label("notrep")
	first := YMM()
	VPBROADCASTQ(Mem{Base: line}, first)
	eq := YMM()
	VPCMPEQQ(first, vecs[0], eq)
	for _, v := range vecs[1:] {
		e := YMM()
		VPCMPEQQ(first, v, e)
		VPAND(e, eq, eq)
	}
	m := GP32()
	VPMOVMSKB(eq, m)
	CMPL(m, U32(0xFFFFFFFF))
	JNE(LabelRef(notRep))
	MOVL(U32(bitRep), res)
	JMP(LabelRef(store))
	Label(notRep)
	XORL(res, res)

	// For each element width, only the smallest delta that fits is
	// recorded: a line that fits d-byte deltas also fits wider ones, so the
	// widest is tried first and a failure skips the narrower.
	k4 := label("k4")
	set8d2, set8d4 := label("b8d2"), label("b8d4")
	fitTest(vecs, line, zero, 8, consts[[2]int{8, 4}], U8(32), k4)
	fitTest(vecs, line, zero, 8, consts[[2]int{8, 2}], U8(16), set8d4)
	fitTest(vecs, line, zero, 8, consts[[2]int{8, 1}], U8(8), set8d2)
	MOVL(U32(bitB8D1), res) // the smallest base-delta encoding at every line size
	JMP(LabelRef(store))
	Label(set8d2)
	ORL(U32(bitB8D2), res)
	JMP(LabelRef(k4))
	Label(set8d4)
	ORL(U32(bitB8D4), res)
	Label(k4)

	k2 := label("k2")
	set4d2 := label("b4d2")
	fitTest(vecs, line, zero, 4, consts[[2]int{4, 2}], U8(16), k2)
	fitTest(vecs, line, zero, 4, consts[[2]int{4, 1}], U8(8), set4d2)
	ORL(U32(bitB4D1), res)
	JMP(LabelRef(k2))
	Label(set4d2)
	ORL(U32(bitB4D2), res)
	Label(k2)

	fitTest(vecs, line, zero, 2, consts[[2]int{2, 1}], U8(8), store)
	ORL(U32(bitB2D1), res)

	Label(store)
	MOVB(res.As8(), Mem{Base: out})
	ADDQ(U32(size), line)
	INCQ(out)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(done)
	VZEROUPPER()
	RET()
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

// lane512 holds the AVX-512 instructions that work on k-byte lanes.
type lane512 struct {
	add, sub, cmpu, bcast func(...Op)
}

var lanes512 = map[int]lane512{
	8: {VPADDQ, VPSUBQ, VPCMPUQ, VPBROADCASTQ},
	4: {VPADDD, VPSUBD, VPCMPUD, VPBROADCASTD},
	2: {VPADDW, VPSUBW, VPCMPUW, VPBROADCASTW},
}

// cmpLT is the VPCMPU predicate "less than".
const cmpLT = 1

// vectors512 loads the line at ptr: two or one 64-byte ZMM vectors, or one
// 32-byte YMM vector for a 32-byte line (AVX-512VL).
func vectors512(ptr Register, size int) []VecVirtual {
	if size == 32 {
		v := YMM()
		VMOVDQU(Mem{Base: ptr}, v)
		return []VecVirtual{v}
	}
	vecs := make([]VecVirtual, size/64)
	for i := range vecs {
		vecs[i] = ZMM()
		VMOVDQU64(Mem{Base: ptr, Disp: 64 * i}, vecs[i])
	}
	return vecs
}

// vec512 allocates a vector register of the same width as v.
func vec512(v VecVirtual) VecVirtual {
	if v.Size() == 32 {
		return YMM()
	}
	return ZMM()
}

// laneBits gathers the per-lane compare masks of a line into one general
// register, vector 0 in the low bits.
func laneBits(ks []OpmaskVirtual, lanesPer int) GPVirtual {
	r := GP64()
	KMOVQ(ks[0], r)
	for i := 1; i < len(ks); i++ {
		t := GP64()
		KMOVQ(ks[i], t)
		SHLQ(U8(uint8(lanesPer*i)), t)
		ORQ(t, r)
	}
	return r
}

// fitTest512 is fitTest with AVX-512 compares into mask registers: x fits
// when x + off < span as an unsigned k-byte number. off and span are
// vectors of the line's width.
func fitTest512(vecs []VecVirtual, line Register, k int, off, span VecVirtual, fail string) {
	l := lanes512[k]
	lanesPer := int(vecs[0].Size()) / k
	total := lanesPer * len(vecs)
	full := uint64(1)<<total - 1
	if total == 64 {
		full = ^uint64(0)
	}
	fits := label("fits")
	imm := make([]OpmaskVirtual, len(vecs))
	for i, v := range vecs {
		t := vec512(v)
		l.add(off, v, t)
		imm[i] = K()
		l.cmpu(U8(cmpLT), span, t, imm[i])
	}
	immBits := laneBits(imm, lanesPer)
	notImm := GP64()
	MOVQ(immBits, notImm)
	NOTQ(notImm)
	if total < 64 {
		mask := GP64()
		MOVQ(U64(full), mask)
		ANDQ(mask, notImm)
	}
	at := GP64()
	TZCNTQ(notImm, at)
	JCS(LabelRef(fits)) // no lane needs the base
	// base − off, so that x − (base − off) = x − base + off
	base := vec512(vecs[0])
	l.bcast(Mem{Base: line, Index: at, Scale: uint8(k)}, base)
	l.sub(off, base, base)
	ok := make([]OpmaskVirtual, len(vecs))
	for i, v := range vecs {
		t := vec512(v)
		l.sub(base, v, t)
		ok[i] = K()
		l.cmpu(U8(cmpLT), span, t, ok[i])
	}
	okBits := laneBits(ok, lanesPer)
	ORQ(immBits, okBits)
	if total == 64 {
		CMPQ(okBits, I8(-1))
	} else {
		want := GP64()
		MOVQ(U64(full), want)
		CMPQ(okBits, want)
	}
	JNE(LabelRef(fail))
	Label(fits)
}

// broadcastConst fills a vector of v's width with c in k-byte lanes.
func broadcastConst(like VecVirtual, k int, c uint64) VecVirtual {
	r := GP64()
	MOVQ(U64(c), r)
	dst := vec512(like)
	switch k {
	case 8:
		VPBROADCASTQ(r, dst)
	case 4:
		VPBROADCASTD(r.As32(), dst)
	default:
		VPBROADCASTW(r.As32(), dst) // the r32 form broadcasts the low 16 bits
	}
	return dst
}

// bdiFit512 emits bdiFit<size>AVX512, the AVX-512 version of bdiFit.
func bdiFit512(size int) {
	TEXT(fmt.Sprintf("bdiFit%dAVX512", size), NOSPLIT, "func(data []byte, out []uint8)")
	Pragma("noescape")
	Doc(fmt.Sprintf("bdiFit%dAVX512 writes the BDI fit mask of each %d-byte line of data to out.", size, size),
		"len(data) must be at least len(out)*"+fmt.Sprint(size)+".")
	line := Load(Param("data").Base(), GP64())
	out := Load(Param("out").Base(), GP64())
	n := Load(Param("out").Len(), GP64())
	done := label("done_bdi512")
	TESTQ(n, n)
	JZ(LabelRef(done))
	// Loop-invariant offsets and spans: x fits d bytes when
	// x + 2^(8d−1) < 2^(8d).
	var like VecVirtual = ZMM()
	if size == 32 {
		like = YMM()
	}
	consts := map[[2]int][2]VecVirtual{}
	for _, kd := range [][2]int{{8, 1}, {8, 2}, {8, 4}, {4, 1}, {4, 2}, {2, 1}} {
		k, d := kd[0], kd[1]
		consts[kd] = [2]VecVirtual{broadcastConst(like, k, 1<<(8*d-1)), broadcastConst(like, k, 1<<(8*d))}
	}
	loop := label("loop")
	Label(loop)
	vecs := vectors512(line, size)
	res := GP32()

	notZero, store := label("notzero"), label("store")
	any := vecs[0]
	if len(vecs) > 1 {
		any = ZMM()
		VPORQ(vecs[1], vecs[0], any)
	}
	nz := K()
	VPTESTMQ(any, any, nz)
	KORTESTB(nz, nz)
	JNZ(LabelRef(notZero))
	MOVL(U32(bitZeros), res)
	JMP(LabelRef(store))
	Label(notZero)

	notRep := label("notrep")
	first := vec512(vecs[0])
	VPBROADCASTQ(Mem{Base: line}, first)
	diff := K()
	VPCMPQ(U8(4), first, vecs[0], diff) // 4: not equal
	for _, v := range vecs[1:] {
		d := K()
		VPCMPQ(U8(4), first, v, d)
		KORB(d, diff, diff)
	}
	KORTESTB(diff, diff)
	JNZ(LabelRef(notRep))
	MOVL(U32(bitRep), res)
	JMP(LabelRef(store))
	Label(notRep)
	XORL(res, res)

	test := func(k, d int, fail string) {
		c := consts[[2]int{k, d}]
		fitTest512(vecs, line, k, c[0], c[1], fail)
	}
	k4 := label("k4")
	set8d2, set8d4 := label("b8d2"), label("b8d4")
	test(8, 4, k4)
	test(8, 2, set8d4)
	test(8, 1, set8d2)
	MOVL(U32(bitB8D1), res)
	JMP(LabelRef(store))
	Label(set8d2)
	ORL(U32(bitB8D2), res)
	JMP(LabelRef(k4))
	Label(set8d4)
	ORL(U32(bitB8D4), res)
	Label(k4)

	k2 := label("k2")
	set4d2 := label("b4d2")
	test(4, 2, k2)
	test(4, 1, set4d2)
	ORL(U32(bitB4D1), res)
	JMP(LabelRef(k2))
	Label(set4d2)
	ORL(U32(bitB4D2), res)
	Label(k2)

	test(2, 1, store)
	ORL(U32(bitB2D1), res)

	Label(store)
	MOVB(res.As8(), Mem{Base: out})
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
