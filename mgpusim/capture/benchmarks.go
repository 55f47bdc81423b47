package capture

import (
	"flag"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sarchlab/mgpusim/v4/amd/arch"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/amdappsdk/bitonicsort"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/amdappsdk/floydwarshall"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/amdappsdk/matrixmultiplication"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/amdappsdk/matrixtranspose"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/amdappsdk/simpleconvolution"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/heteromark/aes"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/heteromark/fir"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/heteromark/kmeans"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/heteromark/pagerank"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/shoc/bfs"
	"github.com/sarchlab/mgpusim/v4/amd/benchmarks/shoc/spmv"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

// A Benchmark is one of MGPUSim's benchmark programs with its parameters.
// The parameters are flags named, typed and defaulted exactly as in
// MGPUSim's own sample program for that benchmark
// (amd/samples/<name>/*.go at v4.2.0), so that a command line that works
// for a sample works here.
type Benchmark struct {
	name   string
	params *flag.FlagSet
	// build makes MGPUSim's benchmark object on a driver, reading the
	// parameters as they are at the time of the call.
	build func(d *driver.Driver) (benchmarks.Benchmark, error)
	// oneGPU is set for benchmarks that run on one GPU only: several GPUs
	// must then be one unified GPU.
	oneGPU bool
	// notes are what building the benchmark found worth saying (for a
	// graph read from a file, what was dropped); Run returns them.
	notes []string
}

// Name is the benchmark's name as given to -bench.
func (b *Benchmark) Name() string { return b.name }

// Params are the benchmark's own flags. Set them (Params().Set or Parse)
// before Run.
func (b *Benchmark) Params() *flag.FlagSet { return b.params }

// Set sets one parameter by its flag name.
func (b *Benchmark) Set(name, value string) error {
	if err := b.params.Set(name, value); err != nil {
		return configError("benchmark %s: parameter -%s=%q: %v", b.name, name, value, err)
	}
	return nil
}

// Describe lists every parameter with its current value, sorted by name,
// as "-name=value" separated by spaces: the text a trace header records.
// A suite benchmark reading -graph FILE leaves out the generator's
// parameters, which do not apply.
func (b *Benchmark) Describe() string {
	skip := map[string]bool{}
	if g := b.params.Lookup("graph"); g != nil && g.Value.String() != "" {
		for _, name := range generatorFlags {
			skip[name] = true
		}
	}
	var parts []string
	b.params.VisitAll(func(f *flag.Flag) {
		if !skip[f.Name] {
			parts = append(parts, fmt.Sprintf("-%s=%s", f.Name, f.Value.String()))
		}
	})
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// Benchmarks lists the names NewBenchmark accepts, sorted.
func Benchmarks() []string {
	names := make([]string, 0, len(benchmarkMakers)+len(suiteMakers))
	for name := range benchmarkMakers {
		names = append(names, name)
	}
	for name := range suiteMakers {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// NewBenchmark returns the named benchmark with MGPUSim's default
// parameters, or an error wrapping ErrConfig naming the known benchmarks.
func NewBenchmark(name string) (*Benchmark, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	b := &Benchmark{name: name, params: fs}
	if mk, ok := benchmarkMakers[name]; ok {
		b.build = mk(fs)
		// MGPUSim's SHOC bfs panics on more than one GPU.
		b.oneGPU = name == "bfs"
		return b, nil
	}
	if mk, ok := suiteMakers[name]; ok {
		b.build = mk(fs, func(note string) { b.notes = append(b.notes, note) })
		b.oneGPU = true
		return b, nil
	}
	return nil, configError("unknown benchmark %q (known: %s)",
		name, strings.Join(Benchmarks(), ", "))
}

type benchmarkMaker func(fs *flag.FlagSet) func(d *driver.Driver) (benchmarks.Benchmark, error)

// The GCN3 architecture is the one MGPUSim's R9 Nano timing model and its
// emulator default to; every benchmark here is built for it.
const gcn3 = arch.GCN3

var benchmarkMakers = map[string]benchmarkMaker{
	"fir": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		length := fs.Int("length", 4096, "The number of samples to filter.")
		taps := fs.Int("taps", 16, "The number of filter taps.")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("length", *length, "taps", *taps); err != nil {
				return nil, err
			}
			b := fir.NewBenchmark(d)
			b.Length = *length
			b.NumTapsParam = *taps
			b.Arch = gcn3
			return b, nil
		}
	},
	"aes": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		length := fs.Int("length", 65536, "The length of array to sort.")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("length", *length); err != nil {
				return nil, err
			}
			b := aes.NewBenchmark(d)
			b.Length = *length
			b.Arch = gcn3
			return b, nil
		}
	},
	"kmeans": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		points := fs.Int("points", 1024, "The number of points.")
		clusters := fs.Int("clusters", 5, "The number of clusters.")
		features := fs.Int("features", 32, "The number of features for each point.")
		maxIter := fs.Int("max-iter", 5, "The maximum number of iterations to run")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("points", *points, "clusters", *clusters,
				"features", *features, "max-iter", *maxIter); err != nil {
				return nil, err
			}
			b := kmeans.NewBenchmark(d)
			b.NumPoints = *points
			b.NumClusters = *clusters
			b.NumFeatures = *features
			b.MaxIter = *maxIter
			b.Arch = gcn3
			return b, nil
		}
	},
	"matrixtranspose": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		width := fs.Int("width", 256, "The dimension of the square matrix.")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("width", *width); err != nil {
				return nil, err
			}
			b := matrixtranspose.NewBenchmark(d)
			b.Width = *width
			b.Arch = gcn3
			return b, nil
		}
	},
	"simpleconvolution": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		width := fs.Uint("width", 254, "The width of the input matrix.")
		height := fs.Uint("height", 254, "The height of the input matrix.")
		maskSize := fs.Uint("mask-size", 3, "The size of the mask.")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positiveUint32("width", *width, "height", *height,
				"mask-size", *maskSize); err != nil {
				return nil, err
			}
			b := simpleconvolution.NewBenchmark(d)
			b.Width = uint32(*width)
			b.Height = uint32(*height)
			b.SetMaskSize(uint32(*maskSize))
			b.Arch = gcn3
			return b, nil
		}
	},
	"pagerank": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		nodes := fs.Int("node", 16, "The number of nodes")
		sparsity := fs.Float64("sparsity", 0.001, "The sparsity of the graph")
		iterations := fs.Int("iterations", 16, "The number of iterations")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("node", *nodes, "iterations", *iterations); err != nil {
				return nil, err
			}
			if !(*sparsity > 0) || math.IsInf(*sparsity, 0) {
				return nil, configError("pagerank: -sparsity=%v must be a positive number", *sparsity)
			}
			// The sample's rule: at most a full graph, and at least one
			// edge per node.
			s := math.Min(*sparsity, 1)
			connections := int(float64(*nodes**nodes) * s)
			if connections < *nodes {
				connections = *nodes
			}
			if connections > math.MaxUint32 {
				return nil, configError("pagerank: %d connections do not fit 32 bits", connections)
			}
			b := pagerank.NewBenchmark(d)
			b.NumNodes = uint32(*nodes)
			b.NumConnections = uint32(connections)
			b.MaxIterations = uint32(*iterations)
			b.Arch = gcn3
			return b, nil
		}
	},
	"bitonicsort": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		length := fs.Int("length", 1024, "The length of array to sort.")
		ascending := fs.Bool("order-asc", true, "Sorting in ascending order.")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("length", *length); err != nil {
				return nil, err
			}
			b := bitonicsort.NewBenchmark(d)
			b.Length = *length
			b.OrderAscending = *ascending
			b.Arch = gcn3
			return b, nil
		}
	},
	"bfs": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		path := fs.String("load-graph", "", "Path to file from which graph to be loaded.")
		nodes := fs.Int("node", 64, "The number of nodes of the generated graph.")
		degree := fs.Int("degree", 3, "The degree of each node of the generated graph.")
		depth := fs.Int("depth", 0, "The max depth to search, 0 means unlimited")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("node", *nodes, "degree", *degree); err != nil {
				return nil, err
			}
			if *depth < 0 {
				return nil, configError("bfs: -depth=%d must not be negative", *depth)
			}
			if *path != "" && (isSet(fs, "node") || isSet(fs, "degree")) {
				return nil, configError("bfs: -load-graph cannot be combined with -node or -degree")
			}
			b := bfs.NewBenchmark(d)
			b.Path = *path
			b.NumNode = *nodes
			b.Degree = *degree
			b.MaxDepth = *depth
			if b.MaxDepth == 0 {
				b.MaxDepth = math.MaxInt32
			}
			b.Arch = gcn3
			return b, nil
		}
	},
	"matrixmultiplication": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		x := fs.Uint("x", 64, "The height of the first matrix.")
		y := fs.Uint("y", 64, "The width of the first matrix and the height of the second matrix.")
		z := fs.Uint("z", 64, "The width of the second matrix.")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positiveUint32("x", *x, "y", *y, "z", *z); err != nil {
				return nil, err
			}
			b := matrixmultiplication.NewBenchmark(d)
			b.X, b.Y, b.Z = uint32(*x), uint32(*y), uint32(*z)
			b.Arch = gcn3
			return b, nil
		}
	},
	"floydwarshall": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		nodes := fs.Int("node", 16, "The number of nodes in the graph")
		iterations := fs.Int("iter", 0, "The number of iterations to run; 0 or more than -node means -node.")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("node", *nodes); err != nil {
				return nil, err
			}
			if *iterations < 0 || *iterations > math.MaxUint32 || *nodes > math.MaxUint32 {
				return nil, configError("floydwarshall: -iter=%d out of range", *iterations)
			}
			b := floydwarshall.NewBenchmark(d)
			b.NumNodes = uint32(*nodes)
			b.NumIterations = uint32(*iterations)
			b.Arch = gcn3
			return b, nil
		}
	},
	"spmv": func(fs *flag.FlagSet) func(*driver.Driver) (benchmarks.Benchmark, error) {
		dim := fs.Int("dim", 128, "The number of rows in the input matrix.")
		sparsity := fs.Float64("sparsity", 0.01,
			"The ratio between non-zero elements to all the elelements in the matrix")
		return func(d *driver.Driver) (benchmarks.Benchmark, error) {
			if err := positive("dim", *dim); err != nil {
				return nil, err
			}
			if *dim > math.MaxInt32 {
				return nil, configError("spmv: -dim=%d does not fit 32 bits", *dim)
			}
			if !(*sparsity > 0 && *sparsity <= 1) {
				return nil, configError("spmv: -sparsity=%v must be in (0, 1]", *sparsity)
			}
			b := spmv.NewBenchmark(d)
			b.Dim = int32(*dim)
			b.Sparsity = *sparsity
			b.Arch = gcn3
			return b, nil
		}
	},
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// positive checks name/value pairs of int parameters.
func positive(pairs ...any) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if v := pairs[i+1].(int); v <= 0 {
			return configError("-%s=%d must be positive", pairs[i], v)
		}
	}
	return nil
}

// positiveUint32 checks name/value pairs of uint parameters that MGPUSim
// stores in 32 bits.
func positiveUint32(pairs ...any) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if v := pairs[i+1].(uint); v == 0 || v > math.MaxUint32 {
			return configError("-%s=%d must be in 1..%d", pairs[i], v, uint64(math.MaxUint32))
		}
	}
	return nil
}

// BenchFlag returns the value of -bench (or --bench, -bench=NAME) wherever
// it stands on a command line, before a "--": a command's other flags
// depend on the benchmark, so it reads this one first.
func BenchFlag(args []string) (string, bool) {
	for i, a := range args {
		if a == "--" {
			break
		}
		name := strings.TrimLeft(a, "-")
		if len(a)-len(name) < 1 || len(a)-len(name) > 2 {
			continue
		}
		if name == "bench" && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(name, "bench="); ok {
			return v, true
		}
	}
	return "", false
}
