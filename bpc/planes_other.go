//go:build !amd64 || !gc || purego || noasm

package bpc

// transform computes the planes of line, a line of the codec's size.
func (c *Codec) transform(line []byte, ps *planeSet) { c.transformPadded(line, ps) }

// untranspose turns the DBP planes 0…31 into the deltas: a transpose.
func (c *Codec) untranspose(rows *[32]uint32) { transpose32(rows) }

// rebuild writes the words of the line whose DBX planes are dbx to line,
// as rebuildScalar does.
func (c *Codec) rebuild(dbx *[planeCount]uint32, dbpZero uint64, base uint32, line *[128]byte) {
	c.rebuildScalar(dbx, dbpZero, base, line)
}

// encodeKernel reports that there is no encode kernel: the caller encodes
// in Go.
func (c *Codec) encodeKernel(line, out []byte) (bits int, ok bool) { return 0, false }

// parse decodes the plane symbols of enc, as parseGeneric does.
func (c *Codec) parse(enc []byte, last uint64, pos uint, planes *[slack + planeCount]uint32) (uint, int, uint64) {
	return c.parseGeneric(enc, last, pos, planes)
}

// rebuildInto reports that there is no kernel that writes a line into
// dst: the caller rebuilds it in a buffer.
func (c *Codec) rebuildInto(out []byte, dbx *[planeCount]uint32, base uint32) bool { return false }

// decodeInto reports that there is no one-call decode kernel: decodeFast
// takes its general path.
func (c *Codec) decodeInto(out, enc []byte) bool { return false }

// hasDecodeKernel reports that decodeInto has no kernel.
func (c *Codec) hasDecodeKernel() bool { return false }

// decode64 reports that no kernel decoded enc.
func (c *Codec) decode64(out *[64]byte, enc []byte) bool { return false }

// decodeLines decodes no line: there is no lines kernel.
func (c *Codec) decodeLines(out, enc []byte, start int, ends []int) int { return 0 }

// hasEncodeKernel reports that encodeKernel has no kernel.
func (c *Codec) hasEncodeKernel() bool { return false }

// encode64 reports that there is no encode kernel.
func (c *Codec) encode64(line *[64]byte, out *[65]byte) (bits int, ok bool) { return 0, false }
