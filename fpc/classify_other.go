//go:build !amd64 || !gc || purego || noasm

package fpc

import "github.com/linecomp/linecomp"

// classifyLines writes the kinds and summary of each line of data: line
// j's kinds go to kinds[j*LineSize()/4:], its summary to sums[j].
func (c *Codec) classifyLines(data []byte, kinds []uint8, sums []uint64) {
	classifyLinesGeneric(data, c.lineSize, kinds, sums)
}

// pack writes flag 1 and the codes of the words of line marked in emit to
// buf.
func (c *Codec) pack(buf *[scratchBytes]byte, line []byte, kinds []uint8, zeros, emit uint32) {
	c.tab.packGeneric(buf, line, kinds, zeros, emit)
}

// fused reports whether Compress codes a line with one kernel call; there
// is no such kernel here.
func (c *Codec) fused() bool { return false }

// fusedLineSize is −1: there are no fused kernels.
func fusedLineSize(lineSize int, tavana bool) int { return -1 }

// wordCodes is wordCodesGeneric.
func (c *Codec) wordCodes(buf *[scratchBytes]byte, line []byte) (summary, int) {
	return c.wordCodesGeneric(buf, line)
}

// wordCodes64, wordCodes64Popcnt, wordCodes128 and wordCodes128Popcnt
// report that there is no fused kernel.
func (c *Codec) wordCodes64(out *[tagBits + 64]byte, line *[64]byte) (bits int, ok bool) {
	return 0, false
}

func (c *Codec) wordCodes64Popcnt(out *[tagBits + 64]byte, line *[64]byte) (bits int, ok bool) {
	return 0, false
}

func (c *Codec) wordCodes128(out *[tagBits + 128]byte, line *[128]byte) (bits int, ok bool) {
	return 0, false
}

func (c *Codec) wordCodes128Popcnt(out *[tagBits + 128]byte, line *[128]byte) (bits int, ok bool) {
	return 0, false
}

// compressLinesFused reports that there is no fused kernel.
func (c *Codec) compressLinesFused(dst *linecomp.Lines, data []byte) bool { return false }

// unpack is unpackGeneric.
func (t *table) unpack(out *[128]byte, in *[scratchBytes]byte, n int) (pos uint, i int) {
	return t.unpackGeneric(out, in, n)
}

// decodesLines reports whether decodeLine has a kernel; there is none here.
func (c *Codec) decodesLines() bool { return false }

// decodeLine is decodeLineGeneric.
func (c *Codec) decodeLine(out, enc []byte) bool { return c.decodeLineGeneric(out, enc) }

// decodeLine64 and decodeLine128 report that no kernel decoded enc.
func (c *Codec) decodeLine64(out *[64]byte, enc []byte) bool   { return false }
func (c *Codec) decodeLine128(out *[128]byte, enc []byte) bool { return false }

// decodeLines decodes no line: there is no lines kernel.
func (c *Codec) decodeLines(out, src []byte, start int, ends []int) int { return 0 }
