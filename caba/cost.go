package caba

import (
	"github.com/linecomp/linecomp"
)

// The instruction tables of the lane model (package doc, "Assist-warp
// instructions"). They are closed forms of the subroutines that the tests
// run on a model warp (warp_test.go, lanes_test.go), which must issue
// exactly these counts on every corpus line.

var (
	_ AssistWarpCoster = (*BDI)(nil)
	_ AssistWarpCoster = (*FPC)(nil)
	_ AssistWarpCoster = (*CPack)(nil)
)

// groups is the number of warp instructions of one vector instruction over
// n elements: ⌈n/32⌉.
func groups(n int) int { return (n + 31) / 32 }

// decompressCost is the instructions of the decompression subroutine of
// encoding e (Algorithm 1).
func (c *BDI) decompressCost(e int) int {
	switch e {
	case 0:
		return 2 // setmask, st
	case 1:
		return 4 // setmask, uld, mov, st
	case bdiRaw:
		return 0 // no assist warp
	}
	g := groups(c.lineSize / bdiShape[e].k)
	return 5 + 3*g // setmask, uld mask, uld base, setmask ×2; ld, add, st per group
}

// tryCost is the instructions of trying encoding e and finding it does not
// fit (Algorithm 2, lines 2–5); storeCost what storing it adds (line 6).
func (c *BDI) tryCost(e int) (try, store int) {
	switch e {
	case 0:
		return 5, 0 // setmask, ld, setp, vote.all, bra
	case 1:
		return 6, 1 // setmask, ld, shfl, setp, vote.all, bra; ust
	case bdiRaw:
		return 0, 0
	}
	g := groups(c.lineSize / bdiShape[e].k)
	// setmask, ffs, shfl, selp, bra; per group ld, add, setp, ballot, sub,
	// add, setp, plop, vote.all. Store: ust mask, ust base; per group selp, st.
	return 5 + 9*g, 2 + 2*g
}

// compressCost is the instructions of compressing a line whose encoding
// is e: every encoding before e in the order tried and rejected, then e.
func (c *BDI) compressCost(e int) int {
	n := 0
	for _, f := range c.order {
		try, store := c.tryCost(int(f))
		n += try
		if int(f) == e {
			return n + store
		}
	}
	return n
}

// DecompressInstructions returns the warp instructions that decompress
// enc: a fixed number per encoding (package doc), 0 for a raw line. A
// malformed enc gives the *linecomp.CorruptError that Decompress gives.
func (c *BDI) DecompressInstructions(enc []byte) (int, error) {
	var out [128]byte
	e, err := c.decode(&out, enc)
	if err != nil {
		return 0, err
	}
	return c.decompressCost(e), nil
}

// CompressInstructions returns the warp instructions that compress line: a
// fixed number per encoding chosen, which includes trying and rejecting
// every shorter encoding (package doc).
func (c *BDI) CompressInstructions(line []byte) (int, error) {
	if len(line) != c.lineSize {
		return 0, linecomp.LineSizeError(c.Name(), len(line), "lines of its configured size")
	}
	return c.compressCost(c.choose(line)), nil
}

// FPC costs, per segment pattern.
var (
	// fpcDecompressSegment: bfe, brx, the pattern's code (ld, ALU, st), the
	// step of segment-base-address (not for a zero segment), bra.
	fpcDecompressSegment = [fpcPatterns]int{4, 7, 6, 6, 7, 11, 7, 6}
	// fpcTest: testing one pattern on a segment's lanes, vote.all and bra
	// included; the uncompressed word needs no test.
	fpcTest = [fpcPatterns]int{3, 4, 4, 4, 4, 10, 5, 0}
	// fpcStore: storing a segment's data (Algorithm 4, line 7).
	fpcStore = [fpcPatterns]int{0, 3, 1, 1, 2, 3, 1, 1}
)

