package main

//go:generate go run . -kernels bdi -out ../bdi/fit_amd64.s -stubs ../bdi/fit_stub_amd64.go -pkg bdi

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/mmcloughlin/avo/attr"
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
		ids := singleTable()
		for _, size := range []int{32, 64, 128} {
			bdiSingle(size, ids, false)
		}
		for _, size := range []int{32, 64, 128} {
			bdiSingle(size, ids, true)
		}
		for _, size := range []int{64, 128} {
			bdiSingleSizes(size, ids)
		}
		for _, size := range []int{64, 128} {
			bdiChoose(size, false)
		}
		for _, size := range []int{64, 128} {
			bdiChoose(size, true)
		}
		rev := GLOBL("bitReverse", attr.RODATA|attr.NOPTR)
		DATA(0, U64(0x8040201008040201)) // GF(2) matrix: bit i ← bit 7−i
		DATA(8, U64(0x8040201008040201))
		nib := GLOBL("highNibbles", attr.RODATA|attr.NOPTR)
		for i := 0; i < 64; i += 8 {
			DATA(i, U64(0xF0F0F0F0F0F0F0F0))
		}
		for _, size := range []int{64, 128} {
			for _, k := range []int{8, 4, 2} {
				bdiEncode(size, k, rev, nib)
			}
		}
		raw := rawConsts{highNibbles: nib, prevByte: prevByte(), firstIdx: prevByteUnder()}
		// GF(2) matrix: bit i ← bit (i+4) mod 8, the nibbles swapped.
		raw.nibbleSwap = GLOBL("nibbleSwap", attr.RODATA|attr.NOPTR)
		DATA(0, U64(byteRotation(4)))
		for _, size := range []int{64, 128} {
			bdiRaw(size, raw)
		}
		for _, size := range []int{64, 128} {
			bdiCompress(size, rev, raw)
		}
		for _, size := range []int{64, 128} {
			bdiCompressLines(size, rev, raw)
		}
		next := GLOBL("nextByte", attr.RODATA|attr.NOPTR)
		for j := 0; j < 64; j++ {
			DATA(j, U8(uint8(j+1)))
		}
		for _, size := range []int{64, 128} {
			for _, k := range []int{8, 4, 2} {
				bdiDecode(size, k, rev, nib, next)
			}
		}
		for _, size := range []int{64, 128} {
			bdiUnraw(size, nib, next)
		}
		for _, size := range []int{64, 128} {
			bdiDecompress(size, rev, nib, next)
		}
		for _, size := range []int{64, 128} {
			bdiDecompressLines(size, rev, nib, next)
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

// singleOrder lists, in the order the B+Δ (single-base) kernels test them,
// the encodings from the largest to the smallest base-delta one: each test
// shifts one bit into the result, so the smallest encoding that fits ends
// up in the lowest set bit. The order is by stream length, the same at
// every line size (bdi's TestSingleLevels checks the kernels against the
// codec's own choice on every corpus line): zeros < repeated < b8d1 ≤ b4d1 < b8d2 < b2d1 < b4d2 < b8d4.
// singleIDs maps the bit index back to the encoding id, with 8 (no bit
// set) the raw line.
var (
	singleIDs = [...]uint8{0b0000, 0b0001, 0b0010, 0b0101, 0b0011, 0b0111, 0b0110, 0b0100, 0b1111}
	// singleTests gives, from the last bit to the first, the k and d of
	// each base-delta test; zeros and repeated close the chain.
	singleTests = [...][2]int{{8, 4}, {4, 2}, {2, 1}, {8, 2}, {4, 1}, {8, 1}}
)

// singleFail returns the 64-bit constant of the bits that must be clear
// in every 8-byte lane of y = x XOR (x >>arith (8k−1)) when each k-byte
// element x fits a d-byte signed delta: y < 2^(8d−1) in each element.
func singleFail(k, d int) uint64 {
	var c uint64
	for off := 0; off < 64; off += 8 * k {
		elem := ^uint64(0) >> uint(64-8*k) &^ (1<<uint(8*d-1) - 1)
		c |= elem << uint(off)
	}
	return c
}

// singleTable declares the map from result bit to encoding id.
func singleTable() Mem {
	m := GLOBL("singleIDs", attr.RODATA|attr.NOPTR)
	for i, id := range singleIDs {
		DATA(i, U8(id))
	}
	return m
}

// bdiSingle emits bdiSingle<size>AVX2(data []byte, out []uint8), which
// writes for each line of data the id of the smallest B+Δ encoding that
// fits it. Every test is computed for every line, without branches: per
// element width k the deltas D = x − x₀ are folded into
// y = D XOR (D >>arith 8k−1), whose bits at 8d−1 and up are clear in every
// element exactly when every delta fits d signed bytes, and the y of all
// the line's vectors are ORed. VPTEST of y against the allowed bits sets
// the carry when the line fits, and ADC shifts it into the result.
//
// With vl it emits bdiSingle<size>AVX512VL instead, with AVX-512's
// broadcast operands and three-input logic. At 64 and 128 bytes it folds
// the line in 64-byte vectors and narrows each y to 32 bytes (upper half
// OR lower) for VPTEST, which has no 64-byte form: at 128 bytes that is a
// quarter faster than folding in 32-byte vectors. (Testing the 64-byte y
// with mask registers and KORTEST instead measured a quarter slower.)
func bdiSingle(size int, ids Mem, vl bool) {
	name := fmt.Sprintf("bdiSingle%dAVX2", size)
	if vl {
		name = fmt.Sprintf("bdiSingle%dAVX512VL", size)
	}
	TEXT(name, NOSPLIT, "func(data []byte, out []uint8)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the id of the B+Δ encoding of each %d-byte line of data to out.", name, size),
		"len(data) must be at least len(out)*"+fmt.Sprint(size)+".")
	singleBody(size, ids, vl, false)
}

// bdiSingleSizes emits bdiSingleSizes<size>AVX512VL(data []byte, out
// []int, idBits *[16]uint16): bdiSingle's AVX-512VL kernel writing each
// line's size in bits, idBits[id], instead of its id, so that Sizes needs no
// second pass over the ids.
func bdiSingleSizes(size int, ids Mem) {
	name := fmt.Sprintf("bdiSingleSizes%dAVX512VL", size)
	TEXT(name, NOSPLIT, "func(data []byte, out []int, idBits *[16]uint16)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the size in bits, idBits[id], of the B+Δ encoding of each %d-byte line of data to out.", name, size),
		"len(data) must be at least len(out)*"+fmt.Sprint(size)+".")
	singleBody(size, ids, true, true)
}

