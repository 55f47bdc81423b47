//go:build !amd64 || !gc || purego || noasm

package bpc

// transform computes the planes of line, a line of the codec's size.
func (c *Codec) transform(line []byte, ps *planeSet) { c.transformPadded(line, ps) }

// untranspose turns the DBP planes 0…31 into the deltas: a transpose.
func (c *Codec) untranspose(rows *[32]uint32) { transpose32(rows) }
