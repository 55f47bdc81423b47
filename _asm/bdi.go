package main

//go:generate go run . -kernels bdi -out ../bdi/fit_amd64.s -stubs ../bdi/fit_stub_amd64.go -pkg bdi

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func init() {
	generators["bdi"] = func() {
		for _, size := range []int{32, 64, 128} {
			bdiFit(size)
		}
		for _, size := range []int{32, 64, 128} {
			bdiFit512(size)
		}
	}
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
	zero := YMM()
	lineLoop(size, func() { VPXOR(zero, zero, zero) }, func(line, out Register, _ string) {
		bdiFitLine(loadLine(line, size), line, out, zero, consts)
	})
}

// bdiFitLine emits the AVX2 fit mask of the line held in vecs.
func bdiFitLine(vecs []VecVirtual, line, out Register, zero VecVirtual, consts map[[2]int]Mem) {
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

	baseDeltaTree(res, store, func(k, d int, fail string) {
		fitTest(vecs, line, zero, k, consts[[2]int{k, d}], U8(uint8(8*d)), fail)
	})

	Label(store)
	MOVB(res.As8(), Mem{Base: out})
}

// bdiFit512 emits bdiFit<size>AVX512, the AVX-512 version of bdiFit.
func bdiFit512(size int) {
	TEXT(fmt.Sprintf("bdiFit%dAVX512", size), NOSPLIT, "func(data []byte, out []uint8)")
	Pragma("noescape")
	Doc(fmt.Sprintf("bdiFit%dAVX512 writes the BDI fit mask of each %d-byte line of data to out.", size, size),
		"len(data) must be at least len(out)*"+fmt.Sprint(size)+".")
	// Loop-invariant offsets and spans: x fits d bytes when
	// x + 2^(8d−1) < 2^(8d).
	consts := map[[2]int][2]VecVirtual{}
	setup := func() {
		var like VecVirtual = ZMM()
		if size == 32 {
			like = YMM()
		}
		for _, kd := range [][2]int{{8, 1}, {8, 2}, {8, 4}, {4, 1}, {4, 2}, {2, 1}} {
			k, d := kd[0], kd[1]
			consts[kd] = [2]VecVirtual{broadcastConst(like, k, 1<<(8*d-1)), broadcastConst(like, k, 1<<(8*d))}
		}
	}
	lineLoop(size, setup, func(line, out Register, _ string) {
		bdiFitLine512(vectors512(line, size), line, out, consts)
	})
}

// bdiFitLine512 emits the AVX-512 fit mask of the line held in vecs.
func bdiFitLine512(vecs []VecVirtual, line, out Register, consts map[[2]int][2]VecVirtual) {
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

	baseDeltaTree(res, store, func(k, d int, fail string) {
		c := consts[[2]int{k, d}]
		fitTest512(vecs, line, k, c[0], c[1], fail)
	})

	Label(store)
	MOVB(res.As8(), Mem{Base: out})
}

// baseDeltaTree emits the base-delta part of the fit mask into res, with
// test(k, d, fail) emitting one fit check that falls through when the line
// fits base k, delta d and jumps to fail otherwise. For each element width
// only the smallest delta that fits is recorded: a line that fits d-byte
// deltas also fits wider ones, so the widest is tried first and a failure
// skips the narrower. A line that fits base8-Δ1, the smallest base-delta
// encoding at every line size, jumps straight to store.
func baseDeltaTree(res Register, store string, test func(k, d int, fail string)) {
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
}
