package main

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/warp"
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

// TestTraceInfoUntrustedNames: kernel names from an untrusted trace are
// printed quoted when they hold anything but plain printable characters: no
// newline, NUL or terminal escape reaches the output raw, the text table
// keeps its columns, and the CSV's ";"-separated kernels field stays
// unambiguous.
func TestTraceInfoUntrustedNames(t *testing.T) {
	names := []string{"plain_kernel", "two\nlines", "nul\x00", "esc\x1b[2J", "a;b grid=1,1,1 block=1,1,1 launches=9", "tab\there"}
	var ks []kernelInsts
	for _, n := range names {
		ks = append(ks, kernelInsts{k: warp.Kernel{Name: n, Grid: [3]uint32{64, 1, 1}, Block: [3]uint32{64, 1, 1}},
			insts: []warp.Inst{{Kind: warp.Exit}}})
	}
	data := encodeWarpTrace(t, warp.Header{LineSize: 128, WarpSize: 64}, ks)
	for _, format := range []string{"text", "csv"} {
		st, out, errOut := runTrace(t, bytes.NewReader(data), "trace", "info", "-format", format, "-")
		if st != 0 {
			t.Fatalf("%s: status %d, %s", format, st, errOut)
		}
		for _, bad := range []string{"\x00", "\x1b", "two\nlines", "tab\there"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: the output holds %q raw:\n%s", format, bad, out)
			}
		}
		for _, want := range []string{"plain_kernel", `"two\nlines"`, `"esc\x1b[2J"`} {
			if !strings.Contains(out, want) && !strings.Contains(out, strings.ReplaceAll(want, `"`, `""`)) {
				t.Errorf("%s: no %s in:\n%s", format, want, out)
			}
		}
		if format == "csv" {
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(recs) != 2 {
				t.Fatalf("csv: %v, %d records", err, len(recs))
			}
			field := recs[1][len(recs[1])-1]
			if n := len(splitOutsideQuotes(field)); n != len(names) {
				t.Errorf("the kernels field splits into %d kernels, want %d: %s", n, len(names), field)
			}
		}
	}
}

// splitOutsideQuotes splits s at the semicolons outside Go-quoted strings.
func splitOutsideQuotes(s string) []string {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case s[i] == ';' && !quoted:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}
