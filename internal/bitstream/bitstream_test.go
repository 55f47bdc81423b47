package bitstream

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/linecomp/linecomp/internal/cpu"
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

// forEachLevel runs f at every kernel level this CPU and build support
// (the raw kernels at AVX512, Go below it).
func forEachLevel(t *testing.T, f func(t *testing.T)) {
	for _, l := range cpu.Levels() {
		t.Run(l.String(), func(t *testing.T) {
			defer cpu.Set(l)()
			f(t)
		})
	}
}

// TestRaw checks AppendRaw against the Writer (the tag, then the bytes) and
// ReadRaw against the bytes, for every tag width and every length, at every
// level.
func TestRaw(t *testing.T) { forEachLevel(t, testRaw) }

func testRaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for k := uint(0); k <= 8; k++ {
		for n := 0; n <= MaxRawBytes; n++ {
			raw := make([]byte, n)
			for i := range raw {
				raw[i] = byte(rng.Uint32())
			}
			tag := rng.Uint64() // only the low k bits count
			var w Writer
			w.Reset([]byte{0xEE})
			w.Write(tag, k)
			w.Bytes(raw)
			want, wantBits := w.Finish()
			got, bits := AppendRaw([]byte{0xEE}, tag, k, raw)
			if !bytes.Equal(got, want) || bits != wantBits || bits != int(k)+8*n {
				t.Fatalf("k=%d n=%d: AppendRaw % X (%d bits), Writer % X (%d bits)", k, n, got, bits, want, wantBits)
			}
			line := make([]byte, n)
			if off, why, ok := ReadRaw(line, got[1:], k); !ok || !bytes.Equal(line, raw) {
				t.Fatalf("k=%d n=%d: ReadRaw % X, ok %v (%d: %s), want % X", k, n, line, ok, off, why, raw)
			}
		}
	}
}

// TestRawProblems: a stream that is short, long or has non-zero padding is
// rejected with Reader.Problem's offset and reason, and line is left alone.
func TestRawProblems(t *testing.T) {
	raw := bytes.Repeat([]byte{0xFF}, 16)
	enc, bits := AppendRaw(nil, 1, 3, raw) // 3 + 128 = 131 bits, 17 bytes, 5 pad bits
	padded := bytes.Clone(enc)
	padded[16] |= 1
	cases := []struct {
		name   string
		enc    []byte
		offset int
		reason string
	}{
		{"empty", nil, 0, "stream ends inside a field"},
		{"one byte short", enc[:16], 128, "stream ends inside a field"},
		{"one byte long", append(bytes.Clone(enc), 0), 131, "stream has trailing bytes after the last field"},
		{"padding", padded, 131, "non-zero padding bits"},
	}
	if bits != 131 || len(enc) != 17 {
		t.Fatalf("%d bits in %d bytes, want 131 in 17", bits, len(enc))
	}
	for _, tc := range cases {
		line := make([]byte, 16)
		off, why, ok := ReadRaw(line, tc.enc, 3)
		if ok || off != tc.offset || why != tc.reason {
			t.Errorf("%s: ok %v at %d: %q; want %d: %q", tc.name, ok, off, why, tc.offset, tc.reason)
		}
		if !bytes.Equal(line, make([]byte, 16)) {
			t.Errorf("%s: ReadRaw wrote to line", tc.name)
		}
		// The Reader agrees on the same stream.
		var r Reader
		r.Reset(tc.enc)
		r.Read(3)
		r.ReadBytes(make([]byte, 16))
		if _, why2, ok2 := r.Problem(); ok2 || why2 != tc.reason {
			t.Errorf("%s: Reader.Problem says %q", tc.name, why2)
		}
	}
}

// TestRawPaddingOneBit: ReadRaw rejects a stream of a one-bit tag and a
// 64- or 128-byte line with any padding bit set, or a byte short or long,
// with the same offset and reason at every level, and leaves line alone.
func TestRawPaddingOneBit(t *testing.T) {
	for _, n := range []int{64, 128} {
		raw := bytes.Repeat([]byte{0x5A}, n)
		enc, _ := AppendRaw(nil, 0, 1, raw)
		var streams [][]byte
		for bit := range 7 {
			bad := bytes.Clone(enc)
			bad[n] |= 1 << bit
			streams = append(streams, bad)
		}
		streams = append(streams, enc[:n], append(bytes.Clone(enc), 0))
		for _, s := range streams {
			restore := cpu.Set(cpu.Generic)
			wantOff, wantWhy, _ := ReadRaw(make([]byte, n), s, 1)
			restore()
			forEachLevel(t, func(t *testing.T) {
				line := make([]byte, n)
				off, why, ok := ReadRaw(line, s, 1)
				if ok || off != wantOff || why != wantWhy || !bytes.Equal(line, make([]byte, n)) {
					t.Errorf("%d bytes, stream % X: ok %v at %d: %q, line % X; want %d: %q", n, s[n-1:], ok, off, why, line, wantOff, wantWhy)
				}
			})
		}
	}
}

