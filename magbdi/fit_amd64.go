//go:build amd64 && gc && !purego && !noasm

package magbdi

import "github.com/linecomp/linecomp/internal/cpu"

// fitLevels writes the level of each line of data to out, with the AVX2
// kernel when the CPU has it.
func (c *Codec) fitLevels(data []byte, out []uint8) {
	if cpu.Active() >= cpu.AVX2 {
		switch c.lineSize {
		case 32:
			magFit32AVX2(data, out, c.kernelOffs, c.kernelShifts)
		case 64:
			magFit64AVX2(data, out, c.kernelOffs, c.kernelShifts)
		default:
			magFit128AVX2(data, out, c.kernelOffs, c.kernelShifts)
		}
		return
	}
	for i := range out {
		out[i] = c.levelGeneric(data[i*c.lineSize : (i+1)*c.lineSize])
	}
}
