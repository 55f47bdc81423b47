package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/trace/warp"
)

func TestFindBench(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
		ok   bool
	}{
		{[]string{"-bench", "fir", "-length", "8"}, "fir", true},
		{[]string{"-length", "8", "--bench=aes"}, "aes", true},
		{[]string{"-stream", "rdma", "-bench"}, "", false},
		{[]string{"-o", "x", "--", "-bench", "fir"}, "", false},
		{[]string{"---bench", "fir"}, "", false},
	} {
		got, ok := capture.BenchFlag(c.args)
		if got != c.want || ok != c.ok {
			t.Errorf("capture.BenchFlag(%q) = %q, %v; want %q, %v", c.args, got, ok, c.want, c.ok)
		}
	}
}

// TestUsageErrors checks that command lines that cannot work exit with
// status 2 and a message naming the problem, before simulating anything.
func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-stream", "rdma", "-o", "x"}, "-bench NAME is required"},
		{[]string{"-bench", "nosuch", "-o", "x"}, "unknown benchmark"},
		{[]string{"-bench", "fir", "-stream", "rdma", "-gpus", "2"}, "-o FILE is required"},
		{[]string{"-bench", "fir", "-stream", "rdma", "-gpus", "2", "-o", "x"}, "needs -timing"},
		{[]string{"-bench", "fir", "-stream", "warps", "-node", "3", "-o", "x"}, "not defined: -node"},
		{[]string{"-bench", "fir", "-stream", "warps", "-o", "x", "extra"}, "unexpected argument"},
		{[]string{"-bench", "fir", "-stream", "rdma", "-timing", "-gpus", "1", "-o", "x"}, "-gpus=1 has none"},
		{[]string{"-bench", "fir", "-stream", "l1,dram", "-timing", "-o", "x"}, "put {stream} in -o"},
		{[]string{"-bench", "fir", "-stream", "l1,warps", "-timing", "-o", "{stream}"}, "cannot be captured with"},
		{[]string{"-bench", "sssp", "-stream", "rdma", "-timing", "-gpus", "2", "-o", "x"}, "use -unified"},
	} {
		var stderr bytes.Buffer
		if code := run(c.args, &bytes.Buffer{}, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", c.args, code, exitUsage)
		}
		if !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: stderr %q does not mention %q", c.args, stderr.String(), c.want)
		}
	}
}

// TestCaptureFile runs a tiny warp capture into a file: the file reads
// back as a warp trace, the summary counts its lines, and no partial file
// is left behind.
func TestCaptureFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fir.lct")
	var stderr bytes.Buffer
	args := []string{"-bench", "fir", "-length", "256", "-stream", "warps", "-line", "64", "-o", path}
	if code := run(args, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("directory holds %v (%v), want only fir.lct", entries, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := warp.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header(); h.LineSize != 64 || !strings.Contains(h.Source, "bench=fir -length=256 -taps=16") {
		t.Errorf("header %+v", h)
	}
	lines := 0
	for {
		if _, err := r.NextKernel(); err != nil {
			break
		}
		for {
			in, err := r.Read()
			if err != nil {
				break
			}
			lines += len(in.Lines)
		}
	}
	if lines == 0 || !strings.Contains(stderr.String(), fmt.Sprintf(" %d records", lines)) {
		t.Errorf("trace has %d lines; summary %q", lines, stderr.String())
	}
}

// TestHelp: -h without a benchmark prints the command's help, not an
// error.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-stream", "l1", "-help"}} {
		var stderr bytes.Buffer
		if code := run(args, &bytes.Buffer{}, &stderr); code != exitOK {
			t.Errorf("%q: exit %d", args, code)
		}
		for _, want := range []string{"usage: capture -bench NAME", "-stream string", "benchmarks: aes, bc,", "-graph FILE"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("%q: help does not mention %q:\n%s", args, want, stderr.String())
			}
		}
	}
}

// TestCaptureStreams writes two timing streams of one run into the files
// -o names with {stream}; the summary gives simulated time for timing runs
// only.
func TestCaptureStreams(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	args := []string{"-bench", "fir", "-length", "256", "-timing", "-stream", "l1,dram", "-o", filepath.Join(dir, "{stream}-fir.lct")}
	if code := run(args, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, s := range []string{"l1", "dram"} {
		path := filepath.Join(dir, s+"-fir.lct")
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", path, err)
		}
		if !strings.Contains(stderr.String(), "capture: "+path+": ") {
			t.Errorf("summary does not name %s: %s", path, stderr.String())
		}
	}
	if strings.Count(stderr.String(), "simulated ") != 2 {
		t.Errorf("timing summary: %s", stderr.String())
	}
	stderr.Reset()
	args = []string{"-bench", "fir", "-length", "256", "-stream", "warps", "-o", filepath.Join(dir, "w.lct")}
	if code := run(args, &bytes.Buffer{}, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), "simulated") {
		t.Errorf("emulation summary gives a simulated time: %s", stderr.String())
	}
}
