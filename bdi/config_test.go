package bdi

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// variants maps every registry name of this package to the options that
// make that configuration.
var variants = map[string][]Option{
	"bdi":           nil,
	"bdi-symmetric": {WithSymmetricDeltas()},
	"bdi-single":    {WithSingleBase()},
}

// sampleLines returns every whole n-byte line of the embedded sample and
// the edge lines.
func sampleLines(n int) [][]byte {
	lines := codectest.EdgeLines(n)
	for _, f := range codectest.Sample() {
		for off := 0; off+n <= len(f.Data); off += n {
			lines = append(lines, f.Data[off:off+n])
		}
	}
	return lines
}

// TestNames: a codec built with the package's options reports the registry
// name of its configuration, the registry builds a codec of that name at
// every size it lists, and both produce the same bits on every line.
func TestNames(t *testing.T) {
	var registered []string
	for _, in := range linecomp.Infos() {
		if in.Algorithm == "bdi" {
			registered = append(registered, in.Name)
		}
	}
	if want := slices.Sorted(maps.Keys(variants)); !slices.Equal(registered, want) {
		t.Fatalf("registered %v, the test knows %v", registered, want)
	}
	for name, opts := range variants {
		in, _ := linecomp.Lookup(name)
		for _, n := range in.LineSizes {
			own, err := New(n, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if own.Name() != name {
				t.Errorf("New(%d, %s options).Name() = %q", n, name, own.Name())
			}
			if byName, err := linecomp.New(name, n); err != nil || byName.Name() != name {
				t.Fatalf("linecomp.New(%q, %d): %v", name, n, err)
			}
			// New(c.Name(), c.LineSize()) rebuilds the same codec.
			reg, err := linecomp.New(own.Name(), n)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range sampleLines(n) {
				a, abits, _ := own.Compress(nil, line)
				b, bbits, _ := reg.Compress(nil, line)
				if abits != bbits || !bytes.Equal(a, b) {
					t.Fatalf("%s/%d: package-built % X (%d bits), rebuilt by its name %q % X (%d bits)", name, n, a, abits, own.Name(), b, bbits)
				}
			}
		}
	}
}

// TestConfigErrors: a configuration with no registry name and a latency
// with a negative field other than LatencyUnknown wrap ErrConfig; a line
// size wraps ErrLineSize, whatever the options.
func TestConfigErrors(t *testing.T) {
	bad := [][]Option{
		{WithSymmetricDeltas(), WithSingleBase()},
		{WithLatency(linecomp.Latency{Compress: -2, Decompress: 1})},
		{WithLatency(linecomp.Latency{Compress: 1, Decompress: -5})},
	}
	for i, opts := range bad {
		if c, err := New(64, opts...); !errors.Is(err, linecomp.ErrConfig) || errors.Is(err, linecomp.ErrLineSize) || c != nil {
			t.Errorf("configuration %d: %v, want an error wrapping ErrConfig only", i, err)
		}
	}
	unknown := linecomp.Latency{Compress: linecomp.LatencyUnknown, Decompress: 3}
	if c, err := New(64, WithLatency(unknown)); err != nil || c.Latency() != unknown {
		t.Errorf("WithLatency(%v): %v", unknown, err)
	}
	for _, n := range []int{0, -8, 48, 256} {
		if _, err := New(n, WithSingleBase()); !errors.Is(err, linecomp.ErrLineSize) || errors.Is(err, linecomp.ErrConfig) {
			t.Errorf("New(%d): %v, want an error wrapping ErrLineSize only", n, err)
		}
	}
}

// TestOverlap: Compress and Decompress read all of their input before they
// write to dst, so dst may start where the input starts (in[:0]) or inside
// it.
func TestOverlap(t *testing.T) {
	for name := range variants {
		for _, n := range codectest.LineSizes {
			c, _ := linecomp.New(name, n)
			for _, line := range sampleLines(n) {
				enc, bits, _ := c.Compress(nil, line)
				for _, at := range []int{0, 1, 5, n / 2, n - 1} {
					buf := make([]byte, 2*n+16)
					copy(buf, line)
					got, gbits, err := c.Compress(buf[:at], buf[:n])
					if err != nil || gbits != bits || !bytes.Equal(got[at:], enc) {
						t.Fatalf("%s/%d: Compress into its line at byte %d: % X (%d bits, %v), want % X (%d bits)\nline %X", name, n, at, got[at:], gbits, err, enc, bits, line)
					}
					copy(buf, enc)
					dec, err := c.Decompress(buf[:at], buf[:len(enc)])
					if err != nil || !bytes.Equal(dec[at:], line) {
						t.Fatalf("%s/%d: Decompress into its stream at byte %d: %X (%v), want %X", name, n, at, dec[at:], err, line)
					}
				}
			}
		}
	}
}

// TestEncodings: the encoding EncodingOf names for each stream has the
// stream's length, every encoding has a fixed size so the tag gives it, and
// impossible ids are corrupt.
func TestEncodings(t *testing.T) {
	for name := range variants {
		for _, n := range codectest.LineSizes {
			c, _ := New(n, variants[name]...)
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

// FuzzEncodingOf: EncodingOf never panics, and it accepts exactly the
// streams whose id Decompress accepts.
func FuzzEncodingOf(f *testing.F) {
	f.Add([]byte{0x5F, 0xFC})
	f.Add([]byte{0x80})
	f.Add([]byte{})
	c, _ := New(64)
	f.Fuzz(func(t *testing.T, enc []byte) {
		e, err := c.EncodingOf(enc)
		if err != nil {
			if !errors.Is(err, linecomp.ErrCorrupt) {
				t.Fatalf("EncodingOf(% X): %v, not ErrCorrupt", enc, err)
			}
			if _, derr := c.Decompress(nil, enc); derr == nil {
				t.Fatalf("EncodingOf rejects % X, which Decompress accepts", enc)
			}
			return
		}
		if e < 0 || e >= len(c.Encodings()) {
			t.Fatalf("EncodingOf(% X) = %d", enc, e)
		}
	})
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
