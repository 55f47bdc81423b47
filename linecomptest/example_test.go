package linecomptest_test

import (
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/linecomptest"
)

// zeroOrRaw is a user's own codec for 64-byte lines: a 1-bit flag, 0 for
// an all-zero line (the whole stream), 1 for a line stored as it is after
// the flag (513 bits).
type zeroOrRaw struct{}

const lineSize = 64

func (zeroOrRaw) Name() string              { return "zero-or-raw" }
func (zeroOrRaw) LineSize() int             { return lineSize }
func (zeroOrRaw) TagBits() int              { return 1 }
func (zeroOrRaw) Latency() linecomp.Latency { return linecomp.Latency{Compress: 1, Decompress: 1} }

func isZero(line []byte) bool {
	for _, b := range line {
		if b != 0 {
			return false
		}
	}
	return true
}

func (zeroOrRaw) Size(line []byte) int {
	switch {
	case len(line) != lineSize:
		return -1
	case isZero(line):
		return 1
	}
	return 1 + 8*lineSize
}

func (zeroOrRaw) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != lineSize {
		return dst, 0, linecomp.LineSizeError("zero-or-raw", len(line), "64 bytes")
	}
	if isZero(line) {
		return append(dst, 0), 1, nil
	}
	// Copy the line first: dst may overlap it.
	var in [lineSize]byte
	copy(in[:], line)
	prev := byte(1) // the flag
	for _, b := range in {
		dst = append(dst, prev<<7|b>>1)
		prev = b
	}
	return append(dst, prev<<7), 1 + 8*lineSize, nil
}

func (zeroOrRaw) Decompress(dst, enc []byte) ([]byte, error) {
	switch {
	case len(enc) == 1 && enc[0] == 0:
		var zero [lineSize]byte
		return append(dst, zero[:]...), nil
	case len(enc) == lineSize+1 && enc[0]&0x80 != 0 && enc[lineSize]&0x7F == 0:
		var out [lineSize]byte // decode fully before touching dst
		for i := range out {
			out[i] = enc[i]<<1 | enc[i+1]>>7
		}
		return append(dst, out[:]...), nil
	}
	return dst, &linecomp.CorruptError{Codec: "zero-or-raw", Offset: 0, Reason: "neither a zero line nor a raw line"}
}

// A user's own codec passes every check on the edge lines.
func Example() {
	err := linecomptest.TestCodec(zeroOrRaw{}, linecomptest.EdgeLines(lineSize))
	fmt.Println("zero-or-raw:", err)
	// Output:
	// zero-or-raw: <nil>
}
