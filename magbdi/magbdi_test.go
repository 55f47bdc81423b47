package magbdi

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
)

func words(n int, f func(i int) uint32) []byte {
	b := make([]byte, n)
	for i := 0; i < n/4; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], f(i))
	}
	return b
}

// TestTableIII reproduces Table III of the MAG-aware BDI paper: 128-byte
// lines, 32-byte MAG, header = 32-bit base + 32-bit mask = 64 bits.
func TestTableIII(t *testing.T) {
	c, err := New(128, 32)
	if err != nil {
		t.Fatal(err)
	}
	sizes, widths := c.Levels()
	// widths: (256−64)/32 = 6, (512−64)/32 = 14, (768−64)/32 = 22
	if !slices.Equal(sizes, []int{32, 64, 96}) || !slices.Equal(widths, []uint{6, 14, 22}) {
		t.Fatalf("levels %v %v, want [32 64 96] [6 14 22]", sizes, widths)
	}
	if c.TagBits() != 2 {
		t.Fatalf("TagBits %d, want 2", c.TagBits())
	}
	cases := []struct {
		name  string
		line  []byte
		code  byte
		bytes int
	}{
		// 0x1000+i: base 0x1000, deltas 0..31 < 2^6 → Base4B-Δ6b, 32 bytes, encoding 00
		{"Δ6b", words(128, func(i int) uint32 { return 0x1000 + uint32(i) }), 0b00, 32},
		// 0x1000+64i: deltas up to 1984 need 11 bits → Base4B-Δ14b, 64 bytes, encoding 01
		{"Δ14b", words(128, func(i int) uint32 { return 0x1000 + 64*uint32(i) }), 0b01, 64},
		// deltas up to 31×2048 = 63488 need 16 bits: BDI's Δ2B, but MAG-aware
		// BDI goes to Base4B-Δ22b, 96 bytes, encoding 10 (paper §IV-D)
		{"Δ22b", words(128, func(i int) uint32 { return 0x100000 + 2048*uint32(i) }), 0b10, 96},
		// deltas of 2^23 exceed 22 bits → uncompressed, 128 bytes, encoding 11
		{"uncompressed", words(128, func(i int) uint32 { return 0x10000000 + 1<<23*uint32(i) }), 0b11, 128},
	}
	for _, tc := range cases {
		enc, bits, err := c.Compress(nil, tc.line)
		if err != nil {
			t.Fatal(err)
		}
		if code := enc[0] >> 6; code != tc.code || bits != 2+8*tc.bytes {
			t.Errorf("%s: code %02b, %d bits; want %02b, 2+%d×8 = %d", tc.name, code, bits, tc.code, tc.bytes, 2+8*tc.bytes)
		}
		// the data part is an exact multiple of the MAG: raw = effective size
		if eff := linecomp.EffectiveBits(bits-c.TagBits(), 32); eff != bits-c.TagBits() {
			t.Errorf("%s: %d data bits are not a whole number of 32-byte bursts", tc.name, bits-c.TagBits())
		}
	}
}

// TestEquation1 checks Eq. (1) for the other MAGs and line sizes, with the
// arithmetic: width = floor((8·size − 32 − words) / words).
func TestEquation1(t *testing.T) {
	cases := []struct {
		line, mag int
		widths    []uint
		tagBits   int
	}{
		// 16-byte MAG on 128 bytes: (128k − 64)/32 for k = 1..7
		{128, 16, []uint{2, 6, 10, 14, 18, 22, 26}, 3},
		// 64-byte MAG on 128 bytes: (512 − 64)/32 = 14
		{128, 64, []uint{14}, 1},
		// 64-byte lines, 16 words, header 48: (256 − 48)/16 = 13
		{64, 32, []uint{13}, 1},
		// (128 − 48)/16 = 5, (256 − 48)/16 = 13, (384 − 48)/16 = 21
		{64, 16, []uint{5, 13, 21}, 2},
		// 32-byte lines, 8 words, header 40: (128 − 40)/8 = 11
		{32, 16, []uint{11}, 1},
	}
	for _, tc := range cases {
		c, err := New(tc.line, tc.mag)
		if err != nil {
			t.Fatal(err)
		}
		if _, w := c.Levels(); !slices.Equal(w, tc.widths) || c.TagBits() != tc.tagBits {
			t.Errorf("%d-byte line, %d-byte MAG: widths %v tag %d; want %v tag %d", tc.line, tc.mag, w, c.TagBits(), tc.widths, tc.tagBits)
		}
	}
	for _, tc := range []struct{ line, mag int }{{64, 64}, {32, 32}, {32, 64}} {
		if _, err := New(tc.line, tc.mag); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("New(%d, %d): %v, want ErrLineSize", tc.line, tc.mag, err)
		}
	}
}

