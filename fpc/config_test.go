package fpc

import (
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/linecomptest"
)

// variants are the registered configurations and the options that make
// each one.
var variants = []codectest.Variant[Option]{
	{Name: "fpc", New: newCodec},
	{Name: "fpc-tavana", Opts: []Option{WithTavanaTable()}, New: newCodec},
}

// newCodec is New returning a linecomp.Codec, nil with an error.
func newCodec(n int, opts ...Option) (linecomp.Codec, error) {
	c, err := New(n, opts...)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// TestVariants: names, the registry, line sizes and WithLatency
// (codectest.CheckVariants).
func TestVariants(t *testing.T) {
	codectest.CheckVariants(t, "fpc", variants, WithLatency)
}

// sampleLines returns the edge lines and the first 64 lines of every
// sample file.
func sampleLines(n int) [][]byte {
	lines := linecomptest.EdgeLines(n)
	for _, f := range codectest.Sample() {
		for off := 0; off+n <= len(f.Data) && off < 64*n; off += n {
			lines = append(lines, f.Data[off:off+n])
		}
	}
	return lines
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
