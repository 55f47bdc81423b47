package cpack

import "github.com/linecomp/linecomp"

// chunkLines is how many lines one planLines call covers: their ops and
// code lengths live on the stack and the input stays in the L1/L2 cache.
const chunkLines = 64

// AppendSizes appends the size in bits of each line of data to dst; data
// that is not a whole number of lines is an error wrapping
// linecomp.ErrPartialLine, with dst unchanged. It is the batch kernel
// behind linecomp.Sizes.
func (c *Codec) AppendSizes(dst []int, data []byte) ([]int, error) {
	if err := linecomp.WholeLines(c, data); err != nil {
		return dst, err
	}
	var ops [chunkLines * maxWords]op
	var bits [chunkLines]uint16
	for len(data) > 0 {
		n := min(len(data)/c.lineSize, chunkLines)
		c.planLines(data[:n*c.lineSize], ops[:], bits[:n])
		for _, b := range bits[:n] {
			_, total := c.layoutOf(int(b))
			dst = append(dst, total)
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
	if c.fused() {
		for ; len(data) > 0; data = data[c.lineSize:] {
			var buf streamBuf
			var nb int
			line := data[:c.lineSize]
			dst.Enc, nb = c.appendStream(dst.Enc, &buf, c.wordCodes(&buf, line))
			dst.End = append(dst.End, len(dst.Enc))
			dst.Bits = append(dst.Bits, nb)
		}
		return nil
	}
	var ops [chunkLines * maxWords]op
	var bits [chunkLines]uint16
	words := c.lineSize / 4
	for len(data) > 0 {
		n := min(len(data)/c.lineSize, chunkLines)
		c.planLines(data[:n*c.lineSize], ops[:], bits[:n])
		for i, b := range bits[:n] {
			var nb int
			dst.Enc, nb = c.encode(dst.Enc, data[i*c.lineSize:(i+1)*c.lineSize], (*[maxWords]op)(ops[i*words:]), int(b))
			dst.End = append(dst.End, len(dst.Enc))
			dst.Bits = append(dst.Bits, nb)
		}
		data = data[n*c.lineSize:]
	}
	return nil
}
