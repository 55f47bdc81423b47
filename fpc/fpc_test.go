package fpc

import (
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

func TestConformance(t *testing.T) {
	for _, name := range []string{"fpc", "fpc-tavana"} {
		for _, n := range codectest.LineSizes {
			c, err := linecomp.New(name, n)
			if err != nil {
				t.Fatal(err)
			}
			codectest.CheckAll(t, c)
		}
	}
}
