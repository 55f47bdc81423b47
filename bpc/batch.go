package bpc

import (
	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/lines"
)

// DecompressLines appends the lines of src from line from on to dst with
// the lines kernel (decodeLines) and returns how many it decoded: it stops
// before a line whose stream the kernel does not take or whose end offset
// is before its start or past src.Enc, which linecomp.DecompressLines then
// decodes with Decompress. It is the batch decoder behind
// linecomp.DecompressLines, and decodes nothing where there is no kernel
// (64-byte lines, AVX-512 with VBMI and GFNI).
//
// The kernel saves each line the call through the Codec interface and
// the checks of Decompress, and it makes the next line's table of step
// lengths while this line's steps, a chain, wait on each other.
func (c *Codec) DecompressLines(dst []byte, src *linecomp.Lines, from int) ([]byte, int) {
	if !c.hasDecodeKernel() {
		return dst, 0
	}
	return lines.Decode(dst, src, from, c.lineSize, c.decodeLines)
}