// singleBody is the body of bdiSingle and bdiSingleSizes.
func singleBody(size int, ids Mem, vl, sizes bool) {
	allowed := map[[2]int]Mem{}
	for _, kd := range singleTests {
		allowed[kd] = vconst(8, ^singleFail(kd[0], kd[1]))
	}
	// At 64 and 128 bytes the AVX-512VL kernels fold the line in 64-byte
	// vectors, half the vector operations, and narrow each result to 32
	// bytes (upper half OR lower) for VPTEST, which has no 64-byte form.
	wide := vl && size >= 64
	width := 32
	if wide {
		width = 64
	}
	zero := YMM()
	// The constants stay in registers next to the line, except for the
	// AVX2 kernels' 128-byte lines (four vectors), which load them at each
	// test.
	held := map[[2]int]VecVirtual{}
	var tbl GPVirtual
	var bits Register
	setup := func() {
		VPXOR(zero, zero, zero)
		tbl = GP64()
		LEAQ(ids, tbl)
		if sizes {
			bits = Load(Param("idBits"), GP64())
		}
		if size <= 64 || wide {
			for _, kd := range singleTests {
				held[kd] = YMM()
				VMOVDQU(allowed[kd], held[kd])
			}
		}
	}
	stride := 1
	if sizes {
		stride = 8
	}
	newVec := YMM
	if wide {
		newVec = ZMM
	}
	narrow := func(v VecVirtual) VecVirtual {
		if !wide {
			return v
		}
		t := YMM()
		VEXTRACTI64X4(U8(1), v, t)
		VPOR(v.AsY(), t, t)
		return t
	}
	or := func(a, b, dst VecVirtual) {
		if wide {
			VPORQ(a, b, dst)
		} else {
			VPOR(a, b, dst)
		}
	}
	pairLoop(size, stride, setup, func(line Register, at int, out Mem) {
		vecs := make([]VecVirtual, size/width)
		for i := range vecs {
			vecs[i] = newVec()
			if wide {
				VMOVDQU64(Mem{Base: line, Disp: at + width*i}, vecs[i])
			} else {
				VMOVDQU(Mem{Base: line, Disp: at + 32*i}, vecs[i])
			}
		}
		first := Mem{Base: line, Disp: at}
		// deltas8 ORs the 8-byte deltas themselves: y is zero for a delta
		// of −1 as well as 0, so the repeated test needs them.
		var deltas8 VecVirtual
		fold := func(k int) VecVirtual {
			var b VecVirtual
			if !vl || k == 2 {
				b = newVec()
				lanes[k].bcast(first, b)
			}
			var y VecVirtual
			for i, v := range vecs {
				d, s := newVec(), newVec()
				switch {
				case vl && k == 8:
					VPSUBQ_BCST(first, v, d)
				case vl && k == 4:
					VPSUBD_BCST(first, v, d)
				default:
					lanes[k].sub(b, v, d)
				}
				switch {
				case k == 8 && vl:
					VPSRAQ(U8(63), d, s)
				case k == 8:
					VPCMPGTQ(d, zero, s) // 0 > d: the sign
				case k == 4:
					VPSRAD(U8(31), d, s)
				default:
					VPSRAW(U8(15), d, s)
				}
				if k == 8 {
					switch {
					case i == 0:
						deltas8 = d
					case i == 1:
						t := newVec()
						or(d, deltas8, t)
						deltas8 = t
					default:
						or(d, deltas8, deltas8)
					}
				}
				switch {
				case i == 0 && wide:
					y = newVec()
					VPXORQ(s, d, y)
				case i == 0:
					y = YMM()
					VPXOR(s, d, y)
				case vl:
					VPTERNLOGQ(U8(0xF6), s, d, y) // y |= d XOR s
				default:
					t := YMM()
					VPXOR(s, d, t)
					VPOR(t, y, y)
				}
			}
			return narrow(y)
		}
		y8, y4, y2 := fold(8), fold(4), fold(2)
		ys := map[int]VecVirtual{8: y8, 4: y4, 2: y2}
		acc := GP32()
		MOVL(U32(1), acc) // the sentinel: bit 8 after eight tests, the raw line
		for _, kd := range singleTests {
			a, ok := held[kd]
			if !ok {
				a = YMM()
				VMOVDQU(allowed[kd], a)
			}
			VPTEST(ys[kd[0]], a) // CF: no bit outside a
			ADCL(acc, acc)
		}
		VPTEST(narrow(deltas8), zero) // repeated: every 8-byte delta zero
		ADCL(acc, acc)
		any := vecs[0]
		if len(vecs) > 1 {
			any = newVec()
			or(vecs[1], vecs[0], any)
			for _, v := range vecs[2:] {
				or(v, any, any)
			}
		}
		VPTEST(narrow(any), zero) // zeros
		ADCL(acc, acc)
		p := GP32()
		TZCNTL(acc, p)
		id := GP32()
		MOVBLZX(Mem{Base: tbl, Index: p, Scale: 1}, id)
		if sizes {
			b := GP64()
			MOVWQZX(Mem{Base: bits, Index: id, Scale: 2}, b)
			MOVQ(b, out)
			return
		}
		MOVB(id.As8(), out)
	})
}

// pairLoop emits the loop of a kernel that writes one result of stride
// bytes per line, two lines per turn (the loop's own instructions are a
// tenth of a B+Δ line's), then the odd line. It loads the data and out
// parameters, runs setup once, then body with the line's base register,
// its offset from it and its result's place.
func pairLoop(size, stride int, setup func(), body func(line Register, at int, out Mem)) {
	line := Load(Param("data").Base(), GP64())
	out := Load(Param("out").Base(), GP64())
	n := Load(Param("out").Len(), GP64())
	setup()
	pairs, odd, done := label("pairs"), label("odd"), label("done")
	CMPQ(n, U8(2))
	JB(LabelRef(odd))
	Label(pairs)
	body(line, 0, Mem{Base: out})
	body(line, size, Mem{Base: out, Disp: stride})
	ADDQ(U32(2*size), line)
	ADDQ(U8(2*stride), out)
	SUBQ(U8(2), n)
	CMPQ(n, U8(2))
	JAE(LabelRef(pairs))
	Label(odd)
	TESTQ(n, n)
	JZ(LabelRef(done))
	body(line, 0, Mem{Base: out})
	Label(done)
	VZEROUPPER()
	RET()
}

// Offsets of the fields of the encode kernels' parameter block p, which
// bdi's encodeParams fills (bdi/encode.go, the same offsets).
const (
	encPIdx   = 0   // [64]byte: packed-delta byte j ← byte of the differences
	encQIdx   = 64  // [128]byte: unshifted stream byte j ← P (0–63) or H (64+)
	encNIdx   = 192 // [128]byte: stream byte j+1, for the nibble shift
	encNKeep  = 320 // [2]uint64: the bytes j whose byte j+1 is in the stream
	encOff    = 336 // uint64: x fits the zero base when x + off < span
	encSpan   = 344 // uint64
	encIDHigh = 352 // uint64: the encoding id << 56
	encStore  = 360 // [2]uint64: the bytes of out that are in the stream
)

// bdiEncode emits bdiEncode<size>K<k>(out []byte, line []byte, p
// *[384]byte), which writes the BDI base-delta encoding that p
// describes (k-byte elements; its delta width, line size and variant are in
// p) of line to out: the stream's bytes and nothing past them (masked
// stores). Requires AVX-512 VBMI and GFNI.
//
// The elements that fit the zero base are a lane mask; the first that does
// not is the base, subtracted from the others with merge masking. VPERMB
// truncates the differences to d bytes and puts them in big-endian order
// (P). The header H holds the bit-reversed lane mask (the stream's mask
// bytes, element 0 first), the big-endian base and the id. The stream
// before its 4-bit shift is q = id, mask, base, P; two VPERMI2B of (P, H)
// give q and q one byte on, and the shift is (q << 4) | (q₊₁ >> 4) per
// byte.
func bdiEncode(size, k int, revMatrix, nibbleMask Mem) {
	name := fmt.Sprintf("bdiEncode%dK%d", size, k)
	TEXT(name, NOSPLIT, "func(out []byte, line []byte, p *[384]byte)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the BDI encoding that p describes of a %d-byte line with %d-byte elements to out.", name, size, k),
		fmt.Sprintf("len(line) must be at least %d and len(out) at least the stream's length.", size))
	outp := Load(Param("out").Base(), GP64())
	line := Load(Param("line").Base(), GP64())
	p := Load(Param("p"), GP64())
	bdiEncodeBody(size, k, outp, line, p, vectors512(line, size), revMatrix, nibbleMask)
	VZEROUPPER()
	RET()
}

