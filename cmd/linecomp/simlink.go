package main

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/link"
	"github.com/linecomp/linecomp/study"
	"github.com/linecomp/linecomp/trace"
)

var simLinkCommand = &command{
	name:    "link",
	args:    "[flags] [TRACE…]",
	summary: "replay inter-GPU (rdma) line traces through the link and the penalty vote",
	run:     runSimLink,
}

const simLinkHelp = `
Replays rdma line traces (the payloads GPUs send each other) over the
inter-GPU bus of model-spec §6 (Tavana et al.): a Read record is a Data
Ready message, after a Read Req in the other direction; a Write record is a
Write Req, followed by a Write ACK; all four count on the wire, 20 bytes a
cycle, headers and payloads each byte-aligned. Each sending GPU has its own
penalty-vote selector over -codecs (7 sampled transfers, then 300 running
ones), or with -static every transfer uses one codec. -lambda takes a list
(e.g. 0,6,32) and the configurations run in parallel.

Prints per trace and configuration: transfers, payload bits, what an
uncompressed link would carry, the compression ratio, wire bytes of all
four kinds, bus-busy cycles, the completion cycle under the trace's
timestamps, each candidate's use, and energy (wire and codecs, with their
sources). -latency tavana gives the codecs Tavana Table III's latencies
(BDI 2/1, FPC 3/5, C-Pack+Z 16/9); -latency own keeps each codec's own
(its paper's; "default" is accepted as an older name for own). Without
traces it replays the committed sample rdma traces.`

// linkRow is one (trace, configuration) result.
type linkRow struct {
	Trace  string   `json:"trace"`
	Lambda *float64 `json:"lambda"` // null for a static codec
	Static string   `json:"static,omitempty"`
	link.Result
	Ratio float64 `json:"ratio"` // uncompressed payload bits over payload bits
}

func runSimLink(e *env, c *command, args []string) error {
	fs := newFlags(e, c, simLinkHelp)
	codecList := fs.String("codecs", "none,bdi,fpc-tavana,cpack-z", "the candidates, in Comp Alg order (none first)")
	lambdas := fs.String("lambda", "6", "λ, or a comma-separated list of them")
	samples := fs.Int("samples", 7, "transfers per sampling phase")
	running := fs.Int("running", 300, "transfers per running phase")
	minVotes := fs.Int("min-votes", 3, "votes a candidate needs to be selected")
	within := fs.Bool("within", false, "the 7-of-300 reading: sampling inside the 300 (a running phase of 293)")
	static := fs.String("static", "", "every transfer uses this codec (no vote)")
	latency := fs.String("latency", "tavana", "codec latencies: tavana (Table III) or own (each codec's own)")
	wire := fs.String("wire", link.WireInPackage().Name, "wire energy preset: "+wireNames())
	format := fs.String("format", "text", "output: text, csv or json")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := parseFormat(*format); err != nil {
		return err
	}
	switch *latency {
	case "tavana", "own":
	case "default": // its former name, which read as "the default" (tavana)
		*latency = "own"
	default:
		return usagef("-latency %q: want tavana or own", *latency)
	}
	wireEnergy, ok := link.WirePreset(*wire)
	if !ok {
		return usagef("-wire %q: want %s", *wire, wireNames())
	}
	names := strings.Split(*codecList, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if slices.Index(names[:i], names[i]) >= 0 {
			return usagef("-codecs lists %s twice", names[i])
		}
		if _, err := linecomp.Lookup(names[i]); err != nil {
			return usageError{err}
		}
	}
	staticIndex := -1
	if *static != "" {
		if staticIndex = slices.Index(names, *static); staticIndex < 0 {
			return usagef("-static %s is not among -codecs (%s)", *static, *codecList)
		}
	}
	var ls []float64
	for _, s := range strings.Split(*lambdas, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < 0 {
			return usagef("-lambda %q: want numbers ≥ 0", *lambdas)
		}
		ls = append(ls, v)
	}
	if staticIndex >= 0 {
		ls = []float64{0} // the vote is not used
	}
	setup := study.LinkSetup{Candidates: names, Own: *latency == "own", Wire: wireEnergy,
		Samples: *samples, Running: *running, MinVotes: *minVotes, Within: *within}
	makeConfig := func(lineSize int, lambda float64) (link.ReplayConfig, error) {
		return setup.ReplayConfig(lineSize, lambda, staticIndex)
	}
	if _, err := makeConfig(64, ls[0]); err != nil {
		return usageError{err}
	}
	srcs := lineTraceSources(e, inputs, "rdma")
	if len(srcs) == 0 {
		return usagef("no trace given, and no sample rdma trace is embedded")
	}
	var rows []linkRow
	failed := e.eachInput(srcs, func(in *input) error {
		e.progress.show("%s: reading", in.name)
		got, err := replayLinks(e, in, ls, staticIndex, names, makeConfig)
		rows = append(rows, got...)
		return err
	})
	e.progress.clear()
	if err := printLinkRows(e, rows, names, *format); err != nil {
		return err
	}
	return failed
}

