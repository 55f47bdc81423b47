package main

import (
	"bytes"
	"compress/flate"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/warp"
)

// TestSimLinkStreams: sim link replays a trace of millions of identical
// records (a few hundred KB deflated) in bounded memory: the records are
// streamed through the replays, not appended to a slice first (2.69 GB for
// 20 M records before; 2 M records here would have taken some 270 MB).
func TestSimLinkStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 2 M records")
	}
	const n = 2_000_000
	var buf bytes.Buffer
	w, err := trace.NewWriterOptions(&buf, trace.Header{LineSize: 64, Source: "test; stream=rdma line=64"}, trace.Options{Level: flate.BestCompression})
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 8)
	for i := range n {
		if err := w.Write(trace.Record{Time: uint64(i) * 1000, Src: 0, Dst: 1, Op: trace.Write, Addr: 64 * uint64(i%1024), Data: line}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "same.lct")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d records in %d bytes", n, buf.Len())
	o := linecompRun(t, "sim", "link", "-lambda", "0,6", "-format", "csv", path)
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	recs, err := csv.NewReader(strings.NewReader(o.stdout)).ReadAll()
	if err != nil || len(recs) != 3 || recs[1][2] != "2000000" || recs[2][2] != "2000000" {
		t.Errorf("want two rows of %d transfers:\n%v", n, o)
	}
	if o.maxRSS > 0 && o.maxRSS > 96<<20 {
		t.Errorf("peak resident set %d MiB; want under 96 MiB", o.maxRSS>>20)
	}
	t.Logf("peak resident set %d MiB", o.maxRSS>>20)
}

// TestSimGPUDeclaredGrid: sim gpu on a trace of a few bytes that declares
// four kernels of 2^24 warps each uses memory for what the trace holds
// (3.28 GB before).
func TestSimGPUDeclaredGrid(t *testing.T) {
	var buf bytes.Buffer
	w, err := warp.NewWriter(&buf, warp.Header{LineSize: 128, WarpSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := w.BeginKernel(warp.Kernel{Name: "k", Grid: [3]uint32{1 << 24, 1, 1}, Block: [3]uint32{1, 1, 1}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "grid.lct")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	o := linecompRun(t, "sim", "gpu", "-policy", "none,bdi", "-format", "csv", path)
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	if o.maxRSS > 0 && o.maxRSS > 96<<20 {
		t.Errorf("peak resident set %d MiB for a %d-byte trace; want under 96 MiB", o.maxRSS>>20, buf.Len())
	}
	t.Logf("%d bytes; peak resident set %d MiB", buf.Len(), o.maxRSS>>20)
}
