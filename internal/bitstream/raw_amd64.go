//go:build amd64 && gc && !purego && !noasm

package bitstream

import (
	"slices"

	"github.com/linecomp/linecomp/internal/cpu"
)

// appendRawKernel is AppendRaw with a one-bit tag of 0 for a raw part of
// 64 or 128 bytes, the raw encoding of most codecs, with the AVX-512
// kernels; it reports false, having done nothing, for other lengths and
// levels.
func appendRawKernel(dst, raw []byte) ([]byte, bool) {
	if cpu.Active() < cpu.AVX512 {
		return dst, false
	}
	l := len(dst)
	switch len(raw) {
	case 64:
		dst = slices.Grow(dst, 65)[:l+65]
		rawAppend64AVX512((*[65]byte)(dst[l:]), (*[64]byte)(raw))
	case 128:
		dst = slices.Grow(dst, 129)[:l+129]
		rawAppend128AVX512((*[129]byte)(dst[l:]), (*[128]byte)(raw))
	default:
		return dst, false
	}
	return dst, true
}

// readRawKernel is ReadRaw of a stream with a one-bit tag and of the
// length it must have, for a line of 64 or 128 bytes, with the AVX-512
// kernels: it reports whether it read the line, having written nothing
// if not (non-zero padding, or no kernel for the length or the level).
func readRawKernel(line, enc []byte) bool {
	if cpu.Active() < cpu.AVX512 || len(enc) != len(line)+1 {
		return false
	}
	switch len(line) {
	case 64:
		return rawRead64AVX512((*[64]byte)(line), (*[65]byte)(enc))
	case 128:
		return rawRead128AVX512((*[128]byte)(line), (*[129]byte)(enc))
	}
	return false
}
