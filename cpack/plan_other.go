//go:build !amd64 || !gc || purego || noasm

package cpack

// planOps codes every word of line into ops and returns the length in bits
// of the word codes.
func (c *Codec) planOps(line []byte, ops *[maxWords]op) int { return c.planGeneric(line, ops) }

// planLines codes each line of data, a whole number of lines: the ops of
// line j go to ops[j*LineSize()/4:], the length of its word codes to
// bits[j].
func (c *Codec) planLines(data []byte, ops []op, bits []uint16) {
	c.planLinesGeneric(data, ops, bits)
}

// emit writes the flag and the word codes of ops into buf.
func (c *Codec) emit(buf *streamBuf, line []byte, ops *[maxWords]op) { c.emitGeneric(buf, line, ops) }

// fused reports whether Compress codes a line with one kernel call; there
// is no such kernel here.
func (c *Codec) fused() bool { return false }

// wordCodes is wordCodesGeneric.
func (c *Codec) wordCodes(buf *streamBuf, line []byte) int { return c.wordCodesGeneric(buf, line) }

// decodeWords is decodeWordsGeneric.
func (c *Codec) decodeWords(line *[128]byte, buf *decodeBuf) (pos uint, ok bool) {
	return c.decodeWordsGeneric(line, buf)
}
