package graph

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// ReadFile reads a graph file in any of the formats Read accepts.
func ReadFile(path string) (*Graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	g, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// Read reads a DIMACS .gr, Matrix Market .mtx or Pannotia (METIS) .gr
// graph, telling them apart by the first significant line.
func Read(r io.Reader) (*Graph, error) {
	s := &scanner{sc: bufio.NewScanner(r)}
	s.sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	// The Matrix Market banner is a comment to the other formats, so look
	// at the very first line before skipping comments.
	first, ok := s.next(func(string) bool { return false })
	if !ok {
		if s.err != nil {
			return nil, s.err
		}
		return nil, fmt.Errorf("%w: empty input", ErrFormat)
	}
	if strings.HasPrefix(first, "%%MatrixMarket") {
		return readMTX(s, first)
	}
	for isComment(first) {
		if first, ok = s.next(isComment); !ok {
			return nil, s.fail("no problem or header line")
		}
	}
	if strings.HasPrefix(first, "p") {
		return readDIMACS(s, first)
	}
	return readMETIS(s, first)
}

func isComment(line string) bool {
	t := strings.TrimSpace(line)
	return t == "" || t[0] == 'c' || t[0] == '%' || t[0] == '#'
}

// scanner yields lines with their numbers.
type scanner struct {
	sc   *bufio.Scanner
	line int
	err  error
}

// next returns the next line for which skip is false.
func (s *scanner) next(skip func(string) bool) (string, bool) {
	for s.sc.Scan() {
		s.line++
		if t := s.sc.Text(); !skip(t) {
			return t, true
		}
	}
	if err := s.sc.Err(); err != nil {
		s.err = fmt.Errorf("%w: line %d: %v", ErrFormat, s.line+1, err)
	}
	return "", false
}

func (s *scanner) fail(format string, args ...any) error {
	if s.err != nil {
		return s.err
	}
	return fmt.Errorf("%w: line %d: %s", ErrFormat, s.line, fmt.Sprintf(format, args...))
}

// ints parses every field of a line as an int.
func (s *scanner) ints(fields []string, what string) ([]int64, error) {
	out := make([]int64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, s.fail("%s: %q is not an integer", what, f)
		}
		out[i] = v
	}
	return out, nil
}

// sizes checks declared node and edge counts.
func (s *scanner) sizes(n, m int64) error {
	if n < 1 || n > MaxNodes {
		return s.fail("%d nodes: want 1..%d", n, MaxNodes)
	}
	if m < 0 || m > MaxEdges {
		return s.fail("%d edges: want 0..%d", m, MaxEdges)
	}
	return nil
}

func readDIMACS(s *scanner, problem string) (*Graph, error) {
	f := strings.Fields(problem)
	if len(f) != 4 || f[0] != "p" || (f[1] != "sp" && f[1] != "edge") {
		return nil, s.fail("problem line %q: want \"p sp NODES ARCS\" (or the colouring challenge's \"p edge NODES EDGES\")", problem)
	}
	// The shortest-path challenge's arcs are "a U V W"; the colouring
	// challenge's edges "e U V", unweighted.
	tag, fields := "a", 4
	if f[1] == "edge" {
		tag, fields = "e", 3
	}
	nm, err := s.ints(f[2:], "problem line")
	if err != nil {
		return nil, err
	}
	if err := s.sizes(nm[0], nm[1]); err != nil {
		return nil, err
	}
	n, m := nm[0], nm[1]
	arcs := make([]arc, 0, min(m, 1<<20))
	for {
		line, ok := s.next(isComment)
		if !ok {
			break
		}
		f := strings.Fields(line)
		if f[0] != tag || len(f) != fields {
			if tag == "e" {
				return nil, s.fail("%q: want an edge line \"e U V\"", line)
			}
			return nil, s.fail("%q: want an arc line \"a U V W\"", line)
		}
		v, err := s.ints(f[1:], "arc")
		if err != nil {
			return nil, err
		}
		if tag == "e" {
			v = append(v, 1)
		}
		if int64(len(arcs)) == m {
			return nil, s.fail("more arcs than the %d the problem line declares", m)
		}
		a, err := s.arc(v[0], v[1], v[2], n)
		if err != nil {
			return nil, err
		}
		arcs = append(arcs, a)
	}
	if s.err != nil {
		return nil, s.err
	}
	if int64(len(arcs)) != m {
		return nil, s.fail("%d arcs, the problem line declares %d", len(arcs), m)
	}
	return build(int(n), arcs), nil
}

// arc checks a 1-based edge and makes it 0-based.
func (s *scanner) arc(u, v, w, n int64) (arc, error) {
	if u < 1 || u > n || v < 1 || v > n {
		return arc{}, s.fail("edge %d-%d: nodes are 1..%d", u, v, n)
	}
	if w < 0 || w > math.MaxInt32 {
		return arc{}, s.fail("edge %d-%d: weight %d out of range 0..%d", u, v, w, math.MaxInt32)
	}
	return arc{int32(u - 1), int32(v - 1), int32(w)}, nil
}

