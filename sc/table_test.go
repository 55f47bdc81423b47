package sc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
)

// cost returns Σ frequency × codeword length of a table, the escape
// weighted max(escape, 1).
func cost(t *testing.T, tab *Table, freqs []Freq, escape uint64) uint64 {
	t.Helper()
	var sum uint64
	for _, s := range tab.Symbols() {
		w := max(escape, 1)
		if !s.Escape {
			i := slices.IndexFunc(freqs, func(f Freq) bool { return f.Value == s.Value })
			if i < 0 {
				t.Fatalf("value %#x has a codeword but no frequency", s.Value)
			}
			w = freqs[i].Count
		}
		sum += w * uint64(s.Len)
	}
	return sum
}

// bruteForce returns the least Σ w·len over every assignment of lengths
// 1..maxLen to the weights that satisfies Kraft's inequality. It tries all
// maxLen^n assignments: for tiny alphabets only.
func bruteForce(w []uint64, maxLen int) uint64 {
	best := ^uint64(0)
	lens := make([]int, len(w))
	var try func(i int, kraft float64)
	try = func(i int, kraft float64) {
		if kraft > 1 {
			return
		}
		if i == len(w) {
			var c uint64
			for k, l := range lens {
				c += w[k] * uint64(l)
			}
			best = min(best, c)
			return
		}
		for l := 1; l <= maxLen; l++ {
			lens[i] = l
			try(i+1, kraft+1/float64(uint64(1)<<l))
		}
	}
	try(0, 0)
	return best
}

// optimalDP returns the least cost of a prefix code of at most maxLen bits
// by dynamic programming over the levels of the code tree, independently of
// package-merge. Weights are taken heaviest first; at depth d with a free
// nodes, some k of them become leaves for the next k symbols and the other
// a−k each split into two nodes at depth d+1. Every symbol not yet placed
// at depth d adds its weight once for that level.
func optimalDP(w []uint64, maxLen int) uint64 {
	s := slices.Clone(w)
	slices.Sort(s)
	slices.Reverse(s)
	n := len(s)
	if n == 1 {
		return s[0]
	}
	rest := make([]uint64, n+1) // rest[i] = Σ s[i:]
	for i := n - 1; i >= 0; i-- {
		rest[i] = rest[i+1] + s[i]
	}
	const inf = ^uint64(0)
	memo := map[[3]int]uint64{}
	var f func(d, i, a int) uint64
	f = func(d, i, a int) uint64 {
		if i == n {
			return 0
		}
		if d > maxLen || a == 0 {
			return inf
		}
		key := [3]int{d, i, a}
		if v, ok := memo[key]; ok {
			return v
		}
		best := inf
		for k := 0; k <= min(a, n-i); k++ {
			sub := f(d+1, i+k, min(2*(a-k), n-i-k))
			if sub != inf {
				best = min(best, rest[i]+sub)
			}
		}
		memo[key] = best
		return best
	}
	return f(1, 0, 2)
}