// bdiEncodeBody emits the body of bdiEncode for the line at line, already
// loaded into vecs (which it overwrites), the parameter block at p and the
// output at outp.
func bdiEncodeBody(size, k int, outp, line, p Register, vecs []VecVirtual, revMatrix, nibbleMask Mem) {
	at := func(off int) Mem { return Mem{Base: p, Disp: off} }
	lanesPer := 64 / k
	off, span := ZMM(), ZMM()
	switch k {
	case 8:
		VPBROADCASTQ(at(encOff), off)
		VPBROADCASTQ(at(encSpan), span)
	case 4:
		VPBROADCASTD(at(encOff), off)
		VPBROADCASTD(at(encSpan), span)
	default:
		VPBROADCASTW(at(encOff), off)
		VPBROADCASTW(at(encSpan), span)
	}
	// need: the elements that miss the zero base, per vector (each
	// compare clears the mask bits past its vector's lanes), and in one
	// general register for the stream's mask bytes and the base's index.
	l := lanes512[k]
	need := make([]OpmaskVirtual, len(vecs))
	for i, v := range vecs {
		t := ZMM()
		l.add(off, v, t)
		need[i] = K()
		l.cmpu(U8(cmpNLT), span, t, need[i])
	}
	notImm := laneBits(need, lanesPer)

	// The base: the first element that needs it, or zero when none does.
	// The subtraction broadcasts it from memory, off the general
	// register's path (with no such element no lane is subtracted from).
	zero, idx, base := GP64(), GP64(), GP64()
	XORQ(zero, zero)
	TZCNTQ(notImm, idx) // CF: no element needs the base
	CMOVQCS(zero, idx)
	at0 := Mem{Base: line, Index: idx, Scale: uint8(k)}
	baseV := ZMM()
	switch k {
	case 8:
		MOVQ(at0, base)
		VPBROADCASTQ(at0, baseV)
	case 4:
		MOVL(at0, base.As32())
		VPBROADCASTD(at0, baseV)
	default:
		MOVWLZX(at0, base.As32())
		VPBROADCASTW(at0, baseV)
	}
	CMOVQCS(zero, base)
	for i, v := range vecs {
		l.sub(baseV, v, need[i], v) // merge masking: immediates keep their value
	}

	// P: the packed big-endian deltas.
	P := ZMM()
	VMOVDQU64(at(encPIdx), P)
	if len(vecs) == 1 {
		VPERMB(vecs[0], P, P)
	} else {
		VPERMI2B(vecs[1], vecs[0], P)
	}

	// H: mask bytes at 0, big-endian base at 8, the id in a free byte.
	x := XMM()
	mask := GP64()
	VMOVQ(notImm, x)
	VGF2P8AFFINEQB(U8(0), revMatrix, x, x) // reverse the bits of each byte
	VMOVQ(x, mask)
	switch k {
	case 8:
		BSWAPQ(base)
		ORQ(at(encIDHigh), mask) // k = 8: at most 2 mask bytes
	case 4:
		BSWAPL(base.As32())
		ORQ(at(encIDHigh), base)
	default:
		ROLW(U8(8), base.As16())
		ORQ(at(encIDHigh), base)
	}
	VMOVQ(mask, x)
	VPINSRQ(U8(1), base, x, x)
	H := x.AsZ() // the VEX writes cleared the upper lanes

	nib := ZMM()
	VMOVDQU64(nibbleMask, nib)
	for half := 0; half < size/64; half++ {
		q, n := ZMM(), ZMM()
		VMOVDQU64(at(encQIdx+64*half), q)
		VPERMI2B(H, P, q)
		VMOVDQU64(at(encNIdx+64*half), n)
		keep := K()
		KMOVQ(at(encNKeep+8*half), keep)
		VPERMI2B_Z(H, P, keep, n)
		VPSLLW(U8(4), q, q)
		VPSRLW(U8(4), n, n)
		VPTERNLOGQ(U8(0xE4), nib, n, q) // q&0xF0 | n&0x0F
		store := K()
		KMOVQ(at(encStore+8*half), store)
		VMOVDQU8(q, store, Mem{Base: outp, Disp: 64 * half})
	}
}

// bdiRaw emits bdiRaw<size>(out []byte, line []byte), which writes the
// raw encoding of line (id 1111, then the line, all shifted by four bits:
// size+1 bytes) to out.
func bdiRaw(size int, raw rawConsts) {
	name := fmt.Sprintf("bdiRaw%d", size)
	TEXT(name, NOSPLIT, "func(out []byte, line []byte)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the raw BDI encoding of a %d-byte line to out.", name, size),
		fmt.Sprintf("len(line) must be at least %d and len(out) at least %d.", size, size+1))
	outp := Load(Param("out").Base(), GP64())
	line := Load(Param("line").Base(), GP64())
	bdiRawBody(size, outp, line, vectors512(line, size), raw)
	VZEROUPPER()
	RET()
}

// rawConsts are the constants of bdiRawBody.
type rawConsts struct {
	highNibbles Mem // 0xF0 in every byte
	prevByte    Mem // byte j ← 63 + j of a vector pair
	firstIdx    Mem // byte j ← j − 1, byte 0 ← 64 (the second vector's first)
	nibbleSwap  Mem // the GF(2) matrix that swaps the nibbles of a byte
}

// byteRotation returns the GF(2) matrix of GF2P8AFFINEQB that rotates each
// byte right by t bits: output bit i is input bit (i+t) mod 8. Matrix
// byte 7−i selects output bit i's input bits, so the identity is
// 0x0102040810204080, and rotating its bytes up by t rotates the bits.
func byteRotation(t int) uint64 {
	return bits.RotateLeft64(0x0102040810204080, 8*t)
}

// bdiRawBody emits the body of bdiRaw for the line at line, already loaded
// into vecs: tagShiftedStream with the 4-bit id 1111. The last byte is
// the line's last << 4, read before anything is written.
func bdiRawBody(size int, outp, line Register, vecs []VecVirtual, raw rawConsts) {
	last := GP32()
	MOVBLZX(Mem{Base: line, Disp: size - 1}, last)
	SHLL(U8(4), last)
	tagShiftedStream(outp, vecs, raw.nibbleSwap, raw.highNibbles, raw.highNibbles, raw.firstIdx, raw.prevByte)
	MOVB(last.As8(), Mem{Base: outp, Disp: size})
}

// tagShiftedStream writes the first 64·len(vecs) bytes of a raw stream to
// outp: a tag of t bits (1 ≤ t ≤ 7), then the line in vecs, so stream
// byte j is line byte j−1's low t bits over line byte j's high 8−t, with
// the tag over the first: the top t bits of first's byte 0 (hi itself for
// the all-ones tags of BDI and MAG-aware BDI, a zero vector for the flag 0
// of fpc's and cpack's raw streams). With s the line's bytes each rotated
// right by t (one GF2P8AFFINEQB by the matrix rot, a broadcast operand)
// and q the same shifted up a byte (one two-table permute by firstIdx,
// which takes byte 0 from first, and by prevIdx for the vectors after the
// first), a stream vector is q&hi | s&^hi, hi being 0xFF << (8−t) in every byte:
// four vector operations a vector, where shifting each way, a permute and
// a masked move of the tag byte took six and two scalar ones more
// (BenchmarkPeers BDI-64-encode +8%). The caller writes the last byte,
// the line's last << (8−t).
func tagShiftedStream(outp Register, vecs []VecVirtual, rot, hi, first Op, firstIdx, prevIdx Mem) {
	s := make([]VecVirtual, len(vecs))
	for h, n := range vecs {
		s[h] = ZMM()
		VGF2P8AFFINEQB_BCST(U8(0), rot, n, s[h])
		q := ZMM()
		if h == 0 {
			VMOVDQU64(firstIdx, q)
			VPERMI2B(first, s[0], q) // byte j ← s byte j−1, byte 0 ← first's
		} else {
			VMOVDQU64(prevIdx, q)
			VPERMI2B(s[h], s[h-1], q) // byte j ← s byte 63+j of the pair
		}
		VPTERNLOGQ(U8(0xE4), hi, s[h], q) // q&hi | s&^hi
		VMOVDQU64(q, Mem{Base: outp, Disp: 64 * h})
	}
}

