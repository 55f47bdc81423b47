package linecomp_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/multi"
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

// CompressLines and DecompressLines handle a whole buffer of lines with
// the codec's batch kernels, keeping every line's exact size.
func ExampleCompressLines() {
	data := make([]byte, 3*64)
	for i := range 8 { // line 1: eight pointers 8 bytes apart
		binary.LittleEndian.PutUint64(data[64+8*i:], 0x00007f3a_12340000+8*uint64(i))
	}
	copy(data[128:], "not much to compress here, just some text of 64 bytes in a line")
	c, _ := linecomp.New("bdi", 64)
	var lines linecomp.Lines
	if err := linecomp.CompressLines(c, &lines, data); err != nil {
		panic(err)
	}
	fmt.Println("lines:", lines.Len(), "bits:", lines.Bits, "bytes:", len(lines.Enc))
	back, err := linecomp.DecompressLines(c, nil, &lines)
	fmt.Println("round trip:", bytes.Equal(back, data), err)
	// Output:
	// lines: 3 bits: [4 140 516] bytes: 84
	// round trip: true <nil>
}

// A configuration of your own (here a multi codec of none and BDI)
// registered under a name: New then builds it by that name, at every size
// the Info lists, and Lookup describes it.
func ExampleRegister() {
	linecomp.Register(linecomp.Info{
		Name:      "none-or-bdi",
		Paper:     "none or BDI, whichever is smaller, behind a 1-bit field",
		LineSizes: []int{32, 64, 128},
	}, func(n int) (linecomp.Codec, error) {
		none, err := linecomp.New("none", n)
		if err != nil {
			return nil, err
		}
		b, err := linecomp.New("bdi", n)
		if err != nil {
			return nil, err
		}
		return multi.New([]linecomp.Codec{none, b}, multi.WithName("none-or-bdi"))
	})
	c, err := linecomp.New("none-or-bdi", 64)
	if err != nil {
		panic(err)
	}
	_, bits, _ := c.Compress(nil, make([]byte, 64))
	in, _ := linecomp.Lookup("none-or-bdi")
	fmt.Println(c.Name(), "zero line:", bits, "bits; tag bits", in.TagBits, "latency", in.Latency, "encodings", in.Encodings)
	// Output:
	// none-or-bdi zero line: 5 bits; tag bits [1 1 1] latency {5 1} encodings [none bdi]
}

// Lookup describes a registered codec; its Algorithm is the key of the
// latency and energy presets.
func ExampleLookup() {
	in, err := linecomp.Lookup("cpack-z-gem5")
	if err != nil {
		panic(err)
	}
	fmt.Println(in.Name, "is", in.Algorithm, "at", in.LineSizes, "bytes with tag bits", in.TagBits)
	fmt.Println(in.Variant)
	_, err = linecomp.Lookup("cpack-zz")
	fmt.Println(errors.Is(err, linecomp.ErrUnknownCodec))
	// Output:
	// cpack-z-gem5 is cpack-z at [32 64 128] bytes with tag bits [1 1 1]
	// gem5's dictionary push rule, to reproduce gem5's compressed sizes
	// true
}

// Infos lists every registered codec, sorted by name.
func ExampleInfos() {
	for _, in := range linecomp.Infos() {
		if in.Algorithm == "bdi" {
			tb, _ := in.TagBitsAt(64)
			fmt.Printf("%-14s tag bits at 64 B: %d, latency %d/%d\n", in.Name, tb, in.Latency.Compress, in.Latency.Decompress)
		}
	}
	// Output:
	// bdi            tag bits at 64 B: 4, latency 5/1
	// bdi-single     tag bits at 64 B: 4, latency 5/1
	// bdi-symmetric  tag bits at 64 B: 4, latency 5/1
}

// The latency presets: every number a source paper gives, and an unknown
// one where it gives none, which a model must not charge as a cost.
func ExamplePresetLatency() {
	l, _ := linecomp.PresetLatency(linecomp.SourceTavana, "cpack-z")
	fmt.Println("Tavana C-Pack+Z:", l.Compress, "cycles to compress,", l.Decompress, "to decompress")
	l, _ = linecomp.PresetLatency(linecomp.SourceLatteCC, "fpc")
	if _, ok := l.CompressCycles(); !ok {
		fmt.Println("LATTE-CC gives no FPC compression latency; decompression:", l.Decompress)
	}
	l, _ = linecomp.DefaultLatency(linecomp.SourceBDIPaper, "bdi")
	fmt.Println("BDI's default:", l, "known:", l.Known())
	// Output:
	// Tavana C-Pack+Z: 16 cycles to compress, 9 to decompress
	// LATTE-CC gives no FPC compression latency; decompression: 5
	// BDI's default: {5 1} known: true
}

// The energy presets: a combined compress+decompress figure stays
// combined, per line of the size the paper gives it for.
func ExamplePresetEnergy() {
	e, _ := linecomp.PresetEnergy(linecomp.SourceTavana, "fpc", linecomp.EnergyRoundTrip)
	fmt.Printf("Tavana FPC: %.1f pJ per %d-bit line, compressed and decompressed\n", e.PicoJoule, e.LineBits)
	e, _ = linecomp.PresetEnergy(linecomp.SourceLatteCC, "bdi", linecomp.EnergyCompress)
	fmt.Printf("LATTE-CC BDI: %.0f pJ to compress a line\n", e.PicoJoule)
	_, ok := linecomp.PresetEnergy(linecomp.SourceTavana, "fpc", linecomp.EnergyCompress)
	fmt.Println("Tavana FPC compression alone:", ok)
	// Output:
	// Tavana FPC: 36.9 pJ per 512-bit line, compressed and decompressed
	// LATTE-CC BDI: 192 pJ to compress a line
	// Tavana FPC compression alone: false
}
