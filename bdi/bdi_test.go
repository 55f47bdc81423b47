package bdi

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/linecomptest"
)

func words64(f func(i int) uint64) []byte {
	b := make([]byte, 64)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint64(b[8*i:], f(i))
	}
	return b
}

func words32(f func(i int) uint32) []byte {
	b := make([]byte, 64)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], f(i))
	}
	return b
}

// TestTavanaTableII reproduces the "Total Data Size" column of Table II of
// Tavana et al. for 64-byte (512-bit) lines, each with a line that selects
// that encoding. Table II prints data + metadata; the metadata is our 4-bit
// id plus the bitmask (one bit per element).
func TestTavanaTableII(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	random := make([]byte, 64)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	cases := []struct {
		name string
		line []byte
		id   int
		bits int // Table II total
	}{
		// 0 + 4 bits
		{"zero block", make([]byte, 64), Zeros, 0 + 4},
		// 64 + 4 bits: one 8-byte value
		{"repeated words", words64(func(int) uint64 { return 0x0123456789ABCDEF }), Repeated, 64 + 4},
		// 128 + 12: base 64 + 8 deltas × 8 bits; id 4 + mask 8
		{"B8Δ1", words64(func(i int) uint64 { return 0x1234567800000000 + uint64(i) }), Base8Delta1, 64 + 8*8 + 4 + 8},
		// 192 + 12: base 64 + 8 × 16
		{"B8Δ2", words64(func(i int) uint64 { return 0x1234567800000000 + 0x100*uint64(i) }), Base8Delta2, 64 + 8*16 + 4 + 8},
		// 320 + 12: base 64 + 8 × 32
		{"B8Δ4", words64(func(i int) uint64 { return 0x1234567800000000 + 0x1000000*uint64(i) }), Base8Delta4, 64 + 8*32 + 4 + 8},
		// 160 + 20: base 32 + 16 × 8; id 4 + mask 16
		{"B4Δ1", words32(func(i int) uint32 { return 0xC04039C0 + 8*uint32(i) }), Base4Delta1, 32 + 16*8 + 4 + 16},
		// 288 + 20: base 32 + 16 × 16
		{"B4Δ2", words32(func(i int) uint32 { return 0x12340000 + 0x100*uint32(i) }), Base4Delta2, 32 + 16*16 + 4 + 16},
		// 272 + 36: base 16 + 32 × 8; id 4 + mask 32. 2-byte elements 0x1000+j.
		{"B2Δ1", words32(func(i int) uint32 { return 0x10011000 + 0x00020002*uint32(i) }), Base2Delta1, 16 + 32*8 + 4 + 32},
		// 512 + 4: the raw line
		{"uncompressed", random, Uncompressed, 512 + 4},
	}
	want := map[string]int{"zero block": 4, "repeated words": 68, "B8Δ1": 140, "B8Δ2": 204, "B8Δ4": 332, "B4Δ1": 180, "B4Δ2": 308, "B2Δ1": 308, "uncompressed": 516}
	c, err := New(64)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		if tc.bits != want[tc.name] {
			t.Fatalf("%s: arithmetic %d disagrees with Table II %d", tc.name, tc.bits, want[tc.name])
		}
		if got := c.encodedBits(tc.id); got != tc.bits {
			t.Errorf("%s: encoding %04b is %d bits, Table II says %d", tc.name, tc.id, got, tc.bits)
		}
		enc, bits, err := c.Compress(nil, tc.line)
		if err != nil {
			t.Fatal(err)
		}
		if id := int(enc[0] >> 4); id != tc.id || bits != tc.bits {
			t.Errorf("%s: chose %04b with %d bits, want %04b with %d", tc.name, id, bits, tc.id, tc.bits)
		}
	}
}

