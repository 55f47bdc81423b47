package caba

import (
	"fmt"
	"strings"
	"testing"
)

// instructionTable renders the instruction tables of every format at
// every line size, as the package doc shows them.
func instructionTable() string {
	var b strings.Builder
	fmt.Fprintf(&b, "caba-bdi: warp instructions per line, by encoding (decompress / compress)\n")
	fmt.Fprintf(&b, "%-10s %10s %10s %10s\n", "encoding", "32 B", "64 B", "128 B")
	var cs [3]*BDI
	for i, n := range []int{32, 64, 128} {
		cs[i], _ = NewBDI(n)
	}
	for e := range bdiIDs {
		fmt.Fprintf(&b, "%-10s", bdiNames[e])
		for _, c := range cs {
			fmt.Fprintf(&b, " %10s", fmt.Sprintf("%d / %d", c.decompressCost(e), c.compressCost(e)))
		}
		fmt.Fprintln(&b)
	}
	fmt.Fprintf(&b, "\ncaba-fpc: per segment, by pattern (decompress / compress)\n")
	fmt.Fprintf(&b, "%-10s %10s\n", "pattern", "per seg")
	for p := range fpcPatterns {
		fmt.Fprintf(&b, "%-10s %10s\n", fpcNames[p], fmt.Sprintf("%d / %d", fpcDecompressSegment[p], fpcCompressSegment(p)))
	}
	fmt.Fprintf(&b, "%-10s %10s  (+1 compress when stored compressed; raw lines decompress in 0)\n", "per line", fmt.Sprintf("%d / %d", fpcDecompressFixed, fpcCompressFixed+fpcCompressEnd))
	fmt.Fprintf(&b, "\ncaba-cpack: decompress %d per line + per word code used:", cpackDecompressFixed)
	for e, n := range cpackDecompressUsed {
		fmt.Fprintf(&b, " %s %d", cpackNames[e], n)
	}
	fmt.Fprintf(&b, "; raw 0\n")
	fmt.Fprintf(&b, "caba-cpack: compress %d per line + %d per dictionary value + %d to store a compressed line; raw %d\n",
		cpackCompressFixed, cpackCompressValue, cpackCompressStore, cpackCompressFixed+cpackDict*cpackCompressValue)
	return b.String()
}

func TestPrintInstructionTable(t *testing.T) { t.Log("\n" + instructionTable()) }
