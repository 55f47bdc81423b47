//go:build amd64 && gc && !purego && !noasm

package magbdi

import (
	"slices"

	"github.com/linecomp/linecomp/internal/cpu"
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
