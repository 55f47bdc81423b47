package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/study"
	"github.com/linecomp/linecomp/trace/warp"
)

var simGPUCommand = &command{
	name:    "gpu",
	args:    "[flags] [TRACE…]",
	summary: "replay warp traces through the GPU model under L1 compression policies",
	run:     runSimGPU,
}

const simGPUHelp = `
Replays warp traces (kernels of per-warp instruction streams, as the
MGPUSim capture writes them) through the SM timing model of model-spec §3
(LATTE-CC Table II: 15 SMs, 48 warps, 2 GTO schedulers, a 16 KB L1 with 4×
tags and 32-byte sub-blocks, a 768 KB L2, 120/220-cycle L2 hit/miss) under
each L1 policy of -policy. It runs the LATTE-CC study of package study
(linecomp study plan latte runs the same jobs resumably, or on a cluster):

  none       no compression (always run: the baseline of every speedup)
  bdi, sc2, bpc
             every line with that codec (Static-BDI, Static-SC², Static-BPC);
             SC² learns its code book as LATTE-CC does
  latte      LATTE-CC: none, BDI or SC² per EP, least AMAT_GPU
  hitcount   Adaptive-Hit-Count: most hits in the dedicated sets
  cmp        Adaptive-CMP: Alameldeen & Wood's cost-benefit counters
  kernelopt  Kernel-OPT: per kernel the fastest of none, bdi and sc2 (an
             oracle; only cycles are reported)
  latte-bpc  LATTE-CC-BDI-BPC: none, BDI or BPC
  latte-own  LATTE-CC counting only hits to a dedicated set's own mode's
             lines (policy/latte's OwnLinesOnly)
  latte-prev LATTE-CC with every rule before the 2026-12 revision of the
             model spec (the numbers of earlier releases); one earlier rule
             each: latte-observed (hit latency from the mode's own
             decompressor), latte-strided (the earlier dedicated sets),
             latte-shared (one decompressor for all modes), latte-smwide
             (Eq. 4 from SM-wide sums)

Groups: paper (none, bdi, sc2, hitcount, cmp, latte, kernelopt; the
default), earlier (the five latte-… variants of the earlier rules), all.

Latencies are LATTE-CC's (BDI 2/2, SC² 6/14, BPC decompression 11 cycles);
energy uses LATTE-CC's per-operation figures (BDI 0.192/0.056 nJ, SC²
0.42/0.336 nJ per compression/decompression; none is given for BPC).
Runs go in parallel on all cores. Prints per workload and policy: the
workload's class, cycles, IPC, speedup over none, L1 miss rate and miss
reduction, effective capacity, decompressions, mean decompression queue
wait, energy, and for the adaptive policies the share of EPs in each mode;
then each workload's class (LATTE-CC §IV-B: C-Sens when an uncompressed L1
with 4× the sets runs it more than 20% faster; -classes=false skips that
run) and the geometric mean speedup of each policy per class; with -sweep,
LATTE-CC's speedup at each sampling point (the paper's defaults marked; a
sensitivity result, never a way to choose them). CSV and JSON hold the
first table only. -timeline writes every adaptive policy's decisions as
CSV and -svg draws SM 0's (effective capacity and mode over time, the shape
of LATTE-CC Fig. 16). Without traces it replays the committed sample warp
traces.

-design runs CABA §7's designs instead (an uncompressed L1; sim/mem's six
GDDR5 controllers below the L2; a 32-byte-per-cycle interconnect):
base (nothing compressed), hw-bdi-mem (DRAM only, 1-cycle decompression at
the controller), hw-bdi (DRAM and interconnect, 1 cycle at the SM),
caba-bdi, caba-fpc, caba-cpack (DRAM and interconnect in CABA's formats,
assist warps decompressing and compressing) and ideal-bdi (hw-bdi at no
latency). It prints IPC, speedup over base, DRAM bandwidth utilisation,
the compression ratio in bursts, the metadata cache's hit rate, flits,
assist-warp instructions and their share of issue slots.`