// prevByteUnder declares (once per generated file) firstIdx of
// tagShiftedStream: byte j ← j − 1, byte 0 ← 64, the first byte of
// VPERMI2B's second table.
func prevByteUnder() Mem {
	var b [64]byte
	for j := range b {
		b[j] = byte(j - 1)
	}
	b[0] = 64
	return rodataBytes("prevByteUnder", b[:])
}

// prevByte declares (once per generated file) prevIdx of tagShiftedStream:
// byte j ← 63 + j, of a vector pair (v0, v1) v1's byte j − 1 and for j = 0
// v0's last (of one vector, mod 64, byte j − 1).
func prevByte() Mem {
	var b [64]byte
	for j := range b {
		b[j] = byte(63 + j)
	}
	return rodataBytes("prevByte", b[:])
}

// rodataBytes declares (once per generated file) the constant of the bytes
// b, zero-padded to whole 8-byte words.
func rodataBytes(name string, b []byte) Mem {
	words := make([]uint64, (len(b)+7)/8)
	for j, x := range b {
		words[j/8] |= uint64(x) << (8 * (j % 8))
	}
	return rodata(name, words...)
}

// bdiCompress emits bdiCompress<size>AVX512(out *[size+1]byte, line
// *[size]byte, tables *[2560]byte) (bits int), which chooses the encoding
// of line by its fit mask (as bdiFitLine512 defines it) and best, writes
// it to out and returns its length in bits, for the default delta rules:
// one call per line does all of Compress but the slicing of dst. tables is
// bdi's encodeTables: best (by fit mask) at 0, then the six parameter
// blocks of bdiEncode. Its arguments are array pointers, not slices,
// because Compress calls it for every line: half the words to pass, and
// the lengths are in the types; the two tables in one block measured 1–2%
// faster at 64 bytes than a pointer to each. Returning the length, not the
// id, and writing zeros and repeated lines here leave Compress nothing to
// keep across the call but dst.
//
// The widest delta of each element width is tested first, as bdiChoose
// does, and a line that fits none of them (most lines of real memory)
// goes to the raw encoding after three untaken branches. Only the other
// lines test for zeros and repeated values and walk the fit tree
// (baseDeltaTree, the three tests already made read from their bits).
// Each test's constants are memory operands, which a one-line kernel
// would otherwise broadcast into registers at each call. Measured on the
// corpora: a raw line 5.1 → 4.3 ns against a tree with a branch after
// each test from the first, and a tree after the first branch is 3 ns a
// line faster than running every test without branches.
// encodeTablesSize is the length of bdi's encodeTables: 256 bytes of best,
// then six 384-byte parameter blocks.
const encodeTablesSize = 256 + 6*384

