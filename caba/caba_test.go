package caba

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/linecomptest"
)

func words64(v ...uint64) []byte {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	return b
}

func words32(v ...uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

// check compresses line with c and wants the stream want of bits bits,
// Size agreeing, the round trip, and the lane model giving the same stream
// and line with the instruction counts dec and comp.
func check(t *testing.T, c AssistWarpCoster, line, want []byte, bits, dec, comp int) {
	t.Helper()
	enc, n, err := c.Compress(nil, line)
	if err != nil || n != bits || !bytes.Equal(enc, want) {
		t.Fatalf("%s: stream % X, %d bits (%v), want % X, %d bits", c.Name(), enc, n, err, want, bits)
	}
	if s := c.Size(line); s != bits {
		t.Errorf("%s: Size %d, want %d", c.Name(), s, bits)
	}
	if back, err := c.Decompress(nil, enc); err != nil || !bytes.Equal(back, line) {
		t.Errorf("%s: Decompress gives % X (%v)", c.Name(), back, err)
	}
	m := modelOf(c)
	if got, issued := m.decompress(enc); !bytes.Equal(got, line) || issued != dec {
		t.Errorf("%s: lane decode gives % X in %d instructions, want %d", c.Name(), got, issued, dec)
	}
	if got, issued := m.compress(line); !bytes.Equal(got, enc) || issued != comp {
		t.Errorf("%s: lane encode gives % X in %d instructions, want %d", c.Name(), got, issued, comp)
	}
	if n, err := c.DecompressInstructions(enc); n != dec || err != nil {
		t.Errorf("%s: DecompressInstructions %d (%v), want %d", c.Name(), n, err, dec)
	}
	if n, err := c.CompressInstructions(line); n != comp || err != nil {
		t.Errorf("%s: CompressInstructions %d (%v), want %d", c.Name(), n, err, comp)
	}
}

// TestFigure6 is CABA's Figure 6: the PageViewCount line of eight 8-byte
// words becomes a 1-byte mask, an 8-byte base and eight 1-byte deltas,
// 17 bytes, plus the encoding kept with the line: the 4-bit id of b8d1.
func TestFigure6(t *testing.T) {
	line := words64(0x00, 0x80001d000, 0x10, 0x80001d008, 0x20, 0x80001d010, 0x30, 0x80001d018)
	// Words 0, 2, 4, 6 fit one signed byte: the implicit zero base, mask 0.
	// Word 1, 0x80001d000, does not: it becomes the base; words 1, 3, 5, 7
	// are 0x80001d000 + 0x00, 0x08, 0x10, 0x18: mask 1.
	//   mask   0 1 0 1 0 1 0 1                       = 0x55      (1 byte)
	//   base   0x000000080001D000, big-endian         = 00 00 00 08 00 01 D0 00 (8 bytes)
	//   deltas 0x00 0x00 0x10 0x08 0x20 0x10 0x30 0x18                  (8 bytes)
	// 1 + 8 + 8 = 17 bytes, 47 fewer than 64, after the id 0010:
	//   0010 0101|0101 0000|0000 0000|… each payload byte straddles two
	//   stream bytes, the last one's low nibble is padding.
	//   = 25 50 00 00 00 80 00 1D 00 00 00 01 00 82 01 03 01 80, 4 + 8×17 = 140 bits.
	want := []byte{0x25, 0x50, 0x00, 0x00, 0x00, 0x80, 0x00, 0x1D, 0x00, 0x00, 0x00, 0x01, 0x00, 0x82, 0x01, 0x03, 0x01, 0x80}
	c, _ := NewBDI(64)
	payload := 1 + 8 + 8
	if payload != 17 || bdiTagBits+8*payload != 140 {
		t.Fatal("arithmetic")
	}
	// Decompression, Algorithm 1 on 8 lanes: setmask, load mask, load base,
	// load deltas, setmask (the base lanes), add, setmask, store = 8.
	// Compression, Algorithm 2 from the shortest encoding: zeros fails
	// (setmask, ld, setp, vote.all, bra = 5), repeated fails (setmask, ld,
	// shfl, setp, vote.all, bra = 6), b8d1 fits (setmask, ld, add, setp,
	// ballot, ffs, shfl, selp, sub, add, setp, plop, vote.all, bra = 14) and
	// stores (mask, base, selp, st = 4): 5 + 6 + 14 + 4 = 29.
	check(t, c, line, want, 140, 8, 29)
	if e, err := c.EncodingOf(want); err != nil || c.Encodings()[e].Name != "b8d1" || c.Encodings()[e].Bits != 140 {
		t.Errorf("EncodingOf: %d %v", e, err)
	}
}

// TestBDIMaskPadding: in a 32-byte line the 4-bit mask of 8-byte elements
// is padded to a byte, so the base and deltas stay byte-aligned: b8d1 is
// 4 + 8 + 64 + 4×8 = 108 bits (package bdi: 104).
func TestBDIMaskPadding(t *testing.T) {
	line := words64(0x00, 0x80001d000, 0x10, 0x80001d008)
	// 0010 | 0101 0000 | 00 00 00 08 00 01 D0 00 | 00 00 10 08
	want := []byte{0x25, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x1D, 0x00, 0x00, 0x00, 0x01, 0x00, 0x80}
	c, _ := NewBDI(32)
	// 32-byte order: zeros, repeated, b8d1 (108 bits, the lower id of the
	// two 108-bit encodings): the same 5 + 6 + 14 + 4 = 29.
	check(t, c, line, want, 108, 8, 29)
	bad := bytes.Clone(want)
	bad[1] |= 0x10 // the last padding bit of the mask (stream bit 11)
	if _, err := c.Decompress(nil, bad); !errors.Is(err, linecomp.ErrCorrupt) {
		t.Errorf("non-zero mask padding: %v", err)
	}
}

// TestFPCExample is the worked example of the package doc.
func TestFPCExample(t *testing.T) {
	line := words32(0, 0, 0, 0, // zero segment
		3, 0xFFFFFFFF, 5, 0xFFFFFFF8, // 4-bit: 3, F, 5, 8
		0x12340000, 0xABCD0000, 0, 0x00010000, // zero low halfword: 1234 ABCD 0000 0001
		0x12345678, 7, 0xDEADBEEF, 0xFFFFFFFF) // words
	// 1 | 000 001 100 111 0000 | 3F 58 | 12 34 AB CD 00 00 00 01 | 12 34 56 78 00 00 00 07 DE AD BE EF FF FF FF FF
	// payload 2 + 2 + 8 + 16 = 28 bytes: 1 + 224 = 225 bits.
	want := []byte{0x83, 0x38, 0x1F, 0xAC, 0x09, 0x1A, 0x55, 0xE6, 0x80, 0x00, 0x00, 0x00, 0x89, 0x1A, 0x2B, 0x3C,
		0x00, 0x00, 0x00, 0x03, 0xEF, 0x56, 0xDF, 0x77, 0xFF, 0xFF, 0xFF, 0xFF, 0x80}
	c, _ := NewFPC(64)
	// Decompression: 3 + zero 4 + sext4 7 + zerolow 7 + word 6 = 27.
	// Compression: 4 + 2 + 1 (prefixes stored) and per segment setmask,
	// the tests up to its pattern, store, address step, bfi:
	//   zero    1 + 3 + 0 + 0 + 1                         = 5
	//   sext4   1 + (3+4) + 3 + 1 + 1                     = 13
	//   zerolow 1 + (3+4+4+4+4) + 2 + 1 + 1               = 24
	//   word    1 + (3+4+4+4+4+10+5) + 1 + 1 + 1          = 38
	// 7 + 5 + 13 + 24 + 38 = 87.
	check(t, c, line, want, 225, 27, 87)
}

// TestFPCRules: a segment takes the first pattern in prefix order that
// fits every word of it, and a line is stored compressed only when that is
// strictly shorter than the raw line.
func TestFPCRules(t *testing.T) {
	c, _ := NewFPC(32) // two segments of four words
	for _, tc := range []struct {
		seg  []uint32
		want uint8
	}{
		{[]uint32{0, 0, 0, 0}, FPCZeroSegment},
		{[]uint32{0, 0xFFFFFFFF, 7, 0xFFFFFFF8}, FPCSignExt4},  // 0, −1, 7, −8; −1 is not taken as repeated bytes
		{[]uint32{0, 8, 0, 0}, FPCSignExt8},                    // 8 is outside −8 … 7
		{[]uint32{0xFFFF8000, 0x7FFF, 0, 0}, FPCSignExt16},     // −32768 and 32767
		{[]uint32{0xFFFF0000, 0, 0, 0}, FPCZeroLowHalf},        // −65536 is not a halfword; its low half is zero
		{[]uint32{0x007FFF80, 0xFF800005, 0, 0}, FPCTwoHalves}, // halves 127, −128 and −128, 5
		{[]uint32{0xABABABAB, 0, 0x01010101, 0}, FPCRepeatedBytes},
		// 0x12340000 fits only the zero low halfword, 1 fits everything but
		// it and repeated bytes: the segment shares only the word.
		{[]uint32{0x12340000, 1, 0, 0}, FPCUncompressed},
	} {
		line := words32(append(tc.seg, 0, 0, 0, 0)...)
		if pl := c.plan(line); pl.pattern[0] != tc.want || pl.pattern[1] != FPCZeroSegment {
			t.Errorf("segment %#x: patterns %d, %d; want %d, 0", tc.seg, pl.pattern[0], pl.pattern[1], tc.want)
		}
	}

	// 128 bytes in segments of 2 words: 16 prefixes, 48 bits, 6 bytes. With
	// fifteen segments of uncompressed words (8 bytes each) the first
	// segment decides: 2 × 4 bits = 1 byte gives 6 + 1 + 120 = 127 < 128
	// bytes (compressed, 1 + 8×127 bits); 2 × 8 bits gives 6 + 2 + 120 = 128,
	// no shorter than the line (raw, 1 + 8×128 bits).
	s2, _ := NewFPC(128, WithSegmentWords(2))
	for _, tc := range []struct {
		first [2]uint32
		bits  int
	}{
		{[2]uint32{1, 2}, 1 + 8*127},
		{[2]uint32{0x12, 0x34}, 1 + 8*128},
	} {
		w := []uint32{tc.first[0], tc.first[1]}
		for i := range 30 {
			w = append(w, 0x12345678+uint32(i))
		}
		if got := s2.Size(words32(w...)); got != tc.bits {
			t.Errorf("first segment %#x: %d bits, want %d", tc.first, got, tc.bits)
		}
	}
}

// TestCPackExample is the worked example of the package doc.
func TestCPackExample(t *testing.T) {
	line := words32(0, 0xAB, 0x12345678, 0x12345678, 0x123456FF, 0xCAFEBABE, 0xCAFEBA00, 0)
	// codes (code, index, byte): zzzz 000, zzzx 4AB, mmmm 800, mmmm 800,
	// mmmx CFF, mmmm 900, mmmx D00, zzzz 000; two per three bytes:
	//   00 04 AB | 80 08 00 | CF F9 00 | D0 00 00, then the dictionary
	//   12 34 56 78 CA FE BA BE: 20 bytes after the flag 1, 161 bits.
	want := []byte{0x80, 0x02, 0x55, 0xC0, 0x04, 0x00, 0x67, 0xFC, 0x80, 0x68, 0x00, 0x00, 0x09, 0x1A, 0x2B, 0x3C,
		0x65, 0x7F, 0x5D, 0x5F, 0x00}
	c, _ := NewCPack(32)
	// Decompression: 21 + every code used (zzzz 2, zzzx 2, mmmm 2, mmmx 4) = 31.
	// Compression: 9 + 2 dictionary values × 15 + 8 to store = 47.
	check(t, c, line, want, 161, 31, 47)
}

// TestCPackRules: zero words before the dictionary, values taken in order
// of the first uncovered word, a value covering the words after it, and a
// raw line when a fifth value would be needed.
func TestCPackRules(t *testing.T) {
	c, _ := NewCPack(32)
	// Four values (one mmmx), a zero and a narrow word: 1 + 8×12 + 4×32.
	four := []uint32{0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x111111AA, 0x44444444, 0, 0x7F}
	if got, n := c.Size(words32(four...)), 1+8*12+4*32; got != n {
		t.Errorf("four values: %d bits, want %d", got, n)
	}
	if n, _ := c.CompressInstructions(words32(four...)); n != 9+4*15+8 {
		t.Errorf("four values: %d instructions, want %d", n, 9+4*15+8)
	}
	five := append(four[:7:7], 0x55555555)
	if got := c.Size(words32(five...)); got != 1+8*32 {
		t.Errorf("five values: %d bits, want a raw line, %d", got, 1+8*32)
	}
	if n, _ := c.CompressInstructions(words32(five...)); n != 9+4*15 {
		t.Errorf("five values: %d instructions, want %d", n, 9+4*15)
	}
	// 0x12345699 is coded against the value 0x12345678 (mmmx), never
	// becoming a value itself: one value in all.
	one := []uint32{0x12345678, 0x12345699, 0x12345699, 0x12345699, 0, 0, 0, 0x12345678}
	if got, n := c.Size(words32(one...)), 1+8*12+32; got != n {
		t.Errorf("one value: %d bits, want %d", got, n)
	}
}

// TestBadInput: configurations that cannot work, lines of the wrong size
// and malformed streams give the documented errors, from Decompress and
// from the instruction counts alike.
func TestBadInput(t *testing.T) {
	for _, err := range []error{
		func() error { _, err := NewFPC(64, WithSegmentWords(3)); return err }(),
		func() error { _, err := NewBDI(64, WithSegmentWords(2)); return err }(),
		func() error { _, err := NewCPack(64, WithSegmentWords(8)); return err }(),
		func() error { _, err := NewCPack(64, WithLatency(linecomp.Latency{Compress: -2})); return err }(),
	} {
		if !errors.Is(err, linecomp.ErrConfig) {
			t.Errorf("want ErrConfig, got %v", err)
		}
	}
	for _, err := range []error{
		func() error { _, err := NewBDI(48); return err }(),
		func() error { _, err := NewFPC(16); return err }(),
		func() error { _, err := NewCPack(256); return err }(),
	} {
		if !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("want ErrLineSize, got %v", err)
		}
	}
	b, _ := NewBDI(64)
	f, _ := NewFPC(64)
	p, _ := NewCPack(64)
	for _, tc := range []struct {
		c   AssistWarpCoster
		enc []byte
	}{
		{b, nil},
		{b, []byte{0x80}},       // unassigned id 1000
		{b, []byte{0x00, 0x00}}, // zeros with a trailing byte
		{b, []byte{0x10, 0x00}}, // repeated, cut short
		{f, nil},
		{f, []byte{0x80}}, // prefixes cut short
		// prefixes 000 000 000 000, padding 0001: non-zero padding
		{f, []byte{0x80, 0x01}},
		// prefixes 111 ×4: 2 + 64 bytes, not shorter than the line
		{f, append([]byte{0xFF, 0xFF}, make([]byte, 65)...)},
		{p, nil},
		// first code zzzz with index 01: a field zzzz does not use
		{p, append([]byte{0x88}, make([]byte, 24)...)},
		// first code mmmm with byte 01: a field mmmm does not use
		{p, append([]byte{0xC0, 0x00, 0x80}, make([]byte, 26)...)},
		// all codes zzzz but one byte short
		{p, append([]byte{0x80}, make([]byte, 23)...)},
	} {
		_, err := tc.c.Decompress(nil, tc.enc)
		var ce *linecomp.CorruptError
		if !errors.As(err, &ce) || !errors.Is(err, linecomp.ErrCorrupt) || ce.Codec != tc.c.Name() {
			t.Errorf("%s: Decompress(% X): %v, want a *CorruptError", tc.c.Name(), tc.enc, err)
		}
		if n, err2 := tc.c.DecompressInstructions(tc.enc); n != 0 || err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%s: DecompressInstructions(% X) = %d, %v; Decompress says %v", tc.c.Name(), tc.enc, n, err2, err)
		}
		if err := linecomptest.CheckGarbage(tc.c, tc.enc); err != nil {
			t.Error(err)
		}
	}
	for _, c := range []AssistWarpCoster{b, f, p} {
		if _, err := c.CompressInstructions(make([]byte, 63)); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("%s: CompressInstructions of 63 bytes: %v", c.Name(), err)
		}
	}
}

