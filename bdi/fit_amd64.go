//go:build amd64 && gc && !purego && !noasm

package bdi

import "github.com/linecomp/linecomp/internal/cpu"

// fitMasks writes the fit mask of each line of data to out, with the AVX2
// kernel when the CPU has it and the codec uses the default delta rules
// (the kernel implements those only).
func (c *Codec) fitMasks(data []byte, out []uint8) {
	if c.kernel && cpu.Active() >= cpu.AVX2 {
		switch c.lineSize {
		case 32:
			bdiFit32AVX2(data, out)
		case 64:
			bdiFit64AVX2(data, out)
		default:
			bdiFit128AVX2(data, out)
		}
		return
	}
	for i := range out {
		out[i] = c.fitMaskGeneric(data[i*c.lineSize : (i+1)*c.lineSize])
	}
}