// TestSafecracker checks the test patterns of Safecracker's patterns.h
// (reference-implementations.md §8.1). Safecracker expects sizes in bytes
// under the paper's single-base B+Δ table: base k + n×d bytes; our
// WithSingleBase codec stores exactly that after its 4-bit id. Under the
// default (BΔI) rules each stream also carries the n-bit mask.
func TestSafecracker(t *testing.T) {
	rep := func(s string, n int) []byte { return []byte(strings.Repeat(s, n)) }
	cat := func(first string, tail string) []byte {
		var b []byte
		for _, c := range "bdfhjlnp" {
			b = append(b, strings.Repeat(string(c), len(first))+tail...)
		}
		return b
	}
	cases := []struct {
		name        string
		line        []byte
		safecracker int // bytes, patterns.h
		single      int // bits, WithSingleBase
		bdi         int // bits, default
	}{
		// zero line: id only. Safecracker charges 1 byte; we charge 0 data bits.
		{"B1D0", make([]byte, 64), 1, 4, 4},
		// repeated 8-byte value: 4 + 64
		{"B8D0", rep("abcdefgh", 8), 8, 4 + 64, 4 + 64},
		// 8-byte words 0x46464646464646XX, XX = b,d,…,p: deltas 0,2,…,14 fit one byte.
		// single: 4 + 64 + 8×8 = 132 = 4 + 8×16; BΔI: + 8-bit mask = 140.
		{"B8D1", cat("b", "FFFFFFF"), 16, 4 + 8*16, 4 + 8 + 64 + 8*8},
		// 4-byte words "a001","i001",…: low byte a..q, deltas ≤ 16 from 'a'.
		// single: 4 + 32 + 16×8 = 164 = 4 + 8×20; BΔI: + 16 = 180.
		{"B4D1", []byte("a001i001b001j001c001l001d001m001e001n001f001o001g001p001h001q001"), 20, 4 + 8*20, 4 + 16 + 32 + 16*8},
		// 8-byte words differing by 0x0202 in the low halfword: two-byte deltas.
		// single: 4 + 64 + 8×16 = 196 = 4 + 8×24; BΔI: + 8 = 204.
		{"B8D2", cat("bb", "FFFFFF"), 24, 4 + 8*24, 4 + 8 + 64 + 8*16},
		// 2-byte elements "0F".."fF" = 0x4630.., deltas 0..9 and 49..54.
		// single: 4 + 16 + 32×8 = 276 = 4 + 8×34; BΔI: + 32 = 308.
		{"B2D1", rep("0F1F2F3F4F5F6F7F8F9FaFbFcFdFeFfF", 2), 34, 4 + 8*34, 4 + 32 + 16 + 32*8},
		// 4-byte words "aa01","ii01",…: deltas of 0x808 etc. need two bytes.
		// single: 4 + 32 + 16×16 = 292 = 4 + 8×36; BΔI: + 16 = 308.
		{"B4D2", []byte("aa01ii01bb01jj01cc01ll01dd01mm01ee01nn01ff01oo01gg01pp01hh01qq01"), 36, 4 + 8*36, 4 + 16 + 32 + 16*16},
		// 8-byte words differing by 0x02020202: four-byte deltas.
		// single: 4 + 64 + 8×32 = 324 = 4 + 8×40; BΔI: + 8 = 332.
		{"B8D4", cat("bbbb", "FFFF"), 40, 4 + 8*40, 4 + 8 + 64 + 8*32},
		// no encoding fits: 4 + 512 both ways.
		{"B8D8", cat("bbbbbbbb", ""), 64, 4 + 8*64, 4 + 512},
	}
	single, _ := New(64, WithSingleBase())
	def, _ := New(64)
	for _, tc := range cases {
		if len(tc.line) != 64 {
			t.Fatalf("%s: pattern is %d bytes", tc.name, len(tc.line))
		}
		dataBytes := (tc.single - tagBits) / 8
		if tc.name != "B1D0" && dataBytes != tc.safecracker {
			t.Fatalf("%s: arithmetic %d bytes disagrees with Safecracker %d", tc.name, dataBytes, tc.safecracker)
		}
		if got := single.Size(tc.line); got != tc.single {
			t.Errorf("%s single-base: %d bits, want %d", tc.name, got, tc.single)
		}
		if got := def.Size(tc.line); got != tc.bdi {
			t.Errorf("%s BΔI: %d bits, want %d", tc.name, got, tc.bdi)
		}
	}
}

