package prk_test

import (
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite/internal/testgraph"
	"github.com/linecomp/linecomp/mgpusim/suite/prk"
)

// power is PageRank by the textbook definition in float64.
func power(n int, adj [][]int, iterations int) []float64 {
	r := make([]float64, n)
	for i := range r {
		r[i] = 1 / float64(n)
	}
	for it := 0; it < iterations; it++ {
		next := make([]float64, n)
		for v := range next {
			sum := 0.0
			for _, u := range adj[v] {
				sum += r[u] / float64(len(adj[u]))
			}
			next[v] = 0.15/float64(n) + 0.85*sum
		}
		r = next
	}
	return r
}

func TestReference(t *testing.T) {
	g := testgraph.Five()
	adj := make([][]int, g.N)
	for v := range adj {
		for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
			adj[v] = append(adj[v], int(g.Col[e]))
		}
	}
	want := power(g.N, adj, 30)
	got := prk.Reference(g, 30)
	sum := 0.0
	for v := range want {
		sum += float64(got[v])
		if math.Abs(float64(got[v])-want[v]) > 1e-6 {
			t.Errorf("rank %d: %v, want %v", v, got[v], want[v])
		}
	}
	// No dangling nodes: the ranks stay a distribution.
	if math.Abs(sum-1) > 1e-5 {
		t.Errorf("ranks sum to %v", sum)
	}
	// Node 1 (degree 3) outranks node 3 (degree 2).
	if !(got[1] > got[3]) {
		t.Errorf("ranks %v", got)
	}
}

func TestVerifyCatches(t *testing.T) {
	g := testgraph.Five()
	r := prk.Reference(g, 3)
	r[2] = math.Nextafter32(r[2], 1) // one ulp off
	b := &prk.Benchmark{Graph: g, Iterations: 3, Rank: r}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "prk rank[2]") {
			t.Fatalf("Verify: %v", r)
		}
	}()
	b.Verify()
}
