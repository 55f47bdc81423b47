//go:build amd64 && gc && !purego && !noasm

package fpc

import (
	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/lines"
)

// classifyLines writes the kinds and summary of each line of data, with the
// best kernel the CPU has: line j's kinds go to kinds[j*LineSize()/4:], its
// summary to sums[j].
func (c *Codec) classifyLines(data []byte, kinds []uint8, sums []uint64) {
	switch level := cpu.Active(); {
	case level >= cpu.AVX512 && c.lineSize == 32:
		fpcClassify32AVX512(data, kinds, sums)
	case level >= cpu.AVX512 && c.lineSize == 64:
		fpcClassify64AVX512(data, kinds, sums)
	case level >= cpu.AVX512:
		fpcClassify128AVX512(data, kinds, sums)
	case level >= cpu.AVX2 && c.lineSize == 32:
		fpcClassify32AVX2(data, kinds, sums)
	case level >= cpu.AVX2 && c.lineSize == 64:
		fpcClassify64AVX2(data, kinds, sums)
	case level >= cpu.AVX2:
		fpcClassify128AVX2(data, kinds, sums)
	default:
		classifyLinesGeneric(data, c.lineSize, kinds, sums)
	}
}

// pack writes flag 1 and the codes of the words of line marked in emit to
// buf, with the AVX-512 kernels for 64- and 128-byte lines when the CPU
// has them.
func (c *Codec) pack(buf *[scratchBytes]byte, line []byte, kinds []uint8, zeros, emit uint32) {
	switch {
	case c.lineSize == 64 && cpu.Active() >= cpu.AVX512:
		fpcPack64AVX512(buf, line, kinds, uint64(emit), &c.tab.vecEnc)
		return
	case c.lineSize == 128 && cpu.Active() >= cpu.AVX512:
		fpcPack128AVX512(buf, line, kinds, uint64(emit), &c.tab.vecEnc)
		return
	}
	c.tab.packGeneric(buf, line, kinds, zeros, emit)
}

// fused reports whether Compress codes a line with one kernel call
// (wordCodes): 64- and 128-byte lines under the report's table, with
// AVX-512.
func (c *Codec) fused() bool {
	return c.fusedLine > 0 && cpu.Active() >= cpu.AVX512
}

// fusedLineSize is Codec.fusedLine: the line size under the report's
// table at 64 and 128 bytes, else −1.
func fusedLineSize(lineSize int, tavana bool) int {
	if lineSize == 32 || tavana {
		return -1
	}
	return lineSize
}

// wordCodes is wordCodesGeneric, with the fused kernel where fused says.
func (c *Codec) wordCodes(buf *[scratchBytes]byte, line []byte) (summary, int) {
	if !c.fused() {
		return c.wordCodesGeneric(buf, line)
	}
	if c.lineSize == 64 {
		s, bits := c.compress64((*[tagBits + 64]byte)(buf[:tagBits+64]), (*[64]byte)(line))
		return summary(s), bits
	}
	s, bits := c.compress128((*[tagBits + 128]byte)(buf[:tagBits+128]), (*[128]byte)(line))
	return summary(s), bits
}

// wordCodes64 is wordCodes for a 64-byte codec that fused says codes with
// one kernel call: it writes the stream, and nothing past it, to out and
// returns its length in bits and true; the kernel reads all of line
// first, so out may overlap it.
func (c *Codec) wordCodes64(out *[tagBits + 64]byte, line *[64]byte) (bits int, ok bool) {
	_, bits = fpcCompress64AVX512(out, line, &c.tab.vecEnc)
	return bits, true
}

// wordCodes64Popcnt is wordCodes64 with the kernel's VPOPCNTDQ variant,
// which is faster, for a CPU that has it (cpu.VectorPopcount), as
// wordCodes128Popcnt is for 128 bytes. Compress makes that choice: a
// method that did would call two functions, too many for it to be inlined
// into Compress, and a call costs about a tenth of a line.
func (c *Codec) wordCodes64Popcnt(out *[tagBits + 64]byte, line *[64]byte) (bits int, ok bool) {
	_, bits = fpcCompress64AVX512Popcnt(out, line, &c.tab.vecEnc)
	return bits, true
}

// compress64 is the 64-byte fused kernel, its VPOPCNTDQ variant where the
// CPU has it.
func (c *Codec) compress64(out *[tagBits + 64]byte, line *[64]byte) (uint64, int) {
	if cpu.VectorPopcount {
		return fpcCompress64AVX512Popcnt(out, line, &c.tab.vecEnc)
	}
	return fpcCompress64AVX512(out, line, &c.tab.vecEnc)
}

// wordCodes128 is wordCodes64 for 128-byte lines.
func (c *Codec) wordCodes128(out *[tagBits + 128]byte, line *[128]byte) (bits int, ok bool) {
	_, bits = fpcCompress128AVX512(out, line, &c.tab.vecEnc)
	return bits, true
}

// wordCodes128Popcnt is wordCodes64Popcnt for 128-byte lines.
func (c *Codec) wordCodes128Popcnt(out *[tagBits + 128]byte, line *[128]byte) (bits int, ok bool) {
	_, bits = fpcCompress128AVX512Popcnt(out, line, &c.tab.vecEnc)
	return bits, true
}

// compress128 is compress64 for 128-byte lines.
func (c *Codec) compress128(out *[tagBits + 128]byte, line *[128]byte) (uint64, int) {
	if cpu.VectorPopcount {
		return fpcCompress128AVX512Popcnt(out, line, &c.tab.vecEnc)
	}
	return fpcCompress128AVX512(out, line, &c.tab.vecEnc)
}

