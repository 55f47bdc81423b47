package caba

import (
	"bytes"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/linecomptest"
)

// FuzzDecompress: on any stream, DecompressInstructions fails exactly when
// Decompress does, with the same error; a stream Decompress accepts, also
// one Compress would not make, decodes on the lane model to the serial
// decoder's line in the instructions DecompressInstructions gives.
func FuzzDecompress(f *testing.F) {
	for i, name := range names {
		for _, n := range codectest.LineSizes {
			c, _ := linecomp.New(name, n)
			for _, line := range linecomptest.EdgeLines(n)[:4] {
				enc, _, _ := c.Compress(nil, line)
				f.Add(uint8(i), uint8(n/64), enc)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which, size uint8, enc []byte) {
		n := codectest.LineSizes[int(size)%len(codectest.LineSizes)]
		lc, _ := linecomp.New(names[int(which)%len(names)], n)
		c := lc.(AssistWarpCoster)
		line, err := c.Decompress(nil, enc)
		count, cerr := c.DecompressInstructions(enc)
		if (err == nil) != (cerr == nil) || err != nil && err.Error() != cerr.Error() {
			t.Fatalf("%s/%d % X: Decompress %v, DecompressInstructions %v", c.Name(), n, enc, err, cerr)
		}
		if err != nil {
			return
		}
		got, issued := modelOf(c).decompress(enc)
		if !bytes.Equal(got, line) || issued != count {
			t.Fatalf("%s/%d % X: lane model % X in %d, serial % X in %d", c.Name(), n, enc, got, issued, line, count)
		}
	})
}
