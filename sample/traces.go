package sample

import (
	"embed"
	"strings"
)

//go:embed testdata/traces/*.lct
var traceFiles embed.FS

// Trace is one embedded trace captured from MGPUSim running a real GPU
// kernel; testdata/traces/README.md gives the command that made each.
type Trace struct {
	Name   string // file name, e.g. "rdma-fir.lct"
	Stream string // "rdma", "dram", "l1" (line traces) or "warps"
	Bench  string // benchmark, e.g. "fir"
	Data   []byte // callers must not modify it
}

// Traces returns the embedded traces sorted by name. A trace file is named
// STREAM-BENCH.lct.
func Traces() []Trace {
	entries, err := traceFiles.ReadDir("testdata/traces")
	if err != nil {
		panic("sample: embedded trace directory unreadable: " + err.Error()) // fixed at build time
	}
	var out []Trace
	for _, e := range entries {
		name := e.Name()
		stream, bench, ok := strings.Cut(strings.TrimSuffix(name, ".lct"), "-")
		if !ok {
			continue
		}
		data, err := traceFiles.ReadFile("testdata/traces/" + name)
		if err != nil {
			panic("sample: embedded trace unreadable: " + err.Error())
		}
		out = append(out, Trace{Name: name, Stream: stream, Bench: bench, Data: data})
	}
	return out
}
