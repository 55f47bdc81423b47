package graph

import (
	"fmt"
	"math/rand/v2"
)

// RMAT holds the parameters of an R-MAT (recursive matrix) graph, the
// generator of the Graph500 benchmark and of Pannotia's synthetic inputs:
// 2^Scale nodes and EdgeFactor·2^Scale edges, each placed by descending
// Scale levels of the adjacency matrix, choosing the top-left, top-right,
// bottom-left or bottom-right quadrant with probabilities A, B, C and
// 1−A−B−C. Weights are uniform in 1..MaxWeight. Seed fixes the graph.
type RMAT struct {
	Scale      int
	EdgeFactor int
	A, B, C    float64
	MaxWeight  int
	Seed       uint64
}

// DefaultRMAT is Graph500's parameter set (A 0.57, B 0.19, C 0.19) at
// scale 10, edge factor 8, weights 1..255.
func DefaultRMAT() RMAT {
	return RMAT{Scale: 10, EdgeFactor: 8, A: 0.57, B: 0.19, C: 0.19, MaxWeight: 255, Seed: 1}
}

// Generate makes the graph. Repeated edges and self-loops are dropped as
// for files (Graph.Dropped counts them), so it has at most
// EdgeFactor·2^Scale undirected edges.
func (p RMAT) Generate() (*Graph, error) {
	if p.Scale < 1 || p.Scale > 26 {
		return nil, fmt.Errorf("%w: rmat scale %d: want 1..26", ErrConfig, p.Scale)
	}
	if p.EdgeFactor < 1 || int64(p.EdgeFactor)<<p.Scale > MaxEdges {
		return nil, fmt.Errorf("%w: rmat edge factor %d: want 1..%d at scale %d", ErrConfig, p.EdgeFactor, MaxEdges>>p.Scale, p.Scale)
	}
	if !(p.A >= 0 && p.B >= 0 && p.C >= 0 && p.A+p.B+p.C <= 1) {
		return nil, fmt.Errorf("%w: rmat probabilities a=%v b=%v c=%v: want non-negative with a+b+c ≤ 1", ErrConfig, p.A, p.B, p.C)
	}
	if p.MaxWeight < 1 {
		return nil, fmt.Errorf("%w: max weight %d: want ≥ 1", ErrConfig, p.MaxWeight)
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x5253_4d41_54))
	n := 1 << p.Scale
	m := p.EdgeFactor * n
	arcs := make([]arc, m)
	for i := range arcs {
		var u, v int32
		for bit := p.Scale - 1; bit >= 0; bit-- {
			r := rng.Float64()
			switch {
			case r < p.A:
			case r < p.A+p.B:
				v |= 1 << bit
			case r < p.A+p.B+p.C:
				u |= 1 << bit
			default:
				u |= 1 << bit
				v |= 1 << bit
			}
		}
		arcs[i] = arc{u, v, int32(1 + rng.IntN(p.MaxWeight))}
	}
	return build(n, arcs), nil
}

// Grid makes a W×H two-dimensional grid, the shape of a road network for
// shortest paths: node (x, y) is y·W + x and is joined to its right and
// lower neighbours, with weights uniform in 1..MaxWeight.
type Grid struct {
	W, H      int
	MaxWeight int
	Seed      uint64
}

// Generate makes the grid graph.
func (p Grid) Generate() (*Graph, error) {
	if p.W < 1 || p.H < 1 || int64(p.W)*int64(p.H) > MaxNodes {
		return nil, fmt.Errorf("%w: grid %d×%d: want sides ≥ 1 and at most %d nodes", ErrConfig, p.W, p.H, MaxNodes)
	}
	if p.MaxWeight < 1 {
		return nil, fmt.Errorf("%w: max weight %d: want ≥ 1", ErrConfig, p.MaxWeight)
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x4752_4944))
	var arcs []arc
	for y := 0; y < p.H; y++ {
		for x := 0; x < p.W; x++ {
			v := int32(y*p.W + x)
			if x+1 < p.W {
				arcs = append(arcs, arc{v, v + 1, int32(1 + rng.IntN(p.MaxWeight))})
			}
			if y+1 < p.H {
				arcs = append(arcs, arc{v, v + int32(p.W), int32(1 + rng.IntN(p.MaxWeight))})
			}
		}
	}
	return build(p.W*p.H, arcs), nil
}
