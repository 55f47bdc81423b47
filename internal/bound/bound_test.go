package bound

import (
	"math"
	"testing"
)

func TestProduct(t *testing.T) {
	for _, c := range []struct {
		limit   int
		factors []int
		want    int
		ok      bool
	}{
		{100, nil, 1, true},
		{100, []int{4, 25}, 100, true},
		{100, []int{4, 26}, 0, false},
		{100, []int{0, 5}, 0, false},
		{100, []int{-1, -5}, 0, false},
		// products that wrap in 64 bits must not pass
		{1 << 28, []int{1, math.MaxInt/4 + 1, 4}, 0, false},
		{math.MaxInt, []int{math.MaxInt/2 + 1, 2}, 0, false},
		{math.MaxInt, []int{math.MaxInt, 1}, math.MaxInt, true},
	} {
		got, ok := Product(c.limit, c.factors...)
		if got != c.want || ok != c.ok {
			t.Errorf("Product(%d, %v) = %d, %v; want %d, %v", c.limit, c.factors, got, ok, c.want, c.ok)
		}
	}
}

func TestCycles(t *testing.T) {
	for c, want := range map[int]bool{-1: false, 0: true, MaxCycles: true, MaxCycles + 1: false, math.MaxInt: false} {
		if Cycles(c) != want {
			t.Errorf("Cycles(%d) = %v", c, !want)
		}
	}
}
