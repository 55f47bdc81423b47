package mis_test

import (
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite"
	"github.com/linecomp/linecomp/mgpusim/suite/internal/testgraph"
	"github.com/linecomp/linecomp/mgpusim/suite/mis"
)

func TestReference(t *testing.T) {
	for _, g := range []struct {
		name string
		n    int
	}{{"five", 0}, {"rmat", 9}} {
		gr := testgraph.Five()
		if g.n > 0 {
			gr = testgraph.RMAT(g.n)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			state := mis.Reference(gr, seed)
			if err := mis.CheckSet(gr, state); err != nil {
				t.Fatalf("%s seed %d: %v", g.name, seed, err)
			}
			// Luby's first round always takes the node of least value.
			values := suite.NodeValues(gr.N, seed)
			least := 0
			for v := range values {
				if values[v] < values[least] {
					least = v
				}
			}
			if state[least] != mis.In {
				t.Fatalf("%s seed %d: node %d of least value is not in the set", g.name, seed, least)
			}
		}
	}
}

func TestCheckSet(t *testing.T) {
	g := testgraph.Path4() // 0-1-2-3, 4 isolated
	if err := mis.CheckSet(g, []int32{1, 2, 1, 2, 1}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]int32{
		{1, 1, 2, 1, 1}, // 0 and 1 adjacent
		{1, 2, 2, 1, 2}, // 4 out with no neighbour in
		{1, 2, 0, 1, 1}, // 2 undecided
	} {
		if err := mis.CheckSet(g, bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestVerifyCatches(t *testing.T) {
	g := testgraph.Path4()
	state := mis.Reference(g, 1)
	// Another maximal independent set than Luby's rounds give is still
	// wrong: the kernels must follow the algorithm.
	alt := []int32{mis.In, mis.Out, mis.In, mis.Out, mis.In}
	if state[0] == mis.In {
		alt = []int32{mis.Out, mis.In, mis.Out, mis.In, mis.In}
	}
	b := &mis.Benchmark{Graph: g, Seed: 1, State: alt}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "mis state[") {
			t.Fatalf("Verify: %v", r)
		}
	}()
	b.Verify()
}