// TestDocExample checks the worked example in the package doc.
func TestDocExample(t *testing.T) {
	line := make([]byte, 32)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(line[4*i:], 0xC04039C0+8*uint32(i))
	}
	c, _ := New(32)
	enc, bits, err := c.Compress(nil, line)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0x5F, 0xFC, 0x04, 0x03, 0x9C, 0x00, 0x00, 0x81, 0x01, 0x82, 0x02, 0x83, 0x03, 0x80}
	if bits != 108 || !bytes.Equal(enc, want) {
		t.Fatalf("got % X (%d bits), want % X (108 bits)", enc, bits, want)
	}
}

func TestConformance(t *testing.T) {
	check := func(t *testing.T, name string) {
		for _, n := range codectest.LineSizes {
			c, err := linecomp.New(name, n)
			if err != nil {
				t.Fatal(err)
			}
			codectest.CheckAll(t, c)
		}
	}
	// The kernels implement the default rules and B+Δ; the symmetric
	// variant always runs the pure-Go path, so one pass covers it.
	codectest.ForEachLevel(t, func(t *testing.T) {
		check(t, "bdi")
		check(t, "bdi-single")
	})
	check(t, "bdi-symmetric")
}

// TestSingleLevels: the encoding id that the B+Δ kernels choose for every
// line, at every kernel level, is the pure-Go choice, line by line and in
// batches.
//
// The extra lines have 8-byte words x₀ and x₀ − 1: deltas of 0 and −1,
// which the kernels' folded form y = D XOR (D >> 63) makes both zero, so
// they must not be taken for a repeated line (img_astronaut.rgba8 has
// such lines). Under B+Δ such a line is b8d1: 4 + 64 + 8n/8 bits.
func TestSingleLevels(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := New(n, WithSingleBase())
		var extra [][]byte
		for _, x0 := range []uint64{0xFF000000FF000001, 0, 1 << 63} {
			line := make([]byte, n)
			for i := 0; i < n; i += 8 {
				binary.LittleEndian.PutUint64(line[i:], x0-uint64(min(i, 8)/8))
			}
			if got, want := c.Size(line), 4+64+n; got != want {
				t.Errorf("%d-byte line of x₀ = %#x then x₀ − 1: %d bits, want b8d1's %d", n, x0, got, want)
			}
			extra = append(extra, line)
		}
		// Zeros, and a repeated byte, but for the last byte: the zeros
		// and repeated tests must see every vector of the line.
		for _, b := range []byte{0, 7} {
			line := bytes.Repeat([]byte{b}, n)
			line[n-1] ^= 1
			extra = append(extra, line)
		}
		codectest.CrossCheck(t, n, extra, c.singleIDs, c.idGeneric)
		// AppendSizes, whose AVX-512 kernels look the sizes up themselves.
		codectest.CrossCheck(t, n, extra,
			func(data []byte, out []int) { mustAppendSizes(t, c, out, data) },
			func(line []byte) int { return int(c.idBits[c.idGeneric(line)&0xF]) })
	}
}

// TestFitMaskLevels: the fit mask of every line, from every kernel level,
// equals the pure-Go definition, line by line and in batches. The
// symmetric variant has no kernel; B+Δ has its own (TestSingleLevels).
func TestFitMaskLevels(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		codectest.CrossCheck(t, n, nil, c.fitMasks, c.fitMaskGeneric)
	}
}

// TestChooseLevels: the encoding id that the two-base choose kernels give
// every line, at every kernel level, is the pure-Go choice (the best of
// the fit mask), line by line and in batches, on the corpora and on
// twoBaseLines' edge cases; so is the size that AppendSizes gives.
func TestChooseLevels(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		codectest.CrossCheck(t, n, twoBaseLines(n), c.twoBaseIDs, c.idGeneric)
		// AppendSizes, whose AVX-512 kernels look the sizes up themselves.
		codectest.CrossCheck(t, n, twoBaseLines(n),
			func(data []byte, out []int) { mustAppendSizes(t, c, out, data) },
			func(line []byte) int { return int(c.idBits[c.idGeneric(line)&0xF]) })
	}
}

