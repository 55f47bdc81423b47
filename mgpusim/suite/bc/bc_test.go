package bc_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite/bc"
	"github.com/linecomp/linecomp/mgpusim/suite/internal/testgraph"
)

func TestReference(t *testing.T) {
	// Every source, each ordered pair counted: on the path 0-1-2-3 the
	// inner nodes lie on the 2 pairs they separate, in both directions.
	if got := bc.Reference(testgraph.Path4(), 5); !slices.Equal(got, []float64{0, 4, 4, 0, 0}) {
		t.Fatalf("path: %v", got)
	}
	// On the diamond each node carries half of the two paths between its
	// neighbours, in both directions: 1 each.
	if got := bc.Reference(testgraph.Diamond(), 4); !slices.Equal(got, []float64{1, 1, 1, 1}) {
		t.Fatalf("diamond: %v", got)
	}
	if got := bc.SourceNodes(10, 4); !slices.Equal(got, []int{0, 2, 5, 7}) {
		t.Fatalf("sources: %v", got)
	}
}

func TestCompare(t *testing.T) {
	want := []float64{0, 4, 1000}
	if err := bc.Compare([]float32{0, 4.001, 1000.5}, want); err != nil {
		t.Fatal(err)
	}
	for _, got := range [][]float32{{0.01, 4, 1000}, {0, 4, 1002}, {0, float32(math.NaN()), 1000}, {0, 4}} {
		if err := bc.Compare(got, want); err == nil {
			t.Errorf("%v accepted", got)
		}
	}
}

func TestVerifyCatches(t *testing.T) {
	b := &bc.Benchmark{Graph: testgraph.Path4(), Sources: 5, BC: []float32{0, 4, 3, 0, 0}}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "centrality of node 2 is 3, want 4") {
			t.Fatalf("Verify: %v", r)
		}
	}()
	b.Verify()
}

func TestCheck(t *testing.T) {
	if err := bc.Check(testgraph.Path4(), 6); err == nil {
		t.Error("6 sources of 5 nodes accepted")
	}
	if err := bc.Check(testgraph.Path4(), 0); err == nil {
		t.Error("0 sources accepted")
	}
	// A ladder of diamonds doubles the path count at each step: 2^110
	// paths overflow float32's range as Check bounds it.
	text := "p sp 331 440\n"
	for i := 0; i < 110; i++ {
		a, b, c, d := 3*i+1, 3*i+2, 3*i+3, 3*i+4
		text += "a " + strconv.Itoa(a) + " " + strconv.Itoa(b) + " 1\na " + strconv.Itoa(a) + " " + strconv.Itoa(c) + " 1\na " +
			strconv.Itoa(b) + " " + strconv.Itoa(d) + " 1\na " + strconv.Itoa(c) + " " + strconv.Itoa(d) + " 1\n"
	}
	if err := bc.Check(testgraph.FromDIMACS(text), 1); err == nil || !strings.Contains(err.Error(), "float32") {
		t.Errorf("2^110 paths: %v", err)
	}
}
