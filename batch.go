package linecomp

import "fmt"

// Lines holds the encodings of consecutive lines in one buffer: line i's
// stream is Enc[start:End[i]], where start is End[i−1] (0 for line 0), and
// is Bits[i] bits long. Each stream is padded to whole bytes, as Compress
// makes it. Reuse a Lines across calls (after Reset) to avoid allocating.
type Lines struct {
	Enc  []byte
	End  []int
	Bits []int
}

// Reset empties l, keeping its buffers.
func (l *Lines) Reset() {
	l.Enc, l.End, l.Bits = l.Enc[:0], l.End[:0], l.Bits[:0]
}

// Len returns the number of lines in l.
func (l *Lines) Len() int { return len(l.End) }

// Line returns the encoding of line i.
func (l *Lines) Line(i int) []byte {
	start := 0
	if i > 0 {
		start = l.End[i-1]
	}
	return l.Enc[start:l.End[i]]
}

// SizeAppender is implemented by codecs with a batch kernel for Sizes.
// AppendSizes appends the size in bits of each line of data to dst; for
// data that is not a whole number of lines it returns dst unchanged and an
// error wrapping ErrPartialLine (see WholeLines).
type SizeAppender interface {
	AppendSizes(dst []int, data []byte) ([]int, error)
}

// LinesCompressor is implemented by codecs with a batch kernel for
// CompressLines. CompressLines appends the encoding of each line of data
// to dst; for data that is not a whole number of lines it leaves dst
// unchanged and returns an error wrapping ErrPartialLine (see WholeLines).
type LinesCompressor interface {
	CompressLines(dst *Lines, data []byte) error
}

// LinesDecompressor is implemented by codecs with a batch kernel for
// DecompressLines. Its DecompressLines appends to dst the lines of src
// from line from on that the kernel decodes, and returns how many. It
// stops before the first line it does not take: a malformed stream, an end
// offset before the line's start or past src.Enc, or any line the kernel
// leaves to Decompress. DecompressLines decodes that line with Decompress,
// which says what is wrong if anything is, and then calls the kernel again
// for the lines after it.
type LinesDecompressor interface {
	DecompressLines(dst []byte, src *Lines, from int) ([]byte, int)
}

// WholeLines returns nil when data is a whole number of c's lines, else an
// error wrapping ErrPartialLine that says how many bytes are over. The
// batch entry points and the codecs' batch kernels check their input with
// it.
func WholeLines(c Codec, data []byte) error {
	if n := c.LineSize(); len(data)%n != 0 {
		return fmt.Errorf("%w: %d bytes is %d %d-byte lines and %d bytes over", ErrPartialLine, len(data), len(data)/n, n, len(data)%n)
	}
	return nil
}

// Sizes appends the size in bits of each consecutive line of data to dst,
// using the codec's batch kernel when it has one. A data length that is not
// a whole number of lines is an error wrapping ErrPartialLine.
func Sizes(c Codec, dst []int, data []byte) ([]int, error) {
	if err := WholeLines(c, data); err != nil {
		return dst, err
	}
	if len(data) == 0 {
		return dst, nil
	}
	if s, ok := c.(SizeAppender); ok {
		return s.AppendSizes(dst, data)
	}
	n := c.LineSize()
	for off := 0; off < len(data); off += n {
		dst = append(dst, c.Size(data[off:off+n]))
	}
	return dst, nil
}

// CompressLines appends the encoding of each consecutive line of data to
// dst, using the codec's batch kernel when it has one. A data length that is
// not a whole number of lines is an error wrapping ErrPartialLine, and dst
// is left unchanged.
func CompressLines(c Codec, dst *Lines, data []byte) error {
	if dst == nil {
		return fmt.Errorf("%w: CompressLines given a nil *Lines", ErrConfig)
	}
	if err := WholeLines(c, data); err != nil {
		return err
	}
	if b, ok := c.(LinesCompressor); ok {
		return b.CompressLines(dst, data)
	}
	n := c.LineSize()
	for off := 0; off < len(data); off += n {
		enc, bits, err := c.Compress(dst.Enc, data[off:off+n])
		if err != nil {
			return err // cannot happen: the length was checked
		}
		dst.Enc = enc
		dst.End = append(dst.End, len(enc))
		dst.Bits = append(dst.Bits, bits)
	}
	return nil
}

// DecompressLines appends the lines that src encodes to dst, using the
// codec's batch kernel when it has one. On a malformed line it returns the
// lines decoded before it and an error that names the line and wraps
// ErrCorrupt.
func DecompressLines(c Codec, dst []byte, src *Lines) ([]byte, error) {
	if src == nil {
		return dst, fmt.Errorf("%w: DecompressLines given a nil *Lines", ErrConfig)
	}
	if len(src.End) != len(src.Bits) {
		return dst, fmt.Errorf("%w: Lines has %d ends but %d sizes", ErrCorrupt, len(src.End), len(src.Bits))
	}
	batch, _ := c.(LinesDecompressor)
	start := 0
	for i := 0; i < len(src.End); i++ {
		if batch != nil {
			var n int
			if dst, n = batch.DecompressLines(dst, src, i); n > 0 {
				if i += n; i == len(src.End) {
					break
				}
				start = src.End[i-1]
			}
		}
		end := src.End[i]
		if end < start || end > len(src.Enc) {
			return dst, fmt.Errorf("line %d: %w: end offset %d outside %d..%d", i, ErrCorrupt, end, start, len(src.Enc))
		}
		out, err := c.Decompress(dst, src.Enc[start:end])
		if err != nil {
			return dst, fmt.Errorf("line %d: %w", i, err)
		}
		dst, start = out, end
	}
	return dst, nil
}