func readMTX(s *scanner, banner string) (*Graph, error) {
	f := strings.Fields(strings.ToLower(banner))
	if len(f) != 5 || f[1] != "matrix" || f[2] != "coordinate" {
		return nil, s.fail("banner %q: want \"%%%%MatrixMarket matrix coordinate FIELD SYMMETRY\"", banner)
	}
	field, symmetry := f[3], f[4]
	switch field {
	case "pattern", "integer", "real":
	default:
		return nil, s.fail("field %q: want pattern, integer or real", field)
	}
	switch symmetry {
	case "general", "symmetric":
	default:
		return nil, s.fail("symmetry %q: want general or symmetric", symmetry)
	}
	size, ok := s.next(func(l string) bool { t := strings.TrimSpace(l); return t == "" || t[0] == '%' })
	if !ok {
		return nil, s.fail("no size line")
	}
	dims, err := s.ints(strings.Fields(size), "size line")
	if err != nil {
		return nil, err
	}
	if len(dims) != 3 {
		return nil, s.fail("size line %q: want \"ROWS COLS ENTRIES\"", size)
	}
	if dims[0] != dims[1] {
		return nil, s.fail("a %d×%d matrix is not a graph's adjacency matrix (want square)", dims[0], dims[1])
	}
	if err := s.sizes(dims[0], dims[2]); err != nil {
		return nil, err
	}
	n, m := dims[0], dims[2]
	want := 2
	if field != "pattern" {
		want = 3
	}
	arcs := make([]arc, 0, min(m, 1<<20))
	for {
		line, ok := s.next(func(l string) bool { t := strings.TrimSpace(l); return t == "" || t[0] == '%' })
		if !ok {
			break
		}
		f := strings.Fields(line)
		if len(f) != want {
			return nil, s.fail("entry %q: want %d fields for a %s matrix", line, want, field)
		}
		ij, err := s.ints(f[:2], "entry")
		if err != nil {
			return nil, err
		}
		w := int64(1)
		switch field {
		case "integer":
			v, err := s.ints(f[2:], "entry value")
			if err != nil {
				return nil, err
			}
			if w = v[0]; w < 0 {
				w = -w
			}
			if w == 0 {
				return nil, s.fail("entry %q: an integer weight of 0 is not an edge", line)
			}
		case "real":
			if _, err := strconv.ParseFloat(f[2], 64); err != nil {
				return nil, s.fail("entry value %q is not a number", f[2])
			}
		}
		if int64(len(arcs)) == m {
			return nil, s.fail("more entries than the %d the size line declares", m)
		}
		a, err := s.arc(ij[0], ij[1], w, n)
		if err != nil {
			return nil, err
		}
		arcs = append(arcs, a)
	}
	if s.err != nil {
		return nil, s.err
	}
	if int64(len(arcs)) != m {
		return nil, s.fail("%d entries, the size line declares %d", len(arcs), m)
	}
	return build(int(n), arcs), nil
}

func readMETIS(s *scanner, header string) (*Graph, error) {
	f := strings.Fields(header)
	h, err := s.ints(f, "header")
	if err != nil {
		return nil, err
	}
	if len(h) < 2 || len(h) > 4 {
		return nil, s.fail("header %q: want \"NODES EDGES [FMT [NCON]]\" (or a DIMACS \"p sp\" or Matrix Market file)", header)
	}
	// FMT is up to three digits: vertex sizes, vertex weights, edge
	// weights; NCON is the number of vertex weights (default 1).
	var sizes, vertexWeights, weighted bool
	ncon := int64(1)
	if len(h) >= 3 {
		fmtField := f[2]
		if len(fmtField) > 3 || strings.Trim(fmtField, "01") != "" {
			return nil, s.fail("format %q: want up to three 0/1 digits (vertex sizes, vertex weights, edge weights)", fmtField)
		}
		fmtField = strings.Repeat("0", 3-len(fmtField)) + fmtField
		sizes, vertexWeights, weighted = fmtField[0] == '1', fmtField[1] == '1', fmtField[2] == '1'
	}
	if len(h) == 4 {
		if ncon = h[3]; ncon < 1 || ncon > 64 || !vertexWeights {
			return nil, s.fail("ncon %d: want 1..64, with vertex weights in the format", ncon)
		}
	}
	skip := 0 // values before the neighbours on each node line
	if sizes {
		skip++
	}
	if vertexWeights {
		skip += int(ncon)
	}
	if err := s.sizes(h[0], h[1]); err != nil {
		return nil, err
	}
	n := h[0]
	var arcs []arc
	// Node lines may be empty (an isolated node), so only "%" lines are
	// comments here.
	for u := int64(1); u <= n; u++ {
		line, ok := s.next(func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "%") })
		if !ok {
			if s.err != nil {
				return nil, s.err
			}
			return nil, s.fail("%d node lines, the header declares %d", u-1, n)
		}
		v, err := s.ints(strings.Fields(line), fmt.Sprintf("node %d", u))
		if err != nil {
			return nil, err
		}
		if len(v) < skip {
			return nil, s.fail("node %d: want its %d size and weight values first", u, skip)
		}
		v = v[skip:]
		step := 1
		if weighted {
			step = 2
			if len(v)%2 != 0 {
				return nil, s.fail("node %d: want neighbour and weight pairs", u)
			}
		}
		for i := 0; i < len(v); i += step {
			w := int64(1)
			if weighted {
				w = v[i+1]
			}
			a, err := s.arc(u, v[i], w, n)
			if err != nil {
				return nil, err
			}
			if len(arcs) >= 2*MaxEdges {
				return nil, s.fail("more than %d arcs", 2*MaxEdges)
			}
			arcs = append(arcs, a)
		}
	}
	if line, ok := s.next(isComment); ok {
		return nil, s.fail("%q after the %d node lines", line, n)
	}
	if s.err != nil {
		return nil, s.err
	}
	g := build(int(n), arcs)
	if int64(g.Edges()/2) != h[1] {
		return nil, fmt.Errorf("%w: the header declares %d edges, the lists give %d", ErrFormat, h[1], g.Edges()/2)
	}
	return g, nil
}
