package graph

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The same 4-node graph in every format: edges 1-2 (w 5), 2-3 (w 7),
// 1-3 (w 2), node 4 isolated. 0-based CSR, neighbours sorted:
// 0: 1(5) 2(2); 1: 0(5) 2(7); 2: 0(2) 1(7); 3: none.
var want = &Graph{
	N:      4,
	RowPtr: []int32{0, 2, 4, 6, 6},
	Col:    []int32{1, 2, 0, 2, 0, 1},
	Weight: []int32{5, 2, 5, 7, 2, 7},
}

func read(t *testing.T, text string) (*Graph, error) {
	t.Helper()
	return Read(strings.NewReader(text))
}

func TestReadFormats(t *testing.T) {
	for name, tc := range map[string]struct {
		text    string
		dropped int
		weights bool
	}{
		"dimacs one direction":             {"c a comment\np sp 4 3\na 1 2 5\na 2 3 7\nc between\na 1 3 2\n", 0, true},
		"dimacs both directions":           {"p sp 4 6\na 1 2 5\na 2 1 5\na 2 3 7\na 3 2 7\na 1 3 2\na 3 1 2\n", 3, true},
		"dimacs repeat keeps least weight": {"p sp 4 4\na 1 2 9\na 1 2 5\na 2 3 7\na 3 1 2\n", 1, true},
		"mtx symmetric integer":            {"%%MatrixMarket matrix coordinate integer symmetric\n% c\n4 4 3\n2 1 5\n3 2 -7\n3 1 2\n", 0, true},
		"mtx general pattern":              {"%%MatrixMarket matrix coordinate pattern general\n4 4 3\n1 2\n2 3\n1 3\n", 0, false},
		"mtx real":                         {"%%MatrixMarket matrix coordinate real general\n4 4 3\n1 2 0.5\n2 3 1e3\n1 3 -2\n", 0, false},
		"metis unweighted":                 {"% pannotia\n4 3\n2 3\n1 3\n1 2\n\n", 3, false},
		"metis weighted":                   {"4 3 1\n2 5 3 2\n1 5 3 7\n1 2 2 7\n\n", 3, true},
	} {
		t.Run(name, func(t *testing.T) {
			g, err := read(t, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			w := *want
			if !tc.weights {
				w.Weight = []int32{1, 1, 1, 1, 1, 1}
			}
			w.Dropped = tc.dropped
			if !reflect.DeepEqual(g, &w) {
				t.Fatalf("got %+v\nwant %+v", g, &w)
			}
			if err := g.Check(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestReadSelfLoop(t *testing.T) {
	g, err := read(t, "p sp 2 2\na 1 1 3\na 1 2 4\n")
	if err != nil {
		t.Fatal(err)
	}
	if g.Edges() != 2 || g.Dropped != 1 {
		t.Fatalf("edges %d dropped %d, want 2 and 1", g.Edges(), g.Dropped)
	}
}

func TestReadErrors(t *testing.T) {
	for name, tc := range map[string]struct{ text, want string }{
		"empty":              {"", "empty input"},
		"only comments":      {"c x\nc y\n", "no problem or header line"},
		"bad problem":        {"p max 3 2\n", "line 1: problem line"},
		"node out of range":  {"p sp 3 1\na 1 4 2\n", "line 2: edge 1-4: nodes are 1..3"},
		"node zero":          {"c\np sp 3 1\na 0 2 2\n", "line 3: edge 0-2"},
		"negative weight":    {"p sp 3 1\na 1 2 -2\n", "line 2: edge 1-2: weight -2"},
		"not a number":       {"p sp 3 1\na 1 x 2\n", "line 2: arc: \"x\" is not an integer"},
		"short arc":          {"p sp 3 1\na 1 2\n", "line 2: \"a 1 2\": want an arc line"},
		"too many arcs":      {"p sp 3 1\na 1 2 1\na 2 3 1\n", "line 3: more arcs than the 1"},
		"too few arcs":       {"p sp 3 2\na 1 2 1\n", "1 arcs, the problem line declares 2"},
		"huge header":        {"p sp 1000000000 1\n", "line 1: 1000000000 nodes"},
		"weight overflow":    {"p sp 2 1\na 1 2 3000000000\n", "line 2: edge 1-2: weight 3000000000"},
		"mtx not square":     {"%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 2\n", "line 2: a 3×4 matrix"},
		"mtx array":          {"%%MatrixMarket matrix array real general\n2 2\n", "line 1: banner"},
		"mtx complex":        {"%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 1\n", "field \"complex\""},
		"mtx zero int":       {"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 0\n", "line 3: entry \"1 2 0\": an integer weight of 0"},
		"mtx missing value":  {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2\n", "line 3: entry \"1 2\": want 3 fields"},
		"mtx bad real":       {"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 x\n", "line 3: entry value \"x\""},
		"mtx count":          {"%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n", "1 entries, the size line declares 2"},
		"metis header":       {"3 2 0 1 7\n", "line 1: header"},
		"metis format":       {"3 2 12\n", "line 1: format \"12\""},
		"metis ncon":         {"3 2 1 2\n", "line 1: ncon 2"},
		"metis short line":   {"2 1 010\n\n1 1\n", "line 2: node 1: want its 1 size and weight values"},
		"dimacs e in sp":     {"p sp 3 1\ne 1 2\n", "want an arc line"},
		"dimacs a in edge":   {"p edge 3 1\na 1 2 1\n", "want an edge line"},
		"metis short":        {"3 1\n2\n1\n", "2 node lines, the header declares 3"},
		"metis odd pairs":    {"2 1 1\n2\n1 4\n", "line 2: node 1: want neighbour and weight pairs"},
		"metis extra":        {"2 1\n2\n1\n1\n", "line 4: \"1\" after the 2 node lines"},
		"metis edge count":   {"3 5\n2\n1\n\n", "declares 5 edges, the lists give 1"},
		"metis neighbour":    {"2 1\n3\n1\n", "line 2: edge 1-3: nodes are 1..2"},
		"metis not a number": {"2 1\n2 b\n1\n", "line 2: node 1: \"b\""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := read(t, tc.text)
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want ErrFormat mentioning %q", err, tc.want)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.gr")
	if err := os.WriteFile(path, []byte("p sp 2 1\na 1 3 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), path+": ") {
		t.Fatalf("error %v, want ErrFormat naming the file", err)
	}
	if _, err := ReadFile(path + ".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestCheckRejects(t *testing.T) {
	asym := &Graph{N: 2, RowPtr: []int32{0, 1, 1}, Col: []int32{1}, Weight: []int32{1}}
	if err := asym.Check(); err == nil || !strings.Contains(err.Error(), "not symmetric") {
		t.Fatalf("asymmetric graph: %v", err)
	}
	short := &Graph{N: 2, RowPtr: []int32{0, 1}, Col: []int32{1}, Weight: []int32{1}}
	if err := short.Check(); err == nil {
		t.Fatal("short row pointers accepted")
	}
}

func TestRMAT(t *testing.T) {
	p := DefaultRMAT()
	p.Scale, p.EdgeFactor = 8, 4
	g, err := p.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	// 1024 arcs drawn; kept edges plus dropped ones account for each.
	if g.N != 256 || g.Edges()/2+g.Dropped != 1024 {
		t.Fatalf("N %d, %d edges + %d dropped, want 256 and 1024 in all", g.N, g.Edges()/2, g.Dropped)
	}
	// R-MAT's skew: node 0 (always in the favoured quadrant) has far more
	// than the mean degree of 8.
	if d := g.RowPtr[1] - g.RowPtr[0]; d < 32 {
		t.Fatalf("node 0 has degree %d; R-MAT with a=0.57 concentrates edges there", d)
	}
	again, _ := p.Generate()
	if !reflect.DeepEqual(g, again) {
		t.Fatal("same parameters gave different graphs")
	}
	p.Seed++
	other, _ := p.Generate()
	if reflect.DeepEqual(g.Col, other.Col) {
		t.Fatal("another seed gave the same graph")
	}
	for _, bad := range []RMAT{
		{Scale: 0, EdgeFactor: 1, A: 0.5, MaxWeight: 1},
		{Scale: 27, EdgeFactor: 1, A: 0.5, MaxWeight: 1},
		{Scale: 4, EdgeFactor: 0, A: 0.5, MaxWeight: 1},
		{Scale: 4, EdgeFactor: 1, A: 0.6, B: 0.3, C: 0.2, MaxWeight: 1},
		{Scale: 4, EdgeFactor: 1, A: -0.1, MaxWeight: 1},
		{Scale: 4, EdgeFactor: 1, A: 0.5, MaxWeight: 0},
	} {
		if _, err := bad.Generate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", bad, err)
		}
	}
}

func TestGrid(t *testing.T) {
	g, err := Grid{W: 3, H: 2, MaxWeight: 1, Seed: 1}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	// 0 1 2
	// 3 4 5
	wantCol := []int32{1, 3, 0, 2, 4, 1, 5, 0, 4, 1, 3, 5, 2, 4}
	if g.N != 6 || !reflect.DeepEqual(g.Col, wantCol) || g.Dropped != 0 {
		t.Fatalf("grid: N %d cols %v dropped %d", g.N, g.Col, g.Dropped)
	}
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Grid{{W: 0, H: 2, MaxWeight: 1}, {W: 1 << 14, H: 1 << 14, MaxWeight: 1}, {W: 2, H: 2}} {
		if _, err := bad.Generate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", bad, err)
		}
	}
}
