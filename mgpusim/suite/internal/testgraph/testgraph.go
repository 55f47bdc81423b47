// Package testgraph builds the small hand-checked graphs of the suite's
// tests.
package testgraph

import (
	"strings"

	"github.com/linecomp/linecomp/mgpusim/suite/graph"
)

// FromDIMACS reads a DIMACS text, panicking on error (test input).
func FromDIMACS(text string) *graph.Graph {
	g, err := graph.Read(strings.NewReader(text))
	if err != nil {
		panic(err)
	}
	return g
}

// Five is a weighted 5-node graph (1-based in the text; the tests use
// 0-based numbers): 0-1 w3, 1-2 w4, 0-2 w10, 2-3 w1, 3-4 w2, 1-4 w20.
func Five() *graph.Graph {
	return FromDIMACS("p sp 5 6\na 1 2 3\na 2 3 4\na 1 3 10\na 3 4 1\na 4 5 2\na 2 5 20\n")
}

// Diamond is 0-1, 0-2, 1-3, 2-3, unit weights.
func Diamond() *graph.Graph {
	return FromDIMACS("p sp 4 4\na 1 2 1\na 1 3 1\na 2 4 1\na 3 4 1\n")
}

// Path4 is the path 0-1-2-3 plus an isolated node 4.
func Path4() *graph.Graph {
	return FromDIMACS("p sp 5 3\na 1 2 1\na 2 3 1\na 3 4 1\n")
}

// RMAT is a small R-MAT graph with Graph500's parameters.
func RMAT(scale int) *graph.Graph {
	p := graph.DefaultRMAT()
	p.Scale = scale
	g, err := p.Generate()
	if err != nil {
		panic(err)
	}
	return g
}