func TestDocExample(t *testing.T) {
	c, _ := New(128, 32)
	enc, bits, err := c.Compress(nil, words(128, func(i int) uint32 { return 0x12340 + 3*uint32(i) }))
	if err != nil {
		t.Fatal(err)
	}
	head := []byte{0x40, 0x00, 0x48, 0xD0, 0x3F, 0xFF, 0xFF, 0xFF, 0xC0, 0x00, 0x00, 0x0C}
	if bits != 514 || !bytes.Equal(enc[:len(head)], head) {
		t.Fatalf("got % X… (%d bits), want % X… (514 bits)", enc[:len(head)], bits, head)
	}
}

func TestSignedVariant(t *testing.T) {
	// −1…−32: below 2^w never holds unsigned, and base −1 minus later words
	// is negative; signed 6-bit deltas take them all as immediates.
	line := words(128, func(i int) uint32 { return uint32(int32(-1 - i)) })
	u, _ := New(128, 32)
	s, _ := New(128, 32, WithSignedDeltas())
	if got := u.Size(line); got != 2+1024 {
		t.Errorf("unsigned: %d bits, want uncompressed 2+1024", got)
	}
	if got := s.Size(line); got != 2+256 {
		t.Errorf("signed: %d bits, want 2+256 (6-bit deltas)", got)
	}
}

func TestConformance(t *testing.T) {
	codectest.ForEachLevel(t, conformance)
}

// TestLevelKernels: the level of every line, from every kernel level, in
// batches and one at a time, equals the pure-Go definition.
func TestLevelKernels(t *testing.T) {
	for _, mag := range []int{16, 32, 64} {
		for _, opts := range [][]Option{nil, {WithSignedDeltas()}} {
			for _, n := range codectest.LineSizes {
				c, err := New(n, mag, opts...)
				if err != nil {
					continue // no compressed size at this line size
				}
				t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
					codectest.CrossCheck(t, n, prefilterLines(c), c.fitLevels, c.levelGeneric)
				})
			}
		}
	}
}

// TestSizesLevels: AppendSizes, the batch kernel behind linecomp.Sizes,
// gives at every kernel level the length of the literal reference's
// stream for every line (a level's size off by one MAG fails it).
func TestSizesLevels(t *testing.T) {
	for _, mag := range []int{16, 32, 64} {
		for _, opts := range [][]Option{nil, {WithSignedDeltas()}} {
			for _, n := range codectest.LineSizes {
				c, err := New(n, mag, opts...)
				if err != nil {
					continue // no compressed size at this line size
				}
				enc, ok := ref.Lookup(c.Name())
				if !ok {
					t.Fatalf("no reference for %s", c.Name())
				}
				kernel := func(data []byte, out []int) {
					if _, err := c.AppendSizes(out[:0], data); err != nil {
						t.Fatal(err)
					}
				}
				generic := func(line []byte) int { return len(enc(line)) }
				t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
					codectest.CrossCheck(t, n, prefilterLines(c), kernel, generic)
				})
			}
		}
	}
}

