//go:build amd64 && gc && !purego && !noasm

package bpc

import "github.com/linecomp/linecomp/internal/cpu"

// planes computes the planes of a line zero-padded to 128 bytes, with the
// best kernel the CPU has.
func (c *Codec) planes(line *[128]byte, ps *planeSet) {
	if cpu.Active() >= cpu.AVX2 {
		bpcPlanesAVX2(line, c.flip(), c.planeMask, &ps.dbx, &ps.cls)
		return
	}
	planesGeneric(line, c.flip(), c.planeMask, ps)
}

// untranspose turns the DBP planes 0…31 into the deltas: a transpose.
func (c *Codec) untranspose(rows *[32]uint32) {
	if cpu.Active() >= cpu.AVX2 {
		bpcTransposeAVX2(rows)
		return
	}
	transpose32(rows)
}
