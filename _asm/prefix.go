package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// dwordPrefix returns the prefix sums of the 16 dwords of x plus start:
// lane i holds start + x0 + … + xi (inclusive) or start + x0 + … + x(i−1).
// zero is a zero vector. It is short in latency rather than in
// instructions, for the kernels whose critical chain it is on: within each
// 128-bit lane, byte shifts of x side by side, added; each lane's total,
// in all its dwords, moved up one, two and three lanes by three
// lane-crossing shifts side by side, added. On the Zen 5-class VM of the
// benchmarks, where an add or a shift within lanes takes 2 cycles and one
// across lanes 5, that is 21 cycles (a throwaway loop read 23 for the
// exclusive sum) against 34 for the shift and four dependent
// shift-and-add steps it replaced, each shift crossing lanes. The same
// kind of change to fpc's qword prefix sum (qwordPrefix) ran slower, so
// it was left as it is.
func dwordPrefix(x, zero VecVirtual, inclusive bool, start int) VecVirtual {
	a, b, c := ZMM(), ZMM(), ZMM()
	VPSLLDQ(U8(4), x, a) // lane i: x[i−1] within its 128-bit lane, or 0
	VPSLLDQ(U8(8), x, b)
	VPSLLDQ(U8(12), x, c)
	VPADDD(b, a, a)
	in := ZMM()
	VPADDD(x, c, in)
	VPADDD(a, in, in) // the inclusive sum within each lane
	sum := in
	if !inclusive {
		sum = ZMM()
		VPADDD(c, a, sum)
	}
	t := ZMM()
	VPSHUFD(U8(0xFF), in, t) // each lane's total in all its dwords
	s1, s2, s3 := ZMM(), ZMM(), ZMM()
	VALIGND(U8(12), zero, t, s1) // lane i: t[i−4], or 0
	VALIGND(U8(8), zero, t, s2)
	VALIGND(U8(4), zero, t, s3)
	VPADDD(s2, s1, s1)
	if start != 0 {
		VPADDD_BCST(rodata(fmt.Sprintf("d%x", start), uint64(start)), s3, s3)
	}
	VPADDD(s3, s1, s1)
	VPADDD(s1, sum, sum)
	return sum
}
