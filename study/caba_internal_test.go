package study

import (
	"errors"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/caba"
)

// failingCoster cannot cost compression.
type failingCoster struct{ caba.AssistWarpCoster }

func (failingCoster) CompressInstructions([]byte) (int, error) {
	return 0, errors.New("no count")
}

// TestAssistCostErrors: an assist-warp count that fails is reported (the
// design's run fails naming it), not charged as 0 instructions.
func TestAssistCostErrors(t *testing.T) {
	c, err := linecomp.New("caba-bdi", 128)
	if err != nil {
		t.Fatal(err)
	}
	var failed error
	a := assistFor(failingCoster{c.(caba.AssistWarpCoster)}, &failed)
	if n := a.Decompress(make([]byte, 128)); failed != nil {
		t.Fatalf("decompress cost %d, %v", n, failed)
	}
	a.Compress(make([]byte, 128))
	if failed == nil || !strings.Contains(failed.Error(), "no count") {
		t.Errorf("a failing count left %v", failed)
	}
}
