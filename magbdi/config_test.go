package magbdi

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// variant is one registered configuration: its MAG and options.
type variant struct {
	mag  int
	opts []Option
}

// variants maps every registry name of this package to its configuration.
var variants = func() map[string]variant {
	m := map[string]variant{}
	for _, mag := range []int{16, 32, 64} {
		m[fmt.Sprintf("magbdi-%d", mag)] = variant{mag, nil}
		m[fmt.Sprintf("magbdi-%d-signed", mag)] = variant{mag, []Option{WithSignedDeltas()}}
	}
	return m
}()

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
		if in.Algorithm == "magbdi" {
			registered = append(registered, in.Name)
		}
	}
	if want := slices.Sorted(maps.Keys(variants)); !slices.Equal(registered, want) {
		t.Fatalf("registered %v, the test knows %v", registered, want)
	}
	for name, v := range variants {
		in, _ := linecomp.Lookup(name)
		for _, n := range in.LineSizes {
			own, err := New(n, v.mag, v.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if own.Name() != name {
				t.Errorf("New(%d, %d, %s options).Name() = %q", n, v.mag, name, own.Name())
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
		// The sizes New rejects are the ones the registry does not list.
		for _, n := range codectest.LineSizes {
			_, err := New(n, v.mag, v.opts...)
			if listed := slices.Contains(in.LineSizes, n); listed != (err == nil) || !listed && !errors.Is(err, linecomp.ErrLineSize) {
				t.Errorf("%s at %d bytes: listed %v, New says %v", name, n, listed, err)
			}
		}
	}
}

// TestConfigErrors: a MAG that is not 16, 32 or 64 bytes and a latency with
// a negative field other than LatencyUnknown wrap ErrConfig.
func TestConfigErrors(t *testing.T) {
	for _, mag := range []int{0, -16, 1, 8, 10, 24, 48, 128, 256} {
		c, err := New(128, mag)
		if !errors.Is(err, linecomp.ErrConfig) || errors.Is(err, linecomp.ErrLineSize) || c != nil {
			t.Errorf("New(128, %d): %v, want an error wrapping ErrConfig only", mag, err)
		}
	}
	if _, err := New(128, 48); err == nil || !bytes.Contains([]byte(err.Error()), []byte("power of two smaller than the line")) {
		t.Errorf("New(128, 48): %v does not say what a MAG must be", err)
	}
	for _, l := range []linecomp.Latency{{Compress: -2, Decompress: 1}, {Compress: 1, Decompress: -3}} {
		if _, err := New(128, 32, WithLatency(l)); !errors.Is(err, linecomp.ErrConfig) {
			t.Errorf("WithLatency(%v): %v, want ErrConfig", l, err)
		}
	}
	unknown := linecomp.Latency{Compress: linecomp.LatencyUnknown, Decompress: 3}
	if c, err := New(128, 32, WithLatency(unknown)); err != nil || c.Latency() != unknown {
		t.Errorf("WithLatency(%v): %v", unknown, err)
	}
}

// TestExactBlocks: header and deltas fill every compressed size exactly,
// so a block has no padding of its own: 32 + words + words·width = 8·size.
func TestExactBlocks(t *testing.T) {
	for name, v := range variants {
		in, _ := linecomp.Lookup(name)
		for _, n := range in.LineSizes {
			c, _ := New(n, v.mag, v.opts...)
			sizes, widths := c.Levels()
			for i := range sizes {
				if bits := 32 + n/4 + n/4*int(widths[i]); bits != 8*sizes[i] || widths[i] < 2 {
					t.Errorf("%s/%d: %d-byte level with %d-bit deltas uses %d of %d bits", name, n, sizes[i], widths[i], bits, 8*sizes[i])
				}
			}
		}
	}
}

// TestOverlap: Compress and Decompress read all of their input before they
// write to dst, so dst may start where the input starts (in[:0]) or inside
// it.
func TestOverlap(t *testing.T) {
	for name := range variants {
		in, _ := linecomp.Lookup(name)
		for _, n := range in.LineSizes {
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
// stream's length, and every encoding has a fixed size so the tag gives it.
func TestEncodings(t *testing.T) {
	for name, v := range variants {
		in, _ := linecomp.Lookup(name)
		for _, n := range in.LineSizes {
			c, _ := New(n, v.mag, v.opts...)
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

// FuzzEncodingOf: EncodingOf never panics, and a stream it rejects
// Decompress rejects too.
func FuzzEncodingOf(f *testing.F) {
	f.Add([]byte{0x40, 0x00})
	f.Add([]byte{0xE0})
	f.Add([]byte{})
	c, _ := New(128, 16) // 3-bit field, code 111 raw
	c64, _ := New(64, 16)
	f.Fuzz(func(t *testing.T, enc []byte) {
		for _, c := range []*Codec{c, c64} {
			e, err := c.EncodingOf(enc)
			if err != nil {
				if !errors.Is(err, linecomp.ErrCorrupt) {
					t.Fatalf("EncodingOf(% X): %v, not ErrCorrupt", enc, err)
				}
				if _, derr := c.Decompress(nil, enc); derr == nil {
					t.Fatalf("EncodingOf rejects % X, which Decompress accepts", enc)
				}
				continue
			}
			if e < 0 || e >= len(c.Encodings()) {
				t.Fatalf("EncodingOf(% X) = %d", enc, e)
			}
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
