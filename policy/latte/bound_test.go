package latte_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sim/cache"
)

// TestNilAndWrap: a nil cache is an error, not a panic; a DedicatedPerMode
// whose triple wraps (to 2 for MaxInt/3+1 on 64 bits) is refused, not taken
// as 2 dedicated sets.
func TestNilAndWrap(t *testing.T) {
	if _, err := latte.New(nil, &machine{}, latte.Config{}); !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), "nil") {
		t.Errorf("latte.New(nil, …): %v", err)
	}
	c, err := cache.New(cache.Config{Sets: 32, Ways: 4, LineSize: 128, Modes: modes(t)})
	if err != nil {
		t.Fatal(err)
	}
	wraps := math.MaxInt/3 + 1
	if _, err := latte.New(c, &machine{}, latte.Config{DedicatedPerMode: wraps}); !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), "dedicated") {
		t.Errorf("DedicatedPerMode %d: %v", wraps, err)
	}
}
