package linecomp

// Latency is a codec's hardware latency in cycles, as a source paper gives
// it. A field is [LatencyUnknown] where the paper gives only the other one.
type Latency struct{ Compress, Decompress int }

// LatencyUnknown marks a latency that no source paper gives. It is negative
// so that a simulator that forgets to check cannot mistake it for a cost.
const LatencyUnknown = -1

// Codec is one configured cache-line compressor: a fixed algorithm, variant
// and line size. All lengths are exact: a study counts bits, not bytes.
type Codec interface {
	// Name is the registry name, e.g. "bdi".
	Name() string
	// LineSize is the uncompressed line size in bytes that this instance takes.
	LineSize() int
	// TagBits is the number of leading bits of every encoding that hardware
	// keeps outside the data array (tag or metadata cache).
	TagBits() int
	// Compress appends the encoding of line to dst and returns the extended
	// buffer and the exact length of the encoding in bits. The encoding
	// occupies (bits+7)/8 bytes. len(line) must be LineSize(), otherwise the
	// error wraps ErrLineSize. dst and line must not overlap.
	Compress(dst, line []byte) (enc []byte, bits int, err error)
	// Decompress appends the LineSize() bytes that enc encodes to dst. A
	// malformed enc gives an error wrapping ErrCorrupt; then dst is returned
	// unchanged and nothing past len(dst) has been written.
	Decompress(dst, enc []byte) ([]byte, error)
	// Size returns the number of bits that Compress would produce for line,
	// without producing them. It returns -1 if len(line) != LineSize().
	Size(line []byte) int
	// Latency returns the compression and decompression latency in cycles.
	Latency() Latency
}

// Trainer is implemented by codecs whose code book is learned from the data
// (SC²). A simulator calls Observe for the lines of a sampling phase, then
// Rebuild to derive a new code book from what it observed. Lines compressed
// before a Rebuild must be decompressed by the codec state that made them.
type Trainer interface {
	Observe(line []byte)
	Rebuild() error
}