// TestLengthLimit: Fibonacci weights make plain Huffman a chain.
//
// Values 0..6 with counts 1 1 2 3 5 8 13, escape 21 (weights sorted
// 1 1 2 3 5 8 13 21, total 54). Huffman gives lengths 7 7 6 5 4 3 2 1 (cost
// 7+7+12+15+20+24+26+21 = 132). With L = 4, the lengths for the weights
// 21 13 8 5 3 2 1 1 (heaviest first) are best as 2 2 3 3 4 4 4 4: Kraft sum
// 2/4 + 2/8 + 4/16 = 1, cost 42+26+24+15+(3+2+1+1)·4 = 135. The
// alternatives that fit: 1 3 4 4 4 4 4 4 costs 21+39+80 = 140, 2 2 3 4 4 4 4 4
// costs 140, 2 3 3 3 3 3 4 4 costs 143, all 3 costs 162; anything with
// more short codes breaks Kraft (e.g. 1 3 3 4 … sums to 17/16).
func TestLengthLimit(t *testing.T) {
	fib := []Freq{{0, 1}, {1, 1}, {2, 2}, {3, 3}, {4, 5}, {5, 8}, {6, 13}}
	tab, err := BuildTable(fib, 21, 4)
	if err != nil {
		t.Fatal(err)
	}
	gotLens := map[uint32]int{}
	escLen := 0
	for _, s := range tab.Symbols() {
		if s.Escape {
			escLen = s.Len
		} else {
			gotLens[s.Value] = s.Len
		}
	}
	// Escape 21 → 2, value 6 (13) → 2, 5 (8) → 3, 4 (5) → 3, the rest 4.
	want := map[uint32]int{6: 2, 5: 3, 4: 3, 3: 4, 2: 4, 1: 4, 0: 4}
	if fmt.Sprint(gotLens) != fmt.Sprint(want) || escLen != 2 {
		t.Errorf("lengths %v escape %d, want %v escape 2", gotLens, escLen, want)
	}
	weights := []uint64{1, 1, 2, 3, 5, 8, 13, 21}
	if c := cost(t, tab, fib, 21); c != 135 || bruteForce(weights, 4) != 135 || optimalDP(weights, 4) != 135 {
		t.Errorf("cost %d, brute force %d, DP %d; hand computation 135", c, bruteForce(weights, 4), optimalDP(weights, 4))
	}
	// Canonical codewords: length 2: value 6 = 00, escape = 01; length 3:
	// 4 = 100, 5 = 101; length 4: 0 = 1100, 1 = 1101, 2 = 1110, 3 = 1111.
	wantSyms := []Symbol{{6, false, 2, 0b00}, {0, true, 2, 0b01}, {4, false, 3, 0b100}, {5, false, 3, 0b101},
		{0, false, 4, 0b1100}, {1, false, 4, 0b1101}, {2, false, 4, 0b1110}, {3, false, 4, 0b1111}}
	if got := tab.Symbols(); fmt.Sprint(got) != fmt.Sprint(wantSyms) {
		t.Errorf("code book %v, want %v", got, wantSyms)
	}

	// 25 Fibonacci weights: Huffman would need 24 bits; at the default
	// L = 16 the code must stop there and still be optimal (checked against
	// the dynamic program, which shares nothing with package-merge).
	var big []Freq
	var bw []uint64
	a, b := uint64(1), uint64(1)
	for v := range 24 {
		big = append(big, Freq{uint32(v), a})
		bw = append(bw, a)
		a, b = b, a+b
	}
	bw = append(bw, a) // escape
	tab, err = BuildTable(big, a, 16)
	if err != nil {
		t.Fatal(err)
	}
	maxSeen := 0
	for _, s := range tab.Symbols() {
		maxSeen = max(maxSeen, s.Len)
	}
	if c, opt := cost(t, tab, big, a), optimalDP(bw, 16); c != opt || maxSeen != 16 {
		t.Errorf("L=16 Fibonacci: cost %d, optimum %d, longest code %d", c, opt, maxSeen)
	}
}

// TestTieBreak: weights D1 C3 e4 B6 A10 at L = 3 have two optimal codes,
// lengths (D,C,e,B,A) = 3 3 2 2 2 and 3 3 3 3 1, both costing 52. The
// package-merge rules (a leaf before a package of equal weight) pick:
//
//	level 3: D1 C3 e4 B6 A10                 packages DC4 eB10
//	level 2: D1 C3 e4 DC4 B6 A10 eB10        packages DC4 (e,DC)8 (B,A)16
//	level 1: D1 C3 e4 DC4 B6 (e,DC)8 A10 (B,A)16
//
// 8 items of level 1: 5 leaves, 3 packages → 6 of level 2: D C e DC4 B A
// (5 leaves, 1 package) → 2 of level 3: D C. Lengths D 3, C 3, e 2, B 2, A 2.
// Had the package gone first at level 2 (DC4 before e4), the lengths would
// be the same here; the rule matters for determinism in general and both
// implementations follow it.
func TestTieBreak(t *testing.T) {
	freqs := []Freq{{valA, 10}, {valC, 3}, {valD, 1}, {valB, 6}}
	tab, err := BuildTable(freqs, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Canonical: length 2 A 00, B 01, escape 10; length 3 C 110, D 111.
	want := []Symbol{{valA, false, 2, 0b00}, {valB, false, 2, 0b01}, {0, true, 2, 0b10},
		{valC, false, 3, 0b110}, {valD, false, 3, 0b111}}
	if got := tab.Symbols(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("code book %v, want %v", got, want)
	}
	if c := cost(t, tab, freqs, 4); c != 52 || bruteForce([]uint64{1, 3, 4, 6, 10}, 3) != 52 {
		t.Errorf("cost %d, want 52", c)
	}
}

// TestOptimalRandom checks package-merge against brute force on random tiny
// alphabets, against the dynamic program on larger ones, and the codec
// against the literal reference on lines of the alphabet.
func TestOptimalRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 400 {
		n := 1 + rng.IntN(7) // values; + escape
		maxLen := 1 + rng.IntN(6)
		if iter%4 == 0 {
			n = 1 + rng.IntN(60)
			maxLen = 6 + rng.IntN(6)
		}
		for uint64(n+1) > uint64(1)<<maxLen {
			maxLen++
		}
		var freqs []Freq
		m := map[uint32]uint64{}
		var w []uint64
		for len(freqs) < n {
			v := uint32(rng.IntN(1000)) * 0x01010101
			if _, dup := m[v]; dup {
				continue
			}
			f := uint64(1 + rng.IntN(1+rng.IntN(200))) // many ties
			freqs = append(freqs, Freq{v, f})
			m[v] = f
			w = append(w, f)
		}
		escape := uint64(rng.IntN(30))
		w = append(w, max(escape, 1))
		tab, err := BuildTable(freqs, escape, maxLen)
		if err != nil {
			t.Fatal(err)
		}
		got := cost(t, tab, freqs, escape)
		if opt := optimalDP(w, maxLen); got != opt {
			t.Fatalf("weights %v L=%d: cost %d, optimum %d", w, maxLen, got, opt)
		}
		if len(w) <= 6 && maxLen <= 5 {
			if bf := bruteForce(w, maxLen); got != bf {
				t.Fatalf("weights %v L=%d: cost %d, brute force %d", w, maxLen, got, bf)
			}
		}
		checkAgainstRef(t, tab, m, escape, maxLen, rng)
	}
}

