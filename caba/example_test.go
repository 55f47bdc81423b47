package caba_test

import (
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/caba"
)

// CABA's Figure 6: the PageViewCount line is 17 bytes of payload after
// caba-bdi's 4-bit id, which an assist warp decompresses in 8 warp
// instructions. Under caba-fpc every segment of four 32-bit words holds a
// word 0x0001D0xx that fits no pattern but the word, so the line is stored
// raw (after 6 + 4 × 38 instructions of trying); under caba-cpack its four
// such words share one dictionary value (mmmm, then mmmx ×3) and the
// small words are zzzz and zzzx: 1 + 16 × 12 + 32 bits. A GPU model asks
// for the counts through an interface of its own.
func Example() {
	line := make([]byte, 64)
	for i, v := range []uint64{0x00, 0x80001d000, 0x10, 0x80001d008, 0x20, 0x80001d010, 0x30, 0x80001d018} {
		binary.LittleEndian.PutUint64(line[8*i:], v)
	}
	for _, name := range []string{"caba-bdi", "caba-fpc", "caba-cpack"} {
		c, err := linecomp.New(name, 64)
		if err != nil {
			panic(err)
		}
		enc, bits, err := c.Compress(nil, line)
		if err != nil {
			panic(err)
		}
		e, _ := c.(linecomp.EncodingReporter).EncodingOf(enc)
		w := c.(interface {
			DecompressInstructions(enc []byte) (int, error)
			CompressInstructions(line []byte) (int, error)
		})
		dec, _ := w.DecompressInstructions(enc)
		comp, _ := w.CompressInstructions(line)
		fmt.Printf("%-10s %-10s %3d bits, payload %2d bytes, %2d instructions to decompress, %2d to compress\n",
			name, c.(linecomp.EncodingReporter).Encodings()[e].Name, bits, (bits-c.TagBits()+7)/8, dec, comp)
	}
	// Output:
	// caba-bdi   b8d1       140 bits, payload 17 bytes,  8 instructions to decompress, 29 to compress
	// caba-fpc   raw        513 bits, payload 64 bytes,  0 instructions to decompress, 158 to compress
	// caba-cpack compressed 225 bits, payload 28 bytes, 31 instructions to decompress, 32 to compress
}

// Segments of two words let more of a line take a short pattern, at more
// instructions for the assist warp, which walks the segments one by one.
// In words 0, 1, 2, X, 4, 5, 6, X, … (X incompressible) every segment of
// four or eight words holds an X, so those lines are raw; in segments of
// two, [0 1] and [4 5] are 4-bit, [8 9] and [12 13] 1-byte and the four
// segments with an X uncompressed: 3 bytes of prefixes + 2 + 4 + 32 bytes
// of data, 1 + 8 × 41 = 329 bits, decompressed in 3 + 2×7 + 2×6 + 4×6 = 53.
func ExampleWithSegmentWords() {
	line := make([]byte, 64)
	for i := range 16 {
		v := uint32(i)
		if i%4 == 3 {
			v = 0x12345678 // one word in four is not compressible
		}
		binary.LittleEndian.PutUint32(line[4*i:], v)
	}
	for _, s := range []int{2, 4, 8} {
		c, err := caba.NewFPC(64, caba.WithSegmentWords(s))
		if err != nil {
			panic(err)
		}
		enc, bits, _ := c.Compress(nil, line)
		n, _ := c.DecompressInstructions(enc)
		fmt.Printf("%s: %d bits, %d instructions to decompress\n", c.Name(), bits, n)
	}
	// Output:
	// caba-fpc-s2: 329 bits, 53 instructions to decompress
	// caba-fpc: 513 bits, 0 instructions to decompress
	// caba-fpc-s8: 513 bits, 0 instructions to decompress
}
