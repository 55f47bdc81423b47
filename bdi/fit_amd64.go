//go:build amd64 && gc && !purego && !noasm

package bdi

import (
	"slices"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/lines"
)

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
		c.idsFromFitMasks(data, ids)
	}
}

// sizesKernel writes the size in bits of each line of data to out with a
// kernel that looks the sizes up itself, and reports true; or reports
// false when none applies: 32-byte lines, below the AVX-512 level, and
// two-base codecs whose delta rules the choose kernels do not implement.
func (c *Codec) sizesKernel(data []byte, out []int) bool {
	if cpu.Active() < cpu.AVX512 || c.lineSize == 32 || !c.singleBase && !c.kernel {
		return false
	}
	switch {
	case c.singleBase && c.lineSize == 64:
		bdiSingleSizes64AVX512VL(data, out, &c.idBits)
	case c.singleBase:
		bdiSingleSizes128AVX512VL(data, out, &c.idBits)
	case c.lineSize == 64:
		bdiChooseSizes64AVX512(data, out, &c.idBits)
	default:
		bdiChooseSizes128AVX512(data, out, &c.idBits)
	}
	return true
}

// twoBaseIDs writes the id of the two-base encoding of each line of data
// to ids, with a choose kernel at the AVX-512 level for 64- and 128-byte
// lines under the default delta rules, or else by way of the fit masks.
func (c *Codec) twoBaseIDs(data []byte, ids []uint8) {
	switch level := cpu.Active(); {
	case !c.kernel || level < cpu.AVX512 || c.lineSize == 32:
		c.idsFromFitMasks(data, ids)
	case c.lineSize == 64:
		bdiChoose64AVX512(data, ids)
	default:
		bdiChoose128AVX512(data, ids)
	}
}

// encodeKernel appends encoding id (base-delta or raw) of line to dst with
// an encode kernel, which writes the stream's bytes straight into dst's
// spare capacity and nothing past them, and reports true; or reports false
// when no kernel applies. Kernels apply at the AVX-512 level with VBMI and
// GFNI, to 64- and 128-byte lines.
func (c *Codec) encodeKernel(dst, line []byte, id int) ([]byte, bool) {
	if cpu.Active() < cpu.AVX512 || !cpu.ByteOps || c.lineSize == 32 {
		return dst, false
	}
	n, size := len(dst), (int(c.idBits[id&0xF])+7)/8
	dst = slices.Grow(dst, size) // the kernels write the stream's bytes only
	out := dst[n : n+size]
	if id == Uncompressed {
		if c.lineSize == 64 {
			bdiRaw64(out, line)
		} else {
			bdiRaw128(out, line)
		}
		return dst[:n+size], true
	}
	i := id - Base8Delta1
	p := c.tables.enc(i)
	switch c.lineSize<<4 | baseDelta[i].k {
	case 64<<4 | 8:
		bdiEncode64K8(out, line, p)
	case 64<<4 | 4:
		bdiEncode64K4(out, line, p)
	case 64<<4 | 2:
		bdiEncode64K2(out, line, p)
	case 128<<4 | 8:
		bdiEncode128K8(out, line, p)
	case 128<<4 | 4:
		bdiEncode128K4(out, line, p)
	default:
		bdiEncode128K2(out, line, p)
	}
	return dst[:n+size], true
}

// oneCallKernels reports that the CPU has what the one-call compress
// kernels need (AVX-512 with VBMI and GFNI); the caller checks the active
// level.
var oneCallKernels = cpu.ByteOps

// decodeKernel appends the line that the checked base-delta stream enc (of
// encoding id) encodes to dst with a decode kernel and reports true, or
// reports false when none applies (as for encodeKernel).
func (c *Codec) decodeKernel(dst, enc []byte, id int) ([]byte, bool) {
	if cpu.Active() < cpu.AVX512 || !cpu.ByteOps || c.lineSize == 32 {
		return dst, false
	}
	n := len(dst)
	dst = slices.Grow(dst, c.lineSize)
	out := dst[n : n+c.lineSize]
	i := id - Base8Delta1
	p := &c.dec[i]
	switch c.lineSize<<4 | baseDelta[i].k {
	case 64<<4 | 8:
		bdiDecode64K8(out, enc, p)
	case 64<<4 | 4:
		bdiDecode64K4(out, enc, p)
	case 64<<4 | 2:
		bdiDecode64K2(out, enc, p)
	case 128<<4 | 8:
		bdiDecode128K8(out, enc, p)
	case 128<<4 | 4:
		bdiDecode128K4(out, enc, p)
	default:
		bdiDecode128K2(out, enc, p)
	}
	return dst[:n+c.lineSize], true
}

// unrawKernel appends the line of the checked raw stream enc to dst with a
// kernel and reports true, or reports false when none applies (as for
// encodeKernel).
func (c *Codec) unrawKernel(dst, enc []byte) ([]byte, bool) {
	if cpu.Active() < cpu.AVX512 || !cpu.ByteOps || c.lineSize == 32 {
		return dst, false
	}
	n := len(dst)
	dst = slices.Grow(dst, c.lineSize)
	if c.lineSize == 64 {
		bdiUnraw64(dst[n:n+64], enc)
	} else {
		bdiUnraw128(dst[n:n+128], enc)
	}
	return dst[:n+c.lineSize], true
}

// compress64 and compress128 write the encoding of line to out with the
// one-call kernel, at the AVX-512 level (the caller checks it), and return
// its bits and true. They are small enough to inline into Compress.
func (c *Codec) compress64(out *[65]byte, line *[64]byte) (bits int, ok bool) {
	return bdiCompress64AVX512(out, line, c.tables.block()), true
}

func (c *Codec) compress128(out *[129]byte, line *[128]byte) (bits int, ok bool) {
	return bdiCompress128AVX512(out, line, c.tables.block()), true
}

// decompress64 and decompress128 decode the well-formed stream enc into
// out with the one-call kernel, at the AVX-512 level (the caller checks
// it), and report true; they report false for any other stream.
func (c *Codec) decompress64(out *[64]byte, enc []byte) (ok bool) {
	return bdiDecompress64AVX512(out, enc, &c.dec, &c.idBits)
}

func (c *Codec) decompress128(out *[128]byte, enc []byte) (ok bool) {
	return bdiDecompress128AVX512(out, enc, &c.dec, &c.idBits)
}

// compressLinesKernel is CompressLines with the one-call kernel in a loop
// (bdiCompressLines64AVX512, bdiCompressLines128AVX512): one call into
// assembly for all the lines instead of one for each. It reports false,
// doing nothing, below the AVX-512 level.
func (c *Codec) compressLinesKernel(dst *linecomp.Lines, data []byte) bool {
	if cpu.Active() < cpu.AVX512 {
		return false
	}
	n := len(data) / c.lineSize
	out, at, ends, bits := lines.Reserve(dst, n, c.lineSize+1) // room for n raw lines
	var end int
	if c.lineSize == 64 {
		end = bdiCompressLines64AVX512(out, at, data, ends, bits, c.tables.block())
	} else {
		end = bdiCompressLines128AVX512(out, at, data, ends, bits, c.tables.block())
	}
	lines.Commit(dst, n, end)
	return true
}

// decodeLines is DecompressLines' kernel call (see lines.Decode).
func (c *Codec) decodeLines(out, enc []byte, start int, ends []int) int {
	if c.lineSize == 64 {
		return bdiDecompressLines64AVX512(out, enc, start, ends, &c.dec, &c.idBits)
	}
	return bdiDecompressLines128AVX512(out, enc, start, ends, &c.dec, &c.idBits)
}