func bdiCompress(size int, revMatrix Mem, rawc rawConsts) {
	name := fmt.Sprintf("bdiCompress%dAVX512", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out *[%d]byte, line *[%d]byte, tables *[%d]byte) (bits int)", size+1, size, encodeTablesSize))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the BDI encoding of a %d-byte line to out and returns its", name, size),
		"length in bits, under the default delta rules. enc holds the parameter blocks of the",
		"base-delta encodings, best maps a fit mask to its encoding.")
	outp := Load(Param("out"), GP64())
	line := Load(Param("line"), GP64())
	done := label("done")
	bits := compressLine(size, outp, line, done, revMatrix, rawc)
	Label(done)
	Store(bits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// bdiCompressLines emits bdiCompressLines<size>AVX512(out []byte, at int,
// data []byte, ends []int, bits []int, tables *[2560]byte) (end int):
// bdiCompress's body in a loop over the len(ends) lines of data, which
// writes their encodings back to back from out[at], each line's length in
// bits to bits and the offset in out where its encoding ends to ends, and
// returns the last of those offsets. It is the
// batch kernel of CompressLines, which would otherwise pay a call into
// assembly for every line. len(out) − at must be at least
// len(ends)·(size+1), the raw lines' length; len(bits) and len(data)/size
// at least len(ends). Its loop keeps the slices' pointers and the count in
// registers across the line's body; magCompressLines, whose body needs
// more registers, loads them again from the arguments at each line, and
// that loop measured 3–10% slower here (alternated), so the two loops
// stay apart.
func bdiCompressLines(size int, revMatrix Mem, rawc rawConsts) {
	name := fmt.Sprintf("bdiCompressLines%dAVX512", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out []byte, at int, data []byte, ends []int, bits []int, tables *[%d]byte) (end int)", encodeTablesSize))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the BDI encodings of the len(ends) %d-byte lines of data", name, size),
		"back to back from out[at], each one's length in bits to bits and the offset in out",
		"where it ends to ends, and returns the last offset, under the default delta rules.",
		"len(out)-at must be at least len(ends)*"+fmt.Sprint(size+1)+" (raw lines' length).")
	base := Load(Param("out").Base(), GP64())
	at := Load(Param("at"), GP64())
	line := Load(Param("data").Base(), GP64())
	ends := Load(Param("ends").Base(), GP64())
	bitsOut := Load(Param("bits").Base(), GP64())
	n := Load(Param("ends").Len(), GP64())
	loop, exit := label("lines"), label("exit")
	TESTQ(n, n)
	JZ(LabelRef(exit))
	Label(loop)
	outp := GP64()
	LEAQ(Mem{Base: base, Index: at, Scale: 1}, outp)
	done := label("done")
	bits := compressLine(size, outp, line, done, revMatrix, rawc)
	Label(done)
	MOVQ(bits, Mem{Base: bitsOut})
	ADDQ(U8(7), bits)
	SHRQ(U8(3), bits)
	ADDQ(bits, at)
	MOVQ(at, Mem{Base: ends})
	ADDQ(U32(size), line)
	ADDQ(U8(8), ends)
	ADDQ(U8(8), bitsOut)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(exit)
	Store(at, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// compressLine emits bdiCompress's work on the line at line: it writes
// the encoding to outp, leaves its length in bits in the register it
// returns and jumps to done (or falls through to it).
func compressLine(size int, outp, line Register, done string, revMatrix Mem, rawc rawConsts) GPVirtual {
	vecs := vectors512(line, size)
	consts := map[[2]int][2]Op{}
	for _, id := range chooseOrder(size)[2:8] {
		k, d := bdiKD(id)
		consts[[2]int{k, d}] = [2]Op{zconst(k, 1<<(8*d-1)), zconst(k, 1<<(8*d))}
	}
	some, zeros, repeated := label("some"), label("zeros"), label("repeated")
	bits := GP64()
	// Most lines are raw, and three tests decide that: each branches out
	// on its own misses, three fused test-and-jumps where collecting the
	// three results first (chooseWideTests) took seven instructions, and
	// the raw body follows untaken branches.
	misses := make([]GPVirtual, len(chooseWide))
	for j, kd := range chooseWide {
		c := consts[kd]
		misses[j] = chooseTestMisses(vecs, line, 0, kd[0], c[0], c[1])
	}
	for _, m := range misses {
		TESTQ(m, m)
		JZ(LabelRef(some))
	}
	MOVQ(U32(bdiEncodingBits(0b1111, size)), bits)
	bdiRawBody(size, outp, line, vecs, rawc)
	JMP(LabelRef(done))

	Label(some)
	wide := GP32()
	XORL(wide, wide)
	for _, m := range misses {
		CMPQ(m, U8(1))
		ADCL(wide, wide)
	}
	nonzero := wordsNonzero(vecs)
	TESTQ(nonzero, nonzero)
	JZ(LabelRef(zeros))
	differ := wordsDiffering(vecs, line, 0)
	TESTQ(differ, differ)
	JZ(LabelRef(repeated))

	res, store := GP32(), label("store")
	XORL(res, res)
	baseDeltaTree(res, store, func(k, d int, fail string) {
		if j := slices.Index(chooseWide[:], [2]int{k, d}); j >= 0 {
			BTL(U8(uint8(len(chooseWide)-1-j)), wide) // CF: that test's result
		} else {
			c := consts[[2]int{k, d}]
			chooseTest(vecs, line, 0, k, c[0], c[1])
		}
		JCC(LabelRef(fail))
	})
	Label(store)
	m, id := GP64(), GP64()
	MOVBQZX(res.As8(), m)
	tables := Load(Param("tables"), GP64())
	MOVBQZX(Mem{Base: tables, Index: m, Scale: 1}, id)
	lengths := GP64()
	LEAQ(rodata(fmt.Sprintf("bdiBits%d", size), encodingLengths(size)...), lengths)
	MOVQ(Mem{Base: lengths, Index: id, Scale: 8}, bits)
	// p = tables + 256 + (id−2)·384 = tables + 128·3·id − 512, the
	// parameter block of encoding id
	p := GP64()
	LEAQ(Mem{Base: id, Index: id, Scale: 2}, p)
	SHLQ(U8(7), p)
	ADDQ(tables, p)
	SUBQ(U32(512), p)
	byElementWidth(id.As32(), done, func(k int) {
		bdiEncodeBody(size, k, outp, line, p, vecs, revMatrix, rawc.highNibbles)
	})

	// A zeros line is its id, 0000, and four zero bits.
	Label(zeros)
	MOVB(U8(0), Mem{Base: outp})
	MOVQ(U32(bdiEncodingBits(0b0000, size)), bits)
	JMP(LabelRef(done))
	// A repeated line is its id, 0001, its 64-bit value big-endian and
	// four zero bits: the value shifted right by four under the id, and
	// its low nibble at the top of a ninth byte.
	Label(repeated)
	v, low := GP64(), GP64()
	MOVQ(Mem{Base: line}, v)
	MOVQ(v, low)
	SHRQ(U8(4), v)
	BTSQ(U8(60), v)
	BSWAPQ(v)
	MOVQ(v, Mem{Base: outp})
	SHLQ(U8(4), low)
	MOVB(low.As8(), Mem{Base: outp, Disp: 8})
	MOVQ(U32(bdiEncodingBits(0b0001, size)), bits)
	return bits
}

// byElementWidth emits body(k) for each element width k of the
// base-delta encodings, chosen by the id in id (2 to 7), each followed by
// a jump to done.
func byElementWidth(id Register, done string, body func(k int)) {
	k4, k2 := label("k4"), label("k2")
	CMPL(id, U8(5))
	JAE(LabelRef(k4))
	body(8)
	JMP(LabelRef(done))
	Label(k4)
	CMPL(id, U8(7))
	JAE(LabelRef(k2))
	body(4)
	JMP(LabelRef(done))
	Label(k2)
	body(2)
	JMP(LabelRef(done))
}

// encodingLengths returns bdiEncodingBits of the 16 ids at a line size,
// 0 for the ids that name no encoding: the table by which bdiCompress
// turns an id into its length.
func encodingLengths(size int) []uint64 {
	lengths := make([]uint64, 16)
	for id := range lengths {
		if id <= 0b0111 || id == 0b1111 {
			lengths[id] = uint64(bdiEncodingBits(id, size))
		}
	}
	return lengths
}

var zconsts = map[[2]uint64]Mem{}

// zconst declares (once per file) a 64-byte constant of v repeated in
// k-byte lanes.
func zconst(k int, v uint64) Mem {
	if m, ok := zconsts[[2]uint64{uint64(k), v}]; ok {
		return m
	}
	m := GLOBL(fmt.Sprintf("zrep%d_%x", k, v), attr.RODATA|attr.NOPTR)
	for off := 0; off < 64; off += 8 {
		var w uint64
		for l := 0; l < 8; l += k {
			w |= v << (8 * l)
		}
		DATA(off, U64(w))
	}
	zconsts[[2]uint64{uint64(k), v}] = m
	return m
}

// Offsets in the decode kernels' parameter block (bdi's decodeParams, the
// same offsets).
const (
	decDIdx    = 0   // [128]byte: line byte j ← payload byte (deltas, into the top of each lane)
	decBIdx    = 128 // [64]byte: byte j of lane 0 ← payload byte (the base, little-endian)
	decDKeep   = 192 // [2]uint64: the line bytes that receive a delta byte
	decLoad    = 208 // [2]uint64: the bytes of the stream
	decMaskAnd = 224 // uint64: lanes = mask bits & decMaskAnd | decMaskOr:
	decMaskOr  = 232 // uint64: (all, 0) for BΔI, (0, all) for B+Δ
	decShift   = 240 // uint64: 8(k − d), the sign-extending shift
)

// bdiDecode emits bdiDecode<size>K<k>(out []byte, enc []byte, p
// *[248]byte), which writes the line that the base-delta stream enc (its
// length, id and padding already checked) encodes to out[:size]. It is
// the encode kernel backwards: masked loads read the stream's bytes only;
// the 4-bit shift is undone as (e << 4) | (e₊₁ >> 4) per byte, giving the
// payload P (mask, base, deltas); GFNI reverses the mask bytes into a lane
// mask; one permute puts each big-endian delta into the top bytes of its
// lane, little-endian, and an arithmetic shift sign-extends it; the base
// is added under the lane mask. Requires AVX-512 VBMI and GFNI.
func bdiDecode(size, k int, revMatrix, nibbleMask, nextIdx Mem) {
	name := fmt.Sprintf("bdiDecode%dK%d", size, k)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out []byte, enc []byte, p *[%d]byte)", decParams))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the %d-byte line that the checked base-delta stream enc encodes to out.", name, size),
		fmt.Sprintf("len(out) must be at least %d.", size))
	outp := Load(Param("out").Base(), GP64())
	encp := Load(Param("enc").Base(), GP64())
	p := Load(Param("p"), GP64())
	bdiDecodeBody(size, k, outp, encp, p, revMatrix, nibbleMask, nextIdx)
	VZEROUPPER()
	RET()
}

