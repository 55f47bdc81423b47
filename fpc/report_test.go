package fpc

import (
	"errors"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

func TestEncodings(t *testing.T) {
	want := map[string][]string{"fpc": {"compressed", "raw"}, "fpc-tavana": {"compressed", "raw", "zeros"}}
	for name, names := range want {
		info, err := linecomp.Lookup(name)
		if err != nil || !slices.Equal(info.Encodings, names) {
			t.Errorf("%s: Info.Encodings %q (%v), want %q", name, info.Encodings, err, names)
		}
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n)
			r := c.(linecomp.EncodingReporter)
			encs := r.Encodings()
			var got []string
			for _, e := range encs {
				got = append(got, e.Name)
			}
			if !slices.Equal(got, names) {
				t.Fatalf("%s/%d: encodings %q, want %q", name, n, got, names)
			}
			// compressed: varies; raw: flag + line; zeros: flag + 000.
			if encs[0].Bits != -1 || encs[1].Bits != 1+8*n || len(encs) == 3 && encs[2].Bits != 1+3 {
				t.Errorf("%s/%d: encoding sizes %v", name, n, encs)
			}
			if linecomp.TagGivesSize(c) {
				t.Errorf("%s/%d: TagGivesSize, but compressed lines vary", name, n)
			}
			// Every line's stream: its encoding's fixed size, if any, is its
			// length; a raw stream is the only one of 1 + 8n bits with flag 0.
			for _, line := range sampleLines(n) {
				enc, bits, _ := c.Compress(nil, line)
				e, err := r.EncodingOf(enc)
				if err != nil {
					t.Fatalf("%s/%d: EncodingOf(%X): %v", name, n, enc, err)
				}
				if fixed := encs[e].Bits; fixed >= 0 && fixed != bits {
					t.Fatalf("%s/%d: %X is %q (%d bits) but %d bits long", name, n, enc, encs[e].Name, fixed, bits)
				}
				if raw := enc[0]>>7 == 0; raw != (e == encRaw) {
					t.Fatalf("%s/%d: %X with flag %d is %q", name, n, enc, enc[0]>>7, encs[e].Name)
				}
			}
		}
	}
	// Hand-made streams of 32-byte lines.
	for _, tc := range []struct {
		name string
		enc  []byte
		want string
	}{
		{"fpc", packBits("1 000111"), "compressed"},         // all zero: a run of 8
		{"fpc-tavana", packBits("1 000"), "zeros"},          // all zero: the zero block
		{"fpc-tavana", packBits("1 001"), "compressed"},     // a zero word first
		{"fpc-tavana", packBits("1 000 011 0001"), "zeros"}, // not checked past the first prefix
		{"fpc", []byte{0x00}, "raw"},                        // the flag alone says raw
		{"fpc-tavana", []byte{0x7F, 0xFF}, "raw"},
	} {
		r := mustNew(t, tc.name, 32).(linecomp.EncodingReporter)
		e, err := r.EncodingOf(tc.enc)
		if err != nil || r.Encodings()[e].Name != tc.want {
			t.Errorf("%s EncodingOf(%X) = %d (%v), want %q", tc.name, tc.enc, e, err, tc.want)
		}
	}
	for _, name := range []string{"fpc", "fpc-tavana"} {
		r := mustNew(t, name, 64).(linecomp.EncodingReporter)
		_, err := r.EncodingOf(nil)
		var ce *linecomp.CorruptError
		if !errors.As(err, &ce) || !errors.Is(err, linecomp.ErrCorrupt) || ce.Offset != 0 || ce.Codec != name {
			t.Errorf("%s EncodingOf(empty): %v, want a CorruptError at bit 0", name, err)
		}
	}
}

