package cpack

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
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
)

var names = []string{"cpack", "cpack-gem5", "cpack-z", "cpack-z-gem5"}

// line returns an n-byte line whose first words are ws (little-endian) and
// whose other words are zero.
func line(n int, ws ...uint32) []byte {
	b := make([]byte, n)
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// f renders v as an n-bit field.
func f(v uint64, n int) string { return fmt.Sprintf("%0*b", n, v) }

// cat joins bit-string fields; spaces inside them are ignored.
func cat(fields ...string) string {
	return strings.ReplaceAll(strings.Join(fields, ""), " ", "")
}

// fromBits packs a '0'/'1' string MSB-first, zero-padded.
func fromBits(s string) []byte {
	b := make([]byte, (len(s)+7)/8)
	for i, ch := range s {
		if ch == '1' {
			b[i/8] |= 0x80 >> (i % 8)
		}
	}
	return b
}

func mustNew(t testing.TB, name string, n int) linecomp.Codec {
	t.Helper()
	c, err := linecomp.New(name, n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkStream compresses l with the named codec and compares the stream
// with want, and also checks the literal reference and the round trip.
func checkStream(t *testing.T, name string, l []byte, want string) {
	t.Helper()
	c := mustNew(t, name, len(l))
	enc, bits, err := c.Compress(nil, l)
	if err != nil {
		t.Fatal(err)
	}
	if got := linecomptest.BitString(enc, bits); got != want {
		t.Errorf("%s: stream\n got %s (%d bits)\nwant %s (%d bits)", name, got, len(got), want, len(want))
	}
	if s := c.Size(l); s != len(want) {
		t.Errorf("%s: Size %d, want %d", name, s, len(want))
	}
	r, _ := ref.Lookup(name)
	if got := r(l); got != want {
		t.Errorf("%s: reference stream\n got %s\nwant %s", name, got, want)
	}
	back, err := c.Decompress(nil, enc)
	if err != nil || !bytes.Equal(back, l) {
		t.Errorf("%s: round trip: %v", name, err)
	}
}

// TestChenExample is the C-Pack bit string of reference-implementations.md
// §8.2 for words 0x00000000, 0x000000AB, 0x12345678, 0x12345678:
//
//	00 (zzzz)  1101 10101011 (zzzx, 0xAB)  01 <0x12345678> (xxxx, slot 0)
//	10 0000 (mmmm, slot 0) = 2 + 12 + 34 + 6 = 54 bits,
//
// after the 1-bit flag; every further word is zero (00).
func TestChenExample(t *testing.T) {
	head := cat("00", "1101 10101011", "01 00010010001101000101011001111000", "10 0000")
	if len(head) != 54 {
		t.Fatalf("example is %d bits, the notes say 54", len(head))
	}
	for _, n := range codectest.LineSizes {
		l := line(n, 0, 0xAB, 0x12345678, 0x12345678)
		// 1 + 54 + 2 per remaining zero word: 63, 95, 159 bits.
		checkStream(t, "cpack", l, cat("1", head, strings.Repeat("00", n/4-4)))
	}
}

// TestPushRule is the push-rule sensitivity example of
// reference-implementations.md §4.2, words 0x12345678, 0x12345678,
// 0x12345679, 0x12345679 and four zero words in a 32-byte line.
func TestPushRule(t *testing.T) {
	l := line(32, 0x12345678, 0x12345678, 0x12345679, 0x12345679)
	first := "01" + f(0x12345678, 32) // xxxx, pushed into slot 0
	zeros := strings.Repeat("00", 4)  // 4 × zzzz = 8 bits
	// Push xxxx only: 0x12345679 is mmmx of slot 0 both times (not pushed):
	// 34 + 6 + 16 + 16 = 72 bits of codes; 1 + 72 + 8 = 81.
	def := cat("1", first, "10 0000", "1110 0000 01111001", "1110 0000 01111001", zeros)
	// gem5: the mmmm word goes to slot 1 and the first 0x12345679 (mmmx)
	// to slot 2, so the last word is mmmm of slot 2:
	// 34 + 6 + 16 + 6 = 62 bits of codes; 1 + 62 + 8 = 71.
	gem5 := cat("1", first, "10 0000", "1110 0000 01111001", "10 0010", zeros)
	if len(def) != 1+72+8 || len(gem5) != 1+62+8 {
		t.Fatalf("arithmetic: %d and %d bits", len(def), len(gem5))
	}
	checkStream(t, "cpack", l, def)
	checkStream(t, "cpack-gem5", l, gem5)

	// C-Pack+Z codes the same choices with its own table: new 34, full
	// match 8, three bytes 16: 34+8+16+16 = 74 and 34+8+16+8 = 66 bits,
	// plus 4 zero words (01) and the flag.
	zzeros := strings.Repeat("01", 4)
	zfirst := "10" + f(0x12345678, 32)
	checkStream(t, "cpack-z", l, cat("1", zfirst, "1100 0000", "1111 0000 01111001", "1111 0000 01111001", zzeros))
	checkStream(t, "cpack-z-gem5", l, cat("1", zfirst, "1100 0000", "1111 0000 01111001", "1100 0010", zzeros))
}

// TestDSCC uses DSCC's commented test line (reference-implementations.md
// §8.2): the 64-bit values 0x12345678AAAAAAAA, 0x123400003527894E,
// 0x000000ABBBBB2022, 0x123456AABB1011D4. DSCC takes the upper 32-bit half
// first; stored little-endian, as our codecs read memory, the lower half
// comes first. Both orders give the same codes:
//
//	ours:  AAAAAAAA xxxx(slot 0)  12345678 xxxx(slot 1)  3527894E xxxx(2)
//	       12340000 mmxx slot 1   BBBB2022 xxxx(3)       000000AB zzzx
//	       BB1011D4 xxxx(4)       123456AA mmmx slot 1
//	DSCC:  12345678 xxxx(0)  AAAAAAAA xxxx(1)  12340000 mmxx 0  3527894E xxxx(2)
//	       000000AB zzzx     BBBB2022 xxxx(3)  123456AA mmmx 0  BB1011D4 xxxx(4)
//
// 5 × 34 + 24 + 12 + 16 = 222 bits of codes (the notes' 222), under either
// push rule (no pushed match ever becomes a better match) and in either
// code table (these four kinds have the same sizes in both); 223 with the
// flag, below the 256-bit line.
func TestDSCC(t *testing.T) {
	mem := make([]byte, 32)
	for i, v := range []uint64{0x12345678AAAAAAAA, 0x123400003527894E, 0x000000ABBBBB2022, 0x123456AABB1011D4} {
		binary.LittleEndian.PutUint64(mem[8*i:], v)
	}
	dscc := line(32, 0x12345678, 0xAAAAAAAA, 0x12340000, 0x3527894E, 0x000000AB, 0xBBBB2022, 0x123456AA, 0xBB1011D4)
	const want = 1 + 5*34 + 24 + 12 + 16
	for _, name := range names {
		c := mustNew(t, name, 32)
		if got := c.Size(mem); got != want {
			t.Errorf("%s little-endian order: %d bits, want %d", name, got, want)
		}
		if got := c.Size(dscc); got != want {
			t.Errorf("%s DSCC order: %d bits, want %d", name, got, want)
		}
	}
	// The exact default stream in our order.
	checkStream(t, "cpack", mem, cat("1",
		"01"+f(0xAAAAAAAA, 32), "01"+f(0x12345678, 32), "01"+f(0x3527894E, 32),
		"1100 0001"+f(0x0000, 16), "01"+f(0xBBBB2022, 32), "1101"+f(0xAB, 8),
		"01"+f(0xBB1011D4, 32), "1110 0001"+f(0xAA, 8)))
}

// TestFIFOWrap shows the dictionary's first-in first-out replacement on a
// 128-byte line (32 words). Words 0..16 are w_k = (k+1)<<24 | 0x112233:
// upper two bytes (k+1, 0x11) all differ, so each is a new word, pushed into
// slot k mod 16; the 17th push (w_16) overwrites slot 0 (w_0).
//
//	word 17 = w_0:  no longer in the dictionary: xxxx again (34 bits),
//	                pushed into slot 1 (over w_1)
//	word 18 = w_16: mmmm of slot 0 (10 0000, 6 bits)
//	word 19 = w_2:  mmmm of slot 2 (10 0010, 6 bits)
//	words 20..31:   zero, 12 × 2 bits
//
// 18 × 34 + 6 + 6 + 24 = 648 bits of codes; 649 with the flag.
// With gem5's rule word 18 is pushed too, into slot 2 over w_2, so word 19
// is a new word: 18 × 34 + 6 + 34 + 24 = 676; 677 with the flag.
func TestFIFOWrap(t *testing.T) {
	wk := func(k int) uint32 { return uint32(k+1)<<24 | 0x112233 }
	ws := make([]uint32, 0, 32)
	for k := 0; k <= 16; k++ {
		ws = append(ws, wk(k))
	}
	ws = append(ws, wk(0), wk(16), wk(2))
	l := line(128, ws...)

	var news []string
	for k := 0; k <= 16; k++ {
		news = append(news, "01"+f(uint64(wk(k)), 32))
	}
	zeros := strings.Repeat("00", 12)
	def := cat("1", strings.Join(news, ""), "01"+f(uint64(wk(0)), 32), "10 0000", "10 0010", zeros)
	gem5 := cat("1", strings.Join(news, ""), "01"+f(uint64(wk(0)), 32), "10 0000", "01"+f(uint64(wk(2)), 32), zeros)
	if len(def) != 1+18*34+6+6+24 || len(gem5) != 1+18*34+6+34+24 {
		t.Fatalf("arithmetic: %d and %d bits", len(def), len(gem5))
	}
	checkStream(t, "cpack", l, def)
	checkStream(t, "cpack-gem5", l, gem5)
}

// TestCPackZTableII checks every C-Pack+Z size of Tavana et al.'s Table II
// (data + metadata): zero block 0+2, zero word 0+2, new word 32+2, word
// matched 4+4, halfword matched 20+4, narrow word 8+4, three bytes matched
// 12+4 bits.
func TestCPackZTableII(t *testing.T) {
	table := map[wordKind]int{zeroWord: 0 + 2, newWord: 32 + 2, fullMatch: 4 + 4, halfMatch: 20 + 4, narrowWord: 8 + 4, threeMatch: 12 + 4}
	c, _ := New(64, WithCPackZ())
	for k, want := range table {
		if c.size[k] != want {
			t.Errorf("kind %d: %d bits, Table II says %d", k, c.size[k], want)
		}
	}
	// A zero block is the flag and 00: 1 + 2 bits at every line size.
	for _, n := range codectest.LineSizes {
		checkStream(t, "cpack-z", make([]byte, n), "100")
		checkStream(t, "cpack-z-gem5", make([]byte, n), "100")
	}
	// One line with every word code once:
	//	0x12345678 new word (slot 0)       10 <32 bits>           34
	//	0x00000000 zero word               01                      2
	//	0x12345678 word matched, slot 0    1100 0000               8
	//	0x1234ABCD halfword matched        1101 0000 <0xABCD>     24
	//	0x000000AB narrow word             1110 <0xAB>            12
	//	0x123456EF three bytes matched     1111 0000 <0xEF>       16
	//	2 zero words                       01 01                   4
	// 34 + 2 + 8 + 24 + 12 + 16 + 4 = 100 bits of codes; 101 with the flag.
	l := line(32, 0x12345678, 0, 0x12345678, 0x1234ABCD, 0xAB, 0x123456EF)
	want := cat("1", "10"+f(0x12345678, 32), "01", "1100 0000", "1101 0000"+f(0xABCD, 16),
		"1110"+f(0xAB, 8), "1111 0000"+f(0xEF, 8), "01 01")
	if len(want) != 1+34+2+8+24+12+16+4 {
		t.Fatalf("arithmetic: %d bits", len(want))
	}
	checkStream(t, "cpack-z", l, want)
}

// TestKindOrder checks what classify relies on: in both code tables the
// kinds are numbered by strictly increasing code length, so the first kind
// that applies to a word is its shortest code.
func TestKindOrder(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithCPackZ()}} {
		c, _ := New(32, opts...)
		for k := zeroWord + 1; k < numKinds; k++ {
			if c.size[k] <= c.size[k-1] {
				t.Errorf("%s: kind %d is %d bits, not longer than kind %d (%d bits)", c.Name(), k, c.size[k], k-1, c.size[k-1])
			}
		}
	}
	// Chen et al.'s lengths: zzzz 2, mmmm 6, zzzx 12, mmmx 16, mmxx 24, xxxx 34.
	c, _ := New(32)
	if c.size != [numKinds]int{2, 6, 12, 16, 24, 34} {
		t.Errorf("C-Pack sizes %v", c.size)
	}
}

// TestRawFallback: when the word codes are not strictly shorter than the
// line, the stream is a 0 flag and the raw line.
func TestRawFallback(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, n := range codectest.LineSizes {
		l := make([]byte, n)
		for i := range l {
			l[i] = byte(rng.Uint32())
		}
		var raw strings.Builder
		raw.WriteString("0")
		for _, b := range l {
			raw.WriteString(f(uint64(b), 8))
		}
		for _, name := range names {
			checkStream(t, name, l, raw.String()) // 1 + 8n bits
		}
	}
	// The boundary on a 64-byte (512-bit) line: 15 unrelated new words and
	// one zero word are 15 × 34 + 2 = 512 bits of codes, not shorter than
	// the line: raw, 513 bits. With the last new word narrow instead,
	// 14 × 34 + 12 + 2 = 490 bits of codes: compressed, 491 bits.
	ws := make([]uint32, 16)
	for k := range 15 {
		ws[k] = uint32(k+1)<<24 | uint32(k+1)<<16 | 0x5A5A
	}
	for _, name := range names {
		c := mustNew(t, name, 64)
		if got := c.Size(line(64, ws...)); got != 1+512 {
			t.Errorf("%s: 512 bits of codes: %d bits, want raw 513", name, got)
		}
		ws2 := append([]uint32(nil), ws...)
		ws2[14] = 0x7F
		if got := c.Size(line(64, ws2...)); got != 491 {
			t.Errorf("%s: 490 bits of codes: %d bits, want 491", name, got)
		}
	}
}

// TestDocExample checks the worked example in the package doc.
func TestDocExample(t *testing.T) {
	l := []byte{0, 0, 0, 0, 0xAB, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12}
	l = append(l, make([]byte, 16)...)
	for _, tc := range []struct {
		opts []Option
		want []byte
		bits int
	}{
		{nil, []byte{0x9B, 0x56, 0x89, 0x1A, 0x2B, 0x3C, 0x40, 0x00}, 1 + 2 + 12 + 34 + 6 + 4*2},
		{[]Option{WithCPackZ()}, []byte{0xBD, 0x57, 0x09, 0x1A, 0x2B, 0x3C, 0x60, 0x2A, 0x80}, 1 + 2 + 12 + 34 + 8 + 4*2},
	} {
		c, _ := New(32, tc.opts...)
		enc, bits, err := c.Compress(nil, l)
		if err != nil {
			t.Fatal(err)
		}
		if bits != tc.bits || !bytes.Equal(enc, tc.want) {
			t.Errorf("%s: got % X (%d bits), want % X (%d bits)", c.Name(), enc, bits, tc.want, tc.bits)
		}
	}
}

func TestLatency(t *testing.T) {
	for name, want := range map[string]linecomp.Latency{
		"cpack":        {Compress: 12, Decompress: 13}, // MAG-aware BDI §V
		"cpack-gem5":   {Compress: 12, Decompress: 13},
		"cpack-z":      {Compress: 16, Decompress: 9}, // Tavana Table III
		"cpack-z-gem5": {Compress: 16, Decompress: 9},
	} {
		if got := mustNew(t, name, 64).Latency(); got != want {
			t.Errorf("%s: latency %v, want %v", name, got, want)
		}
	}
	gem5, _ := linecomp.PresetLatency(linecomp.SourceGem5, "cpack")
	c, _ := New(64, WithLatency(gem5), WithCPackZ())
	if c.Latency() != gem5 {
		t.Errorf("WithLatency: %v", c.Latency())
	}
}

func TestConformance(t *testing.T) {
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, name := range names {
			for _, n := range codectest.LineSizes {
				codectest.CheckAll(t, mustNew(t, name, n))
			}
		}
	})
}