// twoBaseLines returns n-byte lines at the edges of the two-base tests,
// for each element width k: deltas of 0 and −1 (zero after the kernels'
// sign fold), values and base deltas on each side of every delta width's
// range (±2^(8d−1)), the only element that does not fit the zero base in
// the last position (where the kernels' base index is clamped) and in the
// first, and pseudo-random lines of a base, small deltas and immediates.
func twoBaseLines(n int) [][]byte {
	var out [][]byte
	put := func(line []byte, k, i int, v uint64) {
		switch k {
		case 8:
			binary.LittleEndian.PutUint64(line[8*i:], v)
		case 4:
			binary.LittleEndian.PutUint32(line[4*i:], uint32(v))
		default:
			binary.LittleEndian.PutUint16(line[2*i:], uint16(v))
		}
	}
	fill := func(k int, f func(i int) uint64) []byte {
		line := make([]byte, n)
		for i := 0; i < n/k; i++ {
			put(line, k, i, f(i))
		}
		return line
	}
	rng := rand.New(rand.NewPCG(13, uint64(n)))
	for _, k := range []int{8, 4, 2} {
		last := n/k - 1
		base := uint64(0x9E3779B97F4A7C15)
		out = append(out,
			fill(k, func(i int) uint64 { return base - uint64(min(i, 1)) }), // x₀, then x₀ − 1
			fill(k, func(i int) uint64 { return base - uint64(i&1) }),
			fill(k, func(i int) uint64 { return uint64(i&1) - 1 }), // 0, −1, …
		)
		for _, d := range []int{1, 2, 4} {
			if d >= k {
				continue
			}
			h := uint64(1) << (8*d - 1)
			for _, v := range []uint64{h - 1, h, -h, -h - 1} {
				out = append(out,
					fill(k, func(i int) uint64 { return v * uint64(i/last) }),                           // the last element alone
					fill(k, func(i int) uint64 { return v * uint64(1-min(i, 1)) }),                      // the first alone
					fill(k, func(i int) uint64 { return base + v*uint64(i/last) }),                      // base, base + v last
					fill(k, func(i int) uint64 { return (base + v*uint64(i&1)) * uint64(min(i%3, 1)) }), // every third 0
					fill(k, func(i int) uint64 { return []uint64{3, base, base + v, -h}[i%4] }),
					fill(k, func(i int) uint64 { return []uint64{v, h - 1, -h, 0}[i%4] }), // zero base only
				)
			}
			for range 200 {
				base := rng.Uint64()
				out = append(out, fill(k, func(int) uint64 {
					switch r := rng.IntN(8); {
					case r == 0:
						return uint64(rng.IntN(int(2*h))) - h // an immediate
					case r == 1:
						return base + uint64(rng.IntN(int(4*h))) - 2*h // may miss the range
					default:
						return base + uint64(rng.IntN(int(2*h))) - h
					}
				}))
			}
		}
	}
	return out
}

func TestVariantsDiffer(t *testing.T) {
	// Even words 0x5000+8i use the explicit base; odd words are one-byte
	// immediates, among them −128, which is in range for the default but
	// not for gem5's symmetric range (there B4Δ1 fails and B4Δ2 wins).
	line := words32(func(i int) uint32 {
		if i&1 == 1 {
			return uint32([]int32{-128, 5, -7, 3}[(i/2)%4])
		}
		return 0x5000 + 8*uint32(i)
	})
	def, _ := New(64)
	sym, _ := New(64, WithSymmetricDeltas())
	if d, s := def.Size(line), sym.Size(line); d != 180 || s != 308 {
		t.Errorf("default %d bits, symmetric %d; want B4Δ1 180 and B4Δ2 308", d, s)
	}
}

func TestZeroAllocs(t *testing.T) {
	c, _ := New(128)
	for _, f := range codectest.Sample() {
		codectest.CheckZeroAllocs(t, c, f.Data[:128])
	}
}

