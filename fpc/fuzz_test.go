package fpc

import (
	"errors"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/linecomptest"
)

var fuzzNames = []string{"fpc", "fpc-tavana"}

// FuzzDecode feeds arbitrary streams to Decompress. Beyond what the root
// FuzzDecompress checks for every codec, it checks FPC's optimality: a line
// it decodes must round-trip through Compress in no more bits than the
// stream had, since per-word cheapest codes and greedy zero runs leave no
// shorter stream of the layout.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0x8E}, uint8(0))
	f.Add([]byte{0x80}, uint8(1))
	f.Add(packBits("1 000111 000000"), uint8(0))
	f.Add(packBits("1 011 0001 000"), uint8(1))
	f.Add([]byte{0x82, 0x4D, 0x40, 0x41, 0x23, 0x4A, 0x0A, 0x07, 0xAA, 0xF8, 0x91, 0xA2, 0xB3, 0xC0}, uint8(0))
	f.Fuzz(func(t *testing.T, enc []byte, sel uint8) {
		name := fuzzNames[int(sel)%len(fuzzNames)]
		n := codectest.LineSizes[int(sel/2)%len(codectest.LineSizes)]
		c, err := linecomp.New(name, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := linecomptest.CheckGarbage(c, enc); err != nil {
			t.Fatal(err)
		}
		line, err := c.Decompress(nil, enc)
		if err != nil {
			return
		}
		var s linecomptest.Scratch
		if err := codectest.Conform(c, "", line, &s); err != nil {
			t.Fatalf("%s: decoded %X from %X: %v", name, line, enc, err)
		}
		// Per-word cheapest codes and greedy runs make Compress optimal
		// for the layout: no stream that decodes to the line is shorter.
		if bits := c.Size(line); bits > 8*len(enc) {
			t.Fatalf("%s: %X decodes to %X, which Compress codes in %d bits, more than %d", name, enc, line, bits, 8*len(enc))
		}
	})
}

// FuzzEncodingOf: EncodingOf never panics, names an encoding of the list
// or fails with ErrCorrupt on an empty stream, and a stream that decodes
// and whose encoding has a fixed size is exactly that long.
func FuzzEncodingOf(f *testing.F) {
	f.Add([]byte{}, uint8(0))
	f.Add([]byte{0x80}, uint8(1))
	f.Add([]byte{0x8E}, uint8(0))
	f.Add(append([]byte{0x00}, make([]byte, 32)...), uint8(1))
	f.Fuzz(func(t *testing.T, enc []byte, sel uint8) {
		name := fuzzNames[int(sel)%len(fuzzNames)]
		n := codectest.LineSizes[int(sel/2)%len(codectest.LineSizes)]
		c := mustNew(t, name, n).(*Codec)
		e, err := c.EncodingOf(enc)
		if err != nil {
			if !errors.Is(err, linecomp.ErrCorrupt) || len(enc) != 0 {
				t.Fatalf("%s/%d EncodingOf(%X): %v", name, n, enc, err)
			}
			return
		}
		encs := c.Encodings()
		if e < 0 || e >= len(encs) {
			t.Fatalf("%s/%d EncodingOf(%X) = %d of %d", name, n, enc, e, len(encs))
		}
		if _, err := c.Decompress(nil, enc); err == nil && encs[e].Bits >= 0 && len(enc) != (encs[e].Bits+7)/8 {
			t.Fatalf("%s/%d: %X decodes as %q of %d bits but is %d bytes", name, n, enc, encs[e].Name, encs[e].Bits, len(enc))
		}
	})
}