// bdiDecodeBody emits the body of bdiDecode for the stream at encp, the
// parameter block at p and the output at outp.
func bdiDecodeBody(size, k int, outp, encp, p Register, revMatrix, nibbleMask, nextIdx Mem) {
	at := func(off int) Mem { return Mem{Base: p, Disp: off} }
	halves := size / 64

	// The payload P, one or two vectors.
	nib, next := ZMM(), ZMM()
	VMOVDQU64(nibbleMask, nib)
	VMOVDQU64(nextIdx, next)
	P := make([]VecVirtual, halves)
	for h := range P {
		e, ld := ZMM(), K()
		KMOVQ(at(decLoad+8*h), ld)
		VMOVDQU8_Z(Mem{Base: encp, Disp: 64 * h}, ld, e)
		P[h] = e
	}
	for h := range P {
		b := ZMM()
		if h+1 < len(P) {
			VMOVDQU64(next, b)
			VPERMI2B(P[h+1], P[h], b) // byte j ← byte j+1 of the pair
		} else {
			VPERMB(P[h], next, b) // byte 63 wraps: not in any stream
		}
		VPSLLW(U8(4), P[h], P[h])
		VPSRLW(U8(4), b, b)
		VPTERNLOGQ(U8(0xE4), nib, b, P[h]) // P&0xF0 | b&0x0F
	}

	// The lane mask, from the mask bytes at the start of P.
	x, mask := XMM(), GP64()
	VGF2P8AFFINEQB(U8(0), revMatrix, P[0].AsX(), x)
	VMOVQ(x, mask)
	ANDQ(at(decMaskAnd), mask)
	ORQ(at(decMaskOr), mask)

	// The base in every lane.
	base := ZMM()
	bidx := ZMM()
	VMOVDQU64(at(decBIdx), bidx)
	if len(P) == 1 {
		VPERMB(P[0], bidx, base)
	} else {
		VPERMI2B(P[1], P[0], bidx)
		base = bidx
	}
	bv := ZMM()
	lanes512[k].bcast(base.AsX(), bv)

	cnt := XMM()
	VMOVQ(at(decShift), cnt)
	km := K()
	KMOVQ(mask, km)
	lanesPer := 64 / k
	for h := 0; h < halves; h++ {
		d, keep := ZMM(), K()
		VMOVDQU64(at(decDIdx+64*h), d)
		KMOVQ(at(decDKeep+8*h), keep)
		if len(P) == 1 {
			VPERMB_Z(P[0], d, keep, d)
		} else {
			VPERMI2B_Z(P[1], P[0], keep, d)
		}
		switch k {
		case 8:
			VPSRAQ(cnt, d, d)
		case 4:
			VPSRAD(cnt, d, d)
		default:
			VPSRAW(cnt, d, d)
		}
		kh := km
		if h > 0 {
			kh = K()
			KSHIFTRQ(U8(uint8(lanesPer*h)), km, kh)
		}
		lanes512[k].add(bv, d, kh, d)
		VMOVDQU64(d, Mem{Base: outp, Disp: 64 * h})
	}
}

// bdiUnraw emits bdiUnraw<size>(out []byte, enc []byte), which writes the
// line of the raw stream enc (size+1 bytes: the id, the line, four zero
// bits) to out: (e << 4) | (e₊₁ >> 4) per byte, the last stream byte read
// with a one-byte masked load.
func bdiUnraw(size int, nibbleMask, nextIdx Mem) {
	name := fmt.Sprintf("bdiUnraw%d", size)
	TEXT(name, NOSPLIT, "func(out []byte, enc []byte)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s writes the line of the %d-byte raw BDI stream enc to out.", name, size+1),
		fmt.Sprintf("len(enc) must be at least %d and len(out) at least %d.", size+1, size))
	outp := Load(Param("out").Base(), GP64())
	encp := Load(Param("enc").Base(), GP64())
	bdiUnrawBody(size, outp, encp, nibbleMask, nextIdx)
	VZEROUPPER()
	RET()
}

// bdiUnrawBody emits the body of bdiUnraw for the stream at encp and the
// output at outp.
func bdiUnrawBody(size int, outp, encp Register, nibbleMask, nextIdx Mem) {
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
	nib := ZMM()
	VMOVDQU64(nibbleMask, nib)
	for h := 0; h < size/64; h++ {
		b := ZMM()
		VMOVDQU64(nextIdx, b)
		VPERMI2B(e[h+1], e[h], b) // byte j ← byte j+1 of the pair
		VPSLLW(U8(4), e[h], e[h])
		VPSRLW(U8(4), b, b)
		VPTERNLOGQ(U8(0xE4), nib, b, e[h])
	}
	for h := 0; h < size/64; h++ {
		VMOVDQU64(e[h], Mem{Base: outp, Disp: 64 * h})
	}
}

// bdiDecompress emits bdiDecompress<size>AVX512(out *[size]byte, enc
// []byte, dec *[6][248]byte, idBits *[16]uint16) (ok bool), which decodes
// a well-formed stream (an id that idBits gives a length, exactly that
// many bytes, zero padding) into out and returns true, and for any other
// stream writes nothing and returns false: one call per line does all of
// Decompress but the slicing of dst, and Decompress's other decoders
// report what is wrong with the streams it refuses. It reads all of enc
// before it writes out, so the two may overlap. dec holds the parameter
// blocks of the base-delta encodings.
func bdiDecompress(size int, revMatrix, nibbleMask, nextIdx Mem) {
	name := fmt.Sprintf("bdiDecompress%dAVX512", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out *[%d]byte, enc []byte, dec *[6][%d]byte, idBits *[16]uint16) (ok bool)", size, decParams))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s decodes a well-formed BDI stream of a %d-byte line into out and", name, size),
		"returns true; for any other stream it writes nothing and returns false. It reads",
		"all of enc before it writes out. dec holds the parameter blocks of the base-delta",
		"encodings, idBits the stream length of each id (0: none).")
	encp := Load(Param("enc").Base(), GP64())
	n := Load(Param("enc").Len(), GP64())
	outp := Load(Param("out"), GP64())
	fail, done := label("fail"), label("done")
	decompressLine(size, outp, encp, n, done, fail, revMatrix, nibbleMask, nextIdx)
	Label(done)
	fpcReturnBool(1)
	VZEROUPPER()
	RET()
	Label(fail)
	fpcReturnBool(0)
	VZEROUPPER()
	RET()
}

