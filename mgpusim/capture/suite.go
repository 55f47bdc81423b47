package capture

import (
	"flag"
	"fmt"

	"github.com/linecomp/linecomp/mgpusim/suite/bc"
	"github.com/linecomp/linecomp/mgpusim/suite/bfs"
	"github.com/linecomp/linecomp/mgpusim/suite/color"
	"github.com/linecomp/linecomp/mgpusim/suite/graph"
	"github.com/linecomp/linecomp/mgpusim/suite/km"
	"github.com/linecomp/linecomp/mgpusim/suite/mis"
	"github.com/linecomp/linecomp/mgpusim/suite/pf"
	"github.com/linecomp/linecomp/mgpusim/suite/prk"
	"github.com/linecomp/linecomp/mgpusim/suite/sssp"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

// generatorFlags are graphInput's flags for generated graphs: with -graph
// they mean nothing, and Describe leaves them out of the trace header.
var generatorFlags = []string{"gen", "scale", "edge-factor", "rmat-a", "rmat-b", "rmat-c", "grid-w", "grid-h", "max-weight", "seed"}

// graphInput declares the input flags every suite graph benchmark shares
// and returns the function that makes the graph they describe: -graph
// FILE (DIMACS .gr, Matrix Market .mtx or METIS .graph; see package
// suite/graph), or else a generated graph, R-MAT (Graph500's parameters by
// default) or a 2-D grid.
func graphInput(fs *flag.FlagSet, note func(string)) func(bench string) (*graph.Graph, error) {
	def := graph.DefaultRMAT()
	path := fs.String("graph", "", "input graph: DIMACS .gr (p sp N M, a U V W; Pannotia's .gr), Matrix Market .mtx, or METIS .graph (Pannotia's colour and MIS inputs); else -gen")
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
		switch {
		case *path != "":
			for _, name := range generatorFlags {
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
		src := "generated " + *gen
		if *path != "" {
			src = *path
		}
		note(fmt.Sprintf("%s: graph %s: %d nodes, %d undirected edges; %d input arcs not kept (self-loops, repeats, reverse arcs)",
			bench, src, g.N, g.Edges()/2, g.Dropped))
		return g, nil
	}
}

// suiteMaker is benchmarkMaker for the suite, whose builds can add notes.
type suiteMaker func(fs *flag.FlagSet, note func(string)) func(d *driver.Driver) (benchmarks.Benchmark, error)

// The suite's benchmarks (package suite and its kernel packages): our own
// OpenCL kernels of the papers' workloads.
var suiteMakers = map[string]suiteMaker{
	"bc":    makeBC,
	"gbfs":  makeBFS,
	"color": makeColor,
	"km":    makeKM,
	"mis":   makeMIS,
	"pf":    makePF,
	"prk":   makePRK,
	"sssp":  makeSSSP,
}

func makeSSSP(fs *flag.FlagSet, note func(string)) func(*driver.Driver) (benchmarks.Benchmark, error) {
	input := graphInput(fs, note)
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

func makeBFS(fs *flag.FlagSet, note func(string)) func(*driver.Driver) (benchmarks.Benchmark, error) {
	input := graphInput(fs, note)
	source := fs.Int("source", 0, "source node (0-based)")
	return func(d *driver.Driver) (benchmarks.Benchmark, error) {
		g, err := input("gbfs")
		if err != nil {
			return nil, err
		}
		if err := bfs.Check(g, *source); err != nil {
			return nil, configError("%v", err)
		}
		return bfs.New(d, g, *source), nil
	}
}

func makePRK(fs *flag.FlagSet, note func(string)) func(*driver.Driver) (benchmarks.Benchmark, error) {
	input := graphInput(fs, note)
	iterations := fs.Int("iterations", 10, "PageRank iterations")
	return func(d *driver.Driver) (benchmarks.Benchmark, error) {
		g, err := input("prk")
		if err != nil {
			return nil, err
		}
		if err := prk.Check(g, *iterations); err != nil {
			return nil, configError("%v", err)
		}
		return prk.New(d, g, *iterations), nil
	}
}

func makeMIS(fs *flag.FlagSet, note func(string)) func(*driver.Driver) (benchmarks.Benchmark, error) {
	input := graphInput(fs, note)
	seed := fs.Uint64("value-seed", 1, "seed of the random node values")
	return func(d *driver.Driver) (benchmarks.Benchmark, error) {
		g, err := input("mis")
		if err != nil {
			return nil, err
		}
		return mis.New(d, g, *seed), nil
	}
}

func makeColor(fs *flag.FlagSet, note func(string)) func(*driver.Driver) (benchmarks.Benchmark, error) {
	input := graphInput(fs, note)
	seed := fs.Uint64("value-seed", 1, "seed of the random node values")
	return func(d *driver.Driver) (benchmarks.Benchmark, error) {
		g, err := input("color")
		if err != nil {
			return nil, err
		}
		return color.New(d, g, *seed), nil
	}
}

func makeBC(fs *flag.FlagSet, note func(string)) func(*driver.Driver) (benchmarks.Benchmark, error) {
	input := graphInput(fs, note)
	// One source by default: each source is a forward and a backward
	// sweep, so on a road graph of 20,000 nodes one takes about a minute
	// in emulation (Pannotia's BC runs every node as a source).
	sources := fs.Int("sources", 1, "number of sources, spread evenly over the nodes (i·N/sources)")
	return func(d *driver.Driver) (benchmarks.Benchmark, error) {
		g, err := input("bc")
		if err != nil {
			return nil, err
		}
		if err := bc.Check(g, *sources); err != nil {
			return nil, configError("%v", err)
		}
		return bc.New(d, g, *sources), nil
	}
}

func makePF(fs *flag.FlagSet, note func(string)) func(*driver.Driver) (benchmarks.Benchmark, error) {
	rows := fs.Int("rows", 100, "grid rows (Rodinia's pathfinder: weights uniform 0..9)")
	cols := fs.Int("cols", 10000, "grid columns")
	height := fs.Int("pyramid-height", 20, "rows per launch (Rodinia's pyramid height)")
	seed := fs.Uint64("seed", 1, "seed of the weights")
	return func(d *driver.Driver) (benchmarks.Benchmark, error) {
		if err := pf.Check(*rows, *cols, *height); err != nil {
			return nil, configError("%v", err)
		}
		return pf.New(d, *rows, *cols, *height, *seed), nil
	}
}

func makeKM(fs *flag.FlagSet, note func(string)) func(*driver.Driver) (benchmarks.Benchmark, error) {
	data := fs.String("data", "", "points: raw little-endian float32, -features values per point (else -points generated uniform in [0,1))")
	points := fs.Int("points", 4096, "generated points (without -data)")
	features := fs.Int("features", 34, "values per point (Rodinia's kdd_cup has 34)")
	clusters := fs.Int("clusters", 5, "clusters (Rodinia's default 5)")
	maxIter := fs.Int("max-iter", 10, "rounds at most; fewer if no point changes centre")
	seed := fs.Uint64("seed", 1, "seed of the generated points")
	return func(d *driver.Driver) (benchmarks.Benchmark, error) {
		var pts *km.Data
		if *data != "" {
			if isSet(fs, "points") || isSet(fs, "seed") {
				return nil, configError("km: -data reads the points; -points and -seed are for generated ones")
			}
			var err error
			if pts, err = km.ReadData(*data, *features); err != nil {
				return nil, configError("%v", err)
			}
		} else {
			if *points < 1 || *features < 1 || int64(*points)*int64(*features) > 1<<28 {
				return nil, configError("km: -points=%d -features=%d: want positive, at most 2^28 values", *points, *features)
			}
			pts = km.Generate(*points, *features, *seed)
		}
		if err := km.Check(pts, *clusters, *maxIter); err != nil {
			return nil, configError("%v", err)
		}
		return km.New(d, pts, *clusters, *maxIter), nil
	}
}
