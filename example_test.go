package linecomp_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
)

// A 128-byte line of pointers 8 bytes apart compresses to base8-Δ1 under
// BDI; its 32-byte-MAG effective size counts only the data bits.
func Example() {
	line := make([]byte, 128)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint64(line[8*i:], 0x00007f3a_12340000+8*uint64(i))
	}
	c, err := linecomp.New("bdi", 128)
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
	fmt.Println("bits:", bits, "bytes:", len(enc), "round trip:", bytes.Equal(back, line))
	fmt.Println("effective bits at a 32-byte MAG:", linecomp.EffectiveBits(bits-c.TagBits(), 32))
	// Output:
	// bits: 212 bytes: 27 round trip: true
	// effective bits at a 32-byte MAG: 256
}

// Sizes measures many lines in one call, with the codec's batch kernel.
func ExampleSizes() {
	data := make([]byte, 4*64) // four all-zero 64-byte lines
	c, _ := linecomp.New("bdi", 64)
	sizes, err := linecomp.Sizes(c, nil, data)
	fmt.Println(sizes, err)
	_, err = linecomp.Sizes(c, nil, data[:100])
	fmt.Println(err)
	// Output:
	// [4 4 4 4] <nil>
	// linecomp: data is not a whole number of lines: 100 bytes is 1 64-byte lines and 36 bytes over
}
