package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/trace"
)

// simCommand groups the simulator models' trace replays.
var simCommand = &command{
	name:    "sim",
	args:    "cache|mem|gpu|link [flags] [TRACE…]",
	summary: "replay traces through the cache, memory-controller, GPU and inter-GPU link models",
	sub:     []*command{simCacheCommand, simMemCommand, simGPUCommand, simLinkCommand},
}

// lineTraceSources returns the sources named by args, or the committed
// sample line traces of the given stream ("l1", "dram", "rdma") when there
// are none.
func lineTraceSources(e *env, args []string, stream string) []source {
	if len(args) > 0 {
		return expandArgs(args, e.stdin)
	}
	var srcs []source
	for _, t := range sample.Traces() {
		if t.Stream == stream {
			srcs = append(srcs, bytesSource("sample/"+t.Name, t.Data))
		}
	}
	return srcs
}

// eachRecord reads the line trace in and calls fn with every record, in
// order. lineSize, when positive, must be the trace's line size.
func eachRecord(in *input, lineSize int, fn func(h trace.Header, r trace.Record) error) (trace.Header, error) {
	tr, err := trace.NewReader(in)
	if err != nil {
		return trace.Header{}, err
	}
	h := tr.Header()
	if lineSize > 0 && lineSize != h.LineSize {
		return h, fmt.Errorf("-line %d: the trace has %d-byte lines", lineSize, h.LineSize)
	}
	for {
		r, err := tr.Read()
		if err == io.EOF {
			return h, nil
		}
		if err != nil {
			return h, err
		}
		if err := fn(h, r); err != nil {
			return h, err
		}
	}
}

// table is a report: a header row and rows of cells, printed as aligned
// text or CSV.
type table struct {
	header []string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer, format string) error {
	if format == "csv" {
		cw := csv.NewWriter(w)
		cw.Write(t.header)
		cw.WriteAll(t.rows)
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.header, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func utoa(v uint64) string { return strconv.FormatUint(v, 10) }

func ffmt(v float64, prec int) string { return fmt.Sprintf("%.*f", prec, v) }