// bdiDecompressLines emits bdiDecompressLines<size>AVX512(out []byte, enc
// []byte, start int, ends []int, dec *[6][decParams]byte, idBits
// *[16]uint16) (lines int): bdiDecompress's body in a loop over the
// streams of enc that start at start and end at each of ends in turn,
// decoding them back to back into out. It stops before the first stream
// that is not well-formed or whose end is before its start or past enc,
// and returns the number of lines decoded. len(out) must be at least
// len(ends)·size.
func bdiDecompressLines(size int, revMatrix, nibbleMask, nextIdx Mem) {
	name := fmt.Sprintf("bdiDecompressLines%dAVX512", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out []byte, enc []byte, start int, ends []int, dec *[6][%d]byte, idBits *[16]uint16) (lines int)", decParams))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s decodes the BDI streams of %d-byte lines in enc, from start to", name, size),
		"each of ends in turn, back to back into out, and returns how many it decoded: it",
		"stops before the first stream that is not well-formed or whose end is before its",
		"start or past enc. len(out) must be at least len(ends)*"+fmt.Sprint(size)+".")
	outp := Load(Param("out").Base(), GP64())
	base := Load(Param("enc").Base(), GP64())
	encLen := Load(Param("enc").Len(), GP64())
	start := Load(Param("start"), GP64())
	ends := Load(Param("ends").Base(), GP64())
	lines := Load(Param("ends").Len(), GP64())
	i := GP64()
	XORL(i.As32(), i.As32())
	loop, exit := label("lines"), label("exit")
	Label(loop)
	CMPQ(i, lines)
	JAE(LabelRef(exit))
	end, n, encp := GP64(), GP64(), GP64()
	MOVQ(Mem{Base: ends, Index: i, Scale: 8}, end)
	CMPQ(end, encLen)
	JA(LabelRef(exit)) // past enc
	MOVQ(end, n)
	SUBQ(start, n)
	JCS(LabelRef(exit)) // before its start
	LEAQ(Mem{Base: base, Index: start, Scale: 1}, encp)
	done := label("done")
	decompressLine(size, outp, encp, n, done, exit, revMatrix, nibbleMask, nextIdx)
	Label(done)
	MOVQ(end, start)
	ADDQ(U32(size), outp)
	INCQ(i)
	JMP(LabelRef(loop))
	Label(exit)
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// decompressLine emits bdiDecompress's work on the stream of n bytes at
// encp: it decodes a well-formed stream into outp and jumps to done (or
// falls through to it), and jumps to fail, having written nothing, for
// any other.
func decompressLine(size int, outp, encp, n Register, done, fail string, revMatrix, nibbleMask, nextIdx Mem) {
	TESTQ(n, n)
	JZ(LabelRef(fail))
	id, bits := GP64(), GP64()
	MOVBQZX(Mem{Base: encp}, id)
	SHRL(U8(4), id.As32())
	idBits := Load(Param("idBits"), GP64())
	MOVWQZX(Mem{Base: idBits, Index: id, Scale: 2}, bits)
	TESTQ(bits, bits) // an id with no encoding
	JZ(LabelRef(fail))
	Comment("Exactly ⌈bits/8⌉ bytes, and the last one's bits after bits zero.")
	want := GP64()
	LEAQ(Mem{Base: bits, Disp: 7}, want)
	SHRQ(U8(3), want)
	CMPQ(want, n)
	JNE(LabelRef(fail))
	pad, last := GP32(), GP32()
	MOVL(bits.As32(), pad)
	NEGL(pad)
	ANDL(U8(7), pad) // the padding bits: −bits mod 8
	MOVBLZX(Mem{Base: encp, Index: n, Scale: 1, Disp: -1}, last)
	BZHIL(pad, last, last)
	JNZ(LabelRef(fail))

	raw, small := label("raw"), label("small")
	CMPL(id.As32(), U8(0b1111))
	JE(LabelRef(raw))
	CMPL(id.As32(), U8(2))
	JB(LabelRef(small))
	// p = dec + (id−2)·decParams
	p := GP64()
	IMUL3Q(U32(decParams), id, p)
	dec := Load(Param("dec"), GP64())
	LEAQ(Mem{Base: dec, Index: p, Scale: 1, Disp: -2 * decParams}, p)
	byElementWidth(id.As32(), done, func(k int) {
		bdiDecodeBody(size, k, outp, encp, p, revMatrix, nibbleMask, nextIdx)
	})
	Label(raw)
	bdiUnrawBody(size, outp, encp, nibbleMask, nextIdx)
	JMP(LabelRef(done))

	Comment("Zeros (id 0) or a repeated 64-bit value (id 1): its big-endian value",
		"starts four bits into the stream.")
	Label(small)
	v := ZMM()
	repeated, store := label("repeated"), label("store")
	TESTL(id.As32(), id.As32())
	JNZ(LabelRef(repeated))
	VPXORQ(v, v, v)
	JMP(LabelRef(store))
	Label(repeated)
	x, lo := GP64(), GP64()
	MOVQ(Mem{Base: encp}, x)
	BSWAPQ(x)
	SHLQ(U8(4), x)
	MOVBQZX(Mem{Base: encp, Disp: 8}, lo)
	SHRQ(U8(4), lo)
	ORQ(lo, x)
	VPBROADCASTQ(x, v)
	Label(store)
	for h := 0; h < size/64; h++ {
		VMOVDQU64(v, Mem{Base: outp, Disp: 64 * h})
	}
}

// decParams is the size of a decode kernel's parameter block (bdi's
// decodeParams).
const decParams = 248

// bdiEncodingBits is the stream length of BDI encoding id (default rules,
// two bases) at a line size, as bdi's encodedBits gives it.
func bdiEncodingBits(id, size int) int {
	switch id {
	case 0b0000:
		return 4
	case 0b0001:
		return 4 + 64
	case 0b1111:
		return 4 + 8*size
	}
	k, d := bdiKD(id)
	return 4 + size/k + 8*k + 8*d*(size/k)
}

// bdiKD returns the element and delta widths of base-delta encoding id.
func bdiKD(id int) (k, d int) {
	kd := [...][2]int{{8, 1}, {8, 2}, {8, 4}, {4, 1}, {4, 2}, {2, 1}}[id-0b0010]
	return kd[0], kd[1]
}

// chooseOrder returns the BDI encoding ids at a line size from the
// smallest stream to the largest, ties to the lower id (the reference's
// rule), the raw line last.
func chooseOrder(size int) []int {
	ids := []int{0b0000, 0b0001, 0b0010, 0b0011, 0b0100, 0b0101, 0b0110, 0b0111}
	slices.SortStableFunc(ids, func(a, b int) int { return bdiEncodingBits(a, size) - bdiEncodingBits(b, size) })
	return append(ids, 0b1111)
}

var chooseIDTables = map[int]Mem{}

// chooseIDs declares (once per file) the table of chooseOrder(size).
func chooseIDs(size int) Mem {
	if m, ok := chooseIDTables[size]; ok {
		return m
	}
	m := GLOBL(fmt.Sprintf("chooseIDs%d", size), attr.RODATA|attr.NOPTR)
	for i, id := range chooseOrder(size) {
		DATA(i, U8(uint8(id)))
	}
	chooseIDTables[size] = m
	return m
}

// bdiChoose emits bdiChoose<size>AVX512(data []byte, out []uint8), which
// writes for each line of data the id of its BDI encoding (or, with sizes,
// bdiChooseSizes<size>AVX512(data []byte, out []int, idBits *[16]uint16),
// which writes its size in bits, idBits[id], saving Sizes a pass over the
// ids) under the default delta rules: the smallest that fits, as bdi's pure-Go choice
// (best of the fit mask) gives it.
//
// Each test runs without branches. For element width k and delta width
// d, a = x + 2^(8d−1) per element; x fits the zero base when a < 2^(8d)
// (k-byte unsigned). The lanes that do not, z, pick the base: TZCNT of
// z's bits, with the last lane's bit set so that the index stays in the
// line when no lane needs a base (the base is then unused), addresses the
// element, which an embedded broadcast subtracts from a. The line fits
// when no lane of z misses the base too, a − base ≥ 2^(8d) (a compare
// under z); CMP of those lanes' bits with 1 sets the carry when there are
// none, and ADC shifts it into the result as bdiSingle does, from the
// largest encoding to the smallest, so that the lowest set bit is the
// encoding chosen. The widest delta of each element width is tested
// first, and a line that fits none of the three (most lines of real
// memory) is raw without the other tests: one branch per line, where
// running every test on every line measured a third slower. At 128 bytes
// a narrower delta's test is also skipped when its width's widest missed.
func bdiChoose(size int, sizes bool) {
	name := fmt.Sprintf("bdiChoose%dAVX512", size)
	stride := 1
	if sizes {
		name = fmt.Sprintf("bdiChooseSizes%dAVX512", size)
		stride = 8
		TEXT(name, NOSPLIT, "func(data []byte, out []int, idBits *[16]uint16)")
		Pragma("noescape")
		Doc(fmt.Sprintf("%s writes the size in bits, idBits[id], of the BDI encoding of each %d-byte line", name, size),
			"of data to out. len(data) must be at least len(out)*"+fmt.Sprint(size)+".")
	} else {
		TEXT(name, NOSPLIT, "func(data []byte, out []uint8)")
		Pragma("noescape")
		Doc(fmt.Sprintf("%s writes the id of the BDI encoding of each %d-byte line of data to out.", name, size),
			"len(data) must be at least len(out)*"+fmt.Sprint(size)+".")
	}
	order := chooseOrder(size)
	tbl := chooseIDs(size)
	consts := map[[2]int][2]Op{}
	var tblReg GPVirtual
	var bits Register
	setup := func() {
		for _, id := range order[2:8] {
			k, d := bdiKD(id)
			consts[[2]int{k, d}] = [2]Op{broadcastConst(ZMM(), k, 1<<(8*d-1)), broadcastConst(ZMM(), k, 1<<(8*d))}
		}
		tblReg = GP64()
		LEAQ(tbl, tblReg)
		if sizes {
			bits = Load(Param("idBits"), GP64())
		}
	}
	pairLoop(size, stride, setup, func(line Register, at int, out Mem) {
		vecs := make([]VecVirtual, size/64)
		for i := range vecs {
			vecs[i] = ZMM()
			VMOVDQU64(Mem{Base: line, Disp: at + 64*i}, vecs[i])
		}
		id := GP32()
		chooseLine(vecs, line, at, order, consts, tblReg, id)
		if sizes {
			b := GP64()
			MOVWQZX(Mem{Base: bits, Index: id.As64(), Scale: 2}, b)
			MOVQ(b, out)
			return
		}
		MOVB(id.As8(), out)
	})
}

