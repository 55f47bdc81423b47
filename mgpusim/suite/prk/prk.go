// Package prk is the suite's PageRank in Pannotia's SpMV form (the PRK
// row of LATTE-CC's Table III, beside MGPUSim's own pagerank benchmark):
// each iteration scales the ranks by the inverse degrees, multiplies by
// the adjacency matrix and applies the damping. The host repeats the same
// float32 operations in the same order, so the ranks must agree exactly.
package prk

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

// Damping is PageRank's damping factor, Pannotia's 0.85.
const Damping = float32(0.85)

type scaleArgs struct {
	Rank, InvDeg, X     driver.Ptr
	N                   int32
	Pad                 int32
	HiddenGlobalOffsetX int64
	HiddenGlobalOffsetY int64
	HiddenGlobalOffsetZ int64
}

type spmvArgs struct {
	RowPtr, Col, X, Y   driver.Ptr
	N                   int32
	Pad                 int32
	HiddenGlobalOffsetX int64
	HiddenGlobalOffsetY int64
	HiddenGlobalOffsetZ int64
}

type updateArgs struct {
	Y, Rank             driver.Ptr
	Base, Damping       float32
	N                   int32
	Pad                 int32
	HiddenGlobalOffsetX int64
	HiddenGlobalOffsetY int64
	HiddenGlobalOffsetZ int64
}

// Benchmark runs Iterations of PageRank on Graph.
type Benchmark struct {
	dev        *suite.Device
	Graph      *graph.Graph
	Iterations int

	Rank []float32 // the GPU's ranks after Run
}

// New makes the benchmark on a driver.
func New(d *driver.Driver, g *graph.Graph, iterations int) *Benchmark {
	return &Benchmark{dev: suite.NewDevice(d), Graph: g, Iterations: iterations}
}

// Check reports whether the benchmark can run.
func Check(g *graph.Graph, iterations int) error {
	if iterations < 1 {
		return fmt.Errorf("prk: %d iterations: want at least 1", iterations)
	}
	return nil
}

// SelectGPU implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SelectGPU(gpus []int) { b.dev.Select(gpus) }

// SetUnifiedMemory implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SetUnifiedMemory() { b.dev.SetUnifiedMemory() }

// inputs are the initial ranks (1/N each), the inverse degrees (0 for an
// isolated node) and the teleport term (1−d)/N.
func inputs(g *graph.Graph) (rank, invdeg []float32, base float32) {
	rank = make([]float32, g.N)
	invdeg = make([]float32, g.N)
	for v := range rank {
		rank[v] = 1 / float32(g.N)
		if d := g.RowPtr[v+1] - g.RowPtr[v]; d > 0 {
			invdeg[v] = 1 / float32(d)
		}
	}
	return rank, invdeg, (1 - Damping) / float32(g.N)
}

// Run runs the iterations.
func (b *Benchmark) Run() {
	g := b.Graph
	scale := suite.LoadKernel(object, "prk_scale")
	spmv := suite.LoadKernel(object, "prk_spmv")
	update := suite.LoadKernel(object, "prk_update")
	rank, invdeg, base := inputs(g)
	gb := b.dev.UploadGraph(g)
	dRank := b.dev.Upload(rank)
	dInv := b.dev.Upload(invdeg)
	x := b.dev.Alloc(4 * g.N)
	y := b.dev.Alloc(4 * g.N)
	n := int32(g.N)
	for i := 0; i < b.Iterations; i++ {
		b.dev.Launch(scale, g.N, &scaleArgs{Rank: dRank, InvDeg: dInv, X: x, N: n})
		b.dev.Launch(spmv, g.N, &spmvArgs{RowPtr: gb.RowPtr, Col: gb.Col, X: x, Y: y, N: n})
		b.dev.Launch(update, g.N, &updateArgs{Y: y, Rank: dRank, Base: base, Damping: Damping, N: n})
	}
	b.Rank = make([]float32, g.N)
	b.dev.Download(b.Rank, dRank)
}

// Verify implements MGPUSim's benchmarks.Benchmark: it panics if a rank
// differs from the host's.
func (b *Benchmark) Verify() {
	if msg := suite.Mismatch("prk rank", b.Rank, Reference(b.Graph, b.Iterations)); msg != "" {
		panic(msg)
	}
}

// Reference computes the ranks with the kernels' float32 operations in
// the kernels' order.
func Reference(g *graph.Graph, iterations int) []float32 {
	rank, invdeg, base := inputs(g)
	x := make([]float32, g.N)
	for i := 0; i < iterations; i++ {
		for v := range x {
			x[v] = rank[v] * invdeg[v]
		}
		for v := range rank {
			var sum float32
			for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
				sum = sum + x[g.Col[e]]
			}
			rank[v] = base + float32(Damping*sum) // rounded as the kernel rounds, never fused
		}
	}
	return rank
}
