// Package bfs is the suite's breadth-first search (LATTE-CC's BFS row) in
// Rodinia's and Pannotia's two-kernel frontier-mask form, on any suite
// graph, verified level by level against a host BFS.
package bfs

import (
	_ "embed"
	"fmt"

	"github.com/linecomp/linecomp/mgpusim/suite"
	"github.com/linecomp/linecomp/mgpusim/suite/graph"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

//go:generate go run ../internal/clbuild kernels.cl

//go:embed kernels.hsaco
var object []byte

// Object is the compiled code object.
func Object() []byte { return object }

// Unreached is the level of a node the source does not reach.
const Unreached = -1

// expandArgs is bfs_expand's argument segment.
type expandArgs struct {
	RowPtr, Col, Mask, Updating, Visited, Cost driver.Ptr
	N                                          int32
	Pad                                        int32
	HiddenGlobalOffsetX                        int64
	HiddenGlobalOffsetY                        int64
	HiddenGlobalOffsetZ                        int64
}

// commitArgs is bfs_commit's argument segment.
type commitArgs struct {
	Mask, Updating, Visited, More driver.Ptr
	N                             int32
	Pad                           int32
	HiddenGlobalOffsetX           int64
	HiddenGlobalOffsetY           int64
	HiddenGlobalOffsetZ           int64
}

// Benchmark runs BFS from Source on Graph.
type Benchmark struct {
	dev    *suite.Device
	Graph  *graph.Graph
	Source int

	Cost   []int32 // the GPU's levels after Run
	Levels int     // frontiers expanded
}

// New makes the benchmark on a driver.
func New(d *driver.Driver, g *graph.Graph, source int) *Benchmark {
	return &Benchmark{dev: suite.NewDevice(d), Graph: g, Source: source}
}

// Check reports whether the benchmark can run on its graph.
func Check(g *graph.Graph, source int) error {
	if source < 0 || source >= g.N {
		return fmt.Errorf("bfs: source %d is not a node (0..%d)", source, g.N-1)
	}
	return nil
}

// SelectGPU implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SelectGPU(gpus []int) { b.dev.Select(gpus) }

// SetUnifiedMemory implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SetUnifiedMemory() { b.dev.SetUnifiedMemory() }

// Run expands frontiers until none is left.
func (b *Benchmark) Run() {
	g := b.Graph
	expand := suite.LoadKernel(object, "bfs_expand")
	commit := suite.LoadKernel(object, "bfs_commit")
	cost := make([]int32, g.N)
	mask := make([]int32, g.N)
	for i := range cost {
		cost[i] = Unreached
	}
	cost[b.Source], mask[b.Source] = 0, 1
	gb := b.dev.UploadGraph(g)
	dCost := b.dev.Upload(cost)
	dMask := b.dev.Upload(mask)
	dVisited := b.dev.Upload(mask) // the source alone is visited
	dUpdating := b.dev.Upload(make([]int32, g.N))
	more := b.dev.Alloc(4)
	b.Levels = b.dev.Rounds(more, func(int32) {
		b.dev.Launch(expand, g.N, &expandArgs{RowPtr: gb.RowPtr, Col: gb.Col,
			Mask: dMask, Updating: dUpdating, Visited: dVisited, Cost: dCost, N: int32(g.N)})
		b.dev.Launch(commit, g.N, &commitArgs{Mask: dMask, Updating: dUpdating,
			Visited: dVisited, More: more, N: int32(g.N)})
	})
	b.Cost = make([]int32, g.N)
	b.dev.Download(b.Cost, dCost)
}

// Verify implements MGPUSim's benchmarks.Benchmark: it panics if a level
// differs from the host's BFS.
func (b *Benchmark) Verify() {
	if msg := suite.Mismatch("bfs level", b.Cost, Reference(b.Graph, b.Source)); msg != "" {
		panic(msg)
	}
}

// Reference computes the levels by a queue-based BFS.
func Reference(g *graph.Graph, source int) []int32 {
	level := make([]int32, g.N)
	for i := range level {
		level[i] = Unreached
	}
	level[source] = 0
	queue := []int32{int32(source)}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
			if u := g.Col[e]; level[u] == Unreached {
				level[u] = level[v] + 1
				queue = append(queue, u)
			}
		}
	}
	return level
}
