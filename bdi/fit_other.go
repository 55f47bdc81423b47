//go:build !amd64 || !gc || purego || noasm

package bdi

// fitMasks writes the fit mask of each line of data to out.
func (c *Codec) fitMasks(data []byte, out []uint8) { c.fitMasksGeneric(data, out) }

// singleIDs writes the id of the B+Δ encoding of each line of data to ids.
func (c *Codec) singleIDs(data []byte, ids []uint8) { c.singleIDsGeneric(data, ids) }

// encodeKernel reports that no encode kernel applies.
func (c *Codec) encodeKernel(out *[128]byte, line []byte, id int) bool { return false }

// rawKernel reports that no raw-encoding kernel applies.
func (c *Codec) rawKernel(out *[129]byte, line []byte) bool { return false }
