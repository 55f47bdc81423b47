package bitstream

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestDocExample checks the worked example in the package comment.
func TestDocExample(t *testing.T) {
	var w Writer
	w.Reset(nil)
	w.Write(0b101, 3)
	w.Write(0x3F, 8)
	got, bits := w.Finish()
	if !bytes.Equal(got, []byte{0xA7, 0xE0}) || bits != 11 {
		t.Fatalf("got % X, %d bits; want A7 E0, 11 bits", got, bits)
	}
	var r Reader
	r.Reset(got)
	if a, b := r.Read(3), r.Read(8); a != 0b101 || b != 0x3F {
		t.Fatalf("read back %b, %#x", a, b)
	}
	if off, why, ok := r.Problem(); !ok {
		t.Fatalf("clean stream rejected at %d: %s", off, why)
	}
}

// bitString is the obviously-correct model: one '0' or '1' per bit.
func bitString(fields [][2]uint64) string {
	var s []byte
	for _, f := range fields {
		for i := int(f[1]) - 1; i >= 0; i-- {
			s = append(s, '0'+byte(f[0]>>uint(i)&1))
		}
	}
	return string(s)
}

func unpack(b []byte, bits int) string {
	s := make([]byte, bits)
	for i := range s {
		s[i] = '0' + b[i/8]>>(7-uint(i%8))&1
	}
	return string(s)
}

func TestRandomFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 2000; iter++ {
		var fields [][2]uint64
		var w Writer
		prefix := []byte{0xEE}
		w.Reset(prefix)
		for range rng.IntN(40) {
			n := uint64(rng.IntN(65))
			v := rng.Uint64()
			if n < 64 {
				v &= 1<<n - 1
			}
			fields = append(fields, [2]uint64{v, n})
			w.Write64(v, uint(n))
		}
		out, bits := w.Finish()
		if out[0] != 0xEE {
			t.Fatal("prefix overwritten")
		}
		out = out[1:]
		want := bitString(fields)
		if bits != len(want) || len(out) != (bits+7)/8 || unpack(out, bits) != want {
			t.Fatalf("iter %d: wrote %q (%d bits), want %q", iter, unpack(out, bits), bits, want)
		}
		var r Reader
		r.Reset(out)
		for i, f := range fields {
			if got := r.Read64(uint(f[1])); got != f[0] {
				t.Fatalf("iter %d field %d: read %#x want %#x", iter, i, got, f[0])
			}
		}
		if off, why, ok := r.Problem(); !ok {
			t.Fatalf("iter %d: rejected at %d: %s", iter, off, why)
		}
	}
}

func TestField(t *testing.T) {
	buf := []byte{0xA7, 0xE0, 0, 0, 0, 0, 0, 0, 0, 0}
	if a, b := Field(buf, 0, 3), Field(buf, 3, 8); a != 0b101 || b != 0x3F {
		t.Fatalf("Field: %b %#x", a, b)
	}
}

func TestBytes(t *testing.T) {
	p := []byte{0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE}
	for lead := uint(0); lead < 8; lead++ {
		var w Writer
		w.Reset(nil)
		w.Write(0x5, lead)
		w.Bytes(p)
		enc, bits := w.Finish()
		if bits != int(lead)+56 {
			t.Fatalf("lead %d: %d bits", lead, bits)
		}
		var r Reader
		r.Reset(enc)
		r.Read(lead)
		got := make([]byte, len(p))
		r.ReadBytes(got)
		if !bytes.Equal(got, p) {
			t.Fatalf("lead %d: read back % X", lead, got)
		}
		if off, why, ok := r.Problem(); !ok {
			t.Fatalf("lead %d: %d %s", lead, off, why)
		}
	}
}

func TestProblems(t *testing.T) {
	var r Reader
	r.Reset([]byte{0xA4})
	r.Read(3)
	if _, why, ok := r.Problem(); ok || why != "non-zero padding bits" {
		t.Errorf("padding: ok=%v %q", ok, why)
	}
	r.Reset([]byte{0xA0, 0x00})
	r.Read(3)
	if _, why, ok := r.Problem(); ok || why != "stream has trailing bytes after the last field" {
		t.Errorf("trailing: ok=%v %q", ok, why)
	}
	r.Reset([]byte{0xA0})
	r.Read(3)
	if v := r.Read(6); v != 0 {
		t.Errorf("read past end gave %d", v)
	}
	if off, _, ok := r.Problem(); ok || off != 3 {
		t.Errorf("overrun: ok=%v offset %d, want offset 3", ok, off)
	}
}

func BenchmarkWriter(b *testing.B) {
	buf := make([]byte, 0, 256)
	b.SetBytes(128)
	b.ReportAllocs()
	var w Writer
	for b.Loop() {
		w.Reset(buf[:0])
		for i := range 32 {
			w.Write(uint64(i), 11)
		}
		buf, _ = w.Finish()
	}
}