func conformance(t *testing.T) {
	for _, mag := range []int{16, 32, 64} {
		for _, suffix := range []string{"", "-signed"} {
			name := fmt.Sprintf("magbdi-%d%s", mag, suffix)
			for _, n := range codectest.LineSizes {
				c, err := linecomp.New(name, n)
				if errors.Is(err, linecomp.ErrLineSize) {
					continue // no MAG multiple below the line size
				}
				if err != nil {
					t.Fatal(err)
				}
				codectest.CheckAll(t, c)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	c, _ := New(128, 32)
	for _, f := range codectest.Sample() {
		codectest.CheckZeroAllocs(t, c, f.Data[:128])
	}
}

func TestBadInput(t *testing.T) {
	for _, mag := range []int{0, -32, 8, 10, 48, 128} {
		if _, err := New(128, mag); !errors.Is(err, linecomp.ErrConfig) {
			t.Errorf("New(128, %d): %v, want ErrConfig", mag, err)
		}
	}
	c, _ := New(128, 32)
	if _, _, err := c.Compress(nil, make([]byte, 64)); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("Compress of 64 bytes: %v", err)
	}
	if c.Size(nil) != -1 {
		t.Error("Size(nil) should be -1")
	}
	good, _, _ := c.Compress(nil, words(128, func(i int) uint32 { return uint32(i) }))
	for _, enc := range [][]byte{nil, good[:10], append(slices.Clone(good), 0)} {
		if _, err := c.Decompress(nil, enc); !errors.Is(err, linecomp.ErrCorrupt) {
			t.Errorf("Decompress(% X…): %v, want ErrCorrupt", enc[:min(len(enc), 4)], err)
		}
		if err := linecomptest.CheckGarbage(c, enc); err != nil {
			t.Error(err)
		}
	}
	c16, _ := New(64, 32) // one size: codes 0 and 1 only, so nothing is unassigned
	if _, err := c16.Decompress(nil, make([]byte, 33)); err != nil {
		t.Errorf("64-byte zero block rejected: %v", err)
	}
}

// TestRawLevels: at every kernel level, the raw stream of every line, and
// the line Decompress reads back from it and from the same stream with its
// bytes scrambled (padding kept zero), are what the pure-Go path gives.
func TestRawLevels(t *testing.T) {
	for _, mag := range []int{16, 32, 64} {
		for _, n := range codectest.LineSizes {
			c, err := New(n, mag)
			if err != nil {
				continue // no compressed size at this line size
			}
			raw := int(c.uncompressedCode())
			all := func(line []byte) string {
				enc := c.encode(nil, line, raw)
				scrambled := slices.Clone(enc)
				for i := range scrambled {
					scrambled[i] ^= line[(5*i+1)%n] + byte(i)
				}
				scrambled[0] |= 0xFF << (8 - c.tagBits) // keep the raw code
				scrambled[n] &^= 0xFF >> c.tagBits      // and the zero padding
				b := fmt.Appendf(nil, "%X;", enc)
				for _, s := range [][]byte{enc, scrambled} {
					out, err := c.Decompress(nil, s)
					b = fmt.Appendf(b, "%X %v;", out, err)
				}
				return string(b)
			}
			kernel := func(data []byte, out []string) {
				for i := range out {
					out[i] = all(data[i*n : (i+1)*n])
				}
			}
			generic := func(line []byte) string {
				defer cpu.Set(cpu.Generic)()
				return all(line)
			}
			t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
				codectest.CrossCheck(t, n, nil, kernel, generic)
			})
		}
	}
}

