//go:build amd64 && gc && !purego && !noasm

package fpc

import (
	"testing"

	"github.com/linecomp/linecomp/internal/cpu"
)

// TestDecodeReach pins decodeReach64 and decodeReach128 to what the
// one-line decode kernels require: a stream of word codes whose capacity
// covers the reach is decoded in place, one a byte short is refused by the
// kernel, and decodeLine then decodes it from a copy.
func TestDecodeReach(t *testing.T) {
	if cpu.Active() < cpu.AVX512 {
		t.Skip("the decode kernels need AVX-512")
	}
	for _, tc := range []struct {
		size, reach int
		kernel      func(out *[128]byte, enc []byte) bool
	}{
		{64, decodeReach64, func(out *[128]byte, enc []byte) bool { return fpcDecompress64AVX512((*[64]byte)(out[:64]), enc) }},
		{128, decodeReach128, fpcDecompress128AVX512},
	} {
		c := mustNew(t, "fpc", tc.size).(*Codec)
		line := make([]byte, tc.size)
		for i := 0; i < tc.size; i += 4 {
			line[i] = byte(i % 7) // small words: coded
		}
		enc, bits, err := c.Compress(nil, line)
		if err != nil || bits > 8*tc.size {
			t.Fatalf("%d bytes: the test line should be coded: %d bits, %v", tc.size, bits, err)
		}
		for _, room := range []int{tc.reach, tc.reach - 1} {
			s := make([]byte, len(enc), room)
			copy(s, enc)
			var out [128]byte
			ok := tc.kernel(&out, s)
			if want := room >= tc.reach; ok != want || ok && string(out[:tc.size]) != string(line) {
				t.Errorf("%d bytes, capacity %d: kernel took the stream %v, want %v (line %X)", tc.size, room, ok, want, out[:tc.size])
			}
			clear(out[:])
			if !c.decodeLine(out[:tc.size], s) || string(out[:tc.size]) != string(line) {
				t.Errorf("%d bytes, capacity %d: decodeLine gave %X, want %X", tc.size, room, out[:tc.size], line)
			}
		}
	}
}
