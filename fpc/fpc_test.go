package fpc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
)

// words returns a line of n bytes holding ws as little-endian 32-bit words,
// followed by zero words.
func words(n int, ws ...uint32) []byte {
	b := make([]byte, n)
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// fill returns a line of n bytes whose word i is f(i).
func fill(n int, f func(i int) uint32) []byte {
	b := make([]byte, n)
	for i := 0; i < n/4; i++ {
		binary.LittleEndian.PutUint32(b[4*i:], f(i))
	}
	return b
}

// packBits packs a string of '0' and '1' (spaces ignored) MSB-first into
// bytes with zero padding.
func packBits(s string) []byte {
	s = strings.ReplaceAll(s, " ", "")
	out := make([]byte, (len(s)+7)/8)
	for i, c := range s {
		if c == '1' {
			out[i/8] |= 0x80 >> uint(i%8)
		}
	}
	return out
}

func mustNew(t *testing.T, name string, n int) linecomp.Codec {
	t.Helper()
	c, err := linecomp.New(name, n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkStream checks that the codec and the literal reference both encode
// line as the bit string want (spaces ignored), and that it round-trips.
func checkStream(t *testing.T, c linecomp.Codec, label string, line []byte, want string) {
	t.Helper()
	want = strings.ReplaceAll(want, " ", "")
	r, _ := ref.Lookup(c.Name())
	if got := r(line); got != want {
		t.Errorf("%s %s: reference gives\n%s (%d bits), want\n%s (%d bits)", c.Name(), label, got, len(got), want, len(want))
	}
	var s linecomptest.Scratch
	if err := codectest.Conform(c, want, line, &s); err != nil {
		t.Errorf("%s %s: %v", c.Name(), label, err)
	}
}

// TestTRSizes reproduces the per-pattern code sizes of the FPC report's
// table: a 64-byte line of 16 words of one pattern costs 1 + 16 × (3 + data)
// bits, zero runs cost 6 bits per 8 words, and a line whose codes are not
// shorter than 512 bits is stored raw.
func TestTRSizes(t *testing.T) {
	rawWord := func(i int) uint32 { return 0x80000001 + uint32(i) } // matches only 111
	cases := []struct {
		name string
		line []byte
		bits int
	}{
		// 32 zero bytes: one run of 8: 1 + 6
		{"zeros/32", make([]byte, 32), 1 + 6},
		// 64 zero bytes: two runs of 8: 1 + 2×6 = 13
		{"zeros/64", make([]byte, 64), 1 + 2*6},
		// 128 zero bytes: four runs of 8: 1 + 4×6 = 25
		{"zeros/128", make([]byte, 128), 1 + 4*6},
		// 16 non-zero 4-bit values −8…−1, 1…7, −8: 1 + 16×(3+4) = 113
		{"SE4", fill(64, func(i int) uint32 {
			return uint32(int32([]int{-8, -7, -6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 7, -8}[i]))
		}), 1 + 16*7},
		// −8…7 includes 0, a run of one: 1 + 15×7 + 6 = 112
		{"SE4 with zero", fill(64, func(i int) uint32 { return uint32(int32(i - 8)) }), 1 + 15*7 + 6},
		// −128 + 17i spans −128…127 and skips −8…7: 1 + 16×(3+8) = 177
		{"SE8", fill(64, func(i int) uint32 { return uint32(int32(-128 + 17*i)) }), 1 + 16*11},
		// −32768 + 4369i spans −32768…32767 and skips −128…127: 1 + 16×(3+16) = 305
		{"SE16", fill(64, func(i int) uint32 { return uint32(int32(-32768 + 4369*i)) }), 1 + 16*19},
		// 0x1000+i above a zero halfword: 1 + 16×19 = 305
		{"zero low half", fill(64, func(i int) uint32 { return uint32(0x1000+i) << 16 }), 1 + 16*19},
		// halves 0x10+i and −100+i (0xFF9C+i): 1 + 16×19 = 305
		{"two halves", fill(64, func(i int) uint32 { return uint32(0x10+i)<<16 | uint32(uint16(int16(-100+i))) }), 1 + 16*19},
		// bytes 0x20 + 13i, never 0x00 or 0xFF: 1 + 16×(3+8) = 177
		{"repeated bytes", fill(64, func(i int) uint32 { return uint32(byte(0x20+13*i)) * 0x01010101 }), 1 + 16*11},
		// 16×35 = 560 ≥ 512: flag 0 and the raw line, 1 + 512
		{"uncompressed", fill(64, rawWord), 1 + 512},
		// 32 bytes, 7 raw words + one SE8: 7×35 + 11 = 256, not < 256: raw, 1 + 256
		{"boundary raw/32", fill(32, func(i int) uint32 {
			if i == 7 {
				return 0x7F
			}
			return rawWord(i)
		}), 1 + 256},
		// 7 raw words + one SE4: 7×35 + 7 = 252 < 256: 1 + 252
		{"boundary coded/32", fill(32, func(i int) uint32 {
			if i == 7 {
				return 7
			}
			return rawWord(i)
		}), 1 + 252},
		// 64 bytes, 14 raw words + two SE8: 14×35 + 2×11 = 512, not < 512: 1 + 512
		{"boundary raw/64", fill(64, func(i int) uint32 {
			if i >= 14 {
				return 0x70 + uint32(i)
			}
			return rawWord(i)
		}), 1 + 512},
		// 14 raw + SE8 + SE4: 490 + 11 + 7 = 508 < 512: 1 + 508
		{"boundary coded/64", fill(64, func(i int) uint32 {
			switch i {
			case 14:
				return 0x70
			case 15:
				return 5
			}
			return rawWord(i)
		}), 1 + 508},
	}
	for _, tc := range cases {
		c := mustNew(t, "fpc", len(tc.line))
		if got := c.Size(tc.line); got != tc.bits {
			t.Errorf("%s: %d bits, want %d", tc.name, got, tc.bits)
		}
		r, _ := ref.Lookup("fpc")
		if got := len(r(tc.line)); got != tc.bits {
			t.Errorf("%s: reference gives %d bits, want %d", tc.name, got, tc.bits)
		}
		enc, _, _ := c.Compress(nil, tc.line)
		flag := enc[0] >> 7
		if raw := tc.bits == 1+8*len(tc.line); raw != (flag == 0) {
			t.Errorf("%s: flag %d for a %d-bit stream", tc.name, flag, tc.bits)
		}
	}
}

// TestTRPrefixes checks every prefix of the "fpc" table with its exact bits.
// Each line is the word under test followed by seven zero words, so the
// stream is the flag, the word's code and a run of 7 (000 110).
func TestTRPrefixes(t *testing.T) {
	cases := []struct {
		w    uint32
		code string
	}{
		{0x00000007, "001 0111"},                                // 4-bit SE, largest
		{0xFFFFFFF8, "001 1000"},                                // 4-bit SE, −8
		{0xFFFFFFFF, "001 1111"},                                // −1: SE4 (7 bits) beats repeated bytes (11)
		{0x00000008, "010 00001000"},                            // 8: one past SE4
		{0x0000007F, "010 01111111"},                            // byte SE, largest
		{0xFFFFFF80, "010 10000000"},                            // byte SE, −128
		{0x00000080, "011 0000000010000000"},                    // 128: halfword SE
		{0x00007FFF, "011 0111111111111111"},                    // halfword SE, largest
		{0xFFFF8000, "011 1000000000000000"},                    // halfword SE, −32768
		{0xABCD0000, "100 1010101111001101"},                    // high halfword stored
		{0xFFFF0000, "100 1111111111111111"},                    // also two halves (−1, 0): 100 beats 101
		{0x007FFF80, "101 01111111 10000000"},                   // halves 127 and −128
		{0xFF80007F, "101 10000000 01111111"},                   // halves −128 and 127
		{0x00050003, "101 00000101 00000011"},                   // halves 5 and 3
		{0x5A5A5A5A, "110 01011010"},                            // repeated bytes
		{0x80808080, "110 10000000"},                            // repeated bytes, sign bit set
		{0x00800080, "111 00000000100000000000000010000000"},    // halves 128, 128: nothing fits
		{0x80000001, "111 10000000000000000000000000000001"},    // nothing fits
		{0xFFF0FFF0, "101 11110000 11110000"},                   // halves −16, −16 (gem5 would say 111)
		{0x7FFFFFFF, "111 01111111111111111111111111111111"},    // largest int32
		{0x12345678, "111 00010010 00110100 01010110 01111000"}, // the word, MSB first
	}
	c := mustNew(t, "fpc", 32)
	for _, tc := range cases {
		// flag + code + run of 7 zero words (count − 1 = 6)
		checkStream(t, c, fmt.Sprintf("word %#08x", tc.w), words(32, tc.w), "1 "+tc.code+" 000 110")
	}
}

// TestZeroRuns checks that zero runs are greedy, at most 8 long and coded
// as count − 1.
func TestZeroRuns(t *testing.T) {
	c32, c64 := mustNew(t, "fpc", 32), mustNew(t, "fpc", 64)
	// a single zero word is a run of 1 (6 bits), not SE4 (7 bits)
	checkStream(t, c32, "lone zero", words(32, 1, 0, 1, 1, 1, 1, 1, 1),
		"1 0010001 000000 0010001 0010001 0010001 0010001 0010001 0010001")
	// 9 zero words then 7 ones: a run of 8, a run of 1
	checkStream(t, c64, "run of 9", fill(64, func(i int) uint32 { return uint32(i / 9) }),
		"1 000111 000000"+strings.Repeat(" 0010001", 7))
	// zeros at both ends: runs of 3 and 4 around one word
	checkStream(t, c32, "runs of 3 and 4", words(32, 0, 0, 0, 2),
		"1 000010 0010010 000011")
	// a 128-byte all-zero line: four runs of 8
	checkStream(t, mustNew(t, "fpc", 128), "zeros/128", make([]byte, 128), "1"+strings.Repeat(" 000111", 4))
}

// TestTavanaTableII reproduces Table II of Tavana et al. for FPC: each
// word's code costs the table's "data + metadata" bits, the zero block
// costs 3 bits for the whole line, and a line with an uncodable word is the
// table's uncompressed 512 bits (plus our flag).
func TestTavanaTableII(t *testing.T) {
	c32, c64 := mustNew(t, "fpc-tavana", 32), mustNew(t, "fpc-tavana", 64)
	const zeros7 = " 001 001 001 001 001 001 001" // seven zero words, 0 + 3 bits each

	// Pattern 1, zero block, 0 + 3 bits: flag + 000 = 4 bits at every line size.
	for _, n := range codectest.LineSizes {
		checkStream(t, mustNew(t, "fpc-tavana", n), "zero block", make([]byte, n), "1 000")
	}
	cases := []struct {
		name  string
		w     uint32
		code  string
		table int // Table II, data + metadata bits
	}{
		{"repeated bytes", 0x5A5A5A5A, "010 01011010", 8 + 3},
		{"4-bit SE", 0x00000007, "011 0111", 4 + 3},
		{"4-bit SE, −1 not repeated bytes", 0xFFFFFFFF, "011 1111", 4 + 3},
		{"byte SE", 0xFFFFFF80, "100 10000000", 8 + 3},
		{"halfword SE", 0x00000080, "101 0000000010000000", 16 + 3},
		{"zero low halfword", 0xABCD0000, "110 1010101111001101", 16 + 3},
		{"zero low halfword, not two halves", 0xFFFF0000, "110 1111111111111111", 16 + 3},
		{"two halves", 0x007FFF80, "111 01111111 10000000", 16 + 3},
	}
	for _, tc := range cases {
		if n := len(strings.ReplaceAll(tc.code, " ", "")); n != tc.table {
			t.Fatalf("%s: code %q is %d bits, Table II says %d", tc.name, tc.code, n, tc.table)
		}
		// flag + the word's code + pattern 2 (zero word, 0 + 3 bits) seven times:
		// e.g. repeated bytes: 1 + 11 + 7×3 = 33 bits
		checkStream(t, c32, tc.name, words(32, tc.w), "1 "+tc.code+zeros7)
		if got, want := c32.Size(words(32, tc.w)), 1+tc.table+7*3; got != want {
			t.Errorf("%s: %d bits, want %d", tc.name, got, want)
		}
	}
	// Pattern 9, uncompressed: 0x80000001 matches nothing, so the line is
	// flag 0 and its 512 bits: 1 + 512 = 513 (32 bytes: 1 + 256).
	for _, c := range []linecomp.Codec{c32, c64} {
		line := words(c.LineSize(), 7, 0x80000001)
		checkStream(t, c, "uncodable word", line, "0"+linecomptest.BitString(line, 8*len(line)))
		if got := c.Size(line); got != 1+8*c.LineSize() {
			t.Errorf("uncodable word, %d bytes: %d bits", c.LineSize(), got)
		}
	}
	// The same word is coded (111, 35 bits) by the TR table: 1 + 7 + 35 + 6 = 49.
	if got := mustNew(t, "fpc", 32).Size(words(32, 7, 0x80000001)); got != 1+7+35+6 {
		t.Errorf("fpc: %d bits, want 49", got)
	}
}

// TestDocExample checks the worked example in the package doc.
func TestDocExample(t *testing.T) {
	line := words(32, 0, 0, 3, 0xFFFFFF80, 0x12340000, 0x00050003, 0xABABABAB, 0x12345678)
	inDoc := []byte{
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x80, 0xFF, 0xFF, 0xFF,
		0x00, 0x00, 0x34, 0x12, 0x03, 0x00, 0x05, 0x00, 0xAB, 0xAB, 0xAB, 0xAB, 0x78, 0x56, 0x34, 0x12,
	}
	if !bytes.Equal(line, inDoc) {
		t.Fatalf("line bytes % X, doc says % X", line, inDoc)
	}
	for _, tc := range []struct {
		name string
		bits int
		enc  []byte
	}{
		// 1 + 6 + 7 + 11 + 19 + 19 + 11 + 35 = 109
		{"fpc", 109, []byte{0x82, 0x4D, 0x40, 0x41, 0x23, 0x4A, 0x0A, 0x07, 0xAA, 0xF8, 0x91, 0xA2, 0xB3, 0xC0}},
		// flag 0 + 256: the line shifted right by one bit
		{"fpc-tavana", 257, []byte{
			0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x80, 0x00, 0x00, 0x40, 0x7F, 0xFF, 0xFF,
			0x80, 0x00, 0x1A, 0x09, 0x01, 0x80, 0x02, 0x80, 0x55, 0xD5, 0xD5, 0xD5, 0xBC, 0x2B, 0x1A, 0x09, 0x00}},
	} {
		c := mustNew(t, tc.name, 32)
		enc, bits, err := c.Compress(nil, line)
		if err != nil {
			t.Fatal(err)
		}
		if bits != tc.bits || !bytes.Equal(enc, tc.enc) {
			t.Errorf("%s: got % X (%d bits), want % X (%d bits)", tc.name, enc, bits, tc.enc, tc.bits)
		}
	}
	// The fpc stream, field by field as the doc lays it out.
	checkStream(t, mustNew(t, "fpc", 32), "doc example", line,
		"1 000 001 001 0011 010 10000000 100 0001001000110100 101 00000101 00000011 110 10101011 111 00010010001101000101011001111000")
}

// TestDecodeNonCanonical checks that Decompress accepts streams of the
// documented layout that Compress would not produce.
func TestDecodeNonCanonical(t *testing.T) {
	cases := []struct {
		name string
		n    int
		bits string
		line []byte
	}{
		// eight runs of one zero word instead of one run of eight
		{"fpc", 32, "1" + strings.Repeat(" 000000", 8), make([]byte, 32)},
		// a word coded as 111 although SE4 fits, then a run of 7
		{"fpc", 32, "1 111 00000000000000000000000000000101 000110", words(32, 5)},
		// 16 uncompressed words: 1 + 560 bits, longer than the raw line
		{"fpc", 64, "1" + strings.Repeat(" 111 00000000000000000000000000000001", 16), fill(64, func(int) uint32 { return 1 })},
		// flag 0 for a compressible line
		{"fpc", 32, "0" + strings.Repeat("0", 256), make([]byte, 32)},
		// eight zero-word codes instead of the zero block
		{"fpc-tavana", 32, "1" + strings.Repeat(" 001", 8), make([]byte, 32)},
		// 0 coded as halfword SE
		{"fpc-tavana", 32, "1 101 0000000000000000" + strings.Repeat(" 001", 7), make([]byte, 32)},
	}
	for _, tc := range cases {
		c := mustNew(t, tc.name, tc.n)
		got, err := c.Decompress(nil, packBits(tc.bits))
		if err != nil || !bytes.Equal(got, tc.line) {
			t.Errorf("%s %q: got % X, %v; want % X", tc.name, tc.bits, got, err, tc.line)
		}
	}
}

func TestConformance(t *testing.T) {
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, name := range []string{"fpc", "fpc-tavana"} {
			for _, n := range codectest.LineSizes {
				codectest.CheckAll(t, mustNew(t, name, n))
			}
		}
	})
}

func TestZeroAllocs(t *testing.T) {
	for _, name := range []string{"fpc", "fpc-tavana"} {
		c := mustNew(t, name, 128)
		for _, f := range codectest.Sample() {
			codectest.CheckZeroAllocs(t, c, f.Data[:128])
		}
		codectest.CheckZeroAllocs(t, c, make([]byte, 128))
	}
}

// TestRegistryAndLatency: both registered codecs default to 3/5 cycles,
// which the FPC report gives for "fpc" and Tavana's Table III for
// "fpc-tavana": New relies on the two presets being equal.
func TestRegistryAndLatency(t *testing.T) {
	fpcTR, _ := linecomp.PresetLatency(linecomp.SourceFPCReport, "fpc")
	tavana, _ := linecomp.PresetLatency(linecomp.SourceTavana, "fpc")
	if fpcTR != (linecomp.Latency{Compress: 3, Decompress: 5}) || tavana != fpcTR {
		t.Fatalf("presets changed: %v %v", fpcTR, tavana)
	}
	for name, want := range map[string]linecomp.Latency{"fpc": fpcTR, "fpc-tavana": tavana} {
		c := mustNew(t, name, 64)
		if c.Name() != name || c.LineSize() != 64 || c.TagBits() != 1 || c.Latency() != want {
			t.Errorf("%s: name %q, line size %d, tag bits %d, latency %v", name, c.Name(), c.LineSize(), c.TagBits(), c.Latency())
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, n := range []int{0, 16, 48, 63, 256} {
		if _, err := New(n); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("New(%d): %v", n, err)
		}
		if _, err := linecomp.New("fpc-tavana", n); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("linecomp.New(fpc-tavana, %d): %v", n, err)
		}
	}
	for _, name := range []string{"fpc", "fpc-tavana"} {
		c := mustNew(t, name, 64)
		for _, n := range []int{0, 32, 63, 65, 128} {
			if _, _, err := c.Compress(nil, make([]byte, n)); !errors.Is(err, linecomp.ErrLineSize) {
				t.Errorf("%s Compress of %d bytes: %v", name, n, err)
			}
			if c.Size(make([]byte, n)) != -1 {
				t.Errorf("%s Size of %d bytes should be -1", name, n)
			}
		}
	}

	raw32 := append([]byte{0x00}, make([]byte, 32)...) // flag 0 + 32 zero bytes = 257 bits in 33 bytes
	cases := []struct {
		name   string
		n      int
		enc    []byte
		offset int // bit offset the error must report
	}{
		{"fpc", 32, nil, 0},                                               // no flag bit
		{"fpc", 32, raw32[:32], 8 * 32},                                   // raw line cut short: the 32-byte stream ends at bit 256, inside the line's last byte
		{"fpc", 32, append(raw32[:33:33], 0), 257},                        // trailing byte after the raw line
		{"fpc", 32, append(raw32[:32:32], 0x01), 257},                     // non-zero padding after the raw line
		{"fpc", 32, packBits("1 000111 1"), 7},                            // zero line, non-zero padding
		{"fpc", 32, []byte{0x8E, 0x00}, 7},                                // zero line (0x8E), trailing byte
		{"fpc", 64, packBits("1 000111"), 7},                              // 64-byte line, second run missing
		{"fpc", 32, packBits("1 010 1000"), 4},                            // byte SE cut inside its data
		{"fpc", 32, packBits("1 000111 000000"), 7},                       // 8 + 1 zero words: run past the line end
		{"fpc", 32, packBits("1 000110 000001"), 7},                       // 7 + 2 zero words
		{"fpc", 32, packBits("1 0010001 000111"), 8},                      // 1 + 8 words
		{"fpc-tavana", 32, packBits("1 011 0001 000"), 8},                 // zero block after a word code
		{"fpc-tavana", 32, packBits("1 001 000"), 4},                      // zero block after a zero word
		{"fpc-tavana", 32, packBits("1 000 001"), 4},                      // codes after the zero block (as padding)
		{"fpc-tavana", 32, []byte{0x80, 0x00}, 4},                         // zero block, trailing byte
		{"fpc-tavana", 32, packBits("1" + strings.Repeat(" 001", 7)), 22}, // seven words of eight
		{"fpc-tavana", 32, nil, 0},
	}
	for _, tc := range cases {
		c := mustNew(t, tc.name, tc.n)
		_, err := c.Decompress(nil, tc.enc)
		var ce *linecomp.CorruptError
		if !errors.Is(err, linecomp.ErrCorrupt) || !errors.As(err, &ce) {
			t.Errorf("%s Decompress(% X): %v, want a *CorruptError", tc.name, tc.enc, err)
			continue
		}
		if ce.Codec != tc.name || ce.Offset != tc.offset {
			t.Errorf("%s Decompress(% X): %v, want codec %s at bit %d", tc.name, tc.enc, err, tc.name, tc.offset)
		}
		if err := linecomptest.CheckGarbage(c, tc.enc); err != nil {
			t.Error(err)
		}
	}
}