func TestBadInput(t *testing.T) {
	if _, err := New(48); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("New(48): %v", err)
	}
	c, _ := New(64)
	if _, _, err := c.Compress(nil, make([]byte, 63)); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("Compress of 63 bytes: %v", err)
	}
	if c.Size(make([]byte, 65)) != -1 {
		t.Error("Size of 65 bytes should be -1")
	}
	for _, enc := range [][]byte{nil, {0x80}, {0x00, 0x00}, {0x08}, {0x10, 0, 0}, {0xF0}} {
		_, err := c.Decompress(nil, enc)
		var ce *linecomp.CorruptError
		if !errors.Is(err, linecomp.ErrCorrupt) || !errors.As(err, &ce) {
			t.Errorf("Decompress(% X): %v, want a *CorruptError", enc, err)
		}
		if err := linecomptest.CheckGarbage(c, enc); err != nil {
			t.Error(err)
		}
	}
}

// TestEncodeLevels: at every kernel level, the encoding of every line in
// the raw encoding and every base-delta encoding that fits it, as Compress
// and CompressLines write it, is the pure-Go encoding, for each variant and
// line size.
func TestEncodeLevels(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithSymmetricDeltas()}, {WithSingleBase()}} {
		for _, n := range codectest.LineSizes {
			c, _ := New(n, opts...)
			all := func(line []byte, encode func(dst, line []byte, id int) []byte) string {
				b := encode(nil, line, Uncompressed)
				for _, e := range baseDelta {
					if _, _, ok := c.fit(line, e.k, e.d); ok {
						b = encode(b, line, e.id)
					}
				}
				return string(b)
			}
			kernel := func(data []byte, out []string) {
				for i := range out {
					out[i] = all(data[i*n:(i+1)*n], c.encode)
				}
			}
			codectest.CrossCheck(t, n, nil, kernel, func(line []byte) string { return all(line, c.encodeGeneric) })
		}
	}
}

// TestCompressLevels: at every kernel level, Compress into a dst with room
// for any stream (where the one-call compress kernel applies) writes the
// pure-Go encoding of the pure-Go choice, for each variant and line size.
func TestCompressLevels(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithSymmetricDeltas()}, {WithSingleBase()}} {
		for _, n := range codectest.LineSizes {
			c, _ := New(n, opts...)
			buf := make([]byte, 0, 2*maxPayload)
			kernel := func(data []byte, out []string) {
				for i := range out {
					enc, bits, err := c.Compress(buf, data[i*n:(i+1)*n])
					out[i] = fmt.Sprint(string(enc), bits, err)
				}
			}
			generic := func(line []byte) string {
				id := int(c.tables.best()[c.fitMaskGeneric(line)])
				return fmt.Sprint(string(c.encodeGeneric(nil, line, id)), c.encodedBits(id), nil)
			}
			codectest.CrossCheck(t, n, nil, kernel, generic)
		}
	}
}

// TestCompressLinesLevels: at every kernel level, CompressLines appends to
// a Lines that already holds a line (so the batch kernel starts past the
// start of Enc) the pure-Go encoding and length of the pure-Go choice for
// every line, and the ends that delimit them, for each variant and line
// size.
func TestCompressLinesLevels(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithSymmetricDeltas()}, {WithSingleBase()}} {
		for _, n := range codectest.LineSizes {
			c, _ := New(n, opts...)
			first := make([]byte, n)
			first[0] = 1
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
					out[i] = fmt.Sprint(string(lines.Line(i+1)), lines.Bits[i+1])
				}
			}
			generic := func(line []byte) string {
				id := int(c.idGeneric(line))
				return fmt.Sprint(string(c.encodeGeneric(nil, line, id)), c.encodedBits(id))
			}
			codectest.CrossCheck(t, n, nil, kernel, generic)
		}
	}
}

