package ref

import "testing"

// TestBPCGolden checks the reference against the sizes of
// reference-implementations.md §5.4 (128-byte lines); the reference's
// stream carries the 1-bit flag on top. The arithmetic is in
// bpc/bpc_test.go TestGoldenSizes.
func TestBPCGolden(t *testing.T) {
	line := func(w func(i int) uint32) []byte {
		b := make([]byte, 128)
		for i := 0; i < 32; i++ {
			v := w(i)
			b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
		return b
	}
	cases := []struct {
		name     string
		line     []byte
		def, uns int // payload bits: default, unsigned plane
	}{
		{"all zero", line(func(int) uint32 { return 0 }), 10, 10},
		{"0,1,…,31", line(func(i int) uint32 { return uint32(i) }), 15, 15},
		{"32 × 0x12345678", line(func(int) uint32 { return 0x12345678 }), 40, 40},
		{"0x1000 + 4i", line(func(i int) uint32 { return 0x1000 + 4*uint32(i) }), 39, 39},
		{"0,−1,…,−31", line(func(i int) uint32 { return uint32(-int32(i)) }), 15, 52},
	}
	for _, tc := range cases {
		if got := len(bpc(tc.line, false)); got != 1+tc.def {
			t.Errorf("%s: %d bits, want 1 + %d", tc.name, got, tc.def)
		}
		if got := len(bpc(tc.line, true)); got != 1+tc.uns {
			t.Errorf("%s unsigned: %d bits, want 1 + %d", tc.name, got, tc.uns)
		}
	}
	// The all-zero stream in full: flag, base 000, run of 33 (01 + 11111).
	if s := bpc(make([]byte, 128), false); s != "1"+"000"+"0111111" {
		t.Errorf("all zero: %s", s)
	}
}
