// Package pf is the suite's pathfinder (Rodinia's pathfinder, LATTE-CC's
// PF row): the cheapest path down a grid of weights, computed row by row
// in Rodinia's pyramid form, several rows per launch in local memory;
// verified against the same dynamic programme on the host.
package pf

import (
	_ "embed"
	"fmt"
	"math/rand/v2"

	"github.com/linecomp/linecomp/mgpusim/suite"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

//go:generate go run ../internal/clbuild kernels.cl

//go:embed kernels.hsaco
var object []byte

// Object is the compiled code object.
func Object() []byte { return object }

// block is the kernel's BLOCK: one work-group's columns.
const block = suite.WorkGroup

// args is pathfinder's argument segment. The kernel works by group and
// local id and never reads the global offset, so clang declares no hidden
// arguments for it.
type args struct {
	Wall, Src, Dst                     driver.Ptr
	Iteration, Cols, StartStep, Border int32
}

// Benchmark finds the cheapest paths down a Rows×Cols grid whose weights
// are Rodinia's: uniform 0..9 from Seed.
type Benchmark struct {
	dev           *suite.Device
	Rows, Cols    int
	PyramidHeight int
	Seed          uint64

	Result []int32 // the GPU's last row after Run
}

// New makes the benchmark on a driver.
func New(d *driver.Driver, rows, cols, pyramidHeight int, seed uint64) *Benchmark {
	return &Benchmark{dev: suite.NewDevice(d), Rows: rows, Cols: cols, PyramidHeight: pyramidHeight, Seed: seed}
}

// Check reports whether the benchmark can run: the pyramid must leave
// each block some columns of its own.
func Check(rows, cols, pyramidHeight int) error {
	if rows < 2 || cols < 1 || int64(rows)*int64(cols) > 1<<28 {
		return fmt.Errorf("pf: a %d×%d grid: want at least 2 rows and 1 column, at most 2^28 cells", rows, cols)
	}
	if pyramidHeight < 1 || 2*pyramidHeight >= block {
		return fmt.Errorf("pf: pyramid height %d: want 1..%d (a block is %d columns)", pyramidHeight, block/2-1, block)
	}
	return nil
}

// Wall returns the grid's weights, row-major.
func Wall(rows, cols int, seed uint64) []int32 {
	rng := rand.New(rand.NewPCG(seed, 0x50_46))
	w := make([]int32, rows*cols)
	for i := range w {
		w[i] = int32(rng.IntN(10))
	}
	return w
}

// SelectGPU implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SelectGPU(gpus []int) { b.dev.Select(gpus) }

// SetUnifiedMemory implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SetUnifiedMemory() { b.dev.SetUnifiedMemory() }

// Run steps down the grid, PyramidHeight rows per launch.
func (b *Benchmark) Run() {
	k := suite.LoadKernel(object, "pathfinder")
	wall := Wall(b.Rows, b.Cols, b.Seed)
	// Row 0 starts the paths; the kernels read rows 1.. as the wall.
	dWall := b.dev.Upload(wall[b.Cols:])
	src := b.dev.Upload(wall[:b.Cols])
	dst := b.dev.Alloc(4 * b.Cols)
	small := block - 2*b.PyramidHeight
	groups := (b.Cols + small - 1) / small
	for t := 0; t < b.Rows-1; t += b.PyramidHeight {
		it := min(b.PyramidHeight, b.Rows-1-t)
		b.dev.Launch(k, groups*block, &args{Wall: dWall, Src: src, Dst: dst,
			Iteration: int32(it), Cols: int32(b.Cols), StartStep: int32(t), Border: int32(b.PyramidHeight)})
		src, dst = dst, src
	}
	b.Result = make([]int32, b.Cols)
	b.dev.Download(b.Result, src)
}

// Verify implements MGPUSim's benchmarks.Benchmark: it panics if a cost
// differs from the host's.
func (b *Benchmark) Verify() {
	if msg := suite.Mismatch("pf cost", b.Result, Reference(b.Rows, b.Cols, b.Seed)); msg != "" {
		panic(msg)
	}
}

// Reference computes the last row's costs row by row.
func Reference(rows, cols int, seed uint64) []int32 {
	wall := Wall(rows, cols, seed)
	return costs(wall, rows, cols)
}

func costs(wall []int32, rows, cols int) []int32 {
	cur := append([]int32(nil), wall[:cols]...)
	next := make([]int32, cols)
	for r := 1; r < rows; r++ {
		for x := range next {
			best := cur[x]
			if x > 0 {
				best = min(best, cur[x-1])
			}
			if x+1 < cols {
				best = min(best, cur[x+1])
			}
			next[x] = best + wall[r*cols+x]
		}
		cur, next = next, cur
	}
	return cur
}
