package caba

import (
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// names are the registry names of this package.
var names = []string{"caba-bdi", "caba-fpc", "caba-fpc-s2", "caba-fpc-s8", "caba-cpack"}

// TestConformance: every codec matches its literal reference in
// internal/ref bit for bit and round-trips on the edge lines, the sample
// and every line of the corpora, at 32, 64 and 128 bytes, and keeps the
// linecomptest contract (EncodingReporter included).
func TestConformance(t *testing.T) {
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c, err := linecomp.New(name, n)
			if err != nil {
				t.Fatal(err)
			}
			codectest.CheckAll(t, c)
		}
	}
}
