package capture

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// suiteBenches are the suite's benchmarks.
var suiteBenches = []string{"bc", "color", "gbfs", "km", "mis", "pf", "prk", "sssp"}

func suiteBench(t *testing.T, name string, params ...string) *Benchmark {
	t.Helper()
	b, err := NewBenchmark(name)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(params); i += 2 {
		if err := b.Set(params[i], params[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// TestSuiteCaptures runs every suite kernel through every stream on small
// graphs: each run includes the benchmark's own verification against its
// host reference, so a wrong GPU result fails the capture with ErrVerify.
func TestSuiteCaptures(t *testing.T) {
	gr := filepath.Join(t.TempDir(), "g.gr")
	// A weighted DIMACS graph as the held-out checks give them: a 6×6
	// grid with a few diagonals, 1-based, one arc per edge.
	var sb strings.Builder
	arcs := 0
	var lines []string
	for y := 0; y < 6; y++ {
		for x := 0; x < 6; x++ {
			v := y*6 + x + 1
			if x < 5 {
				lines = append(lines, arcLine(v, v+1, 1+(v*7)%13))
			}
			if y < 5 {
				lines = append(lines, arcLine(v, v+6, 1+(v*5)%11))
			}
			if x < 5 && y < 5 && v%4 == 0 {
				lines = append(lines, arcLine(v, v+7, 3))
			}
		}
	}
	arcs = len(lines)
	sb.WriteString("c test graph\np sp 36 " + itoa(arcs) + "\n" + strings.Join(lines, ""))
	if err := os.WriteFile(gr, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range suiteBenches {
		for _, c := range []struct {
			stream string
			timing bool
			gpus   int
			params []string
		}{
			{StreamWarps, false, 1, []string{"graph", gr}},
			{StreamWarps, false, 1, []string{"scale", "7"}},
			{StreamL1, true, 1, []string{"graph", gr}},
			{StreamDRAM, true, 1, []string{"gen", "grid", "grid-w", "8", "grid-h", "4"}},
			{StreamRDMA, true, 2, []string{"scale", "5"}},
		} {
			if testing.Short() && c.timing && c.stream != StreamL1 {
				continue
			}
			if name == "pf" {
				// Not a graph kernel: a grid of weights, with rows that
				// do not divide into whole pyramids.
				c.params = []string{"rows", "14", "cols", "700", "pyramid-height", "4"}
			}
			if name == "km" {
				c.params = []string{"points", "300", "features", "5", "clusters", "4"}
			}
			var out bytes.Buffer
			cfg := Config{Bench: suiteBench(t, name, c.params...), GPUs: c.gpus, Unified: c.gpus > 1,
				Timing: c.timing, Stream: c.stream}
			res, err := Run(cfg, &out)
			if err != nil {
				t.Errorf("%s %s %v: %v", name, c.stream, c.params, err)
				continue
			}
			if res.Records == 0 || res.Reads == 0 || res.Writes == 0 {
				t.Errorf("%s %s %v: %d records (%d reads, %d writes)", name, c.stream, c.params,
					res.Records, res.Reads, res.Writes)
			}
		}
	}
}

func arcLine(u, v, w int) string { return "a " + itoa(u) + " " + itoa(v) + " " + itoa(w) + "\n" }

func itoa(i int) string { return strconv.Itoa(i) }

// TestSuiteConfigErrors checks the suite's parameters are refused with
// ErrConfig before anything runs.
func TestSuiteConfigErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.gr")
	if err := os.WriteFile(bad, []byte("p sp 3 1\na 1 9 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bench  string
		params []string
		want   string
	}{
		{"sssp", []string{"graph", bad}, "line 2: edge 1-9: nodes are 1..3"},
		{"sssp", []string{"graph", bad + ".missing"}, "no such file"},
		{"sssp", []string{"graph", bad, "scale", "5"}, "-scale is for generated graphs"},
		{"gbfs", []string{"gen", "tree"}, "-gen=\"tree\""},
		{"bc", []string{"scale", "4", "sources", "17"}, "17 sources"},
		{"prk", []string{"iterations", "0"}, "0 iterations"},
		{"sssp", []string{"scale", "4", "source", "16"}, "source 16 is not a node"},
		{"mis", []string{"rmat-a", "0.9"}, "rmat probabilities"},
		{"km", []string{"clusters", "5000"}, "5000 clusters"},
		{"km", []string{"data", bad, "features", "4"}, "not a whole number"},
		{"km", []string{"data", bad, "points", "4"}, "-points and -seed are for generated ones"},
		{"pf", []string{"pyramid-height", "200"}, "pyramid height 200"},
	} {
		cfg := Config{Bench: suiteBench(t, c.bench, c.params...), GPUs: 1, Stream: StreamWarps}
		_, err := Run(cfg, &bytes.Buffer{})
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want ErrConfig mentioning %q", c.bench, c.params, err, c.want)
		}
	}
	// Discrete GPUs: the suite's kernels run on one GPU or a unified one.
	cfg := Config{Bench: suiteBench(t, "sssp"), GPUs: 2, Timing: true, Stream: StreamRDMA}
	if _, err := Run(cfg, &bytes.Buffer{}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "-unified") {
		t.Errorf("2 discrete GPUs: %v", err)
	}
}

// TestSuiteDescribe: the header names the graph file and not the
// generator's parameters, or the generator's parameters without a file.
func TestSuiteDescribe(t *testing.T) {
	b := suiteBench(t, "sssp", "graph", "road.gr")
	if got, want := b.Describe(), "-graph=road.gr -source=0"; got != want {
		t.Errorf("with -graph: %q, want %q", got, want)
	}
	b = suiteBench(t, "bc", "scale", "7")
	if got := b.Describe(); !strings.Contains(got, "-gen=rmat") || !strings.Contains(got, "-scale=7") ||
		!strings.Contains(got, "-sources=1") {
		t.Errorf("generated: %q", got)
	}
}

// TestSuiteGraphNote: a capture says what it read, including the input arcs
// it did not keep.
func TestSuiteGraphNote(t *testing.T) {
	gr := filepath.Join(t.TempDir(), "d.gr")
	// Both directions of 1-2, a self-loop on 2, and 2-3: 2 edges kept of 4 arcs.
	if err := os.WriteFile(gr, []byte("p sp 3 4\na 1 2 1\na 2 1 1\na 2 2 5\na 2 3 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(Config{Bench: suiteBench(t, "gbfs", "graph", gr), GPUs: 1, Stream: StreamWarps}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := "gbfs: graph " + gr + ": 3 nodes, 2 undirected edges; 2 input arcs not kept"
	if len(res.Notes) != 1 || !strings.HasPrefix(res.Notes[0], want) {
		t.Errorf("notes %q, want %q", res.Notes, want)
	}
}

// TestSuiteStaleL1: pathfinder's back-to-back launches each read the row
// the one before wrote. MGPUSim's timing model keeps L1 lines across
// launches, so without suite.Device.Launch's flushing copy this run reads
// stale rows and fails its verification ("pf cost[0] = 52, want 102").
func TestSuiteStaleL1(t *testing.T) {
	cfg := Config{Bench: suiteBench(t, "pf", "rows", "60", "cols", "3000", "pyramid-height", "2"),
		GPUs: 1, Timing: true, Stream: StreamL1}
	if _, err := Run(cfg, io.Discard); err != nil {
		t.Fatal(err)
	}
}
