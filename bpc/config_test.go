package bpc

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
	{Name: "bpc", New: codectest.NewFunc(New)},
	{Name: "bpc-unsigned", Opts: []Option{WithUnsignedPlane()}, New: codectest.NewFunc(New)},
}

// TestVariants: names, the registry, line sizes and WithLatency
// (codectest.CheckVariants).
func TestVariants(t *testing.T) {
	codectest.CheckVariants(t, "bpc", variants, WithLatency)
}

// sampleLines returns the edge lines and every whole n-byte line of
// the embedded sample.
func sampleLines(n int) [][]byte { return codectest.SampleLines(n, 0) }

// TestEncodings: EncodingOf names the raw encoding exactly for the raw
// streams, whose fixed size is the stream's; the bit-plane stream varies,
// so the tag does not give the size.
func TestEncodings(t *testing.T) {
	for _, v := range variants {
		name := v.Name
		for _, n := range codectest.LineSizes {
			c, _ := New(n, v.Opts...)
			if linecomp.TagGivesSize(c) {
				t.Errorf("%s/%d: TagGivesSize is true", name, n)
			}
			encs := c.Encodings()
			if want := []linecomp.Encoding{{Name: "compressed", Bits: -1}, {Name: "raw", Bits: 1 + 8*n}}; !slices.Equal(encs, want) {
				t.Fatalf("%s/%d: encodings %v, want %v", name, n, encs, want)
			}
			for _, line := range sampleLines(n) {
				enc, bits, _ := c.Compress(nil, line)
				e, err := c.EncodingOf(enc)
				if err != nil || (e == 1) != (bits == 1+8*n) || encs[e].Bits >= 0 && encs[e].Bits != bits {
					t.Fatalf("%s/%d: EncodingOf(% X) = %d (%v); stream is %d bits", name, n, enc, e, err, bits)
				}
			}
			if _, err := c.EncodingOf(nil); !errors.Is(err, linecomp.ErrCorrupt) {
				t.Errorf("%s: empty stream: %v, want ErrCorrupt", name, err)
			}
		}
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