const (
	fpcDecompressFixed = 3 // setmask, uld prefixes, mov segment-base-address
	fpcCompressFixed   = 4 // setmask, ld words, mov address, mov prefixes
	fpcCompressEnd     = 2 // setp shorter than the line, bra (+1 ust prefixes if so)
)

// fpcCompressSegment is the instructions of one segment of Algorithm 4
// whose pattern is p: setmask, the tests of every pattern up to p, the
// store, the address step (not for a zero segment) and the prefix's bfi.
func fpcCompressSegment(p int) int {
	n := 1 + fpcStore[p] + 1
	for q := 0; q <= p; q++ {
		n += fpcTest[q]
	}
	if p != FPCZeroSegment {
		n++
	}
	return n
}

// DecompressInstructions returns the warp instructions that decompress
// enc: a fixed part plus one term per segment, by its pattern (package
// doc), 0 for a raw line. A malformed enc gives the
// *linecomp.CorruptError that Decompress gives.
func (c *FPC) DecompressInstructions(enc []byte) (int, error) {
	var out [128]byte
	pl, raw, err := c.decode(&out, enc)
	if err != nil || raw {
		return 0, err
	}
	n := fpcDecompressFixed
	for s := range c.segs {
		n += fpcDecompressSegment[pl.pattern[s]]
	}
	return n, nil
}

// CompressInstructions returns the warp instructions that compress line: a
// fixed part plus one term per segment, by its pattern (package doc),
// whether the line ends up compressed or raw.
func (c *FPC) CompressInstructions(line []byte) (int, error) {
	if len(line) != c.lineSize {
		return 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	pl := c.plan(line)
	n := fpcCompressFixed + fpcCompressEnd
	for s := range c.segs {
		n += fpcCompressSegment(int(pl.pattern[s]))
	}
	if c.compressed(&pl) {
		n++ // ust the prefixes
	}
	return n, nil
}

// C-Pack costs.
var (
	// cpackDecompressUsed: what each word code used in a line adds to
	// decompression: setmask and its code (mov, mov, ld, ld+and+or).
	cpackDecompressUsed = [4]int{2, 2, 2, 4}
)

const (
	// cpackDecompressFixed: setmask, ld code, bfe code, bfe ×3 fields, mad
	// dictionary address, setp+ballot ×4, bra ×4, setmask, st.
	cpackDecompressFixed = 21
	// cpackCompressFixed: setmask, ld, setp ×2, selp, and, mov, vote.any, bra.
	cpackCompressFixed = 9
	// cpackCompressValue: one dictionary value: ballot, ffs, shfl, ust,
	// setmask, setp, xor, setp, selp, mov, mov, plop, setmask, vote.any, bra.
	cpackCompressValue = 15
	// cpackCompressStore: bfi ×2, shfl, shl, or, shr, st ×2.
	cpackCompressStore = 8
)

// DecompressInstructions returns the warp instructions that decompress
// enc: a fixed part plus one term per word code the line uses (package
// doc), 0 for a raw line. A malformed enc gives the
// *linecomp.CorruptError that Decompress gives.
func (c *CPack) DecompressInstructions(enc []byte) (int, error) {
	var out [128]byte
	used, _, err := c.decode(&out, enc)
	if err != nil {
		return 0, err
	}
	if used == 0 {
		return 0, nil // raw
	}
	n := cpackDecompressFixed
	for e := range 4 {
		if used>>e&1 == 1 {
			n += cpackDecompressUsed[e]
		}
	}
	return n, nil
}

// CompressInstructions returns the warp instructions that compress line: a
// fixed part, one term per dictionary value taken and the store of a
// compressed line (package doc); a raw line took four values.
func (c *CPack) CompressInstructions(line []byte) (int, error) {
	if len(line) != c.lineSize {
		return 0, linecomp.LineSizeError(c.Name(), len(line), "lines of its configured size")
	}
	pl := c.plan(line)
	if !pl.ok {
		return cpackCompressFixed + cpackDict*cpackCompressValue, nil
	}
	return cpackCompressFixed + pl.n*cpackCompressValue + cpackCompressStore, nil
}
