//go:build !amd64 || !gc || purego || noasm

package magbdi

// fitLevels writes the level of each line of data to out.
func (c *Codec) fitLevels(data []byte, out []uint8) {
	for i := range out {
		out[i] = c.levelGeneric(data[i*c.lineSize : (i+1)*c.lineSize])
	}
}
