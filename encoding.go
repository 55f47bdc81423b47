package linecomp

// Encoding is one line-level encoding of a codec: one of the ways a whole
// line can be stored, such as BDI's "base 8, delta 1", FPC's compressed
// words or a raw line.
type Encoding struct {
	// Name is short and stable, e.g. "b8d1", "raw", "zeros".
	Name string
	// Bits is the stream length in bits, TagBits included, of every line
	// stored with this encoding, or -1 when it varies from line to line.
	Bits int
}

// EncodingReporter is implemented by codecs that name their line-level
// encodings. A memory controller uses it to know whether a line's tag bits
// alone tell how many bursts to fetch (see [TagGivesSize]); a study uses it
// to count lines per encoding.
//
// A codec whose encodings all have a fixed Bits must tell them apart by its
// tag bits alone.
type EncodingReporter interface {
	// Encodings lists the codec's encodings; an encoding's number is its
	// index. The slice is the codec's own and must not be modified.
	Encodings() []Encoding
	// EncodingOf returns the number of the encoding of stream enc, read
	// from its leading bits. A stream that cannot start that way (too
	// short, an impossible code) gives an error wrapping ErrCorrupt. It does
	// not check the rest of the stream: Decompress does.
	EncodingOf(enc []byte) (int, error)
}

// TagGivesSize reports whether c's tag bits alone determine the length of
// every stream it makes: c reports its encodings and each has a fixed size.
// Otherwise a memory controller must keep the length (e.g. a burst count)
// beside the tag bits.
func TagGivesSize(c Codec) bool {
	r, ok := c.(EncodingReporter)
	if !ok {
		return false
	}
	for _, e := range r.Encodings() {
		if e.Bits < 0 {
			return false
		}
	}
	return true
}
