//go:build !amd64 || !gc || purego || noasm

package magbdi

// fitLevels writes the level of each line of data to out.
func (c *Codec) fitLevels(data []byte, out []uint8) { c.fitLevelsGeneric(data, out) }

// rawKernel reports that no raw-stream kernel applies.
func (c *Codec) rawKernel(dst, line []byte) ([]byte, bool) { return dst, false }

// unrawKernel reports that no raw-stream kernel applies.
func (c *Codec) unrawKernel(dst, enc []byte) ([]byte, bool) { return dst, false }
