package gpu_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/trace/warp"
)

// TestReadKernelDeclaredGrid: a trace of a few bytes that declares kernels
// of 2^24 blocks holds only what it records: reading it allocates a few
// megabytes, not a warp slot per declared block (820 MB a kernel before),
// and the one warp that has records is the kernel's only block.
func TestReadKernelDeclaredGrid(t *testing.T) {
	var buf bytes.Buffer
	w, err := warp.NewWriter(&buf, warp.Header{LineSize: 128, WarpSize: 32})
	if err != nil {
		t.Fatal(err)
	}
	huge := warp.Kernel{Grid: [3]uint32{1 << 24, 1, 1}, Block: [3]uint32{1, 1, 1}}
	for i := range 4 {
		huge.Name = fmt.Sprint("k", i)
		if err := w.BeginKernel(huge); err != nil {
			t.Fatal(err)
		}
	}
	huge.Name = "last"
	if err := w.BeginKernel(huge); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(warp.Inst{Warp: warp.Warp{Block: 1<<24 - 1}, Kind: warp.Exit}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("a trace of %d bytes declares 5 × 2^24 warps", buf.Len())
	r, err := warp.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var ks []*gpu.Kernel
	for {
		if _, err := r.NextKernel(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		k, err := gpu.ReadKernel(r)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, k)
	}
	runtime.ReadMemStats(&after)
	// The reader's own bitmaps of started and exited warps take up to
	// 2 × 2^24 bits (4 MB), whatever the kernel; the kernels nothing.
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("reading the kernels allocated %d bytes; want at most 8 MB", got)
	}
	if len(ks) != 5 {
		t.Fatalf("%d kernels, want 5", len(ks))
	}
	for _, k := range ks[:4] {
		if len(k.Blocks) != 0 {
			t.Errorf("kernel %s with no record has %d blocks", k.Name, len(k.Blocks))
		}
	}
	if b := ks[4].Blocks; len(b) != 1 || len(b[0].Warps) != 1 || len(b[0].Warps[0]) != 1 {
		t.Errorf("kernel last: %+v, want one block of one warp of one instruction", b)
	}
	// Runs as the one warp it holds: issue the exit, one cycle.
	g := machine(t, func(*gpu.Config) {})
	for _, k := range ks {
		if _, err := g.Run(k); err != nil {
			t.Fatal(err)
		}
	}
	if s := g.Stats(); s.Instructions != 1 {
		t.Errorf("%d instructions, want 1", s.Instructions)
	}
}

// TestReadKernelOrder: warps are launched in block order and by index
// within a block, whatever the order of their records.
func TestReadKernelOrder(t *testing.T) {
	var buf bytes.Buffer
	w, err := warp.NewWriter(&buf, warp.Header{LineSize: 128, WarpSize: 32})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.BeginKernel(warp.Kernel{Name: "k", Grid: [3]uint32{256, 1, 1}, Block: [3]uint32{64, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	// blocks 3 and 1 (of 4), warps 1 and 0 of block 3; block 0 and 2 and
	// warp 1 of block 1 have no record
	for _, x := range []struct {
		block, index uint32
		n            uint32
	}{{3, 1, 31}, {1, 0, 10}, {3, 0, 30}} {
		ww := warp.Warp{Block: x.block, Index: x.index}
		if err := w.Write(warp.Inst{Warp: ww, Kind: warp.Compute, Count: x.n}); err != nil {
			t.Fatal(err)
		}
		if err := w.Write(warp.Inst{Warp: ww, Kind: warp.Exit}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := warp.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.NextKernel(); err != nil {
		t.Fatal(err)
	}
	k, err := gpu.ReadKernel(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint32
	for _, b := range k.Blocks {
		got = append(got, 99)
		for _, w := range b.Warps {
			got = append(got, w[0].Count)
		}
	}
	if fmt.Sprint(got) != "[99 10 99 30 31]" {
		t.Errorf("blocks (99 starts one) and their warps' compute counts: %v, want [99 10 99 30 31]", got)
	}
}

// TestReadKernelNil: a nil reader is an error, not a panic.
func TestReadKernelNil(t *testing.T) {
	if _, err := gpu.ReadKernel(nil); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("ReadKernel(nil): %v", err)
	}
}

// TestRunTrace: RunTrace runs every kernel of a trace in order and reports
// each one's statistics; a trace of another line size is refused before
// any kernel runs.
func TestRunTrace(t *testing.T) {
	for _, tr := range sample.Traces() {
		if tr.Name != "warps-fir.lct" {
			continue
		}
		g := small(t, 2, gpu.GTO)
		wr, err := warp.NewReader(bytes.NewReader(tr.Data))
		if err != nil {
			t.Fatal(err)
		}
		var kernels []gpu.KernelStats
		if err := g.RunTrace(wr, func(ks gpu.KernelStats) error { kernels = append(kernels, ks); return nil }); err != nil {
			t.Fatal(err)
		}
		var cycles uint64
		for _, ks := range kernels {
			cycles += ks.Cycles
		}
		if len(kernels) == 0 || cycles != g.Stats().Cycles || len(g.Stats().Kernels) != len(kernels) {
			t.Errorf("%d kernels of %d cycles; the GPU counted %d kernels, %d cycles", len(kernels), cycles, len(g.Stats().Kernels), g.Stats().Cycles)
		}
	}
	var buf bytes.Buffer
	w, err := warp.NewWriter(&buf, warp.Header{LineSize: 64, WarpSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	wr, err := warp.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := small(t, 1, gpu.GTO).RunTrace(wr, nil); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("a 64-byte trace on 128-byte L1s: %v", err)
	}
	if err := small(t, 1, gpu.GTO).RunTrace(nil, nil); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("a nil reader: %v", err)
	}
}