// TestRegistry: the registered names, their Info and the latency
// decisions of the package doc.
func TestRegistry(t *testing.T) {
	hw, _ := linecomp.PresetLatency(linecomp.SourceCABA, "bdi")
	if hw != (linecomp.Latency{Compress: 5, Decompress: 1}) {
		t.Fatalf("CABA's BDI preset is %v", hw)
	}
	for _, tc := range []struct {
		name, algorithm string
		latency         linecomp.Latency
		opts            []Option
	}{
		{"caba-bdi", "caba-bdi", hw, nil},
		{"caba-fpc", "caba-fpc", unknownLatency, nil},
		{"caba-fpc-s2", "caba-fpc", unknownLatency, []Option{WithSegmentWords(2)}},
		{"caba-fpc-s8", "caba-fpc", unknownLatency, []Option{WithSegmentWords(8)}},
		{"caba-cpack", "caba-cpack", unknownLatency, nil},
	} {
		in, err := linecomp.Lookup(tc.name)
		if err != nil || in.Algorithm != tc.algorithm || in.Paper != paper || in.Latency != tc.latency || len(in.LineSizes) != 3 {
			t.Errorf("%s: %+v, %v", tc.name, in, err)
		}
		var c linecomp.Codec
		switch tc.algorithm {
		case "caba-bdi":
			c, err = NewBDI(64, tc.opts...)
		case "caba-fpc":
			c, err = NewFPC(64, tc.opts...)
		default:
			c, err = NewCPack(64, tc.opts...)
		}
		if err != nil || c.Name() != tc.name {
			t.Errorf("%s: constructor gives %v (%v)", tc.name, c, err)
		}
	}
	l := linecomp.Latency{Compress: 40, Decompress: linecomp.LatencyUnknown}
	if c, err := NewFPC(64, WithLatency(l)); err != nil || c.Latency() != l {
		t.Errorf("WithLatency: %v", err)
	}
}

