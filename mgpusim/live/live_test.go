package live

import (
	"errors"
	"testing"

	"math/rand"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/trace"
)

func TestNewBenchmark(t *testing.T) {
	b, err := NewBenchmark("fir:length=1024:taps=8")
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Describe(); got != "-length=1024 -taps=8" {
		t.Errorf("parameters %q", got)
	}
	for _, bad := range []string{"nosuch", "fir:length", "fir:length=x", "fir:nosuch=1"} {
		if _, err := NewBenchmark(bad); !errors.Is(err, linecomp.ErrConfig) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestSameInputsEveryRun: two runs of a benchmark in one process see the
// same inputs (the global math/rand source is reseeded): SpMV draws its
// vector from it without seeding, and the DRAM stream's payloads (the
// records' count is the same either way) must be the same.
func TestSameInputsEveryRun(t *testing.T) {
	var sums [2]uint64
	for i := range sums {
		b, err := NewBenchmark("spmv:dim=128")
		if err != nil {
			t.Fatal(err)
		}
		r, err := Run(Config{Bench: b, Observe: func(rec trace.Record) {
			for _, x := range rec.Data {
				sums[i] = sums[i]*31 + uint64(x)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Kernels != 1 || r.KernelTimePS == 0 || r.KernelTimePS >= r.SimTimePS || r.Records == 0 {
			t.Errorf("run %d: %+v", i, r)
		}
		// Draw from the global source between the runs, as a second
		// benchmark would.
		_ = rand.Float32()
	}
	if sums[0] != sums[1] {
		t.Error("two runs moved different payloads between L2 and DRAM")
	}
}
