package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/sim/gpu"
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
each L1 policy of -policy:

  none       no compression
  bdi, sc2, bpc
             every line with that codec (Static-BDI, Static-SC², Static-BPC);
             SC² learns its code book as LATTE-CC does
  latte      LATTE-CC: none, BDI or SC² per EP, least AMAT_GPU
  latte-bpc  LATTE-CC-BDI-BPC: none, BDI or BPC
  latte-own  LATTE-CC counting only hits to a dedicated set's own mode's
             lines (not in "all"; see policy/latte's OwnLinesOnly)
  hitcount   Adaptive-Hit-Count: most hits in the dedicated sets
  cmp        Adaptive-CMP: Alameldeen & Wood's cost-benefit counters
  kernelopt  Kernel-OPT: per kernel the fastest of none, bdi and sc2 (an
             oracle; only cycles are reported)
  all        every one of them

Latencies are LATTE-CC's (BDI 2/2, SC² 6/14, BPC decompression 11 cycles);
energy uses LATTE-CC's per-operation figures (BDI 0.192/0.056 nJ, SC²
0.42/0.336 nJ per compression/decompression; none is given for BPC).
Configurations run in parallel on all cores. Prints per workload and
policy: cycles, IPC, speedup over none, L1 miss rate and miss reduction,
effective capacity, decompressions, mean decompression queue wait, energy,
and for the adaptive policies the share of EPs in each mode. -config
changes the machine (a JSON object; see -h of the README); -timeline
writes LATTE-CC's decisions as CSV and -svg draws them (effective capacity
and mode over time of SM 0, the shape of LATTE-CC Fig. 16). Without traces
it replays the committed sample warp traces.

