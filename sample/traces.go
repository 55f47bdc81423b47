package sample

import (
	"embed"
	"strings"
)

//go:embed traces
var traceFiles embed.FS

// Trace is one embedded trace captured from MGPUSim (traces/README.md
// gives the command that made each).
type Trace struct {
	Name   string // file name, e.g. "fir.rdma.lctrace"
	Bench  string // benchmark, e.g. "fir"
	Stream string // "rdma", "dram", "l1" (line traces) or "warps"
	Data   []byte // callers must not modify it
}

// Traces returns the embedded traces sorted by name. A trace file is named
// BENCH.STREAM.lctrace.
func Traces() []Trace {
	entries, err := traceFiles.ReadDir("traces")
	if err != nil {
		panic("sample: embedded trace directory unreadable: " + err.Error()) // fixed at build time
	}
	var out []Trace
	for _, e := range entries {
		name := e.Name()
		base, ok := strings.CutSuffix(name, ".lctrace")
		if !ok {
			continue
		}
		bench, stream, ok := strings.Cut(base, ".")
		if !ok {
			continue
		}
		data, err := traceFiles.ReadFile("traces/" + name)
		if err != nil {
			panic("sample: embedded trace unreadable: " + err.Error())
		}
		out = append(out, Trace{Name: name, Bench: bench, Stream: stream, Data: data})
	}
	return out
}
