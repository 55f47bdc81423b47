package cache_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/cache"
)

// slowCodec decompresses in Decompress cycles.
type slowCodec struct {
	linecomp.Codec
	decompress int
}

func (s slowCodec) Latency() linecomp.Latency {
	return linecomp.Latency{Compress: 1, Decompress: s.decompress}
}

// TestHugeConfig: sizes whose product wraps in 64 bits, or that no machine
// can hold, and latencies that would wrap a sum of cycles, are errors
// naming the field, not a panic, a wrapped index or an out-of-memory death.
func TestHugeConfig(t *testing.T) {
	none := codec(t, "none", 128)
	good := cache.Config{Sets: 4, Ways: 2, LineSize: 128, Modes: []linecomp.Codec{none}}
	for _, c := range []struct {
		field string
		mut   func(*cache.Config)
	}{
		// 1 × 2^62 × 4 = 2^64 wraps to 0 in uint64
		{"Ways", func(c *cache.Config) { c.Sets, c.Ways, c.TagFactor = 1, math.MaxInt/4+1, 4 }},
		{"Sets", func(c *cache.Config) { c.Sets = 1 << (bitsOfInt - 2) }},
		{"TagFactor", func(c *cache.Config) { c.TagFactor = math.MaxInt }},
		{"Decompressors", func(c *cache.Config) { c.Decompressors = math.MaxInt }},
		{"HitLatency", func(c *cache.Config) { c.HitLatency = math.MaxInt }},
		{"Modes[0]", func(c *cache.Config) { c.Modes = []linecomp.Codec{slowCodec{none, math.MaxInt}} }},
	} {
		cfg := good
		c.mut(&cfg)
		_, err := cache.New(cfg)
		if !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v", c.field, err)
		}
	}
	ch := newCache(t, good)
	if err := ch.SetMode(0, slowCodec{none, math.MaxInt}); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("SetMode with a latency of MaxInt cycles: %v", err)
	}
	for _, m := range []int{-1, 1, 5} {
		if got := ch.Mode(m); got != nil {
			t.Errorf("Mode(%d) of a one-mode cache = %v, want nil", m, got)
		}
	}
}

const bitsOfInt = 32 << (^uint(0) >> 63)
