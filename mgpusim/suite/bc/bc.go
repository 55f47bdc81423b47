// Package bc is the suite's betweenness centrality (LATTE-CC's BC row) by
// Brandes' algorithm, level-synchronous as in Pannotia's bc, from a number
// of sources spread evenly over the nodes; verified against Brandes'
// algorithm on the host in float64.
package bc

import (
	_ "embed"
	"fmt"
	"math"

	"github.com/linecomp/linecomp/mgpusim/suite"
	"github.com/linecomp/linecomp/mgpusim/suite/graph"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

//go:generate go run ../internal/clbuild kernels.cl

//go:embed kernels.hsaco
var object []byte

// Object is the compiled code object.
func Object() []byte { return object }

type initArgs struct {
	Dist, Sigma, Delta  driver.Ptr
	Source, N           int32
	HiddenGlobalOffsetX int64
	HiddenGlobalOffsetY int64
	HiddenGlobalOffsetZ int64
}

type forwardArgs struct {
	RowPtr, Col, Dist, Sigma, Reached driver.Ptr
	Level, N                          int32
	HiddenGlobalOffsetX               int64
	HiddenGlobalOffsetY               int64
	HiddenGlobalOffsetZ               int64
}

type backwardArgs struct {
	RowPtr, Col, Dist, Sigma, Delta, BC driver.Ptr
	Level, Source, N                    int32
	Pad                                 int32
	HiddenGlobalOffsetX                 int64
	HiddenGlobalOffsetY                 int64
	HiddenGlobalOffsetZ                 int64
}

// Benchmark accumulates betweenness centrality on Graph from Sources
// sources.
type Benchmark struct {
	dev     *suite.Device
	Graph   *graph.Graph
	Sources int

	BC []float32 // the GPU's centralities after Run
}

// New makes the benchmark on a driver.
func New(d *driver.Driver, g *graph.Graph, sources int) *Benchmark {
	return &Benchmark{dev: suite.NewDevice(d), Graph: g, Sources: sources}
}

// SourceNodes are the sources: i·N/k for i < k.
func SourceNodes(n, k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = int(int64(i) * int64(n) / int64(k))
	}
	return out
}

// maxPaths bounds the shortest-path counts the kernels hold in float32
// (as Pannotia's do): beyond it sums lose all meaning.
const maxPaths = 1e30

// Check reports whether the benchmark can run: 1..N sources, and path
// counts that float32 can hold.
func Check(g *graph.Graph, sources int) error {
	if sources < 1 || sources > g.N {
		return fmt.Errorf("bc: %d sources: want 1..%d (the nodes)", sources, g.N)
	}
	for _, s := range SourceNodes(g.N, sources) {
		_, sigma, _ := brandesForward(g, s)
		for v, p := range sigma {
			if p > maxPaths {
				return fmt.Errorf("bc: node %d has %.3g shortest paths from source %d: more than float32 holds", v, p, s)
			}
		}
	}
	return nil
}

// SelectGPU implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SelectGPU(gpus []int) { b.dev.Select(gpus) }

// SetUnifiedMemory implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SetUnifiedMemory() { b.dev.SetUnifiedMemory() }

// Run runs the forward and backward sweeps from every source.
func (b *Benchmark) Run() {
	g := b.Graph
	initK := suite.LoadKernel(object, "bc_init")
	forward := suite.LoadKernel(object, "bc_forward")
	backward := suite.LoadKernel(object, "bc_backward")
	gb := b.dev.UploadGraph(g)
	dist := b.dev.Alloc(4 * g.N)
	sigma := b.dev.Alloc(4 * g.N)
	delta := b.dev.Alloc(4 * g.N)
	bc := b.dev.Upload(make([]float32, g.N))
	reached := b.dev.Alloc(4)
	n := int32(g.N)
	for _, s := range SourceNodes(g.N, b.Sources) {
		b.dev.Launch(initK, g.N, &initArgs{Dist: dist, Sigma: sigma, Delta: delta, Source: int32(s), N: n})
		passes := b.dev.Rounds(reached, func(level int32) {
			b.dev.Launch(forward, g.N, &forwardArgs{RowPtr: gb.RowPtr, Col: gb.Col,
				Dist: dist, Sigma: sigma, Reached: reached, Level: level, N: n})
		})
		// The last pass reached nothing: depth is the deepest level, whose
		// nodes have no dependants.
		depth := int32(passes - 1)
		for level := depth - 1; level >= 0; level-- {
			b.dev.Launch(backward, g.N, &backwardArgs{RowPtr: gb.RowPtr, Col: gb.Col,
				Dist: dist, Sigma: sigma, Delta: delta, BC: bc, Level: level, Source: int32(s), N: n})
		}
	}
	b.BC = make([]float32, g.N)
	b.dev.Download(b.BC, bc)
}

// Tolerance is the relative error allowed against the float64 reference:
// the kernels add in float32 and divide by a reciprocal.
const Tolerance = 1e-3

// Verify implements MGPUSim's benchmarks.Benchmark: it panics if a
// centrality is further than Tolerance from the host's.
func (b *Benchmark) Verify() {
	if err := Compare(b.BC, Reference(b.Graph, b.Sources)); err != nil {
		panic(err.Error())
	}
}

// Compare checks GPU centralities against the reference.
func Compare(got []float32, want []float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("bc: %d centralities, want %d", len(got), len(want))
	}
	for v, w := range want {
		if d := math.Abs(float64(got[v]) - w); !(d <= Tolerance*math.Max(math.Abs(w), 1)) {
			return fmt.Errorf("bc: centrality of node %d is %v, want %v", v, got[v], w)
		}
	}
	return nil
}

// brandesForward runs a BFS from s counting shortest paths.
func brandesForward(g *graph.Graph, s int) (order []int32, sigma []float64, dist []int32) {
	dist = make([]int32, g.N)
	sigma = make([]float64, g.N)
	for i := range dist {
		dist[i] = -1
	}
	dist[s], sigma[s] = 0, 1
	order = []int32{int32(s)}
	for i := 0; i < len(order); i++ {
		v := order[i]
		for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
			u := g.Col[e]
			if dist[u] < 0 {
				dist[u] = dist[v] + 1
				order = append(order, u)
			}
			if dist[u] == dist[v]+1 {
				sigma[u] += sigma[v]
			}
		}
	}
	return order, sigma, dist
}

// Reference computes the centralities by Brandes' algorithm in float64.
func Reference(g *graph.Graph, sources int) []float64 {
	bc := make([]float64, g.N)
	delta := make([]float64, g.N)
	for _, s := range SourceNodes(g.N, sources) {
		order, sigma, dist := brandesForward(g, s)
		for i := range delta {
			delta[i] = 0
		}
		for i := len(order) - 1; i >= 0; i-- {
			w := order[i]
			for e := g.RowPtr[w]; e < g.RowPtr[w+1]; e++ {
				if v := g.Col[e]; dist[v] == dist[w]-1 {
					delta[v] += sigma[v] / sigma[w] * (1 + delta[w])
				}
			}
			if int(w) != s {
				bc[w] += delta[w]
			}
		}
	}
	return bc
}