// TestRawOverlap: AppendRaw and ReadRaw read all of their input before they
// write, so the output may start at, before or after the input inside one
// buffer, at every level.
func TestRawOverlap(t *testing.T) { forEachLevel(t, testRawOverlap) }

func testRawOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, k := range []uint{1, 3, 4, 8} {
		for _, n := range []int{32, 64, 128} {
			tag := uint64(n/32) & 1 // 0 for 64 and 128 bytes: the kernels' case
			raw := make([]byte, n)
			for i := range raw {
				raw[i] = byte(rng.Uint32())
			}
			want, _ := AppendRaw(nil, tag, k, raw)
			for _, shift := range []int{0, 1, 7, 8, 9, n / 2, n - 1} {
				// Output starting shift bytes into the input.
				buf := make([]byte, 2*n+16)
				copy(buf[shift:], raw)
				got, _ := AppendRaw(buf[:0], tag, k, buf[shift:shift+n])
				if !bytes.Equal(got, want) {
					t.Fatalf("AppendRaw k=%d n=%d, output %d bytes before the input: % X, want % X", k, n, shift, got, want)
				}
				copy(buf, raw)
				got, _ = AppendRaw(buf[:shift], tag, k, buf[:n])
				if !bytes.Equal(got[shift:], want) {
					t.Fatalf("AppendRaw k=%d n=%d, output %d bytes into the input: % X, want % X", k, n, shift, got[shift:], want)
				}
				copy(buf[shift:], want)
				if _, _, ok := ReadRaw(buf[:n], buf[shift:shift+len(want)], k); !ok || !bytes.Equal(buf[:n], raw) {
					t.Fatalf("ReadRaw k=%d n=%d, line %d bytes before the stream: % X, want % X", k, n, shift, buf[:n], raw)
				}
				copy(buf, want)
				if _, _, ok := ReadRaw(buf[shift:shift+n], buf[:len(want)], k); !ok || !bytes.Equal(buf[shift:shift+n], raw) {
					t.Fatalf("ReadRaw k=%d n=%d, line %d bytes into the stream: % X, want % X", k, n, shift, buf[shift:shift+n], raw)
				}
			}
		}
	}
}

func TestRawZeroAllocs(t *testing.T) {
	raw := make([]byte, MaxRawBytes)
	dst := make([]byte, 0, MaxRawBytes+1)
	enc, _ := AppendRaw(nil, 0, 1, raw)
	if a := testing.AllocsPerRun(50, func() { AppendRaw(dst, 0, 1, raw) }); a != 0 {
		t.Errorf("AppendRaw: %v allocs", a)
	}
	if a := testing.AllocsPerRun(50, func() { ReadRaw(raw, enc, 1) }); a != 0 {
		t.Errorf("ReadRaw: %v allocs", a)
	}
}

// BenchmarkAppendRaw appends the raw stream of a 64-byte and a 128-byte
// line behind a 1-bit tag, the path of whole 8-byte words, and of a
// 100-byte one, which is not, into a reused buffer.
func BenchmarkAppendRaw(b *testing.B) {
	for _, n := range []int{64, 128, 100} {
		raw := make([]byte, n)
		for i := range raw {
			raw[i] = byte(7*i + 1)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			buf := make([]byte, 0, n+1)
			for b.Loop() {
				buf, _ = AppendRaw(buf[:0], 0, 1, raw)
			}
		})
	}
}

// BenchmarkReadRaw reads a raw 128-byte line behind a 1-bit tag, which
// takes the path that reads enc in place, and a 100-byte one, which does
// not (a load would reach past enc).
func BenchmarkReadRaw(b *testing.B) {
	for _, n := range []int{128, 100} {
		raw := make([]byte, n)
		for i := range raw {
			raw[i] = byte(7*i + 1)
		}
		enc, _ := AppendRaw(nil, 0, 1, raw)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			line := make([]byte, n)
			for b.Loop() {
				ReadRaw(line, enc, 1)
			}
		})
	}
}
