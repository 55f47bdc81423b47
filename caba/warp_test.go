package caba

// The lane model: one 32-lane warp running CABA's assist-warp subroutines
// (Algorithms 1–6), counting the warp instructions it issues. It is the
// oracle of the instruction tables in cost.go and of the formats' claim
// that lanes can decode them in parallel: every subroutine must give
// exactly the serial codec's line or stream (lanes_test.go).
//
// The machine, as the package doc describes it:
//   - A vector register holds one value per element; elements 0…31 sit in
//     the lanes of one warp register, 32…63 in a second one, so an
//     instruction over n elements issues ⌈n/32⌉ warp instructions (CABA
//     §5.1.2, footnote 1: "Multiple instructions are required if the number
//     of deltas exceeds the width of the ALU pipeline"). Lanes are 64 bits
//     wide: an 8-byte add is one instruction.
//   - A uniform (scalar) register holds one value for the warp; a uniform
//     instruction issues one warp instruction.
//   - The active mask selects the elements a vector instruction writes.
//   - The global predicate is the AND of the active elements' predicates
//     (CABA §5.1.2).
//   - Loads and stores address memory per element; an address of the form
//     base + stride × element costs nothing beyond the access (the lane id
//     times a constant is set up when the assist warp is deployed), a
//     data-dependent one is a register computed by an instruction.
//     Multi-byte stream fields are read and written in the stream's byte
//     order (big-endian) and line words in the line's (little-endian) at
//     no extra cost: the byte order is this repository's convention, not
//     the hardware's.

// maxElems is the most elements a subroutine works on: the 64 two-byte
// elements of a 128-byte line.
const maxElems = 64

// vec is a vector register, pred a vector predicate (bit i: element i).
type (
	vec  [maxElems]uint64
	pred uint64
)

// warp is one assist warp running one subroutine.
type warp struct {
	n      int  // elements of the current vector shape
	groups int  // ⌈n/32⌉: warp instructions per vector instruction
	active pred // the active mask
	issued int  // warp instructions issued
}

// elems returns the predicate of the first n elements.
func elems(n int) pred {
	if n >= 64 {
		return ^pred(0)
	}
	return 1<<n - 1
}

// shape makes the warp work on n elements, all active: one uniform
// instruction that sets the active mask.
func (w *warp) shape(n int) {
	w.n, w.groups, w.active = n, (n+31)/32, elems(n)
	w.issued++
}

// vector and uniform charge one vector or one uniform instruction.
func (w *warp) vector()  { w.issued += w.groups }
func (w *warp) uniform() { w.issued++ }

// u is a uniform instruction that computes x.
func (w *warp) u(x uint64) uint64 { w.uniform(); return x }

// alu is a vector instruction: dst[i] = f(i) for every active element.
func (w *warp) alu(dst *vec, f func(i int) uint64) {
	w.vector()
	for i := range w.n {
		if w.active>>i&1 == 1 {
			dst[i] = f(i)
		}
	}
}

// setp is a vector compare: the predicate of f over the active elements
// (inactive elements read false).
func (w *warp) setp(f func(i int) bool) pred {
	w.vector()
	var p pred
	for i := range w.n {
		if w.active>>i&1 == 1 && f(i) {
			p |= 1 << i
		}
	}
	return p
}

// plop is a vector predicate operation (any function of predicates).
func (w *warp) plop(p pred) pred { w.vector(); return p & elems(w.n) }

// aluIf is alu predicated on p: only active elements with p set write.
func (w *warp) aluIf(p pred, dst *vec, f func(i int) uint64) {
	saved := w.active
	w.active &= p
	w.alu(dst, f)
	w.active = saved
}

// stIf is st predicated on p.
func (w *warp) stIf(p pred, mem []byte, width int, order endian, src *vec, addr func(i int) int) {
	saved := w.active
	w.active &= p
	w.st(mem, width, order, src, addr)
	w.active = saved
}

// any is a warp vote: whether p holds for some active element.
func (w *warp) any(p pred) bool { w.vector(); return p&w.active != 0 }

