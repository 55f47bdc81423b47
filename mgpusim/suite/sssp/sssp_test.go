package sssp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite/internal/testgraph"
	"github.com/linecomp/linecomp/mgpusim/suite/sssp"
)

func TestReference(t *testing.T) {
	// By hand: 0; 3; min(10, 3+4)=7; 7+1=8; min(3+20, 8+2)=10.
	if got := sssp.Reference(testgraph.Five(), 0); !slices.Equal(got, []int32{0, 3, 7, 8, 10}) {
		t.Fatalf("from 0: %v", got)
	}
	if got := sssp.Reference(testgraph.Path4(), 3); !slices.Equal(got, []int32{3, 2, 1, 0, sssp.Unreached}) {
		t.Fatalf("from 3: %v", got)
	}
}

func TestVerifyCatches(t *testing.T) {
	b := &sssp.Benchmark{Graph: testgraph.Five(), Source: 0, Dist: []int32{0, 3, 7, 9, 10}}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "sssp distance[3] = 9, want 8") {
			t.Fatalf("Verify: %v", r)
		}
	}()
	b.Verify()
}

func TestCheck(t *testing.T) {
	g := testgraph.Five()
	if err := sssp.Check(g, 5); err == nil {
		t.Error("source 5 of 5 nodes accepted")
	}
	heavy := testgraph.FromDIMACS("p sp 3 2\na 1 2 2000000000\na 2 3 2000000000\n")
	if err := sssp.Check(heavy, 0); err == nil || !strings.Contains(err.Error(), "32 bits") {
		t.Errorf("overflowing weights: %v", err)
	}
	// One heavy edge among light ones: paths stay small although the
	// largest weight times N−1 would not.
	ok := testgraph.FromDIMACS("p sp 4 3\na 1 2 1000000000\na 2 3 1\na 3 4 1\n")
	if err := sssp.Check(ok, 0); err != nil {
		t.Errorf("total weight 10^9+2: %v", err)
	}
	// Bound exactly at the edge: total 2^30, largest 2^30: 2^31 ≥ MaxInt32.
	edge := testgraph.FromDIMACS("p sp 2 1\na 1 2 1073741824\n")
	if err := sssp.Check(edge, 0); err == nil {
		t.Error("2^30 + 2^30 accepted")
	}
}
