//go:build amd64 && gc && !purego && !noasm

package fpc

import "github.com/linecomp/linecomp/internal/cpu"

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
