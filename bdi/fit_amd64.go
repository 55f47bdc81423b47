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

// encodeKernel writes base-delta encoding id of line to out and reports
// true when an encode kernel applies: the AVX-512 level with VBMI and GFNI,
// and 64- or 128-byte lines. out then holds the stream's bytes first.
func (c *Codec) encodeKernel(out *[128]byte, line []byte, id int) bool {
	if cpu.Active() < cpu.AVX512 || !cpu.ByteOps {
		return false
	}
	i := id - Base8Delta1
	p := (*[encParamsSize]byte)(&c.enc[i])
	switch c.lineSize<<4 | baseDelta[i].k {
	case 64<<4 | 8:
		bdiEncode64K8(out[:], line, p)
	case 64<<4 | 4:
		bdiEncode64K4(out[:], line, p)
	case 64<<4 | 2:
		bdiEncode64K2(out[:], line, p)
	case 128<<4 | 8:
		bdiEncode128K8(out[:], line, p)
	case 128<<4 | 4:
		bdiEncode128K4(out[:], line, p)
	case 128<<4 | 2:
		bdiEncode128K2(out[:], line, p)
	default:
		return false
	}
	return true
}

// rawKernel writes the raw encoding of line to out and reports true when a
// kernel applies, as for encodeKernel.
func (c *Codec) rawKernel(out *[129]byte, line []byte) bool {
	if cpu.Active() < cpu.AVX512 || !cpu.ByteOps {
		return false
	}
	switch c.lineSize {
	case 64:
		bdiRaw64(out[:], line)
	case 128:
		bdiRaw128(out[:], line)
	default:
		return false
	}
	out[c.lineSize] = line[c.lineSize-1] << 4
	return true
}