// TestZeroAllocs: Size, Compress and Decompress into reused buffers and the
// instruction counts allocate nothing.
func TestZeroAllocs(t *testing.T) {
	for _, name := range names {
		lc, _ := linecomp.New(name, 128)
		c := lc.(AssistWarpCoster)
		for _, f := range codectest.Sample() {
			line := f.Data[:128]
			codectest.CheckZeroAllocs(t, c, line)
			enc, _, _ := c.Compress(nil, line)
			if a := testing.AllocsPerRun(20, func() {
				c.DecompressInstructions(enc)
				c.CompressInstructions(line)
			}); a != 0 {
				t.Errorf("%s: %v allocations in the instruction counts", name, a)
			}
		}
	}
}

// TestSameAsBDI: caba-bdi chooses bdi's encoding for every line; at 64
// and 128 bytes the streams are identical, at 32 bytes the 8-byte
// encodings carry 4 more bits of mask padding.
func TestSameAsBDI(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := NewBDI(n)
		ref, _ := bdi.New(n)
		for _, f := range append(codectest.Sample(), codectest.File{Name: "edge", Data: bytes.Join(linecomptest.EdgeLines(n), nil)}) {
			for off := 0; off+n <= len(f.Data); off += n {
				line := f.Data[off : off+n]
				enc, bits, _ := c.Compress(nil, line)
				want, wbits, _ := ref.Compress(nil, line)
				id := enc[0] >> 4
				if id != want[0]>>4 {
					t.Fatalf("%d B %s at %d: id %04b, bdi %04b", n, f.Name, off, id, want[0]>>4)
				}
				pad := 0
				if n == 32 && id >= BDIBase8Delta1 && id <= BDIBase8Delta4 {
					pad = 4
				}
				if bits != wbits+pad || pad == 0 && !bytes.Equal(enc, want) {
					t.Fatalf("%d B %s at %d: % X (%d bits), bdi % X (%d bits)", n, f.Name, off, enc, bits, want, wbits)
				}
			}
		}
	}
}

