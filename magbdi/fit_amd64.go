//go:build amd64 && gc && !purego && !noasm

package magbdi

import "github.com/linecomp/linecomp/internal/cpu"

// fitLevels writes the level of each line of data to out, with the best
// kernel the CPU has.
func (c *Codec) fitLevels(data []byte, out []uint8) {
	switch level := cpu.Active(); {
	case level >= cpu.AVX512 && c.lineSize == 32:
		magFit32AVX512(data, out, c.kernelOffs, c.kernelShifts)
	case level >= cpu.AVX512 && c.lineSize == 64:
		magFit64AVX512(data, out, c.kernelOffs, c.kernelShifts)
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