// TestCountPatterns counts the words of hand-made lines per pattern.
func TestCountPatterns(t *testing.T) {
	doc := words(32, 0, 0, 3, 0xFFFFFF80, 0x12340000, 0x00050003, 0xABABABAB, 0x12345678)
	uncodable := fill(32, func(i int) uint32 { return 0x80000001 + uint32(i) }) // 8 × 35 bits ≥ 256: raw in both
	type counts map[Pattern]int
	cases := []struct {
		name string
		data []byte
		want counts
	}{
		// The doc example: two zero words (one run), then one word of each
		// pattern; under Tavana's table the last word has no code, so all
		// eight words are in a raw line.
		{"fpc", doc, counts{PatternZeroWord: 2, PatternSignExt4: 1, PatternSignExt8: 1, PatternZeroLowHalf: 1,
			PatternTwoHalves: 1, PatternRepeatedBytes: 1, PatternUncompressedWord: 1}},
		{"fpc-tavana", doc, counts{PatternRaw: 8}},
		// An all-zero line: 8 zero words in a run, or the zero block.
		{"fpc", make([]byte, 32), counts{PatternZeroWord: 8}},
		{"fpc-tavana", make([]byte, 32), counts{PatternZeroBlock: 8}},
		// 0xFFFFFFFF is 4-bit sign-extended, not repeated bytes.
		{"fpc-tavana", fill(32, func(int) uint32 { return 0xFFFFFFFF }), counts{PatternSignExt4: 8}},
		{"fpc", uncodable, counts{PatternRaw: 8}},
		// Two lines at once: the counts add up.
		{"fpc", slices.Concat(doc, make([]byte, 32), uncodable), counts{PatternZeroWord: 2 + 8, PatternSignExt4: 1,
			PatternSignExt8: 1, PatternZeroLowHalf: 1, PatternTwoHalves: 1, PatternRepeatedBytes: 1,
			PatternUncompressedWord: 1, PatternRaw: 8}},
		{"fpc-tavana", slices.Concat(doc, make([]byte, 32), words(32, 0, 5)), counts{PatternRaw: 8, PatternZeroBlock: 8,
			PatternZeroWord: 7, PatternSignExt4: 1}},
	}
	for _, tc := range cases {
		c := mustNew(t, tc.name, 32).(*Codec)
		got := make([]int, len(c.Patterns()))
		got[PatternSignExt16] = 100 // counts are added to what is there
		if err := c.CountPatterns(got, tc.data); err != nil {
			t.Fatal(err)
		}
		want := make([]int, NumPatterns)
		want[PatternSignExt16] = 100
		for p, k := range tc.want {
			want[p] += k
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s %X:\n got %v\nwant %v", tc.name, tc.data, got, want)
		}
	}
	if got := Pattern(3).String(); got != "sign-ext-4" || PatternRaw.String() != "raw" || Pattern(99).String() != "Pattern(99)" {
		t.Errorf("pattern names: %q %q %q", got, PatternRaw, Pattern(99))
	}
}

// TestCountPatternsSizes: on every sample line, at every kernel level, the
// counts cover every word once, and under Tavana's table, whose codes are
// one per word, a coded line's size is the flag plus each word's code
// length: zero word 3, repeated bytes 11, SE4 7, SE8 11, and 19 for SE16,
// zero low half and two halves (Table II).
func TestCountPatternsSizes(t *testing.T) {
	codeBits := map[Pattern]int{PatternZeroWord: 3, PatternRepeatedBytes: 11, PatternSignExt4: 7, PatternSignExt8: 11,
		PatternSignExt16: 19, PatternZeroLowHalf: 19, PatternTwoHalves: 19}
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, name := range []string{"fpc", "fpc-tavana"} {
			for _, n := range codectest.LineSizes {
				c := mustNew(t, name, n).(*Codec)
				for _, f := range codectest.Sample() {
					for off := 0; off+n <= len(f.Data); off += n {
						line := f.Data[off : off+n]
						counts := make([]int, NumPatterns)
						if err := c.CountPatterns(counts, line); err != nil {
							t.Fatal(err)
						}
						total, bits := 0, 1
						for p, k := range counts {
							total += k
							bits += k * codeBits[Pattern(p)]
						}
						size := c.Size(line)
						switch {
						case total != n/4:
							t.Fatalf("%s/%d %s@%d: %d words counted: %v", name, n, f.Name, off, total, counts)
						case (counts[PatternRaw] != 0) != (size == 1+8*n):
							t.Fatalf("%s/%d %s@%d: %d bits but counts %v", name, n, f.Name, off, size, counts)
						case name == "fpc-tavana" && counts[PatternRaw] == 0 && counts[PatternZeroBlock] == 0 && bits != size:
							t.Fatalf("%s/%d %s@%d: counts %v give %d bits, Size %d", name, n, f.Name, off, counts, bits, size)
						}
					}
				}
			}
		}
	})
}

// TestPatternCounts: at every kernel level, CountPatterns counts every word
// once, adds up, rejects bad arguments and allocates nothing
// (codectest.CheckPatternCounts).
func TestPatternCounts(t *testing.T) {
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, name := range []string{"fpc", "fpc-tavana"} {
			for _, n := range codectest.LineSizes {
				codectest.CheckPatternCounts(t, mustNew(t, name, n).(*Codec), sampleLines(n))
			}
		}
	})
}
