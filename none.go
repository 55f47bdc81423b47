package linecomp

// none is the identity codec: the stream is the line itself. It is
// LATTE-CC's no-compression mode and the "not compressed" algorithm value
// of an inter-GPU link. It has no tag bits and no latency.
type none struct {
	lineSize  int
	encodings []Encoding
}

// noneLineSizes are the sizes "none" takes: every power of two from 4 to
// 4096 bytes, so that any cache or link geometry has an uncompressed mode.
var noneLineSizes = []int{4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}

func init() {
	Register(Info{
		Name:      "none",
		Paper:     "no compression: the line as it is",
		LineSizes: noneLineSizes,
	}, func(n int) (Codec, error) {
		return &none{n, []Encoding{{Name: "raw", Bits: 8 * n}}}, nil
	})
}

func (c *none) Name() string     { return "none" }
func (c *none) LineSize() int    { return c.lineSize }
func (c *none) TagBits() int     { return 0 }
func (c *none) Latency() Latency { return Latency{} }
func (c *none) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	return 8 * c.lineSize
}

func (c *none) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, LineSizeError("none", len(line), "lines of its configured size")
	}
	return append(dst, line...), 8 * c.lineSize, nil
}

func (c *none) Decompress(dst, enc []byte) ([]byte, error) {
	if len(enc) != c.lineSize {
		return dst, c.lengthError(enc)
	}
	return append(dst, enc...), nil
}

// Encodings reports the one encoding, the raw line.
func (c *none) Encodings() []Encoding { return c.encodings }

func (c *none) EncodingOf(enc []byte) (int, error) {
	if len(enc) != c.lineSize {
		return 0, c.lengthError(enc)
	}
	return 0, nil
}

// lengthError reports a stream that is not exactly one line long, at the
// bit where it ends early or where its surplus starts.
func (c *none) lengthError(enc []byte) error {
	return &CorruptError{Codec: "none", Offset: 8 * min(len(enc), c.lineSize), Reason: "stream is not exactly one line long"}
}
