package cpack

import (
	"errors"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

func TestEncodings(t *testing.T) {
	for _, name := range names {
		want := []string{"compressed", "raw"}
		if name == "cpack-z" || name == "cpack-z-gem5" {
			want = append(want, "zeros")
		}
		info, err := linecomp.Lookup(name)
		if err != nil || !slices.Equal(info.Encodings, want) {
			t.Errorf("%s: Info.Encodings %q (%v), want %q", name, info.Encodings, err, want)
		}
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n)
			r := c.(linecomp.EncodingReporter)
			encs := r.Encodings()
			var got []string
			for _, e := range encs {
				got = append(got, e.Name)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s/%d: encodings %q, want %q", name, n, got, want)
			}
			// compressed: varies; raw: flag + line; zeros: flag + 00.
			if encs[0].Bits != -1 || encs[1].Bits != 1+8*n || len(encs) == 3 && encs[2].Bits != 1+2 {
				t.Errorf("%s/%d: encoding sizes %v", name, n, encs)
			}
			if linecomp.TagGivesSize(c) {
				t.Errorf("%s/%d: TagGivesSize, but compressed lines vary", name, n)
			}
			for _, line := range append(sampleLines(n), poolLines(n, 200)...) {
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
	for _, tc := range []struct {
		name string
		enc  string
		want string // "" for an error at bit 1
	}{
		{"cpack", "1 00", "compressed"},     // zzzz first
		{"cpack-z", "1 00", "zeros"},        // the zero block
		{"cpack-z", "1 00 01", "zeros"},     // not checked past the first code
		{"cpack-z", "1 01", "compressed"},   // a zero word first
		{"cpack-z", "1 1111", "compressed"}, // three bytes matched: only the rest of the stream is impossible
		{"cpack", "1 1110", "compressed"},
		{"cpack", "1 1111", ""}, // undefined in C-Pack
		{"cpack-gem5", "1 1111", ""},
		{"cpack", "0", "raw"},
		{"cpack-z-gem5", "0 1111111", "raw"},
	} {
		r := mustNew(t, tc.name, 32).(linecomp.EncodingReporter)
		e, err := r.EncodingOf(fromBits(cat(tc.enc)))
		var ce *linecomp.CorruptError
		switch {
		case tc.want == "" && (!errors.As(err, &ce) || !errors.Is(err, linecomp.ErrCorrupt) || ce.Offset != 1 || ce.Codec != tc.name):
			t.Errorf("%s EncodingOf(%s): %d, %v; want a CorruptError at bit 1", tc.name, tc.enc, e, err)
		case tc.want != "" && (err != nil || r.Encodings()[e].Name != tc.want):
			t.Errorf("%s EncodingOf(%s) = %d (%v), want %q", tc.name, tc.enc, e, err, tc.want)
		}
	}
	for _, name := range names {
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
	doc := line(32, 0, 0xAB, 0x12345678, 0x12345678)                 // the doc example
	push := line(32, 0x12345678, 0x12345678, 0x12345679, 0x12345679) // TestPushRule's line
	random := fromBits(cat(f(0x0123456789ABCDEF, 64), f(0xF1E2D3C4B5A69788, 64), f(0x1122334455667788, 64), f(0x99AABBCCDDEEFF00, 64)))
	type counts map[Pattern]int
	cases := []struct {
		name string
		data []byte
		want counts
	}{
		// zzzz, zzzx, xxxx, mmmm of slot 0, then four zzzz, in every variant.
		{"cpack", doc, counts{PatternZeroWord: 5, PatternNarrowWord: 1, PatternNewWord: 1, PatternFullMatch: 1}},
		{"cpack-z-gem5", doc, counts{PatternZeroWord: 5, PatternNarrowWord: 1, PatternNewWord: 1, PatternFullMatch: 1}},
		// xxxx, mmmm, then 0x12345679 is mmmx twice by default; with
		// gem5's rule the first mmmx is pushed and the second is mmmm.
		{"cpack", push, counts{PatternNewWord: 1, PatternFullMatch: 1, PatternThreeMatch: 2, PatternZeroWord: 4}},
		{"cpack-gem5", push, counts{PatternNewWord: 1, PatternFullMatch: 2, PatternThreeMatch: 1, PatternZeroWord: 4}},
		// An all-zero line: eight zzzz, or the zero block.
		{"cpack", make([]byte, 32), counts{PatternZeroWord: 8}},
		{"cpack-z", make([]byte, 32), counts{PatternZeroBlock: 8}},
		// Eight unrelated words: 8 × 34 bits ≥ 256, raw.
		{"cpack-z", random, counts{PatternRaw: 8}},
		// 0x1234ABCD after 0x12345678: halfword matched (mmxx).
		{"cpack", line(32, 0x12345678, 0x1234ABCD), counts{PatternNewWord: 1, PatternHalfMatch: 1, PatternZeroWord: 6}},
		// Three lines at once: the counts add up, and each line starts
		// with an empty dictionary.
		{"cpack-z", slices.Concat(doc, make([]byte, 32), random), counts{PatternZeroWord: 5, PatternNarrowWord: 1,
			PatternNewWord: 1, PatternFullMatch: 1, PatternZeroBlock: 8, PatternRaw: 8}},
	}
	if len(random) != 32 {
		t.Fatalf("random line is %d bytes", len(random))
	}
	for _, tc := range cases {
		c := mustNew(t, tc.name, 32).(*Codec)
		got := make([]int, len(c.Patterns()))
		got[PatternHalfMatch] = 100 // counts are added to what is there
		if err := c.CountPatterns(got, tc.data); err != nil {
			t.Fatal(err)
		}
		want := make([]int, NumPatterns)
		want[PatternHalfMatch] = 100
		for p, k := range tc.want {
			want[p] += k
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s %X:\n got %v\nwant %v", tc.name, tc.data, got, want)
		}
	}
	if PatternNewWord.String() != "xxxx" || PatternRaw.String() != "raw" || Pattern(-1).String() != "Pattern(-1)" {
		t.Errorf("pattern names: %q %q %q", PatternNewWord, PatternRaw, Pattern(-1))
	}
}

// TestCountPatternsSizes: on every sample and pool line, at every kernel
// level, the counts cover every word once, and a line coded word by word
// is the flag plus each word's code and payload (c.size of its kind).
func TestCountPatternsSizes(t *testing.T) {
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, name := range names {
			for _, n := range codectest.LineSizes {
				c := mustNew(t, name, n).(*Codec)
				bitsOf := map[Pattern]int{}
				for k := range numKinds {
					bitsOf[patternOf[k]] = c.size[k]
				}
				lines := poolLines(n, 300)
				for _, f := range codectest.Sample() {
					for off := 0; off+n <= len(f.Data); off += n {
						lines = append(lines, f.Data[off:off+n])
					}
				}
				for _, l := range lines {
					counts := make([]int, NumPatterns)
					if err := c.CountPatterns(counts, l); err != nil {
						t.Fatal(err)
					}
					total, bits := 0, 1
					for p, k := range counts {
						total += k
						bits += k * bitsOf[Pattern(p)]
					}
					size := c.Size(l)
					switch {
					case total != n/4:
						t.Fatalf("%s/%d: %d words counted: %v\n%X", name, n, total, counts, l)
					case (counts[PatternRaw] != 0) != (size == 1+8*n):
						t.Fatalf("%s/%d: %d bits but counts %v\n%X", name, n, size, counts, l)
					case (counts[PatternZeroBlock] != 0) != (size == 3 && c.zeroBlock):
						t.Fatalf("%s/%d: %d bits but counts %v\n%X", name, n, size, counts, l)
					case counts[PatternRaw] == 0 && counts[PatternZeroBlock] == 0 && bits != size:
						t.Fatalf("%s/%d: counts %v give %d bits, Size %d\n%X", name, n, counts, bits, size, l)
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
		for _, name := range names {
			for _, n := range codectest.LineSizes {
				codectest.CheckPatternCounts(t, mustNew(t, name, n).(*Codec), append(sampleLines(n), poolLines(n, 200)...))
			}
		}
	})
}
