package color_test

import (
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite"
	"github.com/linecomp/linecomp/mgpusim/suite/color"
	"github.com/linecomp/linecomp/mgpusim/suite/internal/testgraph"
)

func TestReference(t *testing.T) {
	for _, g := range []struct {
		name  string
		scale int
	}{{"five", 0}, {"rmat", 9}} {
		gr := testgraph.Five()
		if g.scale > 0 {
			gr = testgraph.RMAT(g.scale)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			c := color.Reference(gr, seed)
			if err := color.CheckColoring(gr, c); err != nil {
				t.Fatalf("%s seed %d: %v", g.name, seed, err)
			}
			// The node of greatest value is coloured in the first round.
			values := suite.NodeValues(gr.N, seed)
			top := 0
			for v := range values {
				if values[v] > values[top] {
					top = v
				}
			}
			if c[top] != 0 {
				t.Fatalf("%s seed %d: node %d of greatest value has colour %d", g.name, seed, top, c[top])
			}
		}
	}
}

func TestCheckColoring(t *testing.T) {
	g := testgraph.Path4()
	if err := color.CheckColoring(g, []int32{0, 1, 0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]int32{{0, 0, 1, 0, 0}, {0, 1, 0, -1, 0}} {
		if err := color.CheckColoring(g, bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestVerifyCatches(t *testing.T) {
	g := testgraph.Five()
	c := color.Reference(g, 1)
	c[0] += 7 // still proper, but not the rounds' colouring
	b := &color.Benchmark{Graph: g, Seed: 1, Color: c}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "color[0]") {
			t.Fatalf("Verify: %v", r)
		}
	}()
	b.Verify()
}
