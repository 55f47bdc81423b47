package magbdi

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// variants are the registered configurations: a MAG and the options.
var variants = func() []codectest.Variant[Option] {
	var vs []codectest.Variant[Option]
	for _, mag := range []int{16, 32, 64} {
		newCodec := codectest.NewFunc(func(n int, opts ...Option) (*Codec, error) { return New(n, mag, opts...) })
		vs = append(vs,
			codectest.Variant[Option]{Name: fmt.Sprintf("magbdi-%d", mag), New: newCodec},
			codectest.Variant[Option]{Name: fmt.Sprintf("magbdi-%d-signed", mag), Opts: []Option{WithSignedDeltas()}, New: newCodec})
	}
	return vs
}()

// build returns variant v at n bytes, one of the sizes it is registered at.
func build(t *testing.T, v codectest.Variant[Option], n int) *Codec {
	t.Helper()
	c, err := v.New(n, v.Opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c.(*Codec)
}

// TestVariants: names, the registry, line sizes and WithLatency
// (codectest.CheckVariants).
func TestVariants(t *testing.T) {
	codectest.CheckVariants(t, "magbdi", variants, WithLatency)
}

// sampleLines returns the edge lines and every whole n-byte line of
// the embedded sample.
func sampleLines(n int) [][]byte { return codectest.SampleLines(n, 0) }

// TestConfigErrors: a MAG that is not 16, 32 or 64 bytes wraps ErrConfig
// only, and the error says what a MAG must be.
func TestConfigErrors(t *testing.T) {
	for _, mag := range []int{0, -16, 1, 8, 10, 24, 48, 128, 256} {
		c, err := New(128, mag)
		if !errors.Is(err, linecomp.ErrConfig) || errors.Is(err, linecomp.ErrLineSize) || c != nil {
			t.Errorf("New(128, %d): %v, want an error wrapping ErrConfig only", mag, err)
		}
	}
	if _, err := New(128, 48); err == nil || !strings.Contains(err.Error(), "power of two smaller than the line") {
		t.Errorf("New(128, 48): %v does not say what a MAG must be", err)
	}
}

// TestExactBlocks: header and deltas fill every compressed size exactly,
// so a block has no padding of its own: 32 + words + words·width = 8·size.
func TestExactBlocks(t *testing.T) {
	for _, v := range variants {
		name := v.Name
		in, _ := linecomp.Lookup(name)
		for _, n := range in.LineSizes {
			c := build(t, v, n)
			sizes, widths := c.Levels()
			for i := range sizes {
				if bits := 32 + n/4 + n/4*int(widths[i]); bits != 8*sizes[i] || widths[i] < 2 {
					t.Errorf("%s/%d: %d-byte level with %d-bit deltas uses %d of %d bits", name, n, sizes[i], widths[i], bits, 8*sizes[i])
				}
			}
		}
	}
}

// TestEncodings: the encoding EncodingOf names for each stream has the
// stream's length, and every encoding has a fixed size so the tag gives it.
func TestEncodings(t *testing.T) {
	for _, v := range variants {
		name := v.Name
		in, _ := linecomp.Lookup(name)
		for _, n := range in.LineSizes {
			c := build(t, v, n)
			if !linecomp.TagGivesSize(c) {
				t.Errorf("%s/%d: TagGivesSize is false", name, n)
			}
			encs := c.Encodings()
			sizes, _ := c.Levels()
			if len(encs) != len(sizes)+1 || encs[len(sizes)] != (linecomp.Encoding{Name: "raw", Bits: c.TagBits() + 8*n}) {
				t.Fatalf("%s/%d: encodings %v for levels %v", name, n, encs, sizes)
			}
			for i, size := range sizes {
				if want := (linecomp.Encoding{Name: fmt.Sprintf("%dB", size), Bits: c.TagBits() + 8*size}); encs[i] != want {
					t.Errorf("%s/%d: encoding %d is %v, want %v", name, n, i, encs[i], want)
				}
			}
			for _, line := range sampleLines(n) {
				enc, bits, _ := c.Compress(nil, line)
				e, err := c.EncodingOf(enc)
				if err != nil || encs[e].Bits != bits {
					t.Fatalf("%s/%d: EncodingOf(% X) = %d (%v); stream is %d bits", name, n, enc, e, err, bits)
				}
			}
			// Every code is assigned: the levels take all but the all-ones
			// code, and each code names its own encoding.
			if len(sizes) != 1<<c.TagBits()-1 {
				t.Errorf("%s/%d: %d levels in a %d-bit field", name, n, len(sizes), c.TagBits())
			}
			for code := range 1 << c.TagBits() {
				if e, err := c.EncodingOf([]byte{byte(code << (8 - c.TagBits()))}); e != code || err != nil {
					t.Errorf("%s/%d: code %d is encoding %d (%v)", name, n, code, e, err)
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
