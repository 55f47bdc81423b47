// Package graph reads and generates the inputs of the suite's graph
// kernels: undirected graphs with positive integer edge weights, held in
// compressed sparse row (CSR) form with 32-bit indices, as the kernels
// read them.
//
// Read accepts three text formats, told apart by their first significant
// line:
//
//   - DIMACS .gr (9th Implementation Challenge, shortest paths, the form
//     of Pannotia's .gr inputs): comment lines "c …", one problem line
//     "p sp N M", then M arc lines "a U V W" with 1-based nodes and
//     integer weights W ≥ 0. The colouring challenge's "p edge N M" with
//     "e U V" lines is read too, with weight 1.
//   - Matrix Market .mtx: "%%MatrixMarket matrix coordinate FIELD SYMMETRY"
//     (FIELD pattern, integer or real; SYMMETRY general or symmetric),
//     "%" comments, a size line "ROWS COLS NNZ", then NNZ entries "I J [V]",
//     1-based. A square matrix is read as the graph of its nonzeros: a
//     pattern or real entry is an edge of weight 1 (real values are not
//     integer weights), an integer entry an edge of weight |V| (0 is an
//     error).
//   - METIS .graph (Pannotia's colour and MIS inputs, DIMACS10's graphs):
//     comment lines "%…", a header "N M [FMT [NCON]]", then one line per
//     node, 1-based, listing its neighbours; FMT's digits say whether each
//     line starts with a vertex size and NCON vertex weights (skipped) and
//     whether neighbours come with edge weights (neighbour, weight pairs).
//
// Every graph is made undirected: an arc u→v also gives v→u. An edge
// given several times (both directions, as DIMACS road graphs give them,
// or repeated) is kept once with its least weight, and self-loops are
// removed; Graph.Dropped counts both, so nothing is lost without a word.
// Neighbours are listed in increasing order.
//
// Errors name the file's line and the cause and wrap ErrFormat.
package graph

import (
	"errors"
	"fmt"
	"sort"
)

// ErrFormat is the error every reader wraps for input it cannot read.
var ErrFormat = errors.New("graph: malformed input")

// ErrConfig is the error generators wrap for parameters out of range.
var ErrConfig = errors.New("graph: bad generator parameters")

// Bounds on what a file may declare, so that a header cannot make the
// reader allocate more than the emulator could ever run.
const (
	MaxNodes = 1 << 26
	MaxEdges = 1 << 28
)

// Graph is an undirected graph in CSR form: node v's neighbours are
// Col[RowPtr[v]:RowPtr[v+1]], with weights at the same positions. Each
// undirected edge appears twice, once from each end.
type Graph struct {
	N      int
	RowPtr []int32 // N+1 entries
	Col    []int32
	Weight []int32
	// Dropped counts the arcs of the input not kept as given: self-loops
	// and repeats of an edge already present (including the reverse arcs
	// of an input that lists both directions).
	Dropped int
}

// Edges is the number of directed arcs (twice the undirected edges).
func (g *Graph) Edges() int { return len(g.Col) }

// arc is one input edge, 0-based.
type arc struct{ u, v, w int32 }

// build makes the undirected CSR graph of n nodes from input arcs, which
// it reorders.
func build(n int, arcs []arc) *Graph {
	in := len(arcs)
	// Both directions, then sort by (u, v, w) so that duplicates are
	// adjacent with the least weight first.
	all := make([]arc, 0, 2*len(arcs))
	for _, a := range arcs {
		if a.u == a.v {
			continue
		}
		all = append(all, a, arc{a.v, a.u, a.w})
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.u != b.u {
			return a.u < b.u
		}
		if a.v != b.v {
			return a.v < b.v
		}
		return a.w < b.w
	})
	g := &Graph{N: n, RowPtr: make([]int32, n+1)}
	for i, a := range all {
		if i > 0 && all[i-1].u == a.u && all[i-1].v == a.v {
			continue
		}
		g.Col = append(g.Col, a.v)
		g.Weight = append(g.Weight, a.w)
		g.RowPtr[a.u+1]++
	}
	for v := 0; v < n; v++ {
		g.RowPtr[v+1] += g.RowPtr[v]
	}
	// Each kept undirected edge came from at least one input arc.
	g.Dropped = in - len(g.Col)/2
	return g
}

// Check verifies the CSR invariants the kernels rely on: monotone row
// pointers, neighbours in range, no self-loops, every edge present in
// both directions with the same weight, and non-negative weights.
func (g *Graph) Check() error {
	if g.N < 0 || len(g.RowPtr) != g.N+1 || g.RowPtr[0] != 0 ||
		int(g.RowPtr[g.N]) != len(g.Col) || len(g.Weight) != len(g.Col) {
		return fmt.Errorf("%w: CSR arrays do not match (N=%d, %d row pointers, %d columns, %d weights)",
			ErrFormat, g.N, len(g.RowPtr), len(g.Col), len(g.Weight))
	}
	for v := 0; v < g.N; v++ {
		if g.RowPtr[v+1] < g.RowPtr[v] {
			return fmt.Errorf("%w: row pointer of node %d decreases", ErrFormat, v)
		}
		for e := g.RowPtr[v]; e < g.RowPtr[v+1]; e++ {
			u := g.Col[e]
			if u < 0 || int(u) >= g.N || int(u) == v {
				return fmt.Errorf("%w: node %d has neighbour %d", ErrFormat, v, u)
			}
			if g.Weight[e] < 0 {
				return fmt.Errorf("%w: edge %d-%d has negative weight %d", ErrFormat, v, u, g.Weight[e])
			}
			if w, ok := g.weight(int(u), int32(v)); !ok || w != g.Weight[e] {
				return fmt.Errorf("%w: edge %d-%d is not symmetric", ErrFormat, v, u)
			}
		}
	}
	return nil
}

// weight finds the weight of edge u→v by binary search.
func (g *Graph) weight(u int, v int32) (int32, bool) {
	lo, hi := int(g.RowPtr[u]), int(g.RowPtr[u+1])
	i := lo + sort.Search(hi-lo, func(i int) bool { return g.Col[lo+i] >= v })
	if i < hi && g.Col[i] == v {
		return g.Weight[i], true
	}
	return 0, false
}
