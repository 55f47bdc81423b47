package bpc_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bpc"
)

// The words 0, −1, …, −31 all differ by −1: with the signed plane 32 of
// the BPC authors' code that is one all-ones plane and a run of 32 zero
// planes, 1 + 3 + 5 + 7 = 16 bits. The unsigned plane of the variant sees
// no borrow in the first delta and codes plane 32 raw: 53 bits. The flag
// alone does not tell a stream's length, so a memory controller must keep
// it beside the tag.
func Example() {
	line := make([]byte, 128)
	for i := range 32 {
		binary.LittleEndian.PutUint32(line[4*i:], uint32(-int32(i)))
	}
	for _, opts := range [][]bpc.Option{nil, {bpc.WithUnsignedPlane()}} {
		c, err := bpc.New(128, opts...)
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
		fmt.Printf("%-12s %s, %d bits (Size %d) in %d bytes, round trip %v\n",
			c.Name(), c.Encodings()[e].Name, bits, c.Size(line), len(enc), bytes.Equal(back, line))
	}
	c, _ := bpc.New(128)
	fmt.Println("encodings:", c.Encodings(), "tag gives size:", linecomp.TagGivesSize(c))
	// Output:
	// bpc          compressed, 16 bits (Size 16) in 2 bytes, round trip true
	// bpc-unsigned compressed, 53 bits (Size 53) in 7 bytes, round trip true
	// encodings: [{compressed -1} {raw 1025}] tag gives size: false
}
