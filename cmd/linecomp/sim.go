package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/linecomp/linecomp"
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

// notApplicable fills a report's cell that has no value for its row: a
// figure no paper gives, a counter a row does not have. Every report
// spells it so.
const notApplicable = "n/a"

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
// order. lineSize, when positive, must be the trace's line size. A trace
// of another kind (a warp trace), or whose source names a stream other
// than those of want (a capture writes "stream=l1" into it), is an error
// that says what to capture instead: want[0].
func eachRecord(in *input, lineSize int, want []string, fn func(h trace.Header, r trace.Record) error) (trace.Header, error) {
	tf, err := openTrace(in)
	if err != nil {
		return trace.Header{}, err
	}
	if tf.warp != nil {
		return trace.Header{}, wrongTrace("a warp trace", want[0])
	}
	tr := tf.line
	h := tr.Header()
	if s := streamOf(h.Source); s != "" && !slices.Contains(want, s) {
		return h, wrongTrace(fmt.Sprintf("a line trace of the %s stream", s), want[0])
	}
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

// checkAtSomeSize checks a model's flags before any trace is read: at the
// line size of -line when it is given (line > 0), else at every size the
// codec takes until one works, since the trace will choose. It returns nil
// if one works and otherwise the error at the last size tried.
func checkAtSomeSize(line int, codec string, try func(lineSize int) error) error {
	sizes := []int{line}
	if line <= 0 {
		info, err := linecomp.Lookup(codec)
		if err != nil {
			return err
		}
		sizes = info.LineSizes
	}
	var err error
	for _, n := range sizes {
		if err = try(n); err == nil {
			return nil
		}
	}
	return err
}

// streamOf returns the stream a capture names in a trace's source
// ("…; stream=l1 line=128"), or "" if it names none.
func streamOf(source string) string {
	for _, f := range strings.FieldsFunc(source, func(r rune) bool { return r == ' ' || r == ';' }) {
		if v, ok := strings.CutPrefix(f, "stream="); ok {
			return v
		}
	}
	return ""
}

// wrongTrace is the error for a trace of the wrong kind: what it is, what
// the command replays, and how to capture that.
func wrongTrace(got, want string) error {
	what := map[string]string{"l1": "line traces of the L1 stream", "dram": "line traces of the DRAM stream",
		"rdma": "line traces of the rdma stream (between GPUs)", "warps": "warp traces"}[want]
	return fmt.Errorf("%s: this command replays %s; capture one with the mgpusim module's capture -stream %s", got, what, want)
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
