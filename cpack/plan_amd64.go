//go:build amd64 && gc && !purego && !noasm

package cpack

import (
	"unsafe"

	"github.com/linecomp/linecomp/internal/cpu"
)

// planOps codes every word of line into ops and returns the length in bits
// of the word codes, with the AVX-512 kernels when the CPU has them.
func (c *Codec) planOps(line []byte, ops *[maxWords]op) int {
	if cpu.Active() >= cpu.AVX512 {
		if c.vectorPlan() {
			var bits [1]uint16
			cpackPlan64AVX512(line, opBytes(ops)[:16], bits[:], &c.planTab)
			return int(bits[0])
		}
		if c.vectorPlan128() {
			var bits [1]uint16
			cpackPlan128AVX512(line, opBytes(ops)[:], bits[:], &c.planTab)
			if bits[0] != planWrapped {
				return int(bits[0])
			}
			return cpackPlanWrap128AVX512(line, opBytes(ops)[:], &c.planTab)
		}
		return cpackPlanAVX512(line, opBytes(ops)[:c.lineSize/4], &c.planTab)
	}
	return c.planGeneric(line, ops)
}

// planLines codes each line of data, a whole number of lines: the ops of
// line j go to ops[j*LineSize()/4:], the length of its word codes to
// bits[j].
func (c *Codec) planLines(data []byte, ops []op, bits []uint16) {
	if cpu.Active() >= cpu.AVX512 && c.vectorPlan() {
		cpackPlan64AVX512(data, unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(ops))), len(ops)), bits, &c.planTab)
		return
	}
	if cpu.Active() >= cpu.AVX512 && c.vectorPlan128() {
		cpackPlan128AVX512(data, unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(ops))), len(ops)), bits, &c.planTab)
		for j, b := range bits {
			if b == planWrapped {
				// The dictionary wraps: the kernel with a short serial part.
				line := opBytes((*[maxWords]op)(ops[j*maxWords:]))
				bits[j] = uint16(cpackPlanWrap128AVX512(data[j*128:(j+1)*128], line[:], &c.planTab))
			}
		}
		return
	}
	c.planLinesGeneric(data, ops, bits)
}

// emit writes the flag and the word codes of ops into buf, with the
// AVX-512 kernels for 64- and 128-byte lines when the CPU has them.
func (c *Codec) emit(buf *streamBuf, line []byte, ops *[maxWords]op) {
	if c.lineSize == 64 && cpu.Active() >= cpu.AVX512 {
		cpackEmit64AVX512((*[maxStreamBytes + 8]byte)(buf), line, opBytes(ops)[:16], &c.vecEmit)
		return
	}
	if c.lineSize == 128 && cpu.Active() >= cpu.AVX512 {
		cpackEmit128AVX512((*[maxStreamBytes + 8]byte)(buf), line, opBytes(ops)[:], &c.vecEmit)
		return
	}
	c.emitGeneric(buf, line, ops)
}

// fused reports whether Compress codes a line with one kernel call
// (wordCodes): 64- and 128-byte lines under the default push rule, with
// AVX-512.
func (c *Codec) fused() bool {
	return (c.vectorPlan() || c.vectorPlan128()) && cpu.Active() >= cpu.AVX512
}

// wordCodes is wordCodesGeneric, with the fused kernel where fused says.
func (c *Codec) wordCodes(buf *streamBuf, line []byte) int {
	if c.fused() {
		if c.lineSize == 128 {
			return cpackCompress128AVX512((*[maxStreamBytes + 8]byte)(buf), line, &c.planTab, &c.vecEmit)
		}
		return cpackCompress64AVX512((*[maxStreamBytes + 8]byte)(buf), line, &c.planTab, &c.vecEmit)
	}
	return c.wordCodesGeneric(buf, line)
}

// opBytes views ops as the bytes the kernels write.
func opBytes(ops *[maxWords]op) *[maxWords]uint8 { return (*[maxWords]uint8)(unsafe.Pointer(ops)) }

// decodeWords is decodeWordsGeneric, with the BMI2 kernel when the CPU has
// it. The kernel decodes word codes only: a zero-block code at the start
// (C-Pack+Z) is decoded here.
func (c *Codec) decodeWords(line *[128]byte, buf *decodeBuf) (pos uint, ok bool) {
	if cpu.Active() < cpu.AVX2 {
		return c.decodeWordsGeneric(line, buf)
	}
	if c.zeroBlock && buf[0]>>(7-zeroBlockBits)&3 == zeroBlockCode {
		return tagBits + zeroBlockBits, true // the line is zero
	}
	var end int
	switch c.lineSize {
	case 32:
		end = cpackDecode8BMI2(line, (*[maxStreamBytes + 8]byte)(buf), &c.decTab)
	case 64:
		end = cpackDecode16BMI2(line, (*[maxStreamBytes + 8]byte)(buf), &c.decTab)
	default:
		end = cpackDecode32BMI2(line, (*[maxStreamBytes + 8]byte)(buf), &c.decTab)
	}
	return uint(end), end != 0
}
