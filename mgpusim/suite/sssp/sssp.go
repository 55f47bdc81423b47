// Package sssp is the suite's single-source shortest paths benchmark
// (LATTE-CC's DJK row): Bellman-Ford rounds in pull form on a weighted
// undirected graph, verified against Dijkstra's algorithm on the host.
package sssp

import (
	"container/heap"
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

// Unreached is the distance of a node the source does not reach.
const Unreached = math.MaxInt32

// relaxArgs is sssp_relax's argument segment.
type relaxArgs struct {
	RowPtr, Col, Weight, Dist, Next, Changed driver.Ptr
	N                                        int32
	Pad                                      int32
	HiddenGlobalOffsetX                      int64
	HiddenGlobalOffsetY                      int64
	HiddenGlobalOffsetZ                      int64
}

// Benchmark runs SSSP from Source on Graph.
type Benchmark struct {
	dev    *suite.Device
	Graph  *graph.Graph
	Source int

	Dist   []int32 // the GPU's distances after Run
	Rounds int     // relaxation rounds run, the last one changing nothing
}

// New makes the benchmark on a driver.
func New(d *driver.Driver, g *graph.Graph, source int) *Benchmark {
	return &Benchmark{dev: suite.NewDevice(d), Graph: g, Source: source}
}

// Check reports whether the benchmark can run on its graph: the source is
// a node and no sum the kernel forms can overflow 32 bits. With
// non-negative weights every tentative distance of a round is the length
// of a simple path, so at most the lesser of the total weight and N−1
// times the largest weight, and the kernel adds one more weight to it.
func Check(g *graph.Graph, source int) error {
	if source < 0 || source >= g.N {
		return fmt.Errorf("sssp: source %d is not a node (0..%d)", source, g.N-1)
	}
	var total, largest int64
	for _, w := range g.Weight {
		total += int64(w)
		largest = max(largest, int64(w))
	}
	total /= 2 // each edge is stored from both ends
	bound := min(total, int64(g.N-1)*largest) + largest
	if bound >= Unreached {
		return fmt.Errorf("sssp: path lengths up to %d (total weight %d, largest %d): more than 32 bits hold", bound, total, largest)
	}
	return nil
}

// SelectGPU implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SelectGPU(gpus []int) { b.dev.Select(gpus) }

// SetUnifiedMemory implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SetUnifiedMemory() { b.dev.SetUnifiedMemory() }

// Run runs rounds until one changes nothing.
func (b *Benchmark) Run() {
	g := b.Graph
	relax := suite.LoadKernel(object, "sssp_relax")
	dist := make([]int32, g.N)
	for i := range dist {
		dist[i] = Unreached
	}
	dist[b.Source] = 0
	gb := b.dev.UploadGraph(g)
	cur := b.dev.Upload(dist)
	next := b.dev.Alloc(4 * g.N)
	changed := b.dev.Alloc(4)
	b.Rounds = b.dev.Rounds(changed, func(int32) {
		b.dev.Launch(relax, g.N, &relaxArgs{
			RowPtr: gb.RowPtr, Col: gb.Col, Weight: gb.Weight,
			Dist: cur, Next: next, Changed: changed, N: int32(g.N),
		})
		cur, next = next, cur
	})
	b.Dist = make([]int32, g.N)
	b.dev.Download(b.Dist, cur)
}

// Verify implements MGPUSim's benchmarks.Benchmark: it panics if a
// distance differs from Dijkstra's.
func (b *Benchmark) Verify() {
	if msg := suite.Mismatch("sssp distance", b.Dist, Reference(b.Graph, b.Source)); msg != "" {
		panic(msg)
	}
}

// Reference computes the distances by Dijkstra's algorithm.
func Reference(g *graph.Graph, source int) []int32 {
	dist := make([]int64, g.N)
	for i := range dist {
		dist[i] = math.MaxInt64
	}
	dist[source] = 0
	h := &queue{{0, source}}
	for h.Len() > 0 {
		it := heap.Pop(h).(item)
		d, v := it.d, it.v
		if d > dist[v] {
			continue
		}
		for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
			u := int(g.Col[e])
			if nd := d + int64(g.Weight[e]); nd < dist[u] {
				dist[u] = nd
				heap.Push(h, item{nd, u})
			}
		}
	}
	out := make([]int32, g.N)
	for i, d := range dist {
		out[i] = Unreached
		if d != math.MaxInt64 {
			out[i] = int32(d)
		}
	}
	return out
}

// queue is Dijkstra's priority queue of tentative distances.
type item struct {
	d int64
	v int
}
type queue []item

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	return q[i].d < q[j].d || (q[i].d == q[j].d && q[i].v < q[j].v)
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(item)) }
func (q *queue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}