// checkAgainstRef encodes random lines drawn from the alphabet (and a few
// unknown words) with a codec holding tab and with the literal reference.
func checkAgainstRef(t *testing.T, tab *Table, m map[uint32]uint64, escape uint64, maxLen int, rng *rand.Rand) {
	t.Helper()
	c, err := New(32, WithTable(tab))
	if err != nil {
		t.Fatal(err)
	}
	r := ref.SC2(m, escape, maxLen)
	var vals []uint32
	for v := range m {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	var s linecomptest.Scratch
	for range 8 {
		line := make([]byte, 32)
		for i := range 8 {
			w := rng.Uint32()
			if rng.IntN(8) != 0 {
				w = vals[rng.IntN(len(vals))]
			}
			binary.LittleEndian.PutUint32(line[4*i:], w)
		}
		if err := codectest.Conform(c, r(line), line, &s); err != nil {
			t.Fatalf("freqs %v escape %d L=%d: %v", m, escape, maxLen, err)
		}
	}
}

func TestTableMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, f := range codectest.Sample() {
		for _, maxLen := range []int{11, 16, 32} {
			v, _ := NewVFT(1024, 12)
			v.Observe(f.Data)
			tab, err := v.Table(maxLen)
			if err != nil {
				t.Fatal(err)
			}
			b, err := tab.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			// AppendBinary appends exactly those bytes after a prefix.
			prefix := []byte("prefix")
			if a, err := tab.AppendBinary(prefix); err != nil || !bytes.Equal(a, slices.Concat([]byte("prefix"), b)) {
				t.Fatalf("%s L=%d: AppendBinary(prefix) = % X, %v; want the prefix and % X", f.Name, maxLen, a, err, b)
			}
			back, err := ParseTable(b)
			if err != nil {
				t.Fatalf("%s L=%d: %v", f.Name, maxLen, err)
			}
			if fmt.Sprint(back.Symbols()) != fmt.Sprint(tab.Symbols()) || back.MaxLen() != maxLen {
				t.Fatalf("%s L=%d: round trip changed the table", f.Name, maxLen)
			}
			b2, _ := back.MarshalBinary()
			if !bytes.Equal(b, b2) {
				t.Fatalf("%s L=%d: re-marshal differs", f.Name, maxLen)
			}
			// A codec given the unmarshalled table encodes like the original.
			c1, _ := New(64, WithTable(tab))
			c2, _ := New(64, WithTable(back))
			for off := 0; off+64 <= len(f.Data) && off < 64*200; off += 64 {
				e1, n1, _ := c1.Compress(nil, f.Data[off:off+64])
				e2, n2, _ := c2.Compress(nil, f.Data[off:off+64])
				if n1 != n2 || !bytes.Equal(e1, e2) {
					t.Fatalf("%s: codecs with marshalled tables disagree", f.Name)
				}
			}
			// Flipping any one byte either fails cleanly or gives a table
			// that marshals back to exactly the flipped bytes.
			for range 50 {
				bad := slices.Clone(b)
				bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
				checkParse(t, bad)
			}
		}
	}

	// The golden L = 3 table: header 03 03 (L = 3, escape length 3),
	// counts 1, 0, 4 for lengths 1..3, then A (length 1) and C, D, B
	// (length 3, the escape last and not stored).
	tab, _ := BuildTable([]Freq{{valA, 13}, {valB, 7}, {valC, 3}, {valD, 1}}, 4, 3)
	b, _ := tab.MarshalBinary()
	want := []byte{3, 3, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0x12, 0x34, 0x56, 0x78, 0xFF, 0xFF, 0xFF, 0xFF}
	if !bytes.Equal(b, want) {
		t.Errorf("golden table marshals to % X, want % X", b, want)
	}
}

