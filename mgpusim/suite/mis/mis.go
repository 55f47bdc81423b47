// Package mis is the suite's maximal independent set (LATTE-CC's MIS row)
// by Luby's algorithm as Pannotia's mis runs it, verified against the
// same algorithm on the host and checked to be independent and maximal.
package mis

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

// Node states.
const (
	Undecided = 0
	In        = 1
	Out       = 2
)

type selectArgs struct {
	RowPtr, Col, Value, State, Selected driver.Ptr
	N                                   int32
	Pad                                 int32
	HiddenGlobalOffsetX                 int64
	HiddenGlobalOffsetY                 int64
	HiddenGlobalOffsetZ                 int64
}

type commitArgs struct {
	RowPtr, Col, Selected, State, Undecided driver.Ptr
	N                                       int32
	Pad                                     int32
	HiddenGlobalOffsetX                     int64
	HiddenGlobalOffsetY                     int64
	HiddenGlobalOffsetZ                     int64
}

// Benchmark finds a maximal independent set of Graph, with node values
// from Seed (suite.NodeValues).
type Benchmark struct {
	dev   *suite.Device
	Graph *graph.Graph
	Seed  uint64

	State  []int32 // the GPU's node states after Run
	Rounds int
}

// New makes the benchmark on a driver.
func New(d *driver.Driver, g *graph.Graph, seed uint64) *Benchmark {
	return &Benchmark{dev: suite.NewDevice(d), Graph: g, Seed: seed}
}

// SelectGPU implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SelectGPU(gpus []int) { b.dev.Select(gpus) }

// SetUnifiedMemory implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SetUnifiedMemory() { b.dev.SetUnifiedMemory() }

// Run runs rounds until no node is undecided.
func (b *Benchmark) Run() {
	g := b.Graph
	sel := suite.LoadKernel(object, "mis_select")
	commit := suite.LoadKernel(object, "mis_commit")
	gb := b.dev.UploadGraph(g)
	value := b.dev.Upload(suite.NodeValues(g.N, b.Seed))
	state := b.dev.Upload(make([]int32, g.N))
	selected := b.dev.Alloc(4 * g.N)
	undecided := b.dev.Alloc(4)
	n := int32(g.N)
	b.Rounds = b.dev.Rounds(undecided, func(int32) {
		b.dev.Launch(sel, g.N, &selectArgs{RowPtr: gb.RowPtr, Col: gb.Col,
			Value: value, State: state, Selected: selected, N: n})
		b.dev.Launch(commit, g.N, &commitArgs{RowPtr: gb.RowPtr, Col: gb.Col,
			Selected: selected, State: state, Undecided: undecided, N: n})
	})
	b.State = make([]int32, g.N)
	b.dev.Download(b.State, state)
}

// Verify implements MGPUSim's benchmarks.Benchmark: it panics if the set
// differs from the host's Luby rounds or is not a maximal independent set.
func (b *Benchmark) Verify() {
	if msg := suite.Mismatch("mis state", b.State, Reference(b.Graph, b.Seed)); msg != "" {
		panic(msg)
	}
	if err := CheckSet(b.Graph, b.State); err != nil {
		panic(err.Error())
	}
}

// CheckSet checks that the nodes In form a maximal independent set and
// every other node is Out.
func CheckSet(g *graph.Graph, state []int32) error {
	for v := 0; v < g.N; v++ {
		inNeighbour := false
		for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
			inNeighbour = inNeighbour || state[g.Col[e]] == In
		}
		switch {
		case state[v] == In && inNeighbour:
			return fmt.Errorf("mis: node %d and a neighbour are both in the set", v)
		case state[v] == Out && !inNeighbour:
			return fmt.Errorf("mis: node %d is out but no neighbour is in: not maximal", v)
		case state[v] != In && state[v] != Out:
			return fmt.Errorf("mis: node %d has state %d", v, state[v])
		}
	}
	return nil
}

// Reference runs Luby's rounds on the host.
func Reference(g *graph.Graph, seed uint64) []int32 {
	value := suite.NodeValues(g.N, seed)
	state := make([]int32, g.N)
	selected := make([]bool, g.N)
	for {
		for v := range selected {
			selected[v] = state[v] == Undecided
			for e := g.RowPtr[v]; e < g.RowPtr[v+1] && selected[v]; e++ {
				u := int(g.Col[e])
				if state[u] == Undecided && (value[u] < value[v] || value[u] == value[v] && u < v) {
					selected[v] = false
				}
			}
		}
		left := false
		for v := range state {
			if state[v] != Undecided {
				continue
			}
			if selected[v] {
				state[v] = In
				continue
			}
			for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
				if selected[g.Col[e]] {
					state[v] = Out
					break
				}
			}
			left = left || state[v] == Undecided
		}
		if !left {
			return state
		}
	}
}
