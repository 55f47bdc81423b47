package fpc

import (
	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/lines"
)

// chunkLines is how many lines one classification call covers: its kinds
// and summaries live on the stack and its input stays in the L1/L2 cache.
const chunkLines = 64

// AppendSizes appends the size in bits of each line of data to dst; data
// that is not a whole number of lines is an error wrapping
// linecomp.ErrPartialLine, with dst unchanged. It is the batch kernel
// behind linecomp.Sizes.
func (c *Codec) AppendSizes(dst []int, data []byte) ([]int, error) {
	if err := linecomp.WholeLines(c, data); err != nil {
		return dst, err
	}
	var kinds [chunkLines * maxWords]uint8
	var sums [chunkLines]uint64
	for len(data) > 0 {
		n := min(len(data)/c.lineSize, chunkLines)
		c.classifyLines(data[:n*c.lineSize], kinds[:], sums[:n])
		for _, s := range sums[:n] {
			dst = append(dst, c.sizeOf(summary(s)))
		}
		data = data[n*c.lineSize:]
	}
	return dst, nil
}

// CompressLines appends the encoding of each line of data to dst; data
// that is not a whole number of lines is an error wrapping
// linecomp.ErrPartialLine, with dst unchanged. It is the batch kernel
// behind linecomp.CompressLines.
func (c *Codec) CompressLines(dst *linecomp.Lines, data []byte) error {
	if err := linecomp.WholeLines(c, data); err != nil {
		return err
	}
	var kinds [chunkLines * maxWords]uint8
	var sums [chunkLines]uint64
	if c.fused() && c.compressLinesFused(dst, data) {
		return nil
	}
	words := c.lineSize / 4
	for len(data) > 0 {
		n := min(len(data)/c.lineSize, chunkLines)
		c.classifyLines(data[:n*c.lineSize], kinds[:], sums[:n])
		for i, s := range sums[:n] {
			var bits int
			dst.Enc, bits = c.encode(dst.Enc, data[i*c.lineSize:(i+1)*c.lineSize], kinds[i*words:(i+1)*words], summary(s))
			dst.End = append(dst.End, len(dst.Enc))
			dst.Bits = append(dst.Bits, bits)
		}
		data = data[n*c.lineSize:]
	}
	return nil
}

// DecompressLines appends the lines of src from line from on to dst with
// the lines kernel (decodeLines) and returns how many it decoded: it stops
// before a line whose stream the kernel does not take or whose end offset
// is before its start or past src.Enc, which linecomp.DecompressLines then
// decodes with Decompress. It is the batch kernel behind
// linecomp.DecompressLines, and decodes nothing where the kernel does not
// apply (decodesLines, AVX-512).
//
// The kernel saves each line the call through the Codec interface and
// the checks of Decompress, and decodes consecutive streams of word codes
// two at a time, each line's serial walk over its codes running in the
// other's waits. It reads each stream in place, with its loads past the
// stream's end inside src.Enc's capacity; it leaves a stream of word codes
// within the walk's reach of the end of that capacity to Decompress, which
// copies it.
func (c *Codec) DecompressLines(dst []byte, src *linecomp.Lines, from int) ([]byte, int) {
	if !c.decodesLines() || cpu.Active() < cpu.AVX512 {
		return dst, 0
	}
	return lines.Decode(dst, src, from, c.lineSize, c.decodeLines)
}
