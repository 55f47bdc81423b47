//go:build amd64 && gc && !purego && !noasm

package bdi

import "github.com/linecomp/linecomp/internal/cpu"

// fitMasks writes the fit mask of each line of data to out, with the best
// kernel the CPU has and the codec uses the default delta rules
// (the kernel implements those only).
func (c *Codec) fitMasks(data []byte, out []uint8) {
	if !c.kernel {
		c.fitMasksGeneric(data, out)
		return
	}
	switch level := cpu.Active(); {
	case level >= cpu.AVX512 && c.lineSize == 32:
		bdiFit32AVX512(data, out)
	case level >= cpu.AVX512 && c.lineSize == 64:
		bdiFit64AVX512(data, out)
	case level >= cpu.AVX512:
		bdiFit128AVX512(data, out)
	case level >= cpu.AVX2 && c.lineSize == 32:
		bdiFit32AVX2(data, out)
	case level >= cpu.AVX2 && c.lineSize == 64:
		bdiFit64AVX2(data, out)
	case level >= cpu.AVX2:
		bdiFit128AVX2(data, out)
	default:
		c.fitMasksGeneric(data, out)
	}
}

// singleIDs writes the id of the B+Δ encoding of each line of data to ids,
// with the best kernel the CPU has.
func (c *Codec) singleIDs(data []byte, ids []uint8) {
	switch level := cpu.Active(); {
	case level >= cpu.AVX512 && c.lineSize == 32:
		bdiSingle32AVX512VL(data, ids)
	case level >= cpu.AVX512 && c.lineSize == 64:
		bdiSingle64AVX512VL(data, ids)
	case level >= cpu.AVX512:
		bdiSingle128AVX512VL(data, ids)
	case level >= cpu.AVX2 && c.lineSize == 32:
		bdiSingle32AVX2(data, ids)
	case level >= cpu.AVX2 && c.lineSize == 64:
		bdiSingle64AVX2(data, ids)
	case level >= cpu.AVX2:
		bdiSingle128AVX2(data, ids)
	default:
		c.singleIDsGeneric(data, ids)
	}
}
