//go:build !amd64 || !gc || purego || noasm

package magbdi

// fitLevels writes the level of each line of data to out.
func (c *Codec) fitLevels(data []byte, out []uint8) { c.fitLevelsGeneric(data, out) }
