package capture

import (
	"flag"

	"github.com/linecomp/linecomp/mgpusim/suite/graph"
	"github.com/linecomp/linecomp/mgpusim/suite/sssp"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

// graphInput declares the input flags every suite graph benchmark shares
// and returns the function that makes the graph they describe: -graph
// FILE (DIMACS .gr, Matrix Market .mtx or Pannotia's .gr; see package
// suite/graph), or else a generated graph, R-MAT (Graph500's parameters by
// default) or a 2-D grid.
func graphInput(fs *flag.FlagSet) func(bench string) (*graph.Graph, error) {
	def := graph.DefaultRMAT()
	path := fs.String("graph", "", "input graph: DIMACS .gr (p sp N M, a U V W), Matrix Market .mtx, or Pannotia (METIS) .gr; else -gen")
	gen := fs.String("gen", "rmat", "generated graph without -graph: rmat or grid")
	scale := fs.Int("scale", def.Scale, "rmat: 2^scale nodes")
	edgeFactor := fs.Int("edge-factor", def.EdgeFactor, "rmat: edges per node")
	a := fs.Float64("rmat-a", def.A, "rmat: probability of the top-left quadrant")
	b := fs.Float64("rmat-b", def.B, "rmat: probability of the top-right quadrant")
	c := fs.Float64("rmat-c", def.C, "rmat: probability of the bottom-left quadrant")
	gridW := fs.Int("grid-w", 64, "grid: width in nodes")
	gridH := fs.Int("grid-h", 64, "grid: height in nodes")
	maxWeight := fs.Int("max-weight", def.MaxWeight, "rmat, grid: edge weights are uniform in 1..max-weight")
	seed := fs.Uint64("seed", def.Seed, "rmat, grid: generator seed")
	return func(bench string) (*graph.Graph, error) {
		var (
			g   *graph.Graph
			err error
		)
		genFlags := []string{"gen", "scale", "edge-factor", "rmat-a", "rmat-b", "rmat-c", "grid-w", "grid-h", "max-weight", "seed"}
		switch {
		case *path != "":
			for _, name := range genFlags {
				if isSet(fs, name) {
					return nil, configError("%s: -graph reads a file; -%s is for generated graphs", bench, name)
				}
			}
			g, err = graph.ReadFile(*path)
		case *gen == "rmat":
			g, err = graph.RMAT{Scale: *scale, EdgeFactor: *edgeFactor, A: *a, B: *b, C: *c,
				MaxWeight: *maxWeight, Seed: *seed}.Generate()
		case *gen == "grid":
			g, err = graph.Grid{W: *gridW, H: *gridH, MaxWeight: *maxWeight, Seed: *seed}.Generate()
		default:
			return nil, configError("%s: -gen=%q: want rmat or grid", bench, *gen)
		}
		if err != nil {
			return nil, configError("%s: %v", bench, err)
		}
		return g, nil
	}
}

// node checks a node number parameter against the graph.
func node(bench, name string, v int, g *graph.Graph) error {
	if v < 0 || v >= g.N {
		return configError("%s: -%s=%d is not a node of the graph (0..%d)", bench, name, v, g.N-1)
	}
	return nil
}

func makeSSSP(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
	input := graphInput(fs)
	source := fs.Int("source", 0, "source node (0-based)")
	return func(d *driver.Driver) (benchmarks.Benchmark, error) {
		g, err := input("sssp")
		if err != nil {
			return nil, err
		}
		if err := sssp.Check(g, *source); err != nil {
			return nil, configError("%v", err)
		}
		return sssp.New(d, g, *source), nil
	}
}
