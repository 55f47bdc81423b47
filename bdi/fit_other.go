//go:build !amd64 || !gc || purego || noasm

package bdi

// fitMasks writes the fit mask of each line of data to out.
func (c *Codec) fitMasks(data []byte, out []uint8) { c.fitMasksGeneric(data, out) }
