package sc_test

import (
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sc"
)

// A simulator's sampling phase: observe lines, rebuild the code book, then
// compress with it.
func Example() {
	c, err := linecomp.New("sc2", 32)
	if err != nil {
		panic(err)
	}
	line := make([]byte, 32)
	for i := range 8 {
		binary.LittleEndian.PutUint32(line[4*i:], uint32(i%2)) // 0 1 0 1 …
	}
	fmt.Println("before training:", c.Size(line), "bits")

	tr := c.(linecomp.Trainer)
	for range 100 {
		tr.Observe(line)
	}
	trained, err := tr.Rebuild()
	if err != nil {
		panic(err)
	}
	c = trained
	for _, s := range c.(*sc.Codec).Table().Symbols() {
		fmt.Printf("value %#x escape %v: %0*b\n", s.Value, s.Escape, s.Len, s.Code)
	}
	// 0 and 1 both have count 400; equal weights are ordered by value, so
	// 0 is the "lighter" and pairs with the escape (count 2).
	fmt.Println("after training:", c.Size(line), "bits")
	// Output:
	// before training: 257 bits
	// value 0x1 escape false: 0
	// value 0x0 escape false: 10
	// value 0x0 escape true: 11
	// after training: 13 bits
}