func TestZeroAllocs(t *testing.T) {
	for _, name := range names {
		c := mustNew(t, name, 128)
		for _, f := range codectest.Sample() {
			codectest.CheckZeroAllocs(t, c, f.Data[:128])
		}
		codectest.CheckZeroAllocs(t, c, make([]byte, 128))
	}
}

func TestBadInput(t *testing.T) {
	for _, n := range []int{0, 16, 48, 256} {
		if _, err := New(n); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("New(%d): %v", n, err)
		}
		if _, err := linecomp.New("cpack-z", n); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("linecomp.New(cpack-z, %d): %v", n, err)
		}
	}
	c, _ := New(32)
	z, _ := New(32, WithCPackZ())
	for _, cc := range []*Codec{c, z} {
		if _, _, err := cc.Compress(nil, make([]byte, 31)); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("%s: Compress of 31 bytes: %v", cc.Name(), err)
		}
		if cc.Size(make([]byte, 33)) != -1 {
			t.Errorf("%s: Size of 33 bytes should be -1", cc.Name())
		}
	}

	// The doc example's streams, 63 and 65 bits.
	doc := line(32, 0, 0xAB, 0x12345678, 0x12345678)
	good, _, _ := c.Compress(nil, doc)
	goodZ, _, _ := z.Compress(nil, doc)
	padded := bytes.Clone(good)
	padded[len(padded)-1] |= 1 // bit 63 is padding
	paddedZ := bytes.Clone(goodZ)
	paddedZ[len(paddedZ)-1] |= 0x40 // bit 65
	rawLine := append(fromBits("0"), make([]byte, 32)...)

	zeroWords := strings.Repeat("00", 7)
	cases := []struct {
		c      *Codec
		name   string
		enc    []byte
		offset int // -1: any
		reason string
	}{
		{c, "empty", nil, 0, "ends"},
		{z, "empty", nil, 0, "ends"},
		{c, "non-zero padding", padded, 63, "padding"},
		{z, "non-zero padding", paddedZ, 65, "padding"},
		{c, "trailing byte", append(bytes.Clone(good), 0), 63, "trailing"},
		{z, "trailing byte", append(bytes.Clone(goodZ), 0), 65, "trailing"},
		{c, "truncated", good[:len(good)-1], -1, "ends"},
		{z, "truncated", goodZ[:len(goodZ)-1], -1, "ends"},
		{c, "truncated raw", rawLine[:32], -1, "ends"},
		// flag, mmmm of slot 0 before any push, 7 zero words: index at bit 3
		{c, "empty slot 0", fromBits(cat("1", "10 0000", zeroWords)), 3, "empty slot"},
		// flag, xxxx (slot 0), mmmx of slot 1: index at bit 1+34+4 = 39
		{c, "empty slot 1", fromBits(cat("1", "01"+f(7<<24, 32), "1110 0001 00000000", strings.Repeat("00", 6))), 39, "empty slot"},
		// C-Pack+Z halfword match of slot 0 before any push: index at bit 5
		{z, "empty slot 0", fromBits(cat("1", "1101 0000"+f(0, 16), strings.Repeat("01", 7))), 5, "empty slot"},
		// flag, zero word, zero block: code at bit 3
		{z, "mid-stream zero block", fromBits(cat("1", "01", "00", strings.Repeat("01", 6))), 3, "zero-block"},
		// flag, zero block, then a zero word: the line ended at bit 3
		{z, "codes after zero block", fromBits(cat("1", "00", "01")), 3, "padding"},
		{z, "codes after zero block", fromBits(cat("1", "00", strings.Repeat("01", 8))), 3, "trailing"},
		// C-Pack has no code 1111
		{c, "undefined code", fromBits(cat("1", "1111", zeroWords)), 1, "undefined"},
	}
	for _, tc := range cases {
		_, err := tc.c.Decompress(nil, tc.enc)
		var ce *linecomp.CorruptError
		if !errors.Is(err, linecomp.ErrCorrupt) || !errors.As(err, &ce) {
			t.Errorf("%s %s: %v, want a *CorruptError", tc.c.Name(), tc.name, err)
			continue
		}
		if (tc.offset >= 0 && ce.Offset != tc.offset) || !strings.Contains(ce.Reason, tc.reason) || ce.Codec != tc.c.Name() {
			t.Errorf("%s %s: %v, want offset %d and a reason with %q", tc.c.Name(), tc.name, err, tc.offset, tc.reason)
		}
		if err := linecomptest.CheckGarbage(tc.c, tc.enc); err != nil {
			t.Error(err)
		}
	}

	// A stream that Compress would not produce but that follows the layout
	// decodes: a raw stream of a compressible line.
	if back, err := c.Decompress(nil, rawLine); err != nil || !bytes.Equal(back, make([]byte, 32)) {
		t.Errorf("raw all-zero line: %v", err)
	}
}

// TestGarbage decompresses random and mutated streams: never a panic, a
// write past the result, or an unchanged dst on error.
func TestGarbage(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n)
			var valid [][]byte
			for _, f := range codectest.Sample() {
				enc, _, _ := c.Compress(nil, f.Data[:n])
				valid = append(valid, enc)
			}
			for range 2000 {
				var enc []byte
				if rng.IntN(2) == 0 {
					enc = make([]byte, rng.IntN(2*n+2))
					for i := range enc {
						enc[i] = byte(rng.Uint32())
					}
				} else {
					enc = bytes.Clone(valid[rng.IntN(len(valid))])
					if len(enc) > 0 {
						enc[rng.IntN(len(enc))] ^= 1 << rng.IntN(8)
					}
				}
				if err := linecomptest.CheckGarbage(c, enc); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
