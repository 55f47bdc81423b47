package gpu_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/gpu"
)

// TestHugeConfig: sizes no machine holds and latencies that would wrap a
// sum of cycles (or run time backwards) are errors naming the field, not
// a makeslice panic, an out-of-memory death or an impossible IPC.
func TestHugeConfig(t *testing.T) {
	for _, c := range []struct {
		field string
		mut   func(*gpu.Config)
	}{
		{"SMs", func(c *gpu.Config) { c.SMs = math.MaxInt/4 + 1 }},
		{"WarpsPerSM", func(c *gpu.Config) { c.WarpsPerSM = math.MaxInt/4 + 1 }},
		{"BlocksPerSM", func(c *gpu.Config) { c.BlocksPerSM = math.MaxInt/4 + 1 }},
		{"Schedulers", func(c *gpu.Config) { c.Schedulers = math.MaxInt/4 + 1 }},
		{"MSHRs", func(c *gpu.Config) { c.MSHRs = math.MaxInt }},
		{"L2Slices", func(c *gpu.Config) { c.L2Slices = math.MaxInt/4 + 1 }},
		{"SMs × L1", func(c *gpu.Config) { c.SMs, c.L1.Sets = 4000, 1<<14 }},
		{"L2HitLatency", func(c *gpu.Config) { c.L2HitLatency = math.MaxInt }},
		{"FixedLatency", func(c *gpu.Config) { c.Memory = gpu.FixedLatency(-1000) }},
		{"FixedLatency", func(c *gpu.Config) { c.Memory = gpu.FixedLatency(math.MaxInt) }},
		{"DecompressCycles", func(c *gpu.Config) { c.Interconnect.DecompressCycles = math.MaxInt }},
	} {
		cfg, err := gpu.LatteConfig(none(t))
		if err != nil {
			t.Fatal(err)
		}
		c.mut(&cfg)
		_, err = gpu.New(cfg)
		if !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v", c.field, err)
		}
	}
}

// badMemory answers every request with the same latency, whatever it is.
type badMemory int

func (b badMemory) Access(uint64, gpu.MemRequest) (int, error) { return int(b), nil }

// TestBadMemoryLatency: a Memory that answers with a negative latency, or
// one that would wrap the clock, fails the run with an error that blames
// the Memory; it is not turned into a time before the request.
func TestBadMemoryLatency(t *testing.T) {
	for _, lat := range []int{-1000, -1, math.MaxInt} {
		g := machine(t, func(c *gpu.Config) { c.Memory = badMemory(lat) })
		_, err := g.Run(kernel([]gpu.Inst{load(0), exit}))
		if !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), "Memory") {
			t.Errorf("latency %d: %v", lat, err)
		}
	}
}

// TestCacheOutOfRange: L1 and L2 of a number the GPU does not have are
// nil, not a panic.
func TestCacheOutOfRange(t *testing.T) {
	g := machine(t, func(*gpu.Config) {})
	for _, i := range []int{-1, 1, 99} {
		if g.L1(i) != nil {
			t.Errorf("L1(%d) of one SM is not nil", i)
		}
	}
	for _, i := range []int{-1, 6, 99} {
		if g.L2(i) != nil {
			t.Errorf("L2(%d) of 6 slices is not nil", i)
		}
	}
	if g.L1(0) == nil || g.L2(5) == nil {
		t.Error("L1(0) or L2(5) is nil")
	}
}
