package caba

import (
	"fmt"
	"os"
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

// TestDocTable: the instruction tables in the package doc are the cost
// tables' numbers, which TestLaneModels checks against the lane model.
func TestDocTable(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	want := func(row string) {
		t.Helper()
		if !strings.Contains(doc, row) {
			t.Errorf("the package doc lacks the row %q", row)
		}
	}
	// fields returns the fields of the doc's table row that starts with
	// name, after the name.
	fields := func(name string) []string {
		for _, l := range strings.Split(doc, "\n") {
			if strings.HasPrefix(l, "//\t"+name+" ") {
				return strings.Fields(l)[2:]
			}
		}
		return nil
	}
	var cs [3]*BDI
	for i, n := range []int{32, 64, 128} {
		cs[i], _ = NewBDI(n)
	}
	for e := range bdiIDs {
		dec := fmt.Sprint(cs[0].decompressCost(e))
		if d := cs[2].decompressCost(e); d != cs[0].decompressCost(e) {
			dec = fmt.Sprintf("%s (%d at 128 B)", dec, d)
		}
		row := fmt.Sprintf("%s %d / %d / %d", dec, cs[0].compressCost(e), cs[1].compressCost(e), cs[2].compressCost(e))
		if got := strings.Join(fields(bdiNames[e]), " "); got != row {
			t.Errorf("doc: caba-bdi %s row %q, want %q", bdiNames[e], got, row)
		}
	}
	var dec, comp []string
	for p := range fpcPatterns {
		dec = append(dec, fmt.Sprint(fpcDecompressSegment[p]))
		comp = append(comp, fmt.Sprint(fpcCompressSegment(p)))
	}
	dec = append(dec, fmt.Sprint(fpcDecompressFixed))
	comp = append(comp, fmt.Sprint(fpcCompressFixed+fpcCompressEnd), "(+1)")
	if got := fields("decompress"); strings.Join(got, " ") != strings.Join(dec, " ") {
		t.Errorf("doc: caba-fpc decompress %v, want %v", got, dec)
	}
	if got := fields("compress"); strings.Join(got, " ") != strings.Join(comp, " ") {
		t.Errorf("doc: caba-fpc compress %v, want %v", got, comp)
	}
	for _, n := range []int{cpackDecompressFixed, cpackCompressFixed, cpackCompressValue, cpackCompressStore, cpackCompressFixed + cpackDict*cpackCompressValue} {
		want(fmt.Sprint(n))
	}
	want(fmt.Sprintf("2\n// for zzzz, zzzx and mmmm and %d for mmmx", cpackDecompressUsed[CPackMMMX]))
}
