package cpack_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp/cpack"
)

// C-Pack+Z codes a line of repeating words with its dictionary and an
// all-zero line with a single code; the pattern counts say how the words
// were stored, as Tavana et al.'s Table VI does.
func Example() {
	c, err := cpack.New(64, cpack.WithCPackZ())
	if err != nil {
		panic(err)
	}
	// Line 0 repeats the words 0x12345678, 0x12345678, 0xAB, 0 four times;
	// line 1 is zero.
	data := make([]byte, 2*64)
	for i := range 16 {
		binary.LittleEndian.PutUint32(data[4*i:], []uint32{0x12345678, 0x12345678, 0xAB, 0}[i%4])
	}
	for i := 0; i < len(data); i += 64 {
		line := data[i : i+64]
		enc, bits, err := c.Compress(nil, line)
		if err != nil {
			panic(err)
		}
		back, err := c.Decompress(nil, enc)
		if err != nil {
			panic(err)
		}
		e, err := c.EncodingOf(enc)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s line %d: %3d bits, %-10s round trip %v\n", c.Name(), i/64, bits, c.Encodings()[e].Name, bytes.Equal(back, line))
	}
	counts := make([]int, len(c.Patterns()))
	if err := c.CountPatterns(counts, data); err != nil {
		panic(err)
	}
	for p, name := range c.Patterns() {
		if counts[p] > 0 {
			fmt.Printf("%-10s %2d words\n", name, counts[p])
		}
	}
	// Line 0: the flag, then xxxx (34 bits), mmmm (8), zzzx (12) and zzzz
	// (2), then three times mmmm, mmmm, zzzx, zzzz (30 bits each):
	// 1 + 56 + 90 = 147 bits. Line 1: the flag and the zero block, 3 bits.

	// Output:
	// cpack-z line 0: 147 bits, compressed round trip true
	// cpack-z line 1:   3 bits, zeros      round trip true
	// zero-block 16 words
	// zzzz        4 words
	// xxxx        1 words
	// mmmm        7 words
	// zzzx        4 words
}