-design runs CABA §7's designs instead (an uncompressed L1; sim/mem's six
GDDR5 controllers below the L2; a 32-byte-per-cycle interconnect):
base (nothing compressed), hw-bdi-mem (DRAM only, 1-cycle decompression at
the controller), hw-bdi (DRAM and interconnect, 1 cycle at the SM),
caba-bdi, caba-fpc, caba-cpack (DRAM and interconnect in CABA's formats,
assist warps decompressing and compressing) and ideal-bdi (hw-bdi at no
latency). It prints IPC, speedup over base, DRAM bandwidth utilisation,
the compression ratio in bursts, the metadata cache's hit rate, flits,
assist-warp instructions and their share of issue slots.`

// gpuPolicy is one L1 configuration of the study.
type gpuPolicy struct {
	name     string
	modes    []string // codec per mode
	kind     latte.Kind
	policy   bool // attach a latte policy (adaptive, or static with a trainable codec)
	ownLines bool // latte.Config.OwnLinesOnly
	extra    bool // not part of -policy all
}

var gpuPolicies = []gpuPolicy{
	{name: "none", modes: []string{"none"}},
	{name: "bdi", modes: []string{"bdi"}},
	{name: "sc2", modes: []string{"sc2"}, kind: latte.Static, policy: true},
	{name: "bpc", modes: []string{"bpc"}},
	{name: "latte", modes: []string{"none", "bdi", "sc2"}, kind: latte.LatteCC, policy: true},
	{name: "latte-bpc", modes: []string{"none", "bdi", "bpc"}, kind: latte.LatteCC, policy: true},
	{name: "hitcount", modes: []string{"none", "bdi", "sc2"}, kind: latte.HitCount, policy: true},
	{name: "cmp", modes: []string{"none", "bdi", "sc2"}, kind: latte.CMP, policy: true},
	// The variant that counts only a dedicated set's own mode's lines
	// (latte.Config.OwnLinesOnly), to measure what the literal rule costs.
	{name: "latte-own", modes: []string{"none", "bdi", "sc2"}, kind: latte.LatteCC, policy: true, ownLines: true, extra: true},
}

// gpuOverrides is the -config file: fields left out keep LATTE-CC's value.
type gpuOverrides struct {
	SMs          *int    `json:"sms"`
	WarpsPerSM   *int    `json:"warps_per_sm"`
	BlocksPerSM  *int    `json:"blocks_per_sm"`
	Schedulers   *int    `json:"schedulers"`
	Scheduling   *string `json:"scheduling"` // "gto" or "lrr"
	MSHRs        *int    `json:"mshrs"`
	L1Sets       *int    `json:"l1_sets"`
	L1Ways       *int    `json:"l1_ways"`
	L1TagFactor  *int    `json:"l1_tag_factor"`
	L1SubBlock   *int    `json:"l1_sub_block"`
	L1HitLatency *int    `json:"l1_hit_latency"`
	L2HitLatency *int    `json:"l2_hit_latency"`
	MemLatency   *int    `json:"mem_latency"`
}

func (o gpuOverrides) apply(c *gpu.Config) error {
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.SMs, o.SMs)
	set(&c.WarpsPerSM, o.WarpsPerSM)
	set(&c.BlocksPerSM, o.BlocksPerSM)
	set(&c.Schedulers, o.Schedulers)
	set(&c.MSHRs, o.MSHRs)
	set(&c.L1.Sets, o.L1Sets)
	set(&c.L1.Ways, o.L1Ways)
	set(&c.L1.TagFactor, o.L1TagFactor)
	set(&c.L1.SubBlock, o.L1SubBlock)
	set(&c.L1.HitLatency, o.L1HitLatency)
	set(&c.L2HitLatency, o.L2HitLatency)
	if o.MemLatency != nil {
		c.Memory = gpu.FixedLatency(*o.MemLatency)
	}
	if o.Scheduling != nil {
		switch *o.Scheduling {
		case "gto":
			c.Scheduling = gpu.GTO
		case "lrr":
			c.Scheduling = gpu.LRR
		default:
			return fmt.Errorf("scheduling %q: want gto or lrr", *o.Scheduling)
		}
	}
	return nil
}

// gpuRow is one (workload, policy) result.
type gpuRow struct {
	Workload          string             `json:"workload"`
	Policy            string             `json:"policy"`
	Cycles            uint64             `json:"cycles"`
	Instructions      uint64             `json:"instructions"`
	IPC               float64            `json:"ipc"`
	Speedup           float64            `json:"speedup"`
	L1Accesses        uint64             `json:"l1_accesses"`
	L1LoadMisses      uint64             `json:"l1_load_misses"`
	L1MissRate        float64            `json:"l1_miss_rate"`
	MissReduction     float64            `json:"l1_miss_reduction"`
	EffectiveCapacity float64            `json:"effective_capacity"`
	Decompressions    uint64             `json:"decompressions"`
	MeanQueueWait     float64            `json:"mean_queue_wait"`
	EnergyNJ          *float64           `json:"energy_nj"` // null when a codec has no published figure
	EnergySource      string             `json:"energy_source"`
	ModeShare         map[string]float64 `json:"mode_share,omitempty"`
	KernelCycles      []uint64           `json:"kernel_cycles"`
	oracle            bool
	decisions         []latte.Decision
}

func runSimGPU(e *env, c *command, args []string) error {
	fs := newFlags(e, c, simGPUHelp)
	policyList := fs.String("policy", "all", "policies, comma-separated, or all")
	configFile := fs.String("config", "", "JSON file of machine overrides")
	format := fs.String("format", "text", "output: text, csv or json")
	timeline := fs.String("timeline", "", "write LATTE-CC's decisions (every SM, every EP) to this CSV file")
	svg := fs.String("svg", "", "draw SM 0's LATTE-CC timeline into this SVG file")
	designList := fs.String("design", "", "instead of L1 policies, CABA §7's designs, comma-separated, or all: base, hw-bdi-mem, hw-bdi, caba-bdi, caba-fpc, caba-cpack, ideal-bdi")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := parseFormat(*format); err != nil {
		return err
	}
	policies, oracle, err := selectPolicies(*policyList)
	if err != nil {
		return err
	}
	var designs []gpuDesign
	if *designList != "" {
		if designs, err = selectDesigns(*designList); err != nil {
			return err
		}
	}
	var over gpuOverrides
	if *configFile != "" {
		data, err := os.ReadFile(*configFile)
		if err != nil {
			return usageError{err}
		}
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&over); err != nil {
			return usagef("-config %s: %v", *configFile, err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return usagef("-config %s: more after the JSON object", *configFile)
		}
	}
	// Every size and latency is checked once, before any trace is read.
	cfg, err := gpuConfig(policies[0], over)
	if err == nil {
		_, err = gpu.New(cfg)
	}
	if err != nil {
		return usagef("-config %s: %v", *configFile, err)
	}
	srcs := warpTraceSources(e, inputs)
	if len(srcs) == 0 {
		return usagef("no trace given, and no sample warp trace is embedded")
	}
	var rows []gpuRow
	var drows []designRow
	failed := e.eachInput(srcs, func(in *input) error {
		e.progress.show("%s: reading", in.name)
		kernels, err := readKernels(in)
		if err != nil {
			return err
		}
		if designs != nil {
			got, err := runDesigns(e, in.name, kernels, designs, over)
			drows = append(drows, got...)
			return err
		}
		got, err := runPolicies(e, in.name, kernels, policies, over)
		if err != nil {
			return err
		}
		if oracle {
			got = append(got, kernelOpt(in.name, got))
		}
		finishRows(got)
		rows = append(rows, got...)
		return nil
	})
	e.progress.clear()
	if designs != nil {
		if err := printDesignRows(e.stdout, drows, *format); err != nil {
			return err
		}
		return failed
	}
	if err := writeTimeline(rows, *timeline, *svg); err != nil {
		return err
	}
	if err := printGPURows(e.stdout, rows, *format); err != nil {
		return err
	}
	return failed
}

// selectPolicies parses -policy; kernelopt needs none, bdi and sc2.
func selectPolicies(list string) ([]gpuPolicy, bool, error) {
	byName := map[string]gpuPolicy{}
	var all []string
	var every []string
	for _, p := range gpuPolicies {
		byName[p.name] = p
		every = append(every, p.name)
		if !p.extra {
			all = append(all, p.name)
		}
	}
	want := strings.Split(list, ",")
	if list == "all" {
		want = append(all, "kernelopt")
	}
	all = every
	seen := map[string]bool{}
	var out []gpuPolicy
	oracle := false
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, byName[n])
		}
	}
	add("none") // the baseline of every speedup
	for _, n := range want {
		n = strings.TrimSpace(n)
		switch {
		case n == "kernelopt":
			oracle = true
			add("bdi")
			add("sc2")
		case byName[n].name != "":
			add(n)
		default:
			return nil, false, usagef("-policy %q: want %s, kernelopt or all", n, strings.Join(all, ", "))
		}
	}
	return out, oracle, nil
}

// l1Codec builds the codec of one L1 mode with LATTE-CC's latencies.
func l1Codec(name string, lineSize int) (linecomp.Codec, error) {
	if name == "bdi" {
		lat, _ := linecomp.PresetLatency(linecomp.SourceLatteCC, "bdi") // 2/2 cycles (§IV-A1)
		return bdi.New(lineSize, bdi.WithLatency(lat))
	}
	return linecomp.New(name, lineSize) // sc2 6/14 and bpc –/11 are LATTE-CC's by default
}

// gpuConfig returns the machine for policy p.
func gpuConfig(p gpuPolicy, over gpuOverrides) (gpu.Config, error) {
	var modes []linecomp.Codec
	for _, m := range p.modes {
		c, err := l1Codec(m, 128)
		if err != nil {
			return gpu.Config{}, err
		}
		modes = append(modes, c)
	}
	cfg, err := gpu.LatteConfig(modes...)
	if err != nil {
		return cfg, err
	}
	if err := over.apply(&cfg); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// warpTraceSources returns the named sources or the sample warp traces.
func warpTraceSources(e *env, args []string) []source {
	return lineTraceSources(e, args, "warps")
}

// readKernels reads every kernel of a warp trace.
func readKernels(r io.Reader) ([]*gpu.Kernel, error) {
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
		return nil, fmt.Errorf("the trace has %d-byte lines; the GPU model's L1 takes 128", ls)
	}
	var ks []*gpu.Kernel
	for {
		_, err := wr.NextKernel()
		if errors.Is(err, io.EOF) {
			return ks, nil
		}
		if err != nil {
			return nil, err
		}
		k, err := gpu.ReadKernel(wr)
		if err != nil {
			return nil, err
		}
		ks = append(ks, k)
	}
}

// runPolicies runs every policy over the kernels, in parallel.
func runPolicies(e *env, workload string, kernels []*gpu.Kernel, policies []gpuPolicy, over gpuOverrides) ([]gpuRow, error) {
	rows := make([]gpuRow, len(policies))
	errs := make([]error, len(policies))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for i, p := range policies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rows[i], errs[i] = runPolicy(workload, kernels, p, over)
			mu.Lock()
			done++
			e.progress.show("%s: %d of %d policies", workload, done, len(policies))
			mu.Unlock()
		}()
	}
	wg.Wait()
	return rows, errors.Join(errs...)
}

// runPolicy runs one policy over the kernels on a fresh machine.
func runPolicy(workload string, kernels []*gpu.Kernel, p gpuPolicy, over gpuOverrides) (gpuRow, error) {
	cfg, err := gpuConfig(p, over)
	if err != nil {
		return gpuRow{}, err
	}
	var pols []*latte.Policy
	if p.policy {
		cfg.AttachL1 = func(sm int, l1 *cache.Cache, probe *gpu.Probe) error {
			pol, err := latte.New(l1, probe, latte.Config{Kind: p.kind, SM: sm, InitialMissLatency: float64(cfg.L2HitLatency), OwnLinesOnly: p.ownLines})
			pols = append(pols, pol)
			return err
		}
	}
	g, err := gpu.New(cfg)
	if err != nil {
		return gpuRow{}, err
	}
	row := gpuRow{Workload: workload, Policy: p.name}
	for _, k := range kernels {
		ks, err := g.Run(k)
		if err != nil {
			return row, fmt.Errorf("%s: %w", p.name, err)
		}
		row.KernelCycles = append(row.KernelCycles, ks.Cycles)
	}
	for _, pol := range pols {
		if err := pol.Err(); err != nil {
			return row, err
		}
	}
	s := g.Stats()
	row.Cycles, row.Instructions, row.IPC = s.Cycles, s.Instructions, s.IPC()
	row.L1Accesses, row.L1LoadMisses = s.L1.Accesses, s.L1.LoadMisses
	if n := s.L1.LoadHits + s.L1.LoadMisses; n > 0 {
		row.L1MissRate = float64(s.L1.LoadMisses) / float64(n)
	}
	row.EffectiveCapacity = s.L1.EffectiveCapacity()
	row.Decompressions = s.L1.Decompressions
	if s.L1.Decompressions > 0 {
		row.MeanQueueWait = float64(s.L1.QueueWait) / float64(s.L1.Decompressions)
	}
	row.EnergyNJ, row.EnergySource = l1Energy(cfg.L1.Modes, s.L1)
	if p.kind != latte.Static && len(pols) > 0 {
		var eps [3]uint64
		for _, pol := range pols {
			me := pol.ModeEPs()
			for m := range eps {
				eps[m] += me[m]
			}
			row.decisions = append(row.decisions, pol.Decisions()...)
		}
		total := eps[0] + eps[1] + eps[2]
		row.ModeShare = map[string]float64{}
		for m, n := range eps {
			if total > 0 {
				row.ModeShare[p.modes[m]] = float64(n) / float64(total)
			}
		}
	}
	return row, nil
}

// l1Energy charges LATTE-CC's per-operation energy: a compression per fill
// and a decompression per compressed hit, in each mode whose codec has
// published figures. It returns nil when some mode's codec has none.
func l1Energy(modes []linecomp.Codec, s cache.Stats) (*float64, string) {
	pj := 0.0
	for m, c := range modes {
		if c.Name() == "none" {
			continue
		}
		in, err := linecomp.Lookup(c.Name())
		if err != nil {
			return nil, err.Error()
		}
		comp, ok1 := linecomp.PresetEnergy(linecomp.SourceLatteCC, in.Algorithm, linecomp.EnergyCompress)
		dec, ok2 := linecomp.PresetEnergy(linecomp.SourceLatteCC, in.Algorithm, linecomp.EnergyDecompress)
		if !ok1 || !ok2 {
			return nil, "no published energy for " + in.Algorithm
		}
		pj += float64(s.FillsByMode[m])*comp.PicoJoule + float64(s.DecompressionsByMode[m])*dec.PicoJoule
	}
	nj := pj / 1000
	return &nj, "LATTE-CC §IV-C (compression per fill, decompression per compressed hit)"
}

// kernelOpt is Kernel-OPT: per kernel, the fastest of the static none, bdi
// and sc2 runs.
func kernelOpt(workload string, rows []gpuRow) gpuRow {
	out := gpuRow{Workload: workload, Policy: "kernelopt", oracle: true}
	for _, r := range rows {
		if r.Policy != "none" && r.Policy != "bdi" && r.Policy != "sc2" {
			continue
		}
		for k, c := range r.KernelCycles {
			if k == len(out.KernelCycles) {
				out.KernelCycles = append(out.KernelCycles, c)
			} else if c < out.KernelCycles[k] {
				out.KernelCycles[k] = c
			}
		}
	}
	for _, c := range out.KernelCycles {
		out.Cycles += c
	}
	for _, r := range rows {
		if r.Policy == "none" {
			out.Instructions = r.Instructions
			if out.Cycles > 0 {
				out.IPC = float64(out.Instructions) / float64(out.Cycles)
			}
		}
	}
	return out
}

// finishRows fills in the speedup and miss reduction against none.
func finishRows(rows []gpuRow) {
	var base gpuRow
	for _, r := range rows {
		if r.Policy == "none" {
			base = r
		}
	}
	for i := range rows {
		if rows[i].Cycles > 0 {
			rows[i].Speedup = float64(base.Cycles) / float64(rows[i].Cycles)
		}
		if base.L1LoadMisses > 0 && !rows[i].oracle {
			rows[i].MissReduction = 1 - float64(rows[i].L1LoadMisses)/float64(base.L1LoadMisses)
		}
	}
}

func printGPURows(w io.Writer, rows []gpuRow, format string) error {
	if format == "json" {
		if rows == nil {
			rows = []gpuRow{}
		}
		return writeJSON(w, rows)
	}
	t := table{header: []string{"workload", "policy", "cycles", "ipc", "speedup", "l1_miss_rate", "miss_reduction",
		"eff_capacity", "decompressions", "queue_wait", "energy_nj", "modes"}}
	for _, r := range rows {
		energy := notApplicable
		if r.EnergyNJ != nil {
			energy = ffmt(*r.EnergyNJ, 1)
		}
		if r.oracle {
			na := notApplicable
			t.add(r.Workload, r.Policy, utoa(r.Cycles), ffmt(r.IPC, 3), ffmt(r.Speedup, 3), na, na, na, na, na, na, "")
			continue
		}
		var share []string
		for m, v := range r.ModeShare {
			share = append(share, fmt.Sprintf("%s:%.2f", m, v))
		}
		sort.Strings(share)
		t.add(r.Workload, r.Policy, utoa(r.Cycles), ffmt(r.IPC, 3), ffmt(r.Speedup, 3), ffmt(r.L1MissRate, 3),
			ffmt(r.MissReduction, 3), ffmt(r.EffectiveCapacity, 3), utoa(r.Decompressions), ffmt(r.MeanQueueWait, 2),
			energy, strings.Join(share, " "))
	}
	if err := t.write(w, format); err != nil {
		return err
	}
	if format == "text" {
		fmt.Fprintln(w, "\nenergy: L1 compression and decompression only, LATTE-CC §IV-C (BDI 0.192/0.056 nJ, SC² 0.42/0.336 nJ); n/a where no paper gives a figure (BPC)")
	}
	return nil
}

// writeTimeline writes the LATTE-CC decisions as CSV and SM 0's as SVG.
func writeTimeline(rows []gpuRow, csvPath, svgPath string) error {
	if csvPath == "" && svgPath == "" {
		return nil
	}
	var ds []latte.Decision
	var label string
	for _, r := range rows {
		if r.Policy == "latte" {
			ds = append(ds, r.decisions...)
			label = r.Workload
			break
		}
	}
	if len(ds) == 0 {
		return fmt.Errorf("-timeline/-svg: no LATTE-CC decisions (run -policy latte)")
	}
	if csvPath != "" {
		f, err := os.Create(csvPath)
		if err != nil {
			return err
		}
		if err := latte.WriteCSV(f, ds); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if svgPath != "" {
		var sm0 []latte.Decision
		for _, d := range ds {
			if d.SM == 0 {
				sm0 = append(sm0, d)
			}
		}
		return os.WriteFile(svgPath, timelineSVG(label, sm0), 0o644)
	}
	return nil
}

// timelineSVG draws effective capacity (a line) and the chosen mode (a band
// of colours) over the EPs of one SM, the shape of LATTE-CC Fig. 16.
func timelineSVG(label string, ds []latte.Decision) []byte {
	const w, h, left, top, plotH = 900, 300, 50, 30, 200
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%d" y="18">LATTE-CC on %s, SM 0: effective capacity (line, 0–2×) and mode per EP (band)</text>`+"\n", left, escapeXML(label))
	maxCap := 2.0
	for _, d := range ds {
		maxCap = max(maxCap, d.Capacity)
	}
	n := max(len(ds), 1)
	step := float64(w-left-20) / float64(n)
	colours := [3]string{"#bbbbbb", "#4c9be8", "#e8884c"}
	for i, d := range ds {
		x := float64(left) + float64(i)*step
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="12" fill="%s"/>`+"\n", x, top+plotH+10, step+0.5, colours[d.Mode%3])
	}
	var pts []string
	for i, d := range ds {
		x := float64(left) + (float64(i)+0.5)*step
		y := float64(top+plotH) - d.Capacity/maxCap*plotH
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
	}
	fmt.Fprintf(&b, `<polyline fill="none" stroke="black" stroke-width="1.5" points="%s"/>`+"\n", strings.Join(pts, " "))
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>`+"\n", left, top+plotH, w-20, top+plotH)
	for _, v := range []float64{0, 1, 2} {
		y := float64(top+plotH) - v/maxCap*plotH
		fmt.Fprintf(&b, `<text x="10" y="%.1f">%.0f×</text>`+"\n", y+4, v)
	}
	for m, name := range []string{"none", "low latency (BDI)", "high capacity (SC²)"} {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n",
			left+m*200, h-20, colours[m], left+m*200+16, h-10, name)
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