// TestOneCallLevels: at every kernel level, Compress of every line into a
// dst with room for a raw stream (the one-call kernel writes there) and
// into one without (it writes to a buffer), and Decompress of that stream
// and of the same stream with its payload scrambled (code and zero padding
// kept, so that it still decodes: random bases, masks and deltas) give what
// the pure-Go path gives, for every MAG, signedness and line size.
func TestOneCallLevels(t *testing.T) {
	for _, mag := range []int{16, 32, 64} {
		for _, opts := range [][]Option{nil, {WithSignedDeltas()}} {
			for _, n := range codectest.LineSizes {
				c, err := New(n, mag, opts...)
				if err != nil {
					continue // no compressed size at this line size
				}
				all := func(line []byte) string {
					enc, bits, err := c.Compress(make([]byte, 0, 2*n), line)
					b := fmt.Appendf(nil, "%X %d %v;", enc, bits, err)
					short, bits, err := c.Compress(make([]byte, 1, n/2), line) // no room for a raw stream
					b = fmt.Appendf(b, "%X %d %v;", short, bits, err)
					scrambled := slices.Clone(enc)
					for i := range scrambled {
						scrambled[i] ^= line[(7*i+3)%n] * byte(2*i+1)
					}
					keep := byte(0xFF) << (8 - c.tagBits)
					scrambled[0] = scrambled[0]&^keep | enc[0]&keep
					scrambled[len(enc)-1] &^= byte(1)<<(8*len(enc)-bits) - 1
					for _, s := range [][]byte{enc, scrambled} {
						out, err := c.Decompress(make([]byte, 1, 2*n), s)
						b = fmt.Appendf(b, "%X %v;", out, err)
					}
					return string(b)
				}
				kernel := func(data []byte, out []string) {
					for i := range out {
						out[i] = all(data[i*n : (i+1)*n])
					}
				}
				generic := func(line []byte) string {
					defer cpu.Set(cpu.Generic)()
					return all(line)
				}
				t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
					codectest.CrossCheck(t, n, prefilterLines(c), kernel, generic)
				})
			}
		}
	}
}

// TestCompressLinesLevels: at every kernel level, CompressLines appends to
// a Lines that already holds a line (so the batch kernel starts past the
// start of Enc) the stream and length that the pure-Go Compress gives for
// every line, for every MAG, signedness and line size.
func TestCompressLinesLevels(t *testing.T) {
	for _, mag := range []int{16, 32, 64} {
		for _, opts := range [][]Option{nil, {WithSignedDeltas()}} {
			for _, n := range codectest.LineSizes {
				c, err := New(n, mag, opts...)
				if err != nil {
					continue // no compressed size at this line size
				}
				first := make([]byte, n)
				first[1] = 1
				var lines linecomp.Lines
				kernel := func(data []byte, out []string) {
					lines.Reset()
					if err := errors.Join(c.CompressLines(&lines, first), c.CompressLines(&lines, data)); err != nil {
						t.Fatal(err)
					}
					if lines.Len() != len(out)+1 || len(lines.Bits) != len(out)+1 {
						t.Fatalf("%s/%d: %d lines give %d ends and %d lengths, want %d", c.Name(), n, len(out), lines.Len(), len(lines.Bits), len(out)+1)
					}
					for i := range out {
						out[i] = fmt.Sprintf("%X %d", lines.Line(i+1), lines.Bits[i+1])
					}
				}
				generic := func(line []byte) string {
					defer cpu.Set(cpu.Generic)()
					enc, bits, _ := c.Compress(nil, line)
					return fmt.Sprintf("%X %d", enc, bits)
				}
				t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
					codectest.CrossCheck(t, n, prefilterLines(c), kernel, generic)
				})
			}
		}
	}
}

