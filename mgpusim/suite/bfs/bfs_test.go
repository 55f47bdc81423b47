package bfs_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite/bfs"
	"github.com/linecomp/linecomp/mgpusim/suite/internal/testgraph"
)

func TestReference(t *testing.T) {
	if got := bfs.Reference(testgraph.Five(), 0); !slices.Equal(got, []int32{0, 1, 1, 2, 2}) {
		t.Fatalf("from 0: %v", got)
	}
	if got := bfs.Reference(testgraph.Path4(), 1); !slices.Equal(got, []int32{1, 0, 1, 2, bfs.Unreached}) {
		t.Fatalf("from 1: %v", got)
	}
}

func TestVerifyCatches(t *testing.T) {
	b := &bfs.Benchmark{Graph: testgraph.Five(), Source: 0, Cost: []int32{0, 1, 1, 2, 3}}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "bfs level[4] = 3, want 2") {
			t.Fatalf("Verify: %v", r)
		}
	}()
	b.Verify()
}