// TestDecompressLinesLevels: at every kernel level, linecomp.DecompressLines
// (by way of the batch kernel where it applies) of the stream of each line's
// chosen encoding and its scrambled copy (decodeStreams), followed by a bad
// line, gives the same lines and the same error as decoding the same Lines
// one line at a time with Decompress. The bad line, one kind per line by
// the sum of its bytes: the stream one byte short, one byte long, empty,
// with its last bit set, or an end offset before the line's start or past
// Enc.
func TestDecompressLinesLevels(t *testing.T) {
	oneByOne := func(c *Codec, src *linecomp.Lines) string {
		out, err := linecomp.DecompressLines(struct{ linecomp.Codec }{c}, []byte{9}, src) // hides the batch kernel
		return fmt.Sprintf("%X %v", out, err)
	}
	type badLine func(l *linecomp.Lines, good []byte)
	bad := []badLine{
		func(l *linecomp.Lines, good []byte) { codectest.AppendStream(l, good[:len(good)-1]) },
		func(l *linecomp.Lines, good []byte) { codectest.AppendStream(l, append(bytes.Clone(good), 0)) },
		func(l *linecomp.Lines, good []byte) { codectest.AppendStream(l, nil) },
		func(l *linecomp.Lines, good []byte) {
			codectest.AppendStream(l, bytes.Clone(good))
			l.Enc[len(l.Enc)-1] |= 1 // padding, or the raw line's last bit
		},
		func(l *linecomp.Lines, good []byte) {
			codectest.AppendStream(l, good)
			l.End[len(l.End)-1] = l.End[len(l.End)-2] - 1
		},
		func(l *linecomp.Lines, good []byte) {
			codectest.AppendStream(l, good)
			l.End[len(l.End)-1] = len(l.Enc) + 1
		},
	}
	linesOf := func(c *Codec, line []byte, b badLine) *linecomp.Lines {
		var l linecomp.Lines
		streams := decodeStreams(c, line)[2:4] // the chosen encoding, plain and scrambled
		for _, s := range streams {
			codectest.AppendStream(&l, s)
		}
		b(&l, streams[0])
		return &l
	}
	badOf := func(line []byte) badLine {
		sum := 0
		for _, x := range line {
			sum += int(x)
		}
		return bad[sum%len(bad)]
	}
	for _, opts := range [][]Option{nil, {WithSymmetricDeltas()}, {WithSingleBase()}} {
		for _, n := range codectest.LineSizes {
			c, _ := New(n, opts...)
			kernel := func(data []byte, out []string) {
				for i := range out {
					line := data[i*n : (i+1)*n]
					got, err := linecomp.DecompressLines(c, []byte{9}, linesOf(c, line, badOf(line)))
					out[i] = fmt.Sprintf("%X %v", got, err)
				}
			}
			generic := func(line []byte) string { return oneByOne(c, linesOf(c, line, badOf(line))) }
			codectest.CrossCheck(t, n, nil, kernel, generic)
		}
	}
}

// TestDecompressLinesBadStart: called directly, the batch decoder takes no
// line whose start (the end of the line before from) is outside Enc (the
// kernel compares the offsets unsigned: start ≤ end ≤ len(Enc)), and none
// from past the last line or before the first. The first Lines' Enc is
// the last 4 bytes of a 9-byte repeated-value stream, so a start of −5
// taken as it is would find a well-formed stream in the bytes before Enc.
func TestDecompressLinesBadStart(t *testing.T) {
	c, _ := New(64)
	line := bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 8)
	stream, bits, _ := c.Compress(nil, line)
	if len(stream) != 9 {
		t.Fatalf("a repeated 64-bit value: %d bytes (%d bits), want 9", len(stream), bits)
	}
	enc := stream[5:]
	for _, l := range []linecomp.Lines{
		{Enc: enc, End: []int{-5, len(enc)}, Bits: []int{0, bits}},
		{Enc: enc, End: []int{len(enc) + 1, len(enc)}, Bits: []int{0, bits}},
	} {
		if out, n := c.DecompressLines([]byte{1}, &l, 1); n != 0 || string(out) != "\x01" {
			t.Errorf("ends %v, from line 1: %d lines, % X", l.End, n, out)
		}
		for _, from := range []int{2, -1} {
			if out, n := c.DecompressLines(nil, &l, from); n != 0 || len(out) != 0 {
				t.Errorf("ends %v, from line %d of 2: %d lines, % X", l.End, from, n, out)
			}
		}
	}
}

// mustAppendSizes writes the sizes of the lines of data to out with
// AppendSizes, which must not fail on whole lines.
func mustAppendSizes(t *testing.T, c *Codec, out []int, data []byte) {
	if _, err := c.AppendSizes(out[:0], data); err != nil {
		t.Fatal(err)
	}
}