// prefilterLines returns lines at the edges of the kernels' prefilter
// (kernelParams): words far from zero that differ by just under, at and
// just over 2^wmax, either way, with and without an earlier word that is
// an immediate at wmax but not at narrower widths, so that it, not the
// first far word, is a narrower level's base.
func prefilterLines(c *Codec) [][]byte {
	wmax := c.levels[len(c.levels)-1].width
	big := uint32(0x40000000)
	var lines [][]byte
	for _, d := range []int64{1<<wmax - 1, 1 << wmax, 1<<wmax + 1, -(1<<wmax - 1), -(1 << wmax), 1<<(wmax-1) - 1, 1 << (wmax - 1), -(1 << (wmax - 1)), -(1<<(wmax-1) + 1)} {
		for _, lead := range []uint32{0, 1<<(wmax-1) + 3, 1 << wmax} {
			lines = append(lines, words(c.lineSize, func(i int) uint32 {
				switch i {
				case 0:
					return lead
				case 1:
					return big
				case c.words - 1:
					return big + uint32(d)
				}
				return uint32(i)
			}))
		}
	}
	if len(c.levels) < 2 {
		return lines
	}
	// The unsigned kernels' second stage (magFitUnsigned in
	// _asm/magbdi.go): a line that fails the widest level still takes the
	// narrower ones when its first word r of 2^wmax or more has
	// r − 2^wmax < 2^wnext. Word 0 is b just under 2^wmax, word 1 r, word
	// 2 r − 1 (below r: the widest level fails), the rest zero; the
	// narrowest width that fits is that of r − b, at and either side of
	// 2^wnext, 2^w0 and r − 2^wmax = 2^wnext.
	wnext, w0 := c.levels[len(c.levels)-2].width, c.levels[0].width
	for _, b := range []uint32{1<<wmax - 1, 1<<wmax - 2, 1<<wmax - 1<<wnext + 1, 1<<wmax - 1<<w0} {
		for _, e := range []uint32{0, 1, 2, 1<<w0 - 2, 1<<w0 - 1, 1 << w0, 1<<wnext - 2, 1<<wnext - 1, 1 << wnext, 1<<wnext + 1} {
			r := uint32(1)<<wmax + e
			lines = append(lines, words(c.lineSize, func(i int) uint32 {
				switch i {
				case 0:
					return b
				case 1:
					return r
				case 2:
					return r - 1
				}
				return 0
			}))
		}
	}
	// The second stage tells immediates by each word's float exponent:
	// words just under, at and just over 2^w for every width, and the
	// largest words (those a float rounds up to 2^32).
	for _, l := range c.levels {
		for _, v := range []uint32{1<<l.width - 1, 1 << l.width, 1<<l.width + 1, 1<<(l.width+1) - 1} {
			for _, next := range []uint32{v, v + 1, v - 1, 0} {
				lines = append(lines, words(c.lineSize, func(i int) uint32 {
					return [...]uint32{0, v, next, 1}[i%4]
				}))
			}
		}
	}
	for _, v := range []uint32{0xFFFFFFFF, 0xFFFFFF80, 0x7FFFFFFF, 0x80000000} {
		lines = append(lines, words(c.lineSize, func(i int) uint32 { return v - uint32(i&1) }))
	}
	return lines
}

// BenchmarkStreams times Compress and Decompress, one line per call, of
// magbdi-16 and magbdi-32 over the corpora (the buffer of the root
// BenchmarkTargets, which times magbdi-32 only), next to memcpy of it.
// Issue 13's floor is 0.18× memcpy for both:
//
//	go test -run '^$' -bench Streams ./magbdi
func BenchmarkStreams(b *testing.B) {
	var data []byte
	files := codectest.Files(b)
	if len(files) > len(codectest.Sample()) {
		files = files[len(codectest.Sample()):] // the corpora contain the sample
	}
	for _, f := range files {
		data = append(data, f.Data[:len(f.Data)/128*128]...)
	}
	b.Run("memcpy", func(b *testing.B) {
		dst := make([]byte, len(data))
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			copy(dst, data)
		}
	})
	for _, mag := range []int{16, 32} {
		for _, n := range []int{64, 128} {
			c, err := New(n, mag)
			if err != nil {
				b.Fatal(err)
			}
			var enc linecomp.Lines
			if err := c.CompressLines(&enc, data); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/%d/encode", c.Name(), n), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				buf := make([]byte, 0, 2*n)
				for b.Loop() {
					for off := 0; off < len(data); off += n {
						buf, _, _ = c.Compress(buf[:0], data[off:off+n])
					}
				}
			})
			b.Run(fmt.Sprintf("%s/%d/decode", c.Name(), n), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				buf := make([]byte, 0, n)
				for b.Loop() {
					for i := range enc.Len() {
						buf, _ = c.Decompress(buf[:0], enc.Line(i))
					}
				}
			})
		}
	}
}