// shflDown is a vector shuffle: dst[i] = src[i+delta] (the source is read
// whether active or not; past the last element it reads 0).
func (w *warp) shflDown(dst, src *vec, delta int) {
	var tmp vec
	copy(tmp[:], src[delta:])
	w.alu(dst, func(i int) uint64 { return tmp[i] })
}

// ballot gathers a predicate of the active elements into a uniform
// register, one warp instruction per warp register.
func (w *warp) ballot(p pred) uint64 { w.vector(); return uint64(p & w.active) }

// all sets the global predicate: the AND of the active elements'
// predicates.
func (w *warp) all(p pred) bool { w.vector(); return p&w.active == w.active }

// bra is a uniform branch (taken or not).
func (w *warp) bra() { w.uniform() }

// setmask sets the active mask from a uniform register.
func (w *warp) setmask(p pred) { w.uniform(); w.active = p & elems(w.n) }

// bcast reads element i of v into a uniform register (an indexed shuffle).
func (w *warp) bcast(v *vec, i int) uint64 { w.uniform(); return v[i] }

// endian is the byte order of a memory access.
type endian bool

const (
	stream endian = true  // a stream field, big-endian
	memory endian = false // a line word, little-endian
)

func load(mem []byte, addr, width int, order endian) uint64 {
	var v uint64
	for j := range width {
		b := uint64(mem[addr+j])
		if order == stream {
			v = v<<8 | b
		} else {
			v |= b << (8 * j)
		}
	}
	return v
}

func store(mem []byte, addr, width int, order endian, v uint64) {
	for j := range width {
		if order == stream {
			mem[addr+width-1-j] = byte(v >> (8 * j))
		} else {
			mem[addr+j] = byte(v >> (8 * j))
		}
	}
}

// ld is a vector load of width bytes per active element from byte address
// addr(i) of mem, sign-extended from width bytes when signed.
func (w *warp) ld(dst *vec, mem []byte, width int, order endian, signed bool, addr func(i int) int) {
	w.alu(dst, func(i int) uint64 {
		v := load(mem, addr(i), width, order)
		if signed {
			v = uint64(int64(v<<(64-8*width)) >> (64 - 8*width))
		}
		return v
	})
}

// st is a vector store of the low width bytes of src per active element.
func (w *warp) st(mem []byte, width int, order endian, src *vec, addr func(i int) int) {
	w.vector()
	for i := range w.n {
		if w.active>>i&1 == 1 {
			store(mem, addr(i), width, order, src[i])
		}
	}
}

// uld and ust are uniform loads and stores of width ≤ 8 bytes.
func (w *warp) uld(mem []byte, addr, width int, order endian) uint64 {
	w.uniform()
	return load(mem, addr, width, order)
}

func (w *warp) ust(mem []byte, addr, width int, order endian, v uint64) {
	w.uniform()
	store(mem, addr, width, order, v)
}

// stride returns the address function base + step × element.
func stride(base, step int) func(int) int { return func(i int) int { return base + step*i } }

// evenLanes is the predicate of the even elements, a per-lane constant.
const evenLanes = pred(0x5555555555555555)

// sel is a select: a if cond, else b.
func sel(cond bool, a, b uint64) uint64 {
	if cond {
		return a
	}
	return b
}

// sext sign-extends the low b bits of v.
func sext(v uint64, b int) uint64 { return uint64(int64(v<<(64-b)) >> (64 - b)) }

// payloadOf returns the bits of enc after its first k tag bits as bytes
// (the data array's copy of the line, which hardware stores apart from the
// tag), with zero slack after them, and the tag.
func payloadOf(enc []byte, k int) (tag uint64, p []byte) {
	tag = uint64(enc[0]) >> (8 - k)
	p = make([]byte, len(enc)+8)
	for j := range len(enc) {
		var next byte
		if j+1 < len(enc) {
			next = enc[j+1]
		}
		p[j] = enc[j]<<k | next>>(8-k)
	}
	return tag, p
}

// withTag is the stream of a k-bit tag followed by payload bytes p.
func withTag(tag uint64, k int, p []byte) []byte {
	out := make([]byte, len(p)+1)
	out[0] = byte(tag << (8 - k))
	for j, b := range p {
		out[j] |= b >> k
		out[j+1] = b << (8 - k)
	}
	return out[:(k+8*len(p)+7)/8]
}