func runSimGPU(e *env, c *command, args []string) error {
	fs := newFlags(e, c, simGPUHelp+"\n\n"+configHelp())
	policyList := fs.String("policy", "paper", "policies or groups, comma-separated: paper, earlier, all, or names (see above)")
	classes := fs.Bool("classes", true, "run each workload on an uncompressed L1 with 4× the sets for its class (C-Sens/C-InSens)")
	sweep := fs.String("sweep", "", `LATTE-CC sensitivity sweep, e.g. "ep=256,1024,4096 sets=4,8" (keys ep, learn, period, sets)`)
	configFile := fs.String("config", "", "JSON file of machine overrides (keys below)")
	format := fs.String("format", "text", "output: text, csv or json")
	timeline := fs.String("timeline", "", "write every adaptive policy's decisions (every workload, SM and EP) to this CSV file")
	svg := fs.String("svg", "", "draw SM 0's decisions (capacity and mode over time) of every workload and adaptive policy into this SVG file")
	designList := fs.String("design", "", "instead of L1 policies, CABA §7's designs, comma-separated, or all: base, hw-bdi-mem, hw-bdi, caba-bdi, caba-fpc, caba-cpack, ideal-bdi")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := parseFormat(*format); err != nil {
		return err
	}
	// Everything is checked before any trace is read.
	params := study.Params{"policies": *policyList, "sweep": *sweep}
	if *configFile != "" {
		data, err := os.ReadFile(*configFile)
		if err != nil {
			return usageError{fmt.Errorf("-config: %w", unwrapPathError(err))}
		}
		over, err := study.ParseOverrides(data)
		if err != nil {
			return usagef("-config %s: %v", *configFile, stripStudy(err))
		}
		if err := study.CheckOverrides(over); err != nil {
			return usagef("-config %s: %v", *configFile, err)
		}
		params["config"] = string(data)
	}
	if !*classes {
		params["classes"] = "off"
	}
	if *designList != "" {
		dp := study.Params{"designs": *designList}
		if c, ok := params["config"]; ok {
			dp["config"] = c
		}
		if err := study.Validate("caba", dp); err != nil {
			return usagef("-design: %v", stripStudy(err))
		}
		jobs, results, failed := runStudyOn(e, "caba", dp, warpTraceSources(e, inputs))
		if len(jobs) == 0 {
			return failed
		}
		tables, err := study.Aggregate(&study.PlanFile{Study: "caba", Jobs: jobs}, results)
		if err != nil {
			return err
		}
		if err := study.WriteTables(e.stdout, tables, *format); err != nil {
			return err
		}
		return failed
	}
	names, _, err := study.ExpandLattePolicies(*policyList)
	if err != nil {
		return usagef("-policy: %v", stripStudy(err))
	}
	if *timeline != "" || *svg != "" {
		if !slices.ContainsFunc(names, adaptive) {
			return usagef("-timeline and -svg draw the decisions of an adaptive policy; -policy %q has none (add latte, hitcount or cmp)", *policyList)
		}
		params["timeline"] = "on"
	}
	if err := study.Validate("latte", params); err != nil {
		return usagef("%v", stripStudy(err))
	}
	jobs, results, failed := runStudyOn(e, "latte", params, warpTraceSources(e, inputs))
	if len(jobs) == 0 {
		return failed
	}
	tables, err := study.AggregateLatte(jobs, results)
	if err != nil {
		return err
	}
	if err := writeTimeline(jobs, results, *timeline, *svg); err != nil {
		return err
	}
	if err := study.WriteTables(e.stdout, tables.Tables(), *format); err != nil {
		return err
	}
	return failed
}

// runStudyOn runs a study's jobs on each warp trace in turn, all of one
// trace's jobs in parallel, and returns the jobs and results of the traces
// that worked; a trace that fails is reported and the others still run.
func runStudyOn(e *env, name string, params study.Params, srcs []source) ([]study.Job, []json.RawMessage, error) {
	var jobs []study.Job
	var results []json.RawMessage
	if len(srcs) == 0 {
		return nil, nil, usagef("no trace given, and no sample warp trace is embedded")
	}
	failed := e.eachInput(srcs, func(in *input) error {
		w, cleanup, err := workloadOf(in)
		if err != nil {
			return err
		}
		defer cleanup()
		if err := checkWarpWorkload(w); err != nil {
			return err
		}
		plan, err := study.Plan(name, []study.Workload{w}, params)
		if err != nil {
			return err
		}
		res, err := study.RunJobs(plan.Jobs, 0, func(done, total int) {
			e.progress.show("%s: %d of %d runs", in.name, done, total)
		})
		if err != nil {
			return err
		}
		jobs = append(jobs, plan.Jobs...)
		results = append(results, res...)
		return nil
	})
	e.progress.clear()
	return jobs, results, failed
}

// adaptive reports whether the LATTE-CC study's policy of that name
// decides per EP (and so has decisions to draw).
func adaptive(name string) bool {
	for _, p := range study.LattePolicies() {
		if p.Name == name {
			return p.Attach && p.Kind != latte.Static
		}
	}
	return false
}