func wireNames() string {
	var n []string
	for _, w := range link.WirePresets() {
		n = append(n, w.Name)
	}
	return strings.Join(n, ", ")
}

// replayLinks streams the records of the trace in through one replay per
// λ (study.LinkReplays: a batch at a time, the replays in parallel).
func replayLinks(e *env, in *input, lambdas []float64, static int, names []string,
	makeConfig func(int, float64) (link.ReplayConfig, error)) ([]linkRow, error) {
	var reps *study.LinkReplays // made at the first record, for its line size
	_, err := eachRecord(in, 0, []string{"rdma"}, func(h trace.Header, r trace.Record) error {
		if reps == nil {
			var rcs []link.ReplayConfig
			for _, lambda := range lambdas {
				rc, err := makeConfig(h.LineSize, lambda)
				if err != nil {
					return err
				}
				rcs = append(rcs, rc)
			}
			var err error
			if reps, err = study.NewLinkReplays(rcs); err != nil {
				return err
			}
		}
		if err := reps.Add(r); err != nil {
			return err
		}
		if n := reps.Done(); n > 0 && n%(1<<16) == 0 {
			e.progress.show("%s: %d records", in.name, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if reps == nil {
		return nil, fmt.Errorf("the trace has no record")
	}
	results, err := reps.Finish()
	if err != nil {
		return nil, err
	}
	rows := make([]linkRow, len(results))
	for i, res := range results {
		rows[i] = linkRow{Trace: in.name, Result: res}
		if static >= 0 {
			rows[i].Static = names[static]
		} else {
			rows[i].Lambda = &lambdas[i]
		}
		if res.PayloadBits > 0 {
			rows[i].Ratio = float64(res.UncompressedPayloadBits) / float64(res.PayloadBits)
		}
	}
	return rows, nil
}

func printLinkRows(e *env, rows []linkRow, names []string, format string) error {
	if format == "json" {
		if rows == nil {
			rows = []linkRow{}
		}
		return writeJSON(e.stdout, rows)
	}
	header := []string{"trace", "config", "transfers", "payload_bits", "uncompressed_bits", "ratio", "wire_bytes",
		"bus_cycles", "completion_cycle", "wire_pj", "codec_pj"}
	for _, n := range names {
		header = append(header, "uses_"+n)
	}
	t := table{header: header}
	for _, r := range rows {
		cfg := "static " + r.Static
		if r.Lambda != nil {
			cfg = "vote λ=" + strconv.FormatFloat(*r.Lambda, 'g', -1, 64)
		}
		cells := []string{r.Trace, cfg, utoa(r.Transfers), utoa(r.PayloadBits), utoa(r.UncompressedPayloadBits),
			ffmt(r.Ratio, 3), utoa(r.WireBytes), utoa(r.BusCycles), utoa(r.CompletionCycle),
			ffmt(r.WireEnergyPJ, 0), ffmt(r.CodecEnergyPJ, 0)}
		for _, n := range names {
			cells = append(cells, utoa(r.Uses[n]))
		}
		t.add(cells...)
	}
	if err := t.write(e.stdout, format); err != nil {
		return err
	}
	if format == "text" && len(rows) > 0 {
		fmt.Fprintf(e.stdout, "\nenergy: wire %s; codecs:", rows[0].WireEnergySource)
		var notes []string
		for n, s := range rows[0].CodecEnergyNotes {
			notes = append(notes, n+": "+s)
		}
		sort.Strings(notes)
		fmt.Fprintln(e.stdout, " "+strings.Join(notes, "; "))
	}
	return nil
}