// checkParse: data either is rejected with a *CorruptError and no table
// (and does not panic) or is a table that marshals back to data.
func checkParse(t *testing.T, data []byte) *Table {
	t.Helper()
	tab, err := ParseTable(data)
	if err != nil {
		var ce *linecomp.CorruptError
		if !errors.Is(err, linecomp.ErrCorrupt) || !errors.As(err, &ce) || ce.Offset < 0 || ce.Offset > 8*len(data) || tab != nil {
			t.Fatalf("ParseTable(% X): %v, %v; want a *CorruptError within the data and no table", data, tab, err)
		}
		return nil
	}
	b, err := tab.MarshalBinary()
	if err != nil || !bytes.Equal(b, data) {
		t.Fatalf("ParseTable accepted % X but it marshals to % X (%v)", data, b, err)
	}
	return tab
}

func TestParseTableBad(t *testing.T) {
	be := func(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
	cat := func(parts ...[]byte) []byte { return slices.Concat(parts...) }
	good := cat([]byte{2, 2, 1, 2}, be(5), be(7)) // L 2: 5 = 0, 7 = 10, escape 11
	if checkParse(t, good) == nil {
		t.Fatal("valid table rejected")
	}
	bad := map[string][]byte{
		"empty":                 nil,
		"header only":           {2},
		"L zero":                {0, 1},
		"L 33":                  cat([]byte{33, 1}),
		"escape longer than L":  {2, 3, 1, 1},
		"escape length zero":    {2, 0, 1, 1},
		"no escape codeword":    cat([]byte{2, 1, 0, 2}, be(5), be(7)), // no codeword of length 1
		"over-subscribed":       cat([]byte{2, 2, 1, 3}, be(5), be(7), be(9)),
		"three of length one":   cat([]byte{1, 1, 3}, be(5), be(7)),
		"duplicate value":       cat([]byte{2, 2, 1, 2}, be(5), be(5)),
		"duplicate across lens": cat([]byte{3, 3, 1, 1, 2}, be(5), be(5), be(7)),
		"unsorted":              cat([]byte{3, 3, 0, 2, 2}, be(9), be(5), be(7)),
		"truncated values":      cat([]byte{2, 2, 1, 2}, be(5), []byte{0, 0, 0}),
		"trailing bytes":        cat(good, []byte{0}),
		"overlong count":        cat([]byte{2, 2, 0x81, 0x00, 2}, be(5), be(7)),
		"truncated count":       {2, 2, 0x81},
		"L 32 count 2^33":       cat([]byte{32, 1}, binary.AppendUvarint(nil, 1<<33)),
	}
	for name, data := range bad {
		tab, err := ParseTable(data)
		var ce *linecomp.CorruptError
		if !errors.Is(err, linecomp.ErrCorrupt) || !errors.As(err, &ce) || tab != nil {
			t.Errorf("%s: ParseTable(% X) = %v, %v; want a *CorruptError", name, data, tab, err)
		}
	}
	// Garbage never panics, and what is accepted is exact.
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		n := rng.IntN(40)
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		if n > 0 && rng.IntN(2) == 0 {
			data[0] = byte(1 + rng.IntN(6)) // plausible L
		}
		if n > 1 && rng.IntN(2) == 0 {
			data[1] = byte(1 + rng.IntN(int(max(data[0], 1))))
		}
		if tab := checkParse(t, data); tab != nil {
			c, err := New(32, WithTable(tab))
			if err != nil {
				t.Fatal(err)
			}
			line := make([]byte, 32)
			for i := range line {
				line[i] = byte(rng.Uint32())
			}
			var s linecomptest.Scratch
			if err := codectest.Conform(c, "", line, &s); err != nil {
				t.Fatal(err)
			}
			if err := linecomptest.CheckGarbage(c, data); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestVFT works LFU replacement by hand on a 3-entry table with 2-bit
// counters (saturating at 3), then checks the VFT against the literal
// reference's replay on random data that evicts and saturates a lot.
func TestVFT(t *testing.T) {
	v, _ := NewVFT(3, 2)
	for _, w := range []uint32{
		7, 7, 7, 7, // 7 inserted (1), then 2, 3, 3 (saturated); escape 1
		8, 9, // 8 and 9 inserted at 1; table full; escape 3
		9,  // 9 → 2
		10, // miss: LFU is 8 (count 1) → replaced by 10 at 1; escape 3 (saturated)
		11, // miss: 10 (1) is the only count-1 entry → replaced by 11
		9,  // 9 → 3
		12, // miss: 11 (1) → 12
		12, // 12 → 2
		13, // miss: 12 (2) is the least (7, 9 are 3) → 13
	} {
		v.ObserveWord(w)
	}
	want := []Freq{{7, 3}, {9, 3}, {13, 1}}
	if got := v.Freqs(); fmt.Sprint(got) != fmt.Sprint(want) || v.Escapes() != 3 {
		t.Errorf("VFT %v escape %d, want %v escape 3", got, v.Escapes(), want)
	}
	// Ties go to the oldest insertion: with 7, 9, 13 all at 3 after two
	// more 13s, the next miss evicts 7, inserted first.
	v.ObserveWord(13)
	v.ObserveWord(13)
	v.ObserveWord(14)
	want = []Freq{{9, 3}, {13, 3}, {14, 1}}
	if got := v.Freqs(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after tie: VFT %v, want %v", got, want)
	}
	v.Reset()
	if len(v.Freqs()) != 0 || v.Escapes() != 0 {
		t.Error("Reset left entries")
	}

	rng := rand.New(rand.NewPCG(9, 9))
	for _, cfg := range []struct{ entries, bits, alphabet int }{{1, 3, 4}, {4, 2, 9}, {16, 3, 40}, {64, 5, 100}, {1024, 12, 5000}} {
		data := make([]byte, 4*20000)
		for i := 0; i < len(data); i += 4 {
			w := uint32(rng.IntN(cfg.alphabet))
			if rng.IntN(3) == 0 {
				w = uint32(rng.IntN(1 + cfg.alphabet/8)) // a hot set
			}
			binary.LittleEndian.PutUint32(data[i:], w*2654435761)
		}
		v, _ := NewVFT(cfg.entries, cfg.bits)
		v.Observe(data)
		freqs, esc := ref.SC2Sample(data, 64, cfg.entries, cfg.bits)
		got := map[uint32]uint64{}
		for _, f := range v.Freqs() {
			got[f.Value] = f.Count
		}
		if fmt.Sprint(got) != fmt.Sprint(freqs) || v.Escapes() != esc {
			t.Errorf("%+v: VFT disagrees with the reference replay", cfg)
		}
	}
}

// TestTrainerFresh: a trainer of a built codec starts with an empty VFT,
// so building from it without observations gives the empty code book;
// building leaves the trainer its counts, and the codec it trained from
// keeps its code book.
func TestTrainerFresh(t *testing.T) {
	c, _ := New(32)
	tr := newTrainer(c)
	for _, l := range goldenTraining() {
		tr.Observe(l)
	}
	first := built(t, tr)
	if first.Table().Len() != 5 {
		t.Fatalf("first code book: %d symbols, want 5", first.Table().Len())
	}
	if len(newTrainer(first).VFT().Freqs()) != 0 {
		t.Fatal("a new trainer's VFT is not empty")
	}
	if c.Table().Len() != 1 || len(tr.VFT().Freqs()) == 0 {
		t.Fatalf("Build changed the codec (%d symbols) or emptied its trainer (%d VFT entries)", c.Table().Len(), len(tr.VFT().Freqs()))
	}
	if second := built(t, newTrainer(first)); second.Table().Len() != 1 {
		t.Fatalf("second code book: %d symbols, want 1", second.Table().Len())
	}
}

// newTrainer returns a trainer of c.
func newTrainer(c *Codec) *Trainer { return c.NewTrainer().(*Trainer) }

// built returns the codec that tr.Build makes, failing the test on error.
func built(t testing.TB, tr linecomp.Trainer) *Codec {
	t.Helper()
	next, err := tr.Build()
	if err != nil {
		t.Fatal(err)
	}
	return next.(*Codec)
}
