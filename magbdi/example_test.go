package magbdi_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp/magbdi"
)

// Words −1, −2, …, −32 need the base under the paper's unsigned deltas,
// and then the differences are negative: the line stays raw. With signed
// deltas every word is a 6-bit immediate and the line fits one 32-byte
// MAG. Each encoding has one size, so the 2-bit code tells how many bursts
// to fetch.
func Example() {
	line := make([]byte, 128)
	for i := range 32 {
		binary.LittleEndian.PutUint32(line[4*i:], uint32(int32(-1-i)))
	}
	for _, opts := range [][]magbdi.Option{nil, {magbdi.WithSignedDeltas()}} {
		c, err := magbdi.New(128, 32, opts...)
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
		fmt.Printf("%-16s %-3s %4d bits (Size %d), round trip %v\n",
			c.Name(), c.Encodings()[e].Name, bits, c.Size(line), bytes.Equal(back, line))
	}
	c, _ := magbdi.New(128, 32)
	for _, e := range c.Encodings() {
		fmt.Printf(" %s=%d", e.Name, e.Bits)
	}
	fmt.Println()
	// Output:
	// magbdi-32        raw 1026 bits (Size 1026), round trip true
	// magbdi-32-signed 32B  258 bits (Size 258), round trip true
	//  32B=258 64B=514 96B=770 raw=1026
}
