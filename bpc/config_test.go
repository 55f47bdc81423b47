package bpc

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
	"bpc":          nil,
	"bpc-unsigned": {WithUnsignedPlane()},
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
		if in.Algorithm == "bpc" {
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

// TestConfigErrors: a latency with a negative field other than
// LatencyUnknown wraps ErrConfig; a line size wraps ErrLineSize.
func TestConfigErrors(t *testing.T) {
	for _, l := range []linecomp.Latency{{Compress: -2, Decompress: 1}, {Compress: 1, Decompress: -11}} {
		if c, err := New(128, WithLatency(l)); !errors.Is(err, linecomp.ErrConfig) || c != nil {
			t.Errorf("WithLatency(%v): %v, want ErrConfig", l, err)
		}
	}
	for _, n := range []int{0, -4, 16, 96, 256} {
		if _, err := New(n, WithUnsignedPlane()); !errors.Is(err, linecomp.ErrLineSize) || errors.Is(err, linecomp.ErrConfig) {
			t.Errorf("New(%d): %v, want an error wrapping ErrLineSize only", n, err)
		}
	}
}

// TestOverlap: Compress and Decompress read all of their input before they
// write to dst, so dst may start where the input starts (in[:0]) or inside
// it. Raw lines decoded into their own stream were wrong before.
func TestOverlap(t *testing.T) {
	for name := range variants {
		for _, n := range codectest.LineSizes {
			c, _ := linecomp.New(name, n)
			raw := 0
			for _, line := range sampleLines(n) {
				enc, bits, _ := c.Compress(nil, line)
				if bits == 1+8*n {
					raw++
				}
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
			if raw == 0 {
				t.Errorf("%s/%d: no raw line among the sample lines", name, n)
			}
		}
	}
}

// TestEncodings: EncodingOf names the raw encoding exactly for the raw
// streams, whose fixed size is the stream's; the bit-plane stream varies,
// so the tag does not give the size.
func TestEncodings(t *testing.T) {
	for name, opts := range variants {
		for _, n := range codectest.LineSizes {
			c, _ := New(n, opts...)
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

// FuzzEncodingOf: EncodingOf never panics, and a stream it rejects
// Decompress rejects too.
func FuzzEncodingOf(f *testing.F) {
	f.Add([]byte{0x93, 0x1B})
	f.Add([]byte{0x00})
	f.Add([]byte{})
	c, _ := New(32)
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
