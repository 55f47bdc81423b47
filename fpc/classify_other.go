//go:build !amd64 || !gc || purego || noasm

package fpc

// classifyLines writes the kinds and summary of each line of data: line
// j's kinds go to kinds[j*LineSize()/4:], its summary to sums[j].
func (c *Codec) classifyLines(data []byte, kinds []uint8, sums []uint64) {
	classifyLinesGeneric(data, c.lineSize, kinds, sums)
}
