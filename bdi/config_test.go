package bdi

import (
	"errors"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// variants are the registered configurations and the options that make
// each one.
var variants = []codectest.Variant[Option]{
	{Name: "bdi", New: codectest.NewFunc(New)},
	{Name: "bdi-symmetric", Opts: []Option{WithSymmetricDeltas()}, New: codectest.NewFunc(New)},
	{Name: "bdi-single", Opts: []Option{WithSingleBase()}, New: codectest.NewFunc(New)},
}

// TestVariants: names, the registry, line sizes and WithLatency
// (codectest.CheckVariants).
func TestVariants(t *testing.T) {
	codectest.CheckVariants(t, "bdi", variants, WithLatency)
}

// sampleLines returns the edge lines and every whole n-byte line of
// the embedded sample.
func sampleLines(n int) [][]byte { return codectest.SampleLines(n, 0) }

// TestConfigErrors: both variant options together have no registry name
// and wrap ErrConfig only.
func TestConfigErrors(t *testing.T) {
	if c, err := New(64, WithSymmetricDeltas(), WithSingleBase()); !errors.Is(err, linecomp.ErrConfig) || errors.Is(err, linecomp.ErrLineSize) || c != nil {
		t.Errorf("WithSymmetricDeltas and WithSingleBase: %v, want an error wrapping ErrConfig only", err)
	}
}

// TestEncodings: the encoding EncodingOf names for each stream has the
// stream's length, every encoding has a fixed size so the tag gives it, and
// impossible ids are corrupt.
func TestEncodings(t *testing.T) {
	for _, v := range variants {
		name := v.Name
		for _, n := range codectest.LineSizes {
			c, _ := New(n, v.Opts...)
			if !linecomp.TagGivesSize(c) {
				t.Errorf("%s/%d: TagGivesSize is false", name, n)
			}
			encs := c.Encodings()
			var names []string
			for _, e := range encs {
				names = append(names, e.Name)
			}
			if want := []string{"zeros", "repeated", "b8d1", "b8d2", "b8d4", "b4d1", "b4d2", "b2d1", "raw"}; !slices.Equal(names, want) {
				t.Fatalf("%s: encodings %v, want %v", name, names, want)
			}
			used := make([]int, len(encs))
			for _, line := range sampleLines(n) {
				enc, bits, _ := c.Compress(nil, line)
				e, err := c.EncodingOf(enc)
				if err != nil || encs[e].Bits != bits {
					t.Fatalf("%s/%d: EncodingOf(% X) = %d (%v), %d bits; stream is %d bits", name, n, enc, e, err, encs[e].Bits, bits)
				}
				used[e]++
			}
			if used[0] == 0 || used[len(used)-1] == 0 {
				t.Errorf("%s/%d: the sample never used zeros or raw: %v", name, n, used)
			}
			for id := byte(8); id < 15; id++ {
				if _, err := c.EncodingOf([]byte{id << 4}); !errors.Is(err, linecomp.ErrCorrupt) {
					t.Errorf("%s: id %04b: %v, want ErrCorrupt", name, id, err)
				}
			}
			if _, err := c.EncodingOf(nil); !errors.Is(err, linecomp.ErrCorrupt) {
				t.Errorf("%s: empty stream: %v, want ErrCorrupt", name, err)
			}
		}
	}
	// Table II at 64 bytes, and B+Δ's sizes without the mask.
	def, _ := New(64)
	single, _ := New(64, WithSingleBase())
	var d, s []int
	for i := range def.Encodings() {
		d, s = append(d, def.Encodings()[i].Bits), append(s, single.Encodings()[i].Bits)
	}
	// B+Δ: 4 + 8k + 8d·64/k: b8d1 4+64+64 = 132, b8d2 196, b8d4 324,
	// b4d1 4+32+128 = 164, b4d2 292, b2d1 4+16+256 = 276.
	if !slices.Equal(d, []int{4, 68, 140, 204, 332, 180, 308, 308, 516}) || !slices.Equal(s, []int{4, 68, 132, 196, 324, 164, 292, 276, 516}) {
		t.Errorf("encoding sizes %v and %v (B+Δ)", d, s)
	}
}

// TestOptionsConfigureNewOnly: an option acts on the configuration New is
// building, never on a built codec, which other goroutines may share
// (codectest.CheckOptions; with the old func(*Codec) options,
// WithLatency(l)(c) changed a shared c).
func TestOptionsConfigureNewOnly(t *testing.T) {
	if err := codectest.CheckOptions[Option, *Codec](); err != nil {
		t.Fatal(err)
	}
}
