package sc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
)

// lineOf packs little-endian 32-bit words into a line.
func lineOf(words ...uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// bitString renders a stream as '0'/'1'.
func bitString(enc []byte, bits int) string { return linecomptest.BitString(enc, bits) }

// The golden example's values.
const (
	valA = 0x00000000
	valB = 0xFFFFFFFF
	valC = 0x00000001
	valD = 0x12345678
)

// goldenTraining is three 32-byte lines holding A 13 times, B 7 times, C 3
// times and D once. Every value misses the VFT once, on first sight, so the
// escape count is 4.
func goldenTraining() [][]byte {
	A, B, C, D := uint32(valA), uint32(valB), uint32(valC), uint32(valD)
	return [][]byte{
		lineOf(A, B, A, C, A, B, A, D),
		lineOf(A, A, B, C, A, B, A, A),
		lineOf(B, A, C, B, A, B, A, A),
	}
}

// TestGolden works one code book by hand, at L = 16 (where the limit does
// not bind) and at L = 3 (where it does).
//
// Frequencies after training: A 13, B 7, C 3, D 1, escape 4.
//
// L = 16: plain Huffman. Merge the two lightest each time:
// D1+C3 = 4; escape 4 + {D,C} 4 = 8; B7 + 8 = 15; A13 + 15 = 28.
// Depths: A 1, B 2, escape 3, C 4, D 4; cost 13 + 14 + 12 + 12 + 4 = 55.
// Package-merge finds the same lengths (they are the only optimal ones:
// e.g. 3,3,3,3,1 for D,C,esc,B,A costs 3+9+12+21+13 = 58).
// Canonical order (length, then value, escape last): A(1) B(2) esc(3)
// C(4) D(4); codewords A 0, B 10, esc 110, C 1110, D 1111.
//
// L = 3: package-merge over the leaves D1 C3 e4 B7 A13 (n = 5):
//
//	level 3: D1 C3 e4 B7 A13               packages DC4 eB11 (A dropped)
//	level 2: D1 C3 e4 DC4 B7 eB11 A13      packages DC4 (e,DC)8 (B,eB)18 (A dropped)
//	level 1: D1 C3 e4 DC4 B7 (e,DC)8 A13 (B,eB)18
//
// Select the first 2n−2 = 8 items of level 1 (all): 5 leaves, 3 packages →
// the first 6 of level 2: D C e DC4 B eB11 → 4 leaves, 2 packages → the
// first 4 of level 3: D C e B. Lengths: D 3, C 3, e 3, B 3, A 1 (A only at
// level 1); cost 3 + 9 + 12 + 21 + 13 = 58, against 3,3,2,2,2 for
// D,C,e,B,A costing 3 + 9 + 8 + 14 + 26 = 60. Canonical: A 0; then length 3
// in value order C 100, D 101, B 110, escape last 111.
//
// The line A A B C 0xDEADBEEF A D A encodes as
//
//	L = 16: 1 | 0 0 10 1110 110+DEADBEEF 0 1111 0 = 1+1+1+2+4+3+32+1+4+1 = 50 bits
//	L = 3:  1 | 0 0 110 100 111+DEADBEEF 0 101 0  = 1+1+1+3+3+3+32+1+3+1 = 49 bits
//
// with 0xDEADBEEF = 1101 1110 1010 1101 1011 1110 1110 1111.
func TestGolden(t *testing.T) {
	const dead = "11011110101011011011111011101111"
	line := lineOf(valA, valA, valB, valC, 0xDEADBEEF, valA, valD, valA)
	cases := []struct {
		maxLen int
		syms   []Symbol // canonical order
		stream string
		bytes  []byte
	}{
		{16, []Symbol{
			{valA, false, 1, 0b0}, {valB, false, 2, 0b10}, {0, true, 3, 0b110},
			{valC, false, 4, 0b1110}, {valD, false, 4, 0b1111},
		}, "1" + "0" + "0" + "10" + "1110" + "110" + dead + "0" + "1111" + "0",
			// 10010111 01101101 11101010 11011011 11101110 11110111 10(000000)
			[]byte{0x97, 0x6D, 0xEA, 0xDB, 0xEE, 0xF7, 0x80}},
		{3, []Symbol{
			{valA, false, 1, 0b0}, {valC, false, 3, 0b100}, {valD, false, 3, 0b101},
			{valB, false, 3, 0b110}, {0, true, 3, 0b111},
		}, "1" + "0" + "0" + "110" + "100" + "111" + dead + "0" + "101" + "0",
			// 10011010 01111101 11101010 11011011 11101110 11110101 0(0000000)
			[]byte{0x9A, 0x7D, 0xEA, 0xDB, 0xEE, 0xF5, 0x00}},
	}
	for _, tc := range cases {
		// Four entries hold the four values without eviction, and
		// 4 + escape symbols fit codes of 3 bits.
		c, err := New(32, WithMaxCodeLen(tc.maxLen), WithVFTEntries(4))
		if err != nil {
			t.Fatal(err)
		}
		tr := newTrainer(c)
		for _, l := range goldenTraining() {
			tr.Observe(l)
		}
		wantFreqs := []Freq{{valA, 13}, {valC, 3}, {valD, 1}, {valB, 7}}
		if got := tr.VFT().Freqs(); fmt.Sprint(got) != fmt.Sprint(wantFreqs) || tr.VFT().Escapes() != 4 {
			t.Fatalf("VFT %v escape %d, want %v escape 4", got, tr.VFT().Escapes(), wantFreqs)
		}
		c = built(t, tr)
		if got := c.Table().Symbols(); fmt.Sprint(got) != fmt.Sprint(tc.syms) {
			t.Errorf("L=%d: code book %v, want %v", tc.maxLen, got, tc.syms)
		}
		enc, bits, err := c.Compress(nil, line)
		if err != nil {
			t.Fatal(err)
		}
		if got := bitString(enc, bits); got != tc.stream || !bytes.Equal(enc, tc.bytes) {
			t.Errorf("L=%d: stream %s (% X), want %s (% X)", tc.maxLen, got, enc, tc.stream, tc.bytes)
		}
		if len(tc.stream) != map[int]int{16: 50, 3: 49}[tc.maxLen] {
			t.Errorf("L=%d: arithmetic says %d bits", tc.maxLen, len(tc.stream))
		}
		dec, err := c.Decompress(nil, enc)
		if err != nil || !bytes.Equal(dec, line) {
			t.Errorf("L=%d: round trip %X, %v", tc.maxLen, dec, err)
		}
		// The literal reference agrees.
		r := ref.SC2(map[uint32]uint64{valA: 13, valB: 7, valC: 3, valD: 1}, 4, tc.maxLen)
		if got := r(line); got != tc.stream {
			t.Errorf("L=%d: reference %s, want %s", tc.maxLen, got, tc.stream)
		}
	}
}

// TestEmptyTable: the registry codec has seen nothing. Its only symbol is
// the escape, codeword 0 (length 1), so a word costs 33 bits, 8 words 264 >
// 256: every line is stored raw, 1 + 8·LineSize bits.
func TestEmptyTable(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, err := linecomp.New("sc2", n)
		if err != nil {
			t.Fatal(err)
		}
		syms := c.(*Codec).Table().Symbols()
		if len(syms) != 1 || syms[0] != (Symbol{0, true, 1, 0}) {
			t.Fatalf("empty code book %v", syms)
		}
		line := make([]byte, n)
		enc, bits, _ := c.Compress(nil, line)
		if bits != 1+8*n || enc[0] != 0 {
			t.Errorf("%d-byte zero line: %d bits, want %d raw", n, bits, 1+8*n)
		}
		if c.TagBits() != 1 {
			t.Errorf("TagBits %d", c.TagBits())
		}
		if l := c.Latency(); l != (linecomp.Latency{Compress: 6, Decompress: 14}) {
			t.Errorf("latency %v, want LATTE-CC 6/14", l)
		}
	}
}

