package bdi

import (
	"encoding/binary"
	"slices"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/lines"
)

// A fit mask describes which encodings a line fits, as the kernels compute
// it: bit id set means encoding id fits. It is not the full set: an
// all-zero line has only bit Zeros, a line of repeated words only bit
// Repeated, and for each element width only the narrowest delta that fits
// is set. A line that fits d-byte deltas also fits wider ones (the wider
// range holds every difference of two narrow deltas), and the narrowest is
// the smallest encoding of that width, so the smallest encoding among the
// set bits is the smallest of all. Since base8-Δ1 is the smallest
// base-delta encoding at every line size, a line that fits it has only
// that bit.

// fitMaskGeneric is the pure-Go fit mask of one line: the definition the
// assembly kernels must match bit for bit.
func (c *Codec) fitMaskGeneric(line []byte) uint8 {
	var or, diff uint64
	first := binary.LittleEndian.Uint64(line)
	for i := 0; i < len(line); i += 8 {
		w := binary.LittleEndian.Uint64(line[i:])
		or |= w
		diff |= w ^ first
	}
	if or == 0 {
		return 1 << Zeros
	}
	if diff == 0 {
		return 1 << Repeated
	}
	fits := func(k, d int) bool {
		_, _, ok := c.fit(line, k, d)
		return ok
	}
	var m uint8
	if fits(8, 4) {
		switch {
		case !fits(8, 2):
			m |= 1 << Base8Delta4
		case !fits(8, 1):
			m |= 1 << Base8Delta2
		default:
			return 1 << Base8Delta1
		}
	}
	if fits(4, 2) {
		if fits(4, 1) {
			m |= 1 << Base4Delta1
		} else {
			m |= 1 << Base4Delta2
		}
	}
	if fits(2, 1) {
		m |= 1 << Base2Delta1
	}
	return m
}

// fitMasksGeneric writes the pure-Go fit mask of each line of data to out.
func (c *Codec) fitMasksGeneric(data []byte, out []uint8) {
	for i := range out {
		out[i] = c.fitMaskGeneric(data[i*c.lineSize : (i+1)*c.lineSize])
	}
}

// The B+Δ (single-base) kernels decide the encoding outright: they compute
// every test for every line without branches and return the id of the
// smallest encoding that fits (see _asm/bdi.go).

// idGeneric is the pure-Go id of the encoding of one line, under the
// codec's rules (the fit mask knows the variant): the definition the B+Δ
// and the choose kernels must match.
func (c *Codec) idGeneric(line []byte) uint8 {
	return c.tables.best()[c.fitMaskGeneric(line)]
}

// chooseIDs writes the id of the encoding of each line of data to ids.
func (c *Codec) chooseIDs(data []byte, ids []uint8) {
	if c.singleBase {
		c.singleIDs(data, ids)
		return
	}
	c.twoBaseIDs(data, ids)
}

// The choose kernels decide the encoding of the two-base BDI (default
// delta rules) outright, as the B+Δ kernels do: every (k, d) test on every
// line without branches, the base of each found with a bit scan of the
// lanes that do not fit the zero base (see _asm/bdi.go).

// idsFromFitMasks writes the id of the encoding of each line of data to
// ids by way of its fit mask (from a kernel for the two-base rules, in
// pure Go otherwise).
func (c *Codec) idsFromFitMasks(data []byte, ids []uint8) {
	c.fitMasks(data, ids)
	for i, m := range ids {
		ids[i] = c.tables.best()[m]
	}
}

// chooseID returns the id of the encoding of line.
func (c *Codec) chooseID(line []byte) int {
	var id [1]uint8
	c.chooseIDs(line, id[:])
	return int(id[0])
}

// buildTables fills best, the smallest encoding (ties to the lower id) for
// every fit mask, and idBits.
func (c *Codec) buildTables() {
	table := c.tables.best()
	for m := range table {
		best := Uncompressed
		for id := 0; id < 8; id++ {
			if m&(1<<id) != 0 && c.encodedBits(id) < c.encodedBits(best) {
				best = id
			}
		}
		table[m] = uint8(best)
	}
	for id := range c.idBits {
		if id <= Base2Delta1 || id == Uncompressed {
			c.idBits[id] = uint16(c.encodedBits(id))
		}
	}
}

// chunkLines is how many lines a batch kernel call covers: its masks live
// on the stack and its input stays in the L1/L2 cache.
const chunkLines = 256

// AppendSizes appends the size in bits of each line of data to dst; data
// that is not a whole number of lines is an error wrapping
// linecomp.ErrPartialLine, with dst unchanged. It is the batch kernel
// behind linecomp.Sizes.
func (c *Codec) AppendSizes(dst []int, data []byte) ([]int, error) {
	if err := linecomp.WholeLines(c, data); err != nil {
		return dst, err
	}
	var ids [chunkLines]uint8
	lines := len(data) / c.lineSize
	dst = slices.Grow(dst, lines)
	if c.sizesKernel(data, dst[len(dst):len(dst)+lines]) {
		return dst[:len(dst)+lines], nil
	}
	for len(data) > 0 {
		n := min(len(data)/c.lineSize, chunkLines)
		out := dst[len(dst) : len(dst)+n]
		c.chooseIDs(data[:n*c.lineSize], ids[:n])
		for i, id := range ids[:n] {
			out[i] = int(c.idBits[id&0xF])
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
	if c.lineSize == c.oneCallLine && c.compressLinesKernel(dst, data) {
		return nil
	}
	var ids [chunkLines]uint8
	for len(data) > 0 {
		n := min(len(data)/c.lineSize, chunkLines)
		dst.Enc = slices.Grow(dst.Enc, n*(c.lineSize+1)) // room for n raw lines
		dst.End = slices.Grow(dst.End, n)
		dst.Bits = slices.Grow(dst.Bits, n)
		c.chooseIDs(data[:n*c.lineSize], ids[:n])
		for i, id := range ids[:n] {
			dst.Enc = c.encode(dst.Enc, data[i*c.lineSize:(i+1)*c.lineSize], int(id))
			dst.End = append(dst.End, len(dst.Enc))
			dst.Bits = append(dst.Bits, int(c.idBits[id&0xF]))
		}
		data = data[n*c.lineSize:]
	}
	return nil
}

// DecompressLines appends the lines of src from line from on to dst with
// the one-call decompress kernel in a loop (decodeLines), and returns how
// many it decoded: it stops
// before a line whose stream is malformed or whose end offset is out of
// order, which linecomp.DecompressLines then decodes with Decompress. It
// is the batch kernel behind linecomp.DecompressLines, and decodes nothing
// where the kernels do not apply.
func (c *Codec) DecompressLines(dst []byte, src *linecomp.Lines, from int) ([]byte, int) {
	if !c.oneCallDecode || cpu.Active() < cpu.AVX512 {
		return dst, 0
	}
	return lines.Decode(dst, src, from, c.lineSize, c.decodeLines)
}