// TestTwoWarpRegisters: b2d1 of a 128-byte line has 64 elements, two warp
// registers, so every vector instruction issues twice.
func TestTwoWarpRegisters(t *testing.T) {
	line := make([]byte, 128)
	for i := range 64 {
		binary.LittleEndian.PutUint16(line[2*i:], 0x1000+uint16(i)) // base 0x1000, deltas 0 … 63
	}
	c, _ := NewBDI(128)
	if s := c.Size(line); s != 4+8*(8+2+64) { // mask 64 bits, base 2 bytes, 64 deltas
		t.Fatalf("Size %d", s)
	}
	// Decompression: 5 + 3×2 = 11 (set mask, load mask, load base, set
	// mask, reset mask; load deltas, add, store in each register).
	// Compression at 128 bytes tries zeros (5), repeated (6), b8d1, b4d1,
	// b8d2, b4d2 and b8d4 (5 + 9 = 14 each, one register), then b2d1
	// (5 + 9×2 = 23) and stores it (2 + 2×2 = 6):
	// 5 + 6 + 5×14 + 23 + 6 = 110.
	enc, _, _ := c.Compress(nil, line)
	if n, _ := c.DecompressInstructions(enc); n != 11 {
		t.Errorf("decompress: %d instructions, want 11", n)
	}
	if n, _ := c.CompressInstructions(line); n != 110 {
		t.Errorf("compress: %d instructions, want 110", n)
	}
	m := modelOf(c)
	if _, n := m.decompress(enc); n != 11 {
		t.Errorf("lane model decompress: %d", n)
	}
	if _, n := m.compress(line); n != 110 {
		t.Errorf("lane model compress: %d", n)
	}
}