func TestConformance(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, err := linecomp.New("sc2", n)
		if err != nil {
			t.Fatal(err)
		}
		codectest.CheckAll(t, c)
	}
}

// sampled is the literal reference's replay of the default VFT over one
// training file, computed once for all line sizes.
type sampled struct {
	freqs  map[uint32]uint64
	escape uint64
}

func (s sampled) ref() ref.Encoder { return ref.SC2(s.freqs, s.escape, DefaultMaxCodeLen) }

// trained returns a default codec trained on every line of data.
func trained(t *testing.T, data []byte, lineSize int) *Codec {
	t.Helper()
	c, err := New(lineSize)
	if err != nil {
		t.Fatal(err)
	}
	tr := newTrainer(c)
	for off := 0; off+lineSize <= len(data); off += lineSize {
		tr.Observe(data[off : off+lineSize])
	}
	return built(t, tr)
}

// TestTrainedConformance trains a codec on each corpus file and checks every
// line of that file and of the previous file against the literal reference
// (whose VFT replay and code construction are its own), at every line size.
// Each file is cut to whole 128-byte lines, so that training sees the same
// words at every line size and the reference's slow VFT replay runs once.
func TestTrainedConformance(t *testing.T) {
	files := codectest.Files(t) // the sample, and the corpora when present
	for i := range files {
		files[i].Data = files[i].Data[:len(files[i].Data)/128*128]
	}
	refs := make([]sampled, len(files))
	for i, f := range files {
		refs[i].freqs, refs[i].escape = ref.SC2Sample(f.Data, 128, DefaultVFTEntries, DefaultCounterBits)
	}
	for _, n := range codectest.LineSizes {
		for i, f := range files {
			c := trained(t, f.Data, n)
			r := refs[i].ref()
			codectest.CheckData(t, c, r, "trained on itself: "+f.Name, f.Data)
			if i > 0 {
				prev := files[i-1]
				codectest.CheckData(t, c, r, "trained on "+f.Name+": "+prev.Name, prev.Data)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	for _, f := range codectest.Sample() {
		c := trained(t, f.Data, 128)
		for off := 0; off+128 <= len(f.Data) && off < 128*8; off += 128 {
			codectest.CheckZeroAllocs(t, c, f.Data[off:off+128])
		}
	}
}

func TestBadInput(t *testing.T) {
	if _, err := New(48); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("New(48): %v", err)
	}
	unknown := linecomp.LatencyUnknown
	for name, opts := range map[string][]Option{
		"L 0":                        {WithMaxCodeLen(0)},
		"L 33":                       {WithMaxCodeLen(33)},
		"no VFT entries":             {WithVFTEntries(0)},
		"negative VFT entries":       {WithVFTEntries(-1)},
		"VFT too large":              {WithVFTEntries(MaxVFTEntries + 1), WithMaxCodeLen(32)},
		"16 entries + escape, L 4":   {WithVFTEntries(16), WithMaxCodeLen(4)},
		"counter bits 0":             {WithCounterBits(0)},
		"counter bits 33":            {WithCounterBits(33)},
		"zero Table":                 {WithTable(&Table{})},
		"compress latency -2":        {WithLatency(linecomp.Latency{Compress: -2, Decompress: 1})},
		"decompress latency -5":      {WithLatency(linecomp.Latency{Compress: 1, Decompress: -5})},
		"both latencies bad, table ": {WithLatency(linecomp.Latency{Compress: -3, Decompress: -3})},
	} {
		if c, err := New(64, opts...); !errors.Is(err, linecomp.ErrConfig) || c != nil {
			t.Errorf("New with %s: %v, %v; want an error wrapping ErrConfig", name, c, err)
		}
	}
	for name, opts := range map[string][]Option{
		"15 entries + escape fit 4-bit codes": {WithVFTEntries(15), WithMaxCodeLen(4)},
		"the largest VFT":                     {WithVFTEntries(MaxVFTEntries), WithMaxCodeLen(21)},
		"unknown latencies":                   {WithLatency(linecomp.Latency{Compress: unknown, Decompress: unknown})},
		"zero latencies":                      {WithLatency(linecomp.Latency{})},
	} {
		if _, err := New(64, opts...); err != nil {
			t.Errorf("New with %s: %v", name, err)
		}
	}
	if _, err := NewVFT(MaxVFTEntries+1, 12); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("NewVFT(MaxVFTEntries+1): %v, want ErrConfig", err)
	}
	for name, build := range map[string]func() (*Table, error){
		"L 0":                  func() (*Table, error) { return BuildTable(nil, 1, 0) },
		"L 33":                 func() (*Table, error) { return BuildTable(nil, 1, 33) },
		"4 symbols at L 1":     func() (*Table, error) { return BuildTable([]Freq{{1, 1}, {2, 1}, {3, 1}}, 1, 1) },
		"a value twice":        func() (*Table, error) { return BuildTable([]Freq{{1, 1}, {1, 2}}, 1, 4) },
		"a value twice, apart": func() (*Table, error) { return BuildTable([]Freq{{1, 1}, {2, 5}, {1, 9}}, 1, 4) },
		"frequencies > 2^58":   func() (*Table, error) { return BuildTable([]Freq{{1, 1 << 57}, {2, 1 << 57}}, 1, 4) },
	} {
		if tab, err := build(); !errors.Is(err, linecomp.ErrConfig) || tab != nil {
			t.Errorf("BuildTable with %s: %v, %v; want an error wrapping ErrConfig", name, tab, err)
		}
	}

	c, _ := New(32, WithMaxCodeLen(3), WithVFTEntries(4))
	tr := newTrainer(c)
	for _, l := range goldenTraining() {
		tr.Observe(l)
	}
	c = built(t, tr) // A 0, C 100, D 101, B 110, escape 111; no codeword is free
	if _, _, err := c.Compress(nil, make([]byte, 31)); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("Compress of 31 bytes: %v", err)
	}
	if c.Size(make([]byte, 33)) != -1 {
		t.Error("Size of 33 bytes should be -1")
	}
	ok := []byte{0x80, 0x00} // 1 + eight A (0): 9 bits
	if dec, err := c.Decompress(nil, ok); err != nil || !bytes.Equal(dec, make([]byte, 32)) {
		t.Fatalf("Decompress(% X) = %X, %v", ok, dec, err)
	}
	bad := map[string][]byte{
		"empty":                   nil,
		"trailing byte":           {0x80, 0x00, 0x00},
		"non-zero padding":        {0x80, 0x01},
		"truncated codes":         {0x80},
		"truncated codeword":      {0xFF, 0xFF, 0x80}, // escapes 111 + raw word run off the end
		"truncated raw line":      {0x00, 0x00},
		"truncated escaped word":  {0xF0, 0x00, 0x00},
		"raw line + trailing":     make([]byte, 34),
		"raw line, padding set":   append(make([]byte, 32), 0x01),
		"code ends in last bits":  {0x80, 0x01, 0x80}, // 1 0000000 0000000 1 1: the last codeword lacks its 3rd bit
		"one byte, flag and ones": {0xFF},
	}
	for name, enc := range bad {
		_, err := c.Decompress(nil, enc)
		var ce *linecomp.CorruptError
		if !errors.Is(err, linecomp.ErrCorrupt) || !errors.As(err, &ce) {
			t.Errorf("%s: Decompress(% X): %v, want a *CorruptError", name, enc, err)
		}
		if err := linecomptest.CheckGarbage(c, enc); err != nil {
			t.Error(err)
		}
	}

	// An incomplete code leaves codewords unassigned: with L = 4 and only
	// the escape (codeword 0), a stream starting 1 1… has no codeword.
	e, _ := New(32, WithMaxCodeLen(4), WithVFTEntries(8))
	_, err := e.Decompress(nil, []byte{0xC0, 0, 0, 0, 0})
	var ce *linecomp.CorruptError
	if !errors.As(err, &ce) || ce.Offset != 1 || ce.Reason != "no codeword starts here" {
		t.Errorf("unassigned codeword: %v", err)
	}
}
