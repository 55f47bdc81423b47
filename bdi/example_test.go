package bdi_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
)

// The BDI paper's perlbench line, eight pointers 0xC04039C0 + 8i, is one
// 4-byte base and eight 1-byte deltas: 4 + 8 + 32 + 8×8 = 108 bits in the
// default codec, 4 + 32 + 64 = 100 in the paper's single-base B+Δ, which
// has no base-select mask. Its name is that of the registered variant.
func Example() {
	line := make([]byte, 32)
	for i := range 8 {
		binary.LittleEndian.PutUint32(line[4*i:], 0xC04039C0+8*uint32(i))
	}
	for _, opts := range [][]bdi.Option{nil, {bdi.WithSingleBase()}} {
		c, err := bdi.New(32, opts...)
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
		e, _ := c.EncodingOf(enc)
		fmt.Printf("%-10s %s, %3d bits (Size %d), round trip %v\n",
			c.Name(), c.Encodings()[e].Name, bits, c.Size(line), bytes.Equal(back, line))
	}
	c, _ := linecomp.New("bdi", 64)
	fmt.Println("tag gives size:", linecomp.TagGivesSize(c))
	for _, e := range c.(linecomp.EncodingReporter).Encodings() {
		fmt.Printf(" %s=%d", e.Name, e.Bits)
	}
	fmt.Println()
	// Output:
	// bdi        b4d1, 108 bits (Size 108), round trip true
	// bdi-single b4d1, 100 bits (Size 100), round trip true
	// tag gives size: true
	//  zeros=4 repeated=68 b8d1=140 b8d2=204 b8d4=332 b4d1=180 b4d2=308 b2d1=308 raw=516
}
