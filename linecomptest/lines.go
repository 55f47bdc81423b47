package linecomptest

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
)

// EdgeLines returns synthetic n-byte lines that sit on the boundaries of
// the common encodings: zeros, all ones, repeated words, narrow and
// sign-boundary values at every width, ramps, strides of pointers, floats,
// and seeded random data. The lines are the same on every call.
func EdgeLines(n int) [][]byte {
	var out [][]byte
	fill32 := func(f func(i int) uint32) []byte {
		b := make([]byte, n)
		for i := 0; i < n/4; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], f(i))
		}
		return b
	}
	fill64 := func(f func(i int) uint64) []byte {
		b := make([]byte, n)
		for i := 0; i < n/8; i++ {
			binary.LittleEndian.PutUint64(b[8*i:], f(i))
		}
		return b
	}
	out = append(out, make([]byte, n), bytes.Repeat([]byte{0xFF}, n), bytes.Repeat([]byte{0xAB}, n))
	for _, v := range []uint32{1, 7, 8, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0x12345678, 0xFFFFFFF8, 0xFFFFFF80, 0xFFFF8000, 0x80000000, 0x00AB0000, 0x00050003, 0xFFF0FFF0} {
		out = append(out,
			fill32(func(int) uint32 { return v }),
			fill32(func(i int) uint32 { return v * uint32(i&1) }),
			fill32(func(i int) uint32 { return v + uint32(i) }),
			fill32(func(i int) uint32 { return v - uint32(i) }))
	}
	for _, step := range []uint64{1, 4, 8, 0x7F, 0x80, 0x7FFF, 0x8000, 0x7FFFFFFF, 0x80000000} {
		out = append(out,
			fill64(func(i int) uint64 { return 0x00007F0012345678 + step*uint64(i) }),
			fill64(func(i int) uint64 { return uint64(i&1) * (0xC0403900 + step*uint64(i)) }))
	}
	out = append(out,
		fill32(func(i int) uint32 { return math.Float32bits(float32(i) * 0.25) }),
		fill32(func(i int) uint32 { return uint32(int32(-i)) }),
		fill32(func(i int) uint32 { return uint32(i) }))
	rng := rand.New(rand.NewPCG(uint64(n), 42))
	for range 8 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		out = append(out, b)
	}
	return out
}

// BitString renders the first bits bits of enc as '0' and '1' characters,
// the first bit being the most significant bit of enc[0]: the form in
// which golden streams are easiest to write and compare.
func BitString(enc []byte, bits int) string {
	s := make([]byte, bits)
	for i := range s {
		s[i] = '0' + enc[i/8]>>(7-uint(i%8))&1
	}
	return string(s)
}
