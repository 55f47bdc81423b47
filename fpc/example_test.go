package fpc_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/fpc"
)

// A 32-byte line of small integers compresses to a quarter of its size; the
// same line under Tavana's table is stored raw as soon as one word fits no
// pattern.
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