// chooseLine emits bdiChoose's decision for the line held in vecs (its
// bytes at line+at) into id; tbl holds the address of the ids in order.
func chooseLine(vecs []VecVirtual, line Register, at int, order []int, consts map[[2]int][2]Op, tblReg GPVirtual, id GPVirtual) {
	// Most lines of real memory fit no base-delta encoding; the
	// widest delta of each element width decides that in three
	// tests (every other encoding, zeros and repeated included, fits
	// one of them).
	wide := chooseWideTests(vecs, line, at, consts)
	some, next := label("some"), label("next")
	TESTL(wide, wide)
	JNZ(LabelRef(some))
	MOVL(U32(0b1111), id)
	JMP(LabelRef(next))
	Label(some)
	acc := GP32()
	MOVL(U32(1), acc) // the sentinel: the raw line when nothing fits
	for i := len(order) - 2; i >= 2; i-- {
		k, d := bdiKD(order[i])
		if j := slices.Index(chooseWide[:], [2]int{k, d}); j >= 0 {
			BTL(U8(uint8(len(chooseWide)-1-j)), wide) // CF: that test's result
			ADCL(acc, acc)
		} else {
			// At 128 bytes, a line that misses the widest delta of
			// its element width skips this narrower test, which it
			// would miss too: the BT's clear carry is the result.
			// That measured 4-8% faster on all corpora (17% on their
			// first 256 KB, all of whose lines are base4-Δ2); at 64
			// bytes, where a test costs half as much, 8% slower.
			skip := label("skip")
			if len(vecs) > 1 {
				j := slices.IndexFunc(chooseWide[:], func(w [2]int) bool { return w[0] == k })
				BTL(U8(uint8(len(chooseWide)-1-j)), wide)
				JCC(LabelRef(skip))
			}
			c := consts[[2]int{k, d}]
			chooseTest(vecs, line, at, k, c[0], c[1])
			Label(skip)
			ADCL(acc, acc)
		}
	}
	CMPQ(wordsDiffering(vecs, line, at), U8(1)) // CF: none differs from the first: repeated
	ADCL(acc, acc)
	CMPQ(wordsNonzero(vecs), U8(1)) // CF: none is nonzero: zeros
	ADCL(acc, acc)
	p := GP32()
	TZCNTL(acc, p)
	MOVBLZX(Mem{Base: tblReg, Index: p, Scale: 1}, id)
	Label(next)
}

// chooseWideTests emits chooseTest of each of chooseWide on the line held
// in vecs (its bytes at line+at), with the constants in consts, and
// returns a register with their results: bit len(chooseWide)−1−j set when
// the line fits chooseWide[j].
func chooseWideTests(vecs []VecVirtual, line Register, at int, consts map[[2]int][2]Op) GPVirtual {
	wide := GP32()
	XORL(wide, wide)
	for _, kd := range chooseWide {
		c := consts[kd]
		chooseTest(vecs, line, at, kd[0], c[0], c[1])
		ADCL(wide, wide)
	}
	return wide
}

// wordsDiffering returns a register with a bit set for each 8-byte word of
// the line held in vecs (its bytes at line+at) that differs from its first.
func wordsDiffering(vecs []VecVirtual, line Register, at int) GPVirtual {
	ne := make([]OpmaskVirtual, len(vecs))
	for i, v := range vecs {
		ne[i] = K()
		VPCMPQ_BCST(U8(4), Mem{Base: line, Disp: at}, v, ne[i]) // 4: not equal
	}
	return laneBits(ne, 8)
}

// wordsNonzero returns a register with a bit set for each 8-byte word of
// the line held in vecs that is not zero.
func wordsNonzero(vecs []VecVirtual) GPVirtual {
	any := vecs[0]
	if len(vecs) > 1 {
		any = ZMM()
		VPORQ(vecs[1], vecs[0], any)
	}
	nz := K()
	VPTESTMQ(any, any, nz)
	nonzero := GP64()
	KMOVQ(nz, nonzero)
	return nonzero
}

// chooseWide lists the widest delta of each element width, the tests
// bdiChoose runs first.
var chooseWide = [...][2]int{{8, 4}, {4, 2}, {2, 1}}

// chooseTest emits bdiChoose's test of base-delta encoding (k, d) on the
// line held in vecs (its bytes at line+at), with off = 2^(8d−1) and span =
// 2^(8d) in k-byte lanes (registers or 64-byte memory operands): it sets
// the carry when the line fits and clears it when it does not.
func chooseTest(vecs []VecVirtual, line Register, at, k int, off, span Op) {
	miss := chooseTestMisses(vecs, line, at, k, off, span)
	CMPQ(miss, U8(1)) // CF: miss < 1, no lane misses
}

// chooseTestMisses emits chooseTest without its last comparison: it
// returns a register with a bit set for each lane that misses both bases,
// zero when the line fits.
func chooseTestMisses(vecs []VecVirtual, line Register, at, k int, off, span Op) GPVirtual {
	l := lanes512[k]
	lanesPer := 64 / k
	total := lanesPer * len(vecs)
	a := make([]VecVirtual, len(vecs))
	z := make([]OpmaskVirtual, len(vecs))
	for i, v := range vecs {
		a[i] = ZMM()
		l.add(off, v, a[i])
		z[i] = K()
		l.cmpu(U8(cmpNLT), span, a[i], z[i])
	}
	// The masks go to general registers at once: mask-register logic
	// (KUNPCK, KTEST, KORTEST) measured slower than KMOV and scalar
	// instructions.
	idx := laneBits(z, lanesPer)
	BTSQ(U8(uint8(total-1)), idx)
	TZCNTQ(idx, idx)
	base := Mem{Base: line, Index: idx, Scale: uint8(k), Disp: at}
	var b VecVirtual
	if k == 2 {
		b = ZMM()
		VPBROADCASTW(base, b)
	}
	// A compare under z: the lanes that miss both bases.
	bad := make([]OpmaskVirtual, len(vecs))
	for i := range vecs {
		t := ZMM()
		switch k {
		case 8:
			VPSUBQ_BCST(base, a[i], t)
		case 4:
			VPSUBD_BCST(base, a[i], t)
		default:
			VPSUBW(b, a[i], t)
		}
		bad[i] = K()
		l.cmpu(U8(cmpNLT), span, t, z[i], bad[i])
	}
	return laneBits(bad, lanesPer)
}

// cmpNLT is the VPCMPU predicate "not less than".
const cmpNLT = 5
