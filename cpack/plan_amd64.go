//go:build amd64 && gc && !purego && !noasm

package cpack

import (
	"unsafe"

	"github.com/linecomp/linecomp/internal/cpu"
)

// planOps codes every word of line into ops and returns the length in bits
// of the word codes, with the AVX-512 kernel when the CPU has it.
func (c *Codec) planOps(line []byte, ops *[maxWords]op) int {
	if cpu.Active() >= cpu.AVX512 {
		return cpackPlanAVX512(line, opBytes(ops)[:c.lineSize/4], &c.planTab)
	}
	return c.planGeneric(line, ops)
}

// opBytes views ops as the bytes the kernels write.
func opBytes(ops *[maxWords]op) *[maxWords]uint8 { return (*[maxWords]uint8)(unsafe.Pointer(ops)) }
