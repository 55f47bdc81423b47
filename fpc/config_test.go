package fpc

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// variants are the registered configurations and the options that build
// each one.
var variants = []struct {
	name string
	opts []Option
}{
	{"fpc", nil},
	{"fpc-tavana", []Option{WithTavanaTable()}},
}

// TestNames: every codec is named by the registry name of its
// configuration however it was built, the registry holds exactly these
// names for this package, and a codec rebuilt from its Name produces the
// same bits as the one built with the package options, on every sample
// and edge line.
func TestNames(t *testing.T) {
	var registered []string
	for _, in := range linecomp.Infos() {
		if in.Algorithm == "fpc" {
			registered = append(registered, in.Name)
		}
	}
	var want []string
	for _, v := range variants {
		want = append(want, v.name)
	}
	if !slices.Equal(registered, want) {
		t.Fatalf("registered FPC codecs %q, this test knows %q", registered, want)
	}
	for _, v := range variants {
		for _, n := range codectest.LineSizes {
			c, err := New(n, v.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if c.Name() != v.name || c.LineSize() != n || c.TagBits() != 1 {
				t.Errorf("New(%d, %s options): Name %q, LineSize %d, TagBits %d", n, v.name, c.Name(), c.LineSize(), c.TagBits())
			}
			r, err := linecomp.New(c.Name(), n)
			if err != nil {
				t.Fatal(err)
			}
			if r.Name() != v.name {
				t.Errorf("linecomp.New(%q, %d).Name() = %q", v.name, n, r.Name())
			}
			for _, line := range sampleLines(n) {
				a, abits, _ := c.Compress(nil, line)
				b, bbits, _ := r.Compress(nil, line)
				if abits != bbits || !bytes.Equal(a, b) {
					t.Fatalf("%s/%d: options give %X (%d bits), registry %X (%d bits)", v.name, n, a, abits, b, bbits)
				}
			}
		}
	}
}

// TestWithLatency: a latency replaces the default whatever the order of
// the options; a field may be LatencyUnknown; any other negative field is
// a configuration error (ErrConfig, not ErrLineSize) naming the codec.
func TestWithLatency(t *testing.T) {
	mag := linecomp.Latency{Compress: 6, Decompress: 10}
	for _, opts := range [][]Option{{WithLatency(mag)}, {WithLatency(mag), WithTavanaTable()}, {WithTavanaTable(), WithLatency(mag)}} {
		c, err := New(32, opts...)
		if err != nil || c.Latency() != mag {
			t.Errorf("WithLatency(%v) among %d options: error %v", mag, len(opts), err)
		}
	}
	for _, l := range []linecomp.Latency{
		{Compress: linecomp.LatencyUnknown, Decompress: 5},
		{Compress: 3, Decompress: linecomp.LatencyUnknown},
		{Compress: linecomp.LatencyUnknown, Decompress: linecomp.LatencyUnknown},
		{Compress: 0, Decompress: 0},
	} {
		for _, v := range variants {
			c, err := New(64, append(slices.Clone(v.opts), WithLatency(l))...)
			if err != nil || c.Latency() != l {
				t.Errorf("%s WithLatency(%v): error %v", v.name, l, err)
			}
		}
	}
	for _, l := range []linecomp.Latency{
		{Compress: -2, Decompress: 5},
		{Compress: 3, Decompress: -2},
		{Compress: -100, Decompress: -1},
	} {
		for _, v := range variants {
			c, err := New(64, append(slices.Clone(v.opts), WithLatency(l))...)
			if !errors.Is(err, linecomp.ErrConfig) || errors.Is(err, linecomp.ErrLineSize) || c != nil {
				t.Errorf("%s WithLatency(%v): codec %v, error %v; want no codec and an ErrConfig", v.name, l, c != nil, err)
			} else if !strings.Contains(err.Error(), v.name) || !strings.Contains(err.Error(), "latency") {
				t.Errorf("%s WithLatency(%v): %q does not name the codec and the field", v.name, l, err)
			}
		}
	}
}

// sampleLines returns the edge lines and the first 64 lines of every
// sample file.
func sampleLines(n int) [][]byte {
	lines := codectest.EdgeLines(n)
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