// TestDecodeLevels: at every kernel level, Decompress of the encoding of
// every line in the raw encoding, its chosen encoding and every base-delta
// encoding that fits it, and of the same stream with its payload scrambled
// (any payload of the right length and padding is a valid stream), gives
// what the pure-Go decoder gives, for each variant and line size. Each
// stream is decoded into a nil dst and into one with room for the line
// after three bytes, where the one-call kernels apply.
func TestDecodeLevels(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithSymmetricDeltas()}, {WithSingleBase()}} {
		for _, n := range codectest.LineSizes {
			c, _ := New(n, opts...)
			all := func(line []byte) string {
				var b []byte
				for _, s := range decodeStreams(c, line) {
					for _, dst := range [][]byte{nil, roomyDst()} {
						out, err := c.Decompress(dst, s)
						b = fmt.Appendf(b, "%X %v;", out, err)
					}
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
			codectest.CrossCheck(t, n, nil, kernel, generic)
		}
	}
}

// TestDecodeRefusals: at every kernel level, Decompress into a dst with
// room for the line (where the one-call kernels apply) of malformed
// streams made from TestDecodeLevels' (a byte too many or too few, a
// padding bit set, an id with no encoding) gives the pure-Go decoder's
// error, and leaves dst as it was, for each variant and line size, on the
// lines of the embedded sample: the kernels must refuse every one.
func TestDecodeRefusals(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithSymmetricDeltas()}, {WithSingleBase()}} {
		for _, n := range codectest.LineSizes {
			c, _ := New(n, opts...)
			for _, line := range codectest.SampleLines(n, 64) {
				for _, s := range decodeStreams(c, line) {
					padded := bytes.Clone(s)
					padded[len(padded)-1] |= 1 // a padding bit, or a payload bit without padding
					unknown := bytes.Clone(s)
					unknown[0] = 0x80 | s[0]&0x0F
					for _, bad := range [][]byte{append(bytes.Clone(s), 0), s[:len(s)-1], padded, unknown} {
						restore := cpu.Set(cpu.Generic)
						_, want := c.Decompress(nil, bad)
						restore()
						if want == nil {
							continue // a padding bit that is a payload bit
						}
						for _, level := range cpu.Levels() {
							restore := cpu.Set(level)
							dst := roomyDst()
							before := bytes.Clone(dst[:cap(dst)])
							out, err := c.Decompress(dst, bad)
							restore()
							if fmt.Sprint(err) != fmt.Sprint(want) || !bytes.Equal(out, dst) || !bytes.Equal(dst[:cap(dst)], before) {
								t.Fatalf("%s, %d-byte line %X, stream %X, level %v: got %X, %v; want %v with dst untouched", c.Name(), n, line, bad, level, out, err, want)
							}
						}
					}
				}
			}
		}
	}
}

// decodeStreams returns the encoding of line in the raw encoding, its
// chosen encoding and every base-delta encoding that fits it, each
// followed by the same stream with its payload scrambled.
func decodeStreams(c *Codec, line []byte) [][]byte {
	n := len(line)
	ids := []int{Uncompressed, int(c.tables.best()[c.fitMaskGeneric(line)])} // the second may be zeros or repeated
	for _, e := range baseDelta {
		if _, _, ok := c.fit(line, e.k, e.d); ok {
			ids = append(ids, e.id)
		}
	}
	var out [][]byte
	for _, id := range ids {
		enc := c.encodeGeneric(nil, line, id)
		scrambled := bytes.Clone(enc)
		for i := range scrambled {
			scrambled[i] ^= line[(7*i+3)%n] ^ byte(i)
		}
		scrambled[0] = enc[0]&0xF0 | scrambled[0]&0x0F // keep the id
		if bits := c.encodedBits(id); bits%8 != 0 {
			scrambled[len(scrambled)-1] &= 0xF0 // and the zero padding
		}
		out = append(out, enc, scrambled)
	}
	return out
}

// roomyDst returns a dst of three bytes with room for any line after them.
func roomyDst() []byte {
	dst := append(make([]byte, 0, 3+2*maxPayload), 1, 2, 3)
	for i := len(dst); i < cap(dst); i++ {
		dst[:cap(dst)][i] = 0xEE
	}
	return dst
}
