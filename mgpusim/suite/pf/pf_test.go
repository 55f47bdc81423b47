package pf_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite/pf"
)

func TestReference(t *testing.T) {
	// Rodinia's weights are 0..9.
	w := pf.Wall(50, 40, 3)
	for _, v := range w {
		if v < 0 || v > 9 {
			t.Fatalf("weight %d", v)
		}
	}
	// A cost is at least the last row's weight plus the least of the
	// row above, and at most the straight path down.
	got := pf.Reference(50, 40, 3)
	for x := range got {
		straight := int32(0)
		for r := 0; r < 50; r++ {
			straight += w[r*40+x]
		}
		if got[x] > straight || got[x] < w[49*40+x] {
			t.Fatalf("cost %d at %d, straight path %d", got[x], x, straight)
		}
	}
	// By hand on the seed's first 3×3 grid.
	w = pf.Wall(3, 3, 7)
	row1 := []int32{
		w[3] + min(w[0], w[1]),
		w[4] + min(w[0], w[1], w[2]),
		w[5] + min(w[1], w[2]),
	}
	want := []int32{
		w[6] + min(row1[0], row1[1]),
		w[7] + min(row1[0], row1[1], row1[2]),
		w[8] + min(row1[1], row1[2]),
	}
	if got := pf.Reference(3, 3, 7); !slices.Equal(got, want) {
		t.Fatalf("3×3: %v, want %v", got, want)
	}
}

func TestCheck(t *testing.T) {
	for _, c := range [][3]int{{1, 10, 2}, {10, 0, 2}, {10, 10, 0}, {10, 10, 128}} {
		if err := pf.Check(c[0], c[1], c[2]); err == nil {
			t.Errorf("%v accepted", c)
		}
	}
	if err := pf.Check(10, 10, 127); err != nil {
		t.Error(err)
	}
}

func TestVerifyCatches(t *testing.T) {
	r := pf.Reference(5, 8, 1)
	r[7]++
	b := &pf.Benchmark{Rows: 5, Cols: 8, PyramidHeight: 2, Seed: 1, Result: r}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "pf cost[7]") {
			t.Fatalf("Verify: %v", r)
		}
	}()
	b.Verify()
}
