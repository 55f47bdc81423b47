package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/trace"
)

// sampleTraceFile writes the embedded sample trace name to dir.
func sampleTraceFile(t *testing.T, dir, name string) string {
	t.Helper()
	for _, tr := range sample.Traces() {
		if tr.Name == name {
			return writeFile(t, filepath.Join(dir, name), tr.Data)
		}
	}
	t.Fatalf("no sample trace %s", name)
	return ""
}

// TestWrongKindOfTrace: a trace of the wrong kind is refused up front,
// naming what it is and what to capture instead: not a silent replay of
// an rdma trace as DRAM traffic, not "endpoints must differ" at record 73.
func TestWrongKindOfTrace(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		cmd, trace string
		says       []string
	}{
		{"gpu", "l1-bfs.lct", []string{"a line trace of the l1 stream", "-stream warps"}},
		{"cache", "warps-bfs.lct", []string{"a warp trace", "-stream l1"}},
		{"cache", "rdma-fir.lct", []string{"rdma stream", "-stream l1"}},
		{"mem", "rdma-fir.lct", []string{"rdma stream", "-stream dram"}},
		{"mem", "l1-bfs.lct", []string{"l1 stream", "-stream dram"}},
		{"mem", "warps-bfs.lct", []string{"a warp trace", "-stream dram"}},
		{"link", "l1-bfs.lct", []string{"l1 stream", "-stream rdma"}},
		{"link", "dram-fir.lct", []string{"dram stream", "-stream rdma"}},
		{"link", "warps-bfs.lct", []string{"a warp trace", "-stream rdma"}},
	} {
		path := sampleTraceFile(t, dir, tc.trace)
		st, _, errOut := runTrace(t, nil, "sim", tc.cmd, path)
		ok := st == 1 && !strings.Contains(errOut, "record ")
		for _, s := range tc.says {
			ok = ok && strings.Contains(errOut, s)
		}
		if !ok {
			t.Errorf("sim %s %s: status %d, stderr %q; want 1 and %q", tc.cmd, tc.trace, st, errOut, tc.says)
		}
	}
	// the right kinds still replay
	for cmd, tr := range map[string]string{"cache": "l1-bfs.lct", "mem": "dram-fir.lct", "link": "rdma-fir.lct"} {
		if st, _, errOut := runTrace(t, nil, "sim", cmd, sampleTraceFile(t, dir, tr)); st != 0 {
			t.Errorf("sim %s %s: status %d, %s", cmd, tr, st, errOut)
		}
	}
}

// TestEmptyTrace: a line trace with no record is the same error in every
// line-trace replay (sim link exited 0 with a row of zeros).
func TestEmptyTrace(t *testing.T) {
	dir := t.TempDir()
	for cmd, stream := range map[string]string{"cache": "l1", "mem": "dram", "link": "rdma"} {
		data := encodeLineTrace(t, trace.Header{LineSize: 64, Source: "test; stream=" + stream}, trace.Options{}, nil)
		path := writeFile(t, filepath.Join(dir, stream+".lct"), data)
		if st, _, errOut := runTrace(t, nil, "sim", cmd, path); st != 1 || !strings.Contains(errOut, "no record") {
			t.Errorf("sim %s on an empty trace: status %d, stderr %q; want 1 and \"no record\"", cmd, st, errOut)
		}
	}
}
