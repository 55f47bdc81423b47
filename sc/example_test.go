package sc_test

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sc"
)

// alternating returns a 32-byte line of the words 0 1 0 1 … .
func alternating() []byte {
	line := make([]byte, 32)
	for i := range 8 {
		binary.LittleEndian.PutUint32(line[4*i:], uint32(i%2))
	}
	return line
}

// A simulator's sampling phase: a trainer of the codec observes lines, then
// Build returns a new codec with the learned code book. The codec is
// unchanged, so it still decodes the lines it compressed before.
func Example() {
	c, err := linecomp.New("sc2", 32)
	if err != nil {
		panic(err)
	}
	line := alternating()
	before, bits, _ := c.Compress(nil, line)
	fmt.Println("before training:", bits, "bits")

	tr := c.(linecomp.Trainable).NewTrainer()
	for range 100 {
		tr.Observe(line)
	}
	trained, err := tr.Build()
	if err != nil {
		panic(err)
	}
	for _, s := range trained.(*sc.Codec).Table().Symbols() {
		fmt.Printf("value %#x escape %v: %0*b\n", s.Value, s.Escape, s.Len, s.Code)
	}
	// 0 and 1 both have count 400; equal weights are ordered by value, so
	// 0 is the "lighter" and pairs with the escape (count 2).
	fmt.Println("after training:", trained.Size(line), "bits")

	dec, err := c.Decompress(nil, before)
	fmt.Println("the untrained codec still decodes its line:", bytes.Equal(dec, line), err)
	// Output:
	// before training: 257 bits
	// value 0x1 escape false: 0
	// value 0x0 escape false: 10
	// value 0x0 escape true: 11
	// after training: 13 bits
	// the untrained codec still decodes its line: true <nil>
}

// A code book is kept as bytes (for a trace, or another process) and read
// back with ParseTable; a codec made with it decodes what the trained codec
// compressed.
func ExampleParseTable() {
	untrained, _ := sc.New(32)
	trainer := untrained.NewTrainer()
	line := alternating()
	trainer.Observe(line)
	next, _ := trainer.Build()
	trained := next.(*sc.Codec)
	enc, bits, _ := trained.Compress(nil, line)

	book, _ := trained.Table().MarshalBinary()
	// L = 16, escape length 2; counts per length 1..16: one codeword of
	// length 1 (value 1), two of length 2 (value 0 and the escape); then
	// the values 1 and 0 in canonical order, 32-bit big-endian; the escape
	// is not stored. 2 + 16 + 8 = 26 bytes.
	fmt.Printf("% X\n", book)

	t, err := sc.ParseTable(book)
	if err != nil {
		panic(err)
	}
	reader, _ := sc.New(32, sc.WithTable(t))
	dec, err := reader.Decompress(nil, enc)
	fmt.Println(bits, "bits decode to the line:", bytes.Equal(dec, line), err)
	// Output:
	// 10 02 01 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00
	// 13 bits decode to the line: true <nil>
}
