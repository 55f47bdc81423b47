package tracefile

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestDictMirrorsRing: every distance the writer's dictionary reports
// names, in a ring fed only the literals, a payload equal to the one looked
// up — also when the hash collides for every payload or for half of them,
// which must cost only compression. With the real hash, a payload among the
// last `entries` literals is always found.
func TestDictMirrorsRing(t *testing.T) {
	for _, tc := range []struct {
		name string
		hash func([]byte) uint64
	}{
		{"fixed hash", hashPayload},
		{"all collide", func([]byte) uint64 { return 7 }},
		{"two classes", func(p []byte) uint64 { return uint64(p[0] & 1) }},
	} {
		for _, entries := range []int{0, 1, 3, 16} {
			rng := rand.New(rand.NewPCG(uint64(entries), 9))
			pool := make([][]byte, 24)
			for i := range pool {
				pool[i] = bytes.Repeat([]byte{byte(i)}, 5)
			}
			d := NewDict(5, entries)
			d.hash = tc.hash
			r := NewRing(5, entries)
			var literals [][]byte
			hits := 0
			for i := range 5000 {
				p := pool[rng.IntN(len(pool))]
				dist, ok := d.Lookup(p)
				if !ok {
					r.Add(p)
					literals = append(literals, p)
					continue
				}
				hits++
				got, found := r.Get(dist)
				if !found || !bytes.Equal(got, p) {
					t.Fatalf("%s, %d entries, step %d: distance %d gives %v, want %v", tc.name, entries, i, dist, got, p)
				}
			}
			if entries > 0 && hits == 0 {
				t.Fatalf("%s, %d entries: no hits", tc.name, entries)
			}
			if tc.name == "fixed hash" {
				// No literal may repeat one of the `entries` literals before it.
				for i, p := range literals {
					for j := max(0, i-entries); j < i; j++ {
						if bytes.Equal(literals[j], p) {
							t.Fatalf("%d entries: literal %d repeats literal %d, still in the ring", entries, i, j)
						}
					}
				}
			}
		}
	}
}

func TestDecoderVarints(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want uint64
		ok   bool
	}{
		{[]byte{0x00}, 0, true},
		{[]byte{0x7F}, 127, true},
		{[]byte{0x80, 0x01}, 128, true},
		{[]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, 1<<64 - 1, true},
		{[]byte{0x80, 0x00}, 0, false},                                                 // overlong zero
		{[]byte{0xFF, 0x80, 0x00}, 0, false},                                           // overlong 127
		{[]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02}, 0, false}, // 2^64
		{[]byte{0x80}, 0, false},                                                       // cut short
		{nil, 0, false},
	} {
		var d Decoder
		d.Reset(tc.in, nil)
		got := d.Uvarint()
		if (d.Err() == nil) != tc.ok || got != tc.want {
			t.Errorf("% X: %d, %v; want %d, ok %v", tc.in, got, d.Err(), tc.want, tc.ok)
		}
	}
	// Zigzag: 0, −1, 1, −2, 2 are 0, 1, 2, 3, 4.
	var d Decoder
	d.Reset([]byte{0, 1, 2, 3, 4}, nil)
	for _, want := range []int64{0, -1, 1, -2, 2} {
		if got := d.Varint(); got != want {
			t.Fatalf("zigzag: %d, want %d", got, want)
		}
	}
}
