package magbdi

import (
	"slices"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
)

// noLevel is the kernels' result for a line that fits no compressed size.
const noLevel = 0xFF

// levelGeneric is the pure-Go level of one line: the index of the smallest
// compressed size it fits, or noLevel. It is the definition the assembly
// kernels must match.
func (c *Codec) levelGeneric(line []byte) uint8 {
	for i, l := range c.levels {
		if _, _, ok := c.fit(line, l.width); ok {
			return uint8(i)
		}
	}
	return noLevel
}

// fitLevelsGeneric writes the pure-Go level of each line of data to out.
func (c *Codec) fitLevelsGeneric(data []byte, out []uint8) {
	for i := range out {
		out[i] = c.levelGeneric(data[i*c.lineSize : (i+1)*c.lineSize])
	}
}

// code maps a level to the encoding field.
func (c *Codec) code(level uint8) int {
	if level == noLevel {
		return int(c.uncompressedCode())
	}
	return int(level)
}

// chunkLines is how many lines a batch kernel call covers.
const chunkLines = 256

// AppendSizes appends the size in bits of each line of data to dst; data
// that is not a whole number of lines is an error wrapping
// linecomp.ErrPartialLine, with dst unchanged. It is the batch kernel
// behind linecomp.Sizes.
func (c *Codec) AppendSizes(dst []int, data []byte) ([]int, error) {
	if err := linecomp.WholeLines(c, data); err != nil {
		return dst, err
	}
	var levels [chunkLines]uint8
	for len(data) > 0 {
		n := min(len(data)/c.lineSize, chunkLines)
		c.fitLevels(data[:n*c.lineSize], levels[:n])
		// Level l is (l+1)·MAG bytes, and noLevel's 256 MAGs are more than
		// the raw line: a min, with no branch, instead of encodedBits.
		tag, mag, size := int(c.tagBits), c.mag, c.lineSize
		dst = slices.Grow(dst, n)
		out := dst[len(dst) : len(dst)+n]
		for i, l := range levels[:n] {
			out[i] = tag + 8*min((int(l)+1)*mag, size)
		}
		dst = dst[:len(dst)+n]
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
	if (c.oneCall64 || c.oneCall128) && cpu.Active() >= cpu.AVX512 && c.compressLinesKernel(dst, data) {
		return nil
	}
	var levels [chunkLines]uint8
	for len(data) > 0 {
		n := min(len(data)/c.lineSize, chunkLines)
		c.fitLevels(data[:n*c.lineSize], levels[:n])
		for i, l := range levels[:n] {
			code := c.code(l)
			dst.Enc = c.encode(dst.Enc, data[i*c.lineSize:(i+1)*c.lineSize], code)
			dst.End = append(dst.End, len(dst.Enc))
			dst.Bits = append(dst.Bits, c.encodedBits(code))
		}
		data = data[n*c.lineSize:]
	}
	return nil
}
