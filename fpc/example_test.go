package fpc_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/fpc"
)

// A 32-byte line of small integers compresses to 109 of its 256 bits; the
// same line under Tavana's table is stored raw, 257 bits, because one word
// fits no pattern.
func Example() {
	line := make([]byte, 32)
	for i, w := range []uint32{0, 0, 3, 0xFFFFFF80, 0x12340000, 0x00050003, 0xABABABAB, 0x12345678} {
		binary.LittleEndian.PutUint32(line[4*i:], w)
	}
	for _, name := range []string{"fpc", "fpc-tavana"} {
		c, err := linecomp.New(name, 32)
		if err != nil {
			panic(err)
		}
		enc, bits, err := c.Compress(nil, line)
		if err != nil {
			panic(err)
		}
		back, err := c.Decompress(nil, enc)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-10s %3d bits, %2d bytes, round trip %v\n", name, bits, len(enc), bytes.Equal(back, line))
	}
	// Output:
	// fpc        109 bits, 14 bytes, round trip true
	// fpc-tavana 257 bits, 33 bytes, round trip true
}

// The pattern counts of a line under each table, in the shape of Tavana et
// al.'s Table VI, and the line-level encoding of its stream.
func ExampleCodec_CountPatterns() {
	line := make([]byte, 32)
	for i, w := range []uint32{0, 0, 0, 0xFFFFFF80, 0x12340000, 0x00050003, 0xABABABAB, 0xFFFFFFFF} {
		binary.LittleEndian.PutUint32(line[4*i:], w)
	}
	for _, opts := range [][]fpc.Option{nil, {fpc.WithTavanaTable()}} {
		c, err := fpc.New(32, opts...)
		if err != nil {
			panic(err)
		}
		enc, bits, err := c.Compress(nil, line)
		if err != nil {
			panic(err)
		}
		e, err := c.EncodingOf(enc)
		if err != nil {
			panic(err)
		}
		counts := make([]int, len(c.Patterns()))
		if err := c.CountPatterns(counts, line); err != nil {
			panic(err)
		}
		fmt.Printf("%s: %d bits, %s:", c.Name(), bits, c.Encodings()[e].Name)
		for p, name := range c.Patterns() {
			if counts[p] > 0 {
				fmt.Printf(" %s %d", name, counts[p])
			}
		}
		fmt.Println()
	}
	// The words cost the same in both tables but for the zeros, one run of
	// 3 (6 bits) in fpc and three zero words (3 × 3 bits) in fpc-tavana:
	// fpc:        1 + 6 + 11 + 19 + 19 + 11 + 7 = 74 bits
	// fpc-tavana: 1 + 9 + 11 + 19 + 19 + 11 + 7 = 77 bits

	// Output:
	// fpc: 74 bits, compressed: zero-word 3 repeated-bytes 1 sign-ext-4 1 sign-ext-8 1 zero-low-half 1 two-halves 1
	// fpc-tavana: 77 bits, compressed: zero-word 3 repeated-bytes 1 sign-ext-4 1 sign-ext-8 1 zero-low-half 1 two-halves 1
}
