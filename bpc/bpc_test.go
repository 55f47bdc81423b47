package bpc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/linecomptest"
)

// line32 builds a line of n little-endian 32-bit words w(i).
func line32(n int, w func(i int) uint32) []byte {
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], w(i))
	}
	return b
}

// TestGoldenSizes checks the sizes of reference-implementations.md §5.4
// (the BPC authors' BPCompressor.hh semantics, 128-byte lines). The table
// gives the bit-plane stream without our 1-bit flag, so every stream here
// is one bit longer.
func TestGoldenSizes(t *testing.T) {
	cases := []struct {
		name     string
		line     []byte
		signed   int // payload bits, default codec
		unsigned int // payload bits, WithUnsignedPlane
	}{
		// base 000 (3) + run of 33 zero planes 01+11111 (7) = 10.
		{"all zero", line32(32, func(int) uint32 { return 0 }), 3 + 7, 3 + 7},
		// Every Δ = 1, so DBP[0] is all ones and DBP[1…32] are zero:
		// base 000 (3) + DBX[32…1] a run of 32, 01+11110 (7)
		// + DBX[0] = DBP[0] all ones with DBP[0] ≠ 0, 00000 (5) = 15.
		{"0,1,…,31", line32(32, func(i int) uint32 { return uint32(i) }), 3 + 7 + 5, 3 + 7 + 5},
		// base 1+32 (33) + all deltas zero, run of 33 (7) = 40.
		{"32 × 0x12345678", line32(32, func(int) uint32 { return 0x12345678 }), 33 + 7, 33 + 7},
		// base 0x1000 fits 16 bits: 011+16 (19). Every Δ = 4: DBP[2] all
		// ones, the rest zero. DBX[32…3] run of 30 (7); DBX[2] all ones,
		// DBP[2] ≠ 0: 00000 (5); DBX[1] = DBP[2] all ones but DBP[1] = 0:
		// 00001 (5, the authors' priority); DBX[0] = 0: a single zero plane
		// 001 (3). 19 + 7 + 5 + 5 + 3 = 39.
		{"0x1000 + 4i", line32(32, func(i int) uint32 { return 0x1000 + 4*uint32(i) }), 19 + 7 + 5 + 5 + 3, 19 + 7 + 5 + 5 + 3},
		// Signed: every Δ = −1, all 33 bits set, so DBX[32] = DBP[32] is
		// all ones (00000, 5) and DBX[31…0] = 0 (run of 32, 7): 3 + 5 + 7
		// = 15. Unsigned: Δ_1 = 0xFFFFFFFF − 0 has no borrow, the other 30
		// do, so DBP[32] = 0x7FFFFFFE: raw 1+31 (32); DBP[31…0] are all
		// ones, DBX[31] = DBP[31] ^ DBP[32] = 1: a single one at 0,
		// 00011+00000 (10); DBX[30…0] = 0, run of 31 (7).
		// 3 + 32 + 10 + 7 = 52.
		{"0,−1,…,−31", line32(32, func(i int) uint32 { return uint32(-int32(i)) }), 3 + 5 + 7, 3 + 32 + 10 + 7},
	}
	want := map[string][2]int{"all zero": {10, 10}, "0,1,…,31": {15, 15}, "32 × 0x12345678": {40, 40}, "0x1000 + 4i": {39, 39}, "0,−1,…,−31": {15, 52}}
	def, _ := New(128)
	uns, _ := New(128, WithUnsignedPlane())
	for _, tc := range cases {
		if w := want[tc.name]; w != [2]int{tc.signed, tc.unsigned} {
			t.Fatalf("%s: arithmetic %d/%d disagrees with the notes %d/%d", tc.name, tc.signed, tc.unsigned, w[0], w[1])
		}
		if got := def.Size(tc.line); got != 1+tc.signed {
			t.Errorf("%s: %d bits, want 1 + %d", tc.name, got, tc.signed)
		}
		if got := uns.Size(tc.line); got != 1+tc.unsigned {
			t.Errorf("%s unsigned: %d bits, want 1 + %d", tc.name, got, tc.unsigned)
		}
	}
}

