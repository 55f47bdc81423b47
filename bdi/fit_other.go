//go:build !amd64 || !gc || purego || noasm

package bdi

// fitMasks writes the fit mask of each line of data to out.
func (c *Codec) fitMasks(data []byte, out []uint8) {
	for i := range out {
		out[i] = c.fitMaskGeneric(data[i*c.lineSize : (i+1)*c.lineSize])
	}
}