// configHelp lists the -config keys.
func configHelp() string {
	var b strings.Builder
	b.WriteString("-config FILE is one JSON object; a key left out keeps LATTE-CC's Table II value:\n")
	for _, k := range study.OverrideKeys() {
		fmt.Fprintf(&b, "\n  %-15s %s", k[0], k[1])
	}
	return b.String()
}

// stripStudy removes the "study: " of the library's errors, which the
// command's own messages do not need.
func stripStudy(err error) string { return strings.ReplaceAll(err.Error(), "study: ", "") }

// workloadOf returns the study workload of an input: an embedded sample or
// a regular file as it is, anything else (standard input, a FIFO) copied
// to a temporary file first, since every job reads it again.
func workloadOf(in *input) (study.Workload, func(), error) {
	none := func() {}
	if in.file != nil && in.opened != nil && in.opened.Mode().IsRegular() {
		w, err := study.FileWorkload(in.name)
		return w, none, err
	}
	if strings.HasPrefix(in.name, "sample/") && in.seeker != nil {
		w, err := study.FileWorkload(in.name)
		return w, none, err
	}
	f, err := os.CreateTemp("", "linecomp-trace-*.lct")
	if err != nil {
		return study.Workload{}, none, err
	}
	cleanup := func() { os.Remove(f.Name()) }
	_, err = io.Copy(f, in)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cleanup()
		return study.Workload{}, none, err
	}
	w, err := study.FileWorkload(f.Name())
	w.Name = in.name
	return w, cleanup, err
}

// openWarpTrace opens a warp trace of 128-byte lines, refusing a line trace
// with what to capture instead.
func openWarpTrace(r io.Reader) (*warp.Reader, error) {
	tf, err := openTrace(r)
	if err != nil {
		return nil, err
	}
	if tf.line != nil {
		got := "a line trace"
		if s := streamOf(tf.line.Header().Source); s != "" {
			got += " of the " + s + " stream"
		}
		return nil, wrongTrace(got, "warps")
	}
	wr := tf.warp
	if ls := wr.Header().LineSize; ls != 128 {
		return nil, fmt.Errorf("the trace has %d-byte lines; the GPU model's L1 takes 128 (capture with -line 128)", ls)
	}
	return wr, nil
}

// checkWarpWorkload reads the header of a workload's trace, so that a trace
// of the wrong kind is refused before any job runs.
func checkWarpWorkload(w study.Workload) error {
	r, err := w.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = openWarpTrace(r)
	return err
}

// warpTraceSources returns the named sources or the sample warp traces.
func warpTraceSources(e *env, args []string) []source {
	return lineTraceSources(e, args, "warps")
}

// timeline is the decisions of one adaptive policy on one workload.
type timeline struct {
	workload, policy string
	modes            []string
	decisions        []latte.Decision
}

