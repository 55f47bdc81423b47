// Command _asm generates linecomp's amd64 kernels with avo. It is its own
// module so that avo never becomes a dependency of the library; the
// generated .s files and Go stubs are committed, and CI regenerates them and
// fails on any difference.
//
//	cd _asm && go generate
package main

import (
	"flag"
	"fmt"
	"log"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var kernels = flag.String("kernels", "", "which package's kernels to generate")

// generators maps a package name to the function that emits its kernels.
// Each package's generator lives in its own file, with its go:generate
// line, and registers itself here from init.
var generators = map[string]func(){}

func main() {
	flag.Parse()
	ConstraintExpr("amd64,gc,!purego,!noasm")
	gen, ok := generators[*kernels]
	if !ok {
		log.Fatalf("-kernels %q: no such generator", *kernels)
	}
	gen()
	Generate()
	if err := alignConstants(flag.Lookup("out").Value.String()); err != nil {
		log.Fatal(err)
	}
}

// lineLoop emits the loop of a kernel that writes one result byte per line:
// it loads the data and out parameters, runs setup once for loop-invariant
// registers, then body once per line with the line's address and out's
// current byte. body stores its result and either falls through or jumps
// to the advance label it is given; lineLoop then steps to the next line.
func lineLoop(size int, setup func(), body func(line, out Register, advance string)) {
	line := Load(Param("data").Base(), GP64())
	out := Load(Param("out").Base(), GP64())
	n := Load(Param("out").Len(), GP64())
	setup()
	done := label("done")
	TESTQ(n, n)
	JZ(LabelRef(done))
	loop, advance := label("loop"), label("advance")
	Label(loop)
	body(line, out, advance)
	Label(advance)
	ADDQ(U32(size), line)
	INCQ(out)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(done)
	VZEROUPPER()
	RET()
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
