package mem_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/mem"
)

// TestHugeConfig: sizes whose products wrap, or that no machine holds, and
// latencies that would wrap a sum of cycles, are errors naming the field:
// not a division by zero, a makeslice panic or an out-of-memory death.
func TestHugeConfig(t *testing.T) {
	good := mem.Config{LineSize: 128, Codec: codec(t, "bdi", 128)}
	for _, c := range []struct {
		field string
		mut   func(*mem.Config)
	}{
		{"Controllers", func(c *mem.Config) { c.Controllers = math.MaxInt/8 + 1 }},
		// 6 controllers × 2^26 KB of MD cache each: bounded, not allocated
		{"MDCacheBytes", func(c *mem.Config) { c.MDCacheBytes = 1 << 36 >> (64 - bitsOfInt) }},
		{"MD blocks", func(c *mem.Config) { c.Controllers, c.MDCacheBytes, c.MDBlock, c.MAG = 1<<16, 1<<20, 32, 32 }},
		// 128 × 2^57 = 2^64 wraps to 0: a division by zero before
		{"MDWays", func(c *mem.Config) { c.MDWays = math.MaxInt/128 + 1 }},
		{"MDBlock", func(c *mem.Config) { c.MDBlock = math.MaxInt / 32 * 32 }},
		{"MDHitLatency", func(c *mem.Config) { c.MDHitLatency = math.MaxInt }},
		{"DRAM", func(c *mem.Config) { c.DRAM = mem.DRAM{Latency: math.MaxInt, BurstCycles: 1} }},
		{"DRAM", func(c *mem.Config) { c.DRAM = mem.DRAM{Latency: 1, BurstCycles: math.MaxInt} }},
		{"DRAM", func(c *mem.Config) { c.DRAM = mem.DRAM{Latency: -1000, BurstCycles: 1} }},
	} {
		cfg := good
		c.mut(&cfg)
		_, err := mem.New(cfg)
		if !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v", c.field, err)
		}
	}
}

const bitsOfInt = 32 << (^uint(0) >> 63)

// TestPresetsAreValues: the DRAM presets are functions, so no importer can
// change another's default; the default is GDDR5's.
func TestPresetsAreValues(t *testing.T) {
	d := mem.GDDR5()
	d.Latency = 5
	m, err := mem.New(mem.Config{LineSize: 128, Codec: codec(t, "bdi", 128)})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Config().DRAM; got != mem.GDDR5() || got.Latency != 100 || mem.HBM2().BurstCycles != 1 {
		t.Errorf("default DRAM %+v, GDDR5 %+v, HBM2 %+v", got, mem.GDDR5(), mem.HBM2())
	}
}