// TestGoldenStreams checks whole streams, one per symbol kind, at the
// three line sizes.
func TestGoldenStreams(t *testing.T) {
	cases := []struct {
		name string
		line []byte
		want string // flag, base, plane symbols from DBX[32] down
	}{
		// all zero, any size: flag 1, base 000, run of 33 zero planes.
		{"zero 32B", make([]byte, 32), "1" + "000" + "01" + "11111"},
		{"zero 64B", make([]byte, 64), "1" + "000" + "01" + "11111"},
		// 0…15: Δ = 1, run of 32 then DBX[0] all ones (15-bit plane).
		{"ramp 64B", line32(16, func(i int) uint32 { return uint32(i) }), "1" + "000" + "01" + "11110" + "00000"},
		// 0, 1, 2, 2, …: Δ_1 = Δ_2 = 1, so DBP[0] = DBX[0] = 0b11: two
		// adjacent ones, the lower at position 0 (5-bit field at 128 B).
		{"two ones 128B", line32(32, func(i int) uint32 { return uint32(min(i, 2)) }), "1" + "000" + "01" + "11110" + "00010" + "00000"},
		// A spike w_5 = 1: Δ_5 = 1, Δ_6 = −1. DBP[32…1] = bit 5 (Δ_6),
		// DBP[0] = bits 4, 5. DBX[32] single one at 5: 00011+00101;
		// DBX[31…1] run of 31: 01+11101; DBX[0] = bit 4: 00011+00100.
		// 1 + 3 + 10 + 7 + 10 = 31 bits.
		{"spike 128B", line32(32, func(i int) uint32 { return b2u(i == 5) }), "1" + "000" + "00011" + "00101" + "01" + "11101" + "00011" + "00100"},
		// 8 × 0xFFFFFFFF at 32 B: base −1 fits 4 bits: 001+1111, run 33.
		{"minus one 32B", bytes.Repeat([]byte{0xFF}, 32), "1" + "001" + "1111" + "01" + "11111"},
	}
	for _, tc := range cases {
		c, err := New(len(tc.line))
		if err != nil {
			t.Fatal(err)
		}
		enc, n, err := c.Compress(nil, tc.line)
		if err != nil {
			t.Fatal(err)
		}
		if got := linecomptest.BitString(enc, n); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestDocExample checks the worked example in the package doc.
func TestDocExample(t *testing.T) {
	words := []uint32{3, 4, 6, 6, 5, 5, 5, 7}
	line := line32(8, func(i int) uint32 { return words[i] })
	c, _ := New(32)
	var p planeSet
	c.transform(line, &p)
	// The codec keeps only DBX; DBP[j] = DBX[j] ^ DBP[j+1] from DBP[33] = 0.
	var above uint32
	for j := 32; j >= 0; j-- {
		dbp, dbx := uint32(0b0001000), uint32(0)
		switch j {
		case 32:
			dbx = 0b0001000
		case 1:
			dbp, dbx = 0b1001010, 0b1000010
		case 0:
			dbp, dbx = 0b0001001, 0b1000011
		}
		got := p.dbx[j] ^ above
		above = got
		if got != dbp || p.dbx[j] != dbx {
			t.Errorf("plane %d: DBP %07b DBX %07b, doc says %07b %07b", j, got, p.dbx[j], dbp, dbx)
		}
		if j < 32 && p.cls[clsDBPZero]>>j&1 != b2u(dbp == 0) {
			t.Errorf("plane %d: DBP-zero bit %d, DBP %07b", j, p.cls[clsDBPZero]>>j&1, dbp)
		}
	}
	enc, n, err := c.Compress(nil, line)
	if err != nil {
		t.Fatal(err)
	}
	const bitsWant = "1" + "0010011" + "00011011" + "0111100" + "11000010" + "11000011"
	want := []byte{0x93, 0x1B, 0x79, 0x85, 0x86}
	if n != 39 || len(bitsWant) != 39 || !bytes.Equal(enc, want) {
		t.Fatalf("got % X (%d bits), want % X (39 bits)", enc, n, want)
	}
	if got := linecomptest.BitString(enc, n); got != bitsWant {
		t.Fatalf("got %s, want %s", got, bitsWant)
	}
	back, err := c.Decompress(nil, enc)
	if err != nil || !bytes.Equal(back, line) {
		t.Fatalf("round trip: % X, %v", back, err)
	}
}

// TestRawFallback checks that a line whose bit-plane stream is not
// strictly shorter than the line is stored as flag 0 + the raw line.
func TestRawFallback(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{32, 64, 128} {
		line := make([]byte, n)
		for i := range line {
			line[i] = byte(rng.Uint32())
		}
		c, _ := New(n)
		enc, bits, _ := c.Compress(nil, line)
		if bits != 1+8*n || enc[0]>>7 != 0 {
			t.Errorf("%d B random line: %d bits, flag %d; want raw 1 + %d", n, bits, enc[0]>>7, 8*n)
		}
		if got := linecomptest.BitString(enc, bits)[1:]; got != linecomptest.BitString(line, 8*n) {
			t.Errorf("%d B: raw payload is not the line in memory order", n)
		}
	}
}

func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var a, b [32]uint32
	for i := range a {
		a[i] = rng.Uint32()
	}
	b = a
	transpose32(&b)
	for r := 0; r < 32; r++ {
		for c := 0; c < 32; c++ {
			if b[r]>>c&1 != a[c]>>r&1 {
				t.Fatalf("bit %d of row %d is not bit %d of row %d", c, r, r, c)
			}
		}
	}
}

func TestLatency(t *testing.T) {
	c, _ := New(128)
	if l := c.Latency(); l != (linecomp.Latency{Compress: linecomp.LatencyUnknown, Decompress: 11}) {
		t.Errorf("default latency %+v, want LATTE-CC's unknown/11", l)
	}
	c, _ = New(128, WithLatency(linecomp.Latency{Compress: 4, Decompress: 7}))
	if l := c.Latency(); l != (linecomp.Latency{Compress: 4, Decompress: 7}) {
		t.Errorf("WithLatency: %+v", l)
	}
	if c.TagBits() != 1 {
		t.Errorf("TagBits %d, want 1", c.TagBits())
	}
}

func TestConformance(t *testing.T) {
	codectest.ForEachLevel(t, func(t *testing.T) { conformance(t) })
}

func conformance(t *testing.T) {
	for _, name := range []string{"bpc", "bpc-unsigned"} {
		for _, n := range codectest.LineSizes {
			c, err := linecomp.New(name, n)
			if err != nil {
				t.Fatal(err)
			}
			if c.Name() != name {
				t.Fatalf("registered %q names itself %q", name, c.Name())
			}
			codectest.CheckAll(t, c)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	codectest.ForEachLevel(t, zeroAllocs)
}

func zeroAllocs(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		for _, f := range codectest.Sample() {
			codectest.CheckZeroAllocs(t, c, f.Data[:n])
		}
		codectest.CheckZeroAllocs(t, c, make([]byte, n))
	}
}

func TestBadInput(t *testing.T) {
	if _, err := New(48); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("New(48): %v", err)
	}
	c, _ := New(128)
	if _, _, err := c.Compress(nil, make([]byte, 127)); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("Compress of 127 bytes: %v", err)
	}
	if c.Size(make([]byte, 129)) != -1 {
		t.Error("Size of 129 bytes should be -1")
	}
	bad := []struct {
		size int
		bits string
		why  string
	}{
		{128, "", "empty"},
		{128, "1000", "truncated: no plane symbols"},
		{128, "1" + "000" + "01" + "11", "truncated run field"}, // a whole byte, the field needs 3 more bits
		{128, "1" + "000" + "01" + "11111" + "1", "trailing bit after 33 planes"},
		{128, "1" + "000" + "01" + "11111" + "00000000", "trailing byte"},
		// DBX[32] is the only plane left after a run of 32; a run of 2 is too long.
		{128, "1" + "000" + "01" + "11110" + "01" + "00000", "run longer than planes left"},
		{128, "1" + "000" + "01" + "11111", "valid"}, // control, see below
		// a single one at position 31 of a 31-bit plane
		{128, "1" + "000" + "00011" + "11111" + "01" + "11110", "single one out of range"},
		// two ones at 30 and 31
		{128, "1" + "000" + "00010" + "11110" + "01" + "11110", "two ones out of range"},
		// 64 B: 15-bit planes, 4-bit positions: 15 is out of range, 14 for two ones too
		{64, "1" + "000" + "00011" + "1111" + "01" + "11110", "single one out of range, 64 B"},
		{64, "1" + "000" + "00010" + "1110" + "01" + "11110", "two ones out of range, 64 B"},
		// 32 B: 7-bit planes, 3-bit positions
		{32, "1" + "000" + "00011" + "111" + "01" + "11110", "single one out of range, 32 B"},
		{32, "1" + "000" + "00010" + "110" + "01" + "11110", "two ones out of range, 32 B"},
		{32, "0" + "1", "truncated raw line"},
	}
	for _, tc := range bad {
		c, _ := New(tc.size)
		enc := pack(tc.bits)
		_, err := c.Decompress(nil, enc)
		if tc.why == "valid" {
			if err != nil {
				t.Errorf("valid stream %s: %v", tc.bits, err)
			}
			continue
		}
		var ce *linecomp.CorruptError
		if !errors.Is(err, linecomp.ErrCorrupt) || !errors.As(err, &ce) {
			t.Errorf("%s (%s): %v, want a *CorruptError", tc.why, tc.bits, err)
		}
		if err := linecomptest.CheckGarbage(c, enc); err != nil {
			t.Error(err)
		}
	}
	// Non-zero padding: the all-zero stream is 11 bits, so flip bit 15.
	enc, _, _ := c.Compress(nil, make([]byte, 128))
	enc[1] |= 1
	if _, err := c.Decompress(nil, enc); !errors.Is(err, linecomp.ErrCorrupt) {
		t.Errorf("non-zero padding accepted: %v", err)
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// pack turns a '0'/'1' string into bytes, zero-padded.
func pack(s string) []byte {
	b := make([]byte, (len(s)+7)/8)
	for i := range s {
		if s[i] == '1' {
			b[i/8] |= 0x80 >> (i % 8)
		}
	}
	return b
}

func TestGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		for range 2000 {
			enc := make([]byte, rng.IntN(2*n))
			for i := range enc {
				enc[i] = byte(rng.Uint32())
			}
			if len(enc) > 0 {
				enc[0] |= 0x80 // mostly bit-plane streams
			}
			if err := linecomptest.CheckGarbage(c, enc); err != nil {
				t.Fatal(err)
			}
		}
	}
}