// unpack is unpackGeneric, with the BMI2 kernel when the CPU has it.
func (t *table) unpack(out *[128]byte, in *[scratchBytes]byte, n int) (pos uint, i int) {
	if cpu.Active() >= cpu.AVX2 {
		return fpcUnpackBMI2(out, in, &t.decTab, n)
	}
	return t.unpackGeneric(out, in, n)
}

// decodesLines reports whether decodeLine has a kernel: the report's
// table at 64 or 128 bytes, with AVX-512.
func (c *Codec) decodesLines() bool { return c.fused() }

// decodeLine is decodeLineGeneric with the one-call kernel where
// decodesLines says; out is LineSize() bytes long. The kernel reads all of
// enc before it writes out, and writes nothing when it returns false.
func (c *Codec) decodeLine(out, enc []byte) bool {
	if !c.decodesLines() {
		return c.decodeLineGeneric(out, enc)
	}
	if c.lineSize == 64 {
		return c.decodeLine64((*[64]byte)(out), enc)
	}
	return c.decodeLine128((*[128]byte)(out), enc)
}

// decodeReach64 and decodeReach128 are how far the one-line decode
// kernels read into a stream of word codes, in bytes: they take one only
// where enc's capacity covers that reach (the generator's fpcWalkReach).
const (
	decodeReach64  = 81
	decodeReach128 = 151
)

// decodeLine64 is decodeLine's kernel for a 64-byte codec that
// decodesLines says has one. The kernel reads a stream of word codes in
// place, so one whose capacity is short of its reach goes to
// decodeCopied64.
func (c *Codec) decodeLine64(out *[64]byte, enc []byte) bool {
	return fpcDecompress64AVX512(out, enc) || cap(enc) < decodeReach64 && decodeCopied64(out, enc)
}

// decodeLine128 is decodeLine64 for 128-byte lines.
func (c *Codec) decodeLine128(out *[128]byte, enc []byte) bool {
	return fpcDecompress128AVX512(out, enc) || cap(enc) < decodeReach128 && decodeCopied128(out, enc)
}

// decodeCopied64 decodes enc with the 64-byte kernel from a copy with
// room for its reach. A stream longer than that is not well formed.
func decodeCopied64(out *[64]byte, enc []byte) bool {
	var buf [decodeReach64]byte
	if len(enc) > len(buf) {
		return false
	}
	return fpcDecompress64AVX512(out, buf[:copy(buf[:], enc)])
}

// decodeCopied128 is decodeCopied64 for 128-byte lines.
func decodeCopied128(out *[128]byte, enc []byte) bool {
	var buf [decodeReach128]byte
	if len(enc) > len(buf) {
		return false
	}
	return fpcDecompress128AVX512(out, buf[:copy(buf[:], enc)])
}

// decodeLines decodes the streams of src from start to each of ends in
// turn into out, back to back, with the lines kernel for a codec that
// decodesLines says has one, and returns how many it decoded: it stops
// before a stream that is not well-formed, whose end is before its start
// or past src, or of word codes within the walk's reach (81 bytes at 64
// bytes, 151 at 128) of the end of src's capacity. len(out) must be at
// least len(ends)·LineSize().
func (c *Codec) decodeLines(out, src []byte, start int, ends []int) int {
	if c.lineSize == 64 {
		return fpcDecompressLines64AVX512(out, src, start, ends)
	}
	return fpcDecompressLines128AVX512(out, src, start, ends)
}

// compressPair64 writes the streams of two 64-byte lines back to back
// from out with the pair kernel (its VPOPCNTDQ variant where the CPU has
// it) and returns their lengths in bits, for a codec that fused says has
// the kernels.
func (c *Codec) compressPair64(out *[2 * (tagBits + 64)]byte, line0, line1 *[64]byte) (int, int) {
	if cpu.VectorPopcount {
		return fpcCompressPair64AVX512Popcnt(out, line0, line1, &c.tab.vecEnc)
	}
	return fpcCompressPair64AVX512(out, line0, line1, &c.tab.vecEnc)
}

// compressLinesFused is CompressLines with the fused kernels, for a codec
// that fused says has them: each stream goes straight into room for every
// line raw, reserved once. It reports true.
func (c *Codec) compressLinesFused(dst *linecomp.Lines, data []byte) bool {
	n := len(data) / c.lineSize
	out, at, ends, bits := lines.Reserve(dst, n, c.lineSize+1)
	k := 0
	if c.lineSize == 64 {
		// Two lines a call, their chains side by side.
		for ; k+1 < n; k += 2 {
			b0, b1 := c.compressPair64((*[2 * (tagBits + 64)]byte)(out[at:]), (*[64]byte)(data[64*k:]), (*[64]byte)(data[64*k+64:]))
			at += (b0 + 7) / 8
			ends[k], bits[k] = at, b0
			at += (b1 + 7) / 8
			ends[k+1], bits[k+1] = at, b1
		}
	}
	for ; k < n; k++ {
		var b int
		if c.lineSize == 64 {
			_, b = c.compress64((*[tagBits + 64]byte)(out[at:]), (*[64]byte)(data[64*k:]))
		} else {
			_, b = c.compress128((*[tagBits + 128]byte)(out[at:]), (*[128]byte)(data[128*k:]))
		}
		b = c.streamBits(b - tagBits)
		at += (b + 7) / 8
		ends[k], bits[k] = at, b
	}
	lines.Commit(dst, n, at)
	return true
}