// timelines returns the decisions in the results, in plan order.
func timelines(jobs []study.Job, results []json.RawMessage) ([]timeline, error) {
	var out []timeline
	for i, j := range jobs {
		if j.Params["timeline"] != "on" {
			continue
		}
		var r study.LatteResult
		if err := json.Unmarshal(results[i], &r); err != nil {
			return nil, err
		}
		t := timeline{workload: j.Workload.Name, policy: j.Params["policy"], decisions: r.Decisions}
		for _, p := range study.LattePolicies() {
			if p.Name == t.policy {
				t.modes = p.Modes
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// writeTimeline writes every adaptive policy's decisions as CSV and SM 0's
// as SVG. A workload too short for one decision is said on the chart.
func writeTimeline(jobs []study.Job, results []json.RawMessage, csvPath, svgPath string) error {
	if csvPath == "" && svgPath == "" {
		return nil
	}
	ts, err := timelines(jobs, results)
	if err != nil {
		return err
	}
	if csvPath != "" {
		var b bytes.Buffer
		if err := writeDecisionsCSV(&b, ts); err != nil {
			return err
		}
		if err := os.WriteFile(csvPath, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if svgPath != "" {
		return os.WriteFile(svgPath, timelineSVG(ts), 0o644)
	}
	return nil
}

// timelineSVG draws, for SM 0 of every workload and adaptive policy, the
// effective capacity (a line, on an axis that reaches the largest capacity
// drawn) and the chosen mode (a band of colours) over the EPs, against the
// cycle each EP started: the shape of LATTE-CC Fig. 16, one panel each.
func timelineSVG(ts []timeline) []byte {
	const w, left, right, panelH, plotH, gap = 960, 60, 20, 250, 150, 20
	h := 20 + len(ts)*panelH
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, max(h, 60))
	if len(ts) == 0 {
		b.WriteString(`<text x="10" y="30">no adaptive policy ran</text>` + "\n")
	}
	colours := [3]string{"#bbbbbb", "#4c9be8", "#e8884c"}
	for i, t := range ts {
		top := 20 + i*panelH + gap
		var sm0 []latte.Decision
		for _, d := range t.decisions {
			if d.SM == 0 {
				sm0 = append(sm0, d)
			}
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold">%s on %s, SM 0: effective capacity (line) and mode per EP (band)</text>`+"\n",
			left, top-6, escapeXML(t.policy), escapeXML(t.workload))
		if len(sm0) == 0 {
			fmt.Fprintf(&b, `<text x="%d" y="%d">no decision: the run is shorter than its first learning EPs on SM 0</text>`+"\n", left, top+40)
			continue
		}
		maxCap := 1.0
		for _, d := range sm0 {
			maxCap = max(maxCap, d.Capacity)
		}
		maxCap = math.Ceil(maxCap*2) / 2 // a tick every 0.5×
		first, last := sm0[0].Cycle, sm0[len(sm0)-1].Cycle
		span := float64(max(last-first, 1))
		x := func(c uint64) float64 { return left + float64(c-first)/span*float64(w-left-right) }
		step := float64(w-left-right) / float64(len(sm0))
		for k, d := range sm0 {
			fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="12" fill="%s"/>`+"\n", left+float64(k)*step, top+plotH+26, step+0.5, colours[d.Mode%3])
		}
		var pts []string
		for _, d := range sm0 {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(d.Cycle), float64(top+plotH)-d.Capacity/maxCap*plotH))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="black" stroke-width="1.5" points="%s"/>`+"\n", strings.Join(pts, " "))
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>`+"\n", left, top+plotH, w-right, top+plotH)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>`+"\n", left, top, left, top+plotH)
		for v := 0.0; v <= maxCap+1e-9; v += 0.5 {
			y := float64(top+plotH) - v/maxCap*plotH
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%.1f×</text>`+"\n", left-4, y+4, v)
		}
		for k := 0; k <= 4; k++ {
			c := first + uint64(float64(last-first)*float64(k)/4)
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(c), top+plotH+16, c)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">cycle</text>`+"\n", w-right, top+plotH+52)
		for m, name := range t.modes {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n",
				left+m*150, top+plotH+42, colours[m%3], left+m*150+16, top+plotH+52, escapeXML(name))
		}
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// writeDecisionsCSV writes the decisions as CSV with a header row: the
// workload and policy, then per decision the EP's place and measurements,
// per mode the queue position, hit latency, AMAT_GPU, N_hit and N_miss,
// Adaptive-CMP's counters and the mode chosen.
func writeDecisionsCSV(w io.Writer, ts []timeline) error {
	cw := csv.NewWriter(w)
	cw.Write(strings.Split("workload,policy,sm,period,ep,cycle,capacity,tolerance,miss_latency,queue_none,queue_low,queue_high,hit_none,hit_low,hit_high,amat_none,amat_low,amat_high,nhit_none,nhit_low,nhit_high,nmiss_none,nmiss_low,nmiss_high,cmp_low,cmp_high,mode", ","))
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, t := range ts {
		for _, d := range t.decisions {
			rec := []string{t.workload, t.policy, strconv.Itoa(d.SM), strconv.Itoa(d.Period), strconv.Itoa(d.EP),
				strconv.FormatUint(d.Cycle, 10), f(d.Capacity), f(d.Tolerance), f(d.MissLatency)}
			for _, vs := range [][3]float64{d.QueuePosition, d.HitLatency, d.AMAT} {
				for _, v := range vs {
					rec = append(rec, f(v))
				}
			}
			for _, vs := range [][3]uint64{d.NHit, d.NMiss} {
				for _, v := range vs {
					rec = append(rec, strconv.FormatUint(v, 10))
				}
			}
			mode := strconv.Itoa(d.Mode)
			if d.Mode < len(t.modes) {
				mode = t.modes[d.Mode]
			}
			rec = append(rec, strconv.FormatInt(d.CMP[1], 10), strconv.FormatInt(d.CMP[2], 10), mode)
			cw.Write(rec)
		}
	}
	cw.Flush()
	return cw.Error()
}
