package sc

import (
	"encoding/binary"
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
)

// FuzzParseTable: arbitrary bytes are either rejected with a *CorruptError
// or are a table that marshals back to exactly those bytes; a codec with an
// accepted table round-trips lines and survives garbage.
func FuzzParseTable(f *testing.F) {
	golden, _ := BuildTable([]Freq{{valA, 13}, {valB, 7}, {valC, 3}, {valD, 1}}, 4, 3)
	g, _ := golden.MarshalBinary()
	f.Add(g)
	f.Add([]byte{2, 2, 1, 2, 0, 0, 0, 5, 0, 0, 0, 7})
	f.Add([]byte{16, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		tab := checkParse(t, data)
		if tab == nil {
			return
		}
		c, err := New(32, WithTable(tab))
		if err != nil {
			t.Fatal(err)
		}
		// A line made of the table's own values (and the input bytes).
		line := make([]byte, 32)
		syms := tab.Symbols()
		for i := range 8 {
			binary.LittleEndian.PutUint32(line[4*i:], syms[(i*7)%len(syms)].Value)
		}
		copy(line[16:], data)
		var s linecomptest.Scratch
		if err := codectest.Conform(c, "", line, &s); err != nil {
			t.Fatal(err)
		}
		if err := linecomptest.CheckGarbage(c, data); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzTrainedRoundTrip trains a small codec on fuzzed data, then checks
// every line of the data against the literal reference (built from the
// codec's VFT contents) and round-trips it, and decodes the data as garbage.
func FuzzTrainedRoundTrip(f *testing.F) {
	for _, fl := range codectest.Sample() {
		f.Add(fl.Data[:256], uint8(16), uint8(12), uint8(16))
	}
	f.Add(make([]byte, 64), uint8(1), uint8(1), uint8(1))
	f.Add([]byte("abcdabcdabcdabcdxyzwxyzwabcdabcd"), uint8(3), uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, entries, counterBits, maxLen uint8) {
		if len(data) > 4096 {
			return
		}
		L := 1 + int(maxLen)%MaxCodeLen
		E := 1 + int(entries)%64
		if uint64(E) >= uint64(1)<<L {
			E = 1<<L - 1
		}
		cb := 1 + int(counterBits)%32
		for _, n := range []int{32, 64} {
			c, err := New(n, WithVFTEntries(E), WithCounterBits(cb), WithMaxCodeLen(L))
			if err != nil {
				t.Fatal(err)
			}
			tr := newTrainer(c)
			tr.Observe(data)
			m := map[uint32]uint64{}
			for _, fr := range tr.VFT().Freqs() {
				m[fr.Value] = fr.Count
			}
			r := ref.SC2(m, tr.VFT().Escapes(), L)
			c = built(t, tr)
			padded := append([]byte(nil), data...)
			for len(padded)%n != 0 || len(padded) == 0 {
				padded = append(padded, 0)
			}
			var s linecomptest.Scratch
			for off := 0; off < len(padded); off += n {
				line := padded[off : off+n]
				if err := codectest.Conform(c, r(line), line, &s); err != nil {
					t.Fatalf("E=%d c=%d L=%d line %X: %v", E, cb, L, line, err)
				}
			}
			if err := linecomptest.CheckGarbage(c, data); err != nil {
				t.Fatal(err)
			}
		}
	})
}
