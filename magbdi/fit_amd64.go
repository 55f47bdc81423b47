//go:build amd64 && gc && !purego && !noasm

package magbdi

import (
	"slices"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/lines"
)

// fitLevels writes the level of each line of data to out, with the best
// kernel the CPU has.
func (c *Codec) fitLevels(data []byte, out []uint8) {
	switch level := cpu.Active(); {
	case level >= cpu.AVX512 && c.lineSize == 32:
		magFit32AVX512(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX512 && !c.signed && c.lineSize == 64 && len(c.levels) == 3:
		magFitUnsigned64x3AVX512(data, out, c.kernelShifts)
	case level >= cpu.AVX512 && !c.signed && c.lineSize == 128 && len(c.levels) == 3:
		magFitUnsigned128x3AVX512(data, out, c.kernelShifts)
	case level >= cpu.AVX512 && !c.signed && c.lineSize == 128 && len(c.levels) == 7:
		magFitUnsigned128x7AVX512(data, out, c.kernelShifts)
	case level >= cpu.AVX512 && c.lineSize == 64 && len(c.levels) == 3:
		magFit64x3AVX512(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX512 && c.lineSize == 64:
		magFit64AVX512(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX512 && len(c.levels) == 3:
		magFit128x3AVX512(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX512 && len(c.levels) == 7:
		magFit128x7AVX512(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX512:
		magFit128AVX512(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX2 && c.lineSize == 32:
		magFit32AVX2(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX2 && c.lineSize == 64:
		magFit64AVX2(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX2:
		magFit128AVX2(data, out, c.kernelOffs, c.kernelShifts)
	default:
		c.fitLevelsGeneric(data, out)
	}
}

// oneCallKernels reports that the CPU has what the one-call kernels
// (magCompress, magDecompress) need: AVX-512 with VBMI and GFNI. The
// caller checks the active level.
var oneCallKernels = cpu.ByteOps

// rawKernel appends the raw stream of line to dst with a kernel and
// reports true, or reports false when none applies: the kernels need the
// AVX-512 level with VBMI (byte permutes) and take 64- and 128-byte lines.
func (c *Codec) rawKernel(dst, line []byte) ([]byte, bool) {
	if cpu.Active() < cpu.AVX512 || !cpu.ByteOps || c.lineSize == 32 {
		return dst, false
	}
	n := len(dst)
	dst = slices.Grow(dst, c.lineSize+1)
	out := dst[n : n+c.lineSize+1]
	if c.lineSize == 64 {
		magRaw64(out, line, uint64(c.tagBits))
	} else {
		magRaw128(out, line, uint64(c.tagBits))
	}
	return dst[:n+c.lineSize+1], true
}

// compress64 and compress128 write the encoding of line to out with the
// one-call kernel (the caller checks the level and the codec's oneCall
// flags) and return its bits and true. They are small enough to inline.
func (c *Codec) compress64(out *[65]byte, line *[64]byte) (bits uint64, ok bool) {
	return magCompress64(out, line, c.paramsAt), true
}

func (c *Codec) compress128(out *[129]byte, line *[128]byte) (bits uint64, ok bool) {
	return magCompress128(out, line, c.paramsAt), true
}

// decompress64 and decompress128 decode the checked stream enc of the
// given code into out with the one-call kernel and report true.
func (c *Codec) decompress64(out *[64]byte, enc []byte, code uint64) (ok bool) {
	magDecompress64(out, enc, c.paramsAt, code)
	return true
}

func (c *Codec) decompress128(out *[128]byte, enc []byte, code uint64) (ok bool) {
	magDecompress128(out, enc, c.paramsAt, code)
	return true
}

// compressLinesKernel is CompressLines with the one-call kernel in a loop
// (magCompressLines64, magCompressLines128): one call into assembly for
// all the lines instead of one for each. It reports true.
func (c *Codec) compressLinesKernel(dst *linecomp.Lines, data []byte) bool {
	n := len(data) / c.lineSize
	out, at, ends, bits := lines.Reserve(dst, n, c.lineSize+1) // room for n raw lines
	var end int
	if c.oneCall64 {
		end = magCompressLines64(out, at, data, ends, bits, c.paramsAt)
	} else {
		end = magCompressLines128(out, at, data, ends, bits, c.paramsAt)
	}
	lines.Commit(dst, n, end)
	return true
}
