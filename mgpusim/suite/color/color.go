// Package color is the suite's graph colouring (LATTE-CC's CLR row) by
// Jones-Plassmann as Pannotia's color runs it (max variant), verified
// against the same algorithm on the host and checked to be a proper
// colouring.
package color

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

type selectArgs struct {
	RowPtr, Col, Value, Color, Selected driver.Ptr
	N                                   int32
	Pad                                 int32
	HiddenGlobalOffsetX                 int64
	HiddenGlobalOffsetY                 int64
	HiddenGlobalOffsetZ                 int64
}

type commitArgs struct {
	Selected, Color, Uncolored driver.Ptr
	C, N                       int32
	HiddenGlobalOffsetX        int64
	HiddenGlobalOffsetY        int64
	HiddenGlobalOffsetZ        int64
}

// Benchmark colours Graph, with node values from Seed.
type Benchmark struct {
	dev   *suite.Device
	Graph *graph.Graph
	Seed  uint64

	Color []int32 // the GPU's colours after Run; the colour is the round
}

// New makes the benchmark on a driver.
func New(d *driver.Driver, g *graph.Graph, seed uint64) *Benchmark {
	return &Benchmark{dev: suite.NewDevice(d), Graph: g, Seed: seed}
}

// SelectGPU implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SelectGPU(gpus []int) { b.dev.Select(gpus) }

// SetUnifiedMemory implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SetUnifiedMemory() { b.dev.SetUnifiedMemory() }

// Run runs rounds until every node has a colour.
func (b *Benchmark) Run() {
	g := b.Graph
	sel := suite.LoadKernel(object, "color_select")
	commit := suite.LoadKernel(object, "color_commit")
	colors := make([]int32, g.N)
	for i := range colors {
		colors[i] = -1
	}
	gb := b.dev.UploadGraph(g)
	value := b.dev.Upload(suite.NodeValues(g.N, b.Seed))
	color := b.dev.Upload(colors)
	selected := b.dev.Alloc(4 * g.N)
	uncolored := b.dev.Alloc(4)
	n := int32(g.N)
	b.dev.Rounds(uncolored, func(c int32) {
		b.dev.Launch(sel, g.N, &selectArgs{RowPtr: gb.RowPtr, Col: gb.Col,
			Value: value, Color: color, Selected: selected, N: n})
		b.dev.Launch(commit, g.N, &commitArgs{Selected: selected, Color: color,
			Uncolored: uncolored, C: c, N: n})
	})
	b.Color = make([]int32, g.N)
	b.dev.Download(b.Color, color)
}

// Verify implements MGPUSim's benchmarks.Benchmark: it panics if a colour
// differs from the host's rounds or two neighbours share a colour.
func (b *Benchmark) Verify() {
	if msg := suite.Mismatch("color", b.Color, Reference(b.Graph, b.Seed)); msg != "" {
		panic(msg)
	}
	if err := CheckColoring(b.Graph, b.Color); err != nil {
		panic(err.Error())
	}
}

// CheckColoring checks that every node has a colour and no edge joins two
// nodes of the same colour.
func CheckColoring(g *graph.Graph, color []int32) error {
	for v := 0; v < g.N; v++ {
		if color[v] < 0 {
			return fmt.Errorf("color: node %d has no colour", v)
		}
		for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
			if color[g.Col[e]] == color[v] {
				return fmt.Errorf("color: nodes %d and %d share colour %d", v, g.Col[e], color[v])
			}
		}
	}
	return nil
}

// Reference runs the Jones-Plassmann rounds on the host.
func Reference(g *graph.Graph, seed uint64) []int32 {
	value := suite.NodeValues(g.N, seed)
	color := make([]int32, g.N)
	for i := range color {
		color[i] = -1
	}
	selected := make([]bool, g.N)
	for c := int32(0); ; c++ {
		for v := range selected {
			selected[v] = color[v] < 0
			for e := g.RowPtr[v]; e < g.RowPtr[v+1] && selected[v]; e++ {
				u := int(g.Col[e])
				if color[u] < 0 && (value[u] > value[v] || value[u] == value[v] && u > v) {
					selected[v] = false
				}
			}
		}
		left := false
		for v := range color {
			if selected[v] {
				color[v] = c
			} else if color[v] < 0 {
				left = true
			}
		}
		if !left {
			return color
		}
	}
}
