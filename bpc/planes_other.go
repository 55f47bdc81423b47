//go:build !amd64 || !gc || purego || noasm

package bpc

// planes computes the planes of a line zero-padded to 128 bytes.
func (c *Codec) planes(line *[128]byte, ps *planeSet) {
	planesGeneric(line, c.flip(), c.planeMask, ps)
}

// untranspose turns the DBP planes 0…31 into the deltas: a transpose.
func (c *Codec) untranspose(rows *[32]uint32) { transpose32(rows) }
