package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/trace/warp"
)

// LattePolicy is one L1 configuration of the LATTE-CC study.
type LattePolicy struct {
	Name  string
	Modes []string // codec per mode
	Kind  latte.Kind
	// Attach: install a latte.Policy (adaptive, or static with a
	// trainable codec that learns its code book as LATTE-CC does).
	Attach bool
	// Earlier rules (model-spec before 2026-12), to reproduce old results.
	OwnLinesOnly, ObservedQueue, StridedSets, SharedDecompressor, SMWideTolerance bool
	// Why says what the policy is, for help texts.
	Why string
}

var latteTriple = []string{"none", "bdi", "sc2"}

// LattePolicies lists the L1 policies of the LATTE-CC study, the paper's
// first; Kernel-OPT ("kernelopt") is derived from none, bdi and sc2.
var lattePolicies = []LattePolicy{
	{Name: "none", Modes: []string{"none"}, Why: "no compression (the baseline of every speedup)"},
	{Name: "bdi", Modes: []string{"bdi"}, Why: "Static-BDI: every line with BDI"},
	{Name: "sc2", Modes: []string{"sc2"}, Kind: latte.Static, Attach: true, Why: "Static-SC²: every line with SC², its code book learned as LATTE-CC does"},
	{Name: "hitcount", Modes: latteTriple, Kind: latte.HitCount, Attach: true, Why: "Adaptive-Hit-Count: most hits in the dedicated sets"},
	{Name: "cmp", Modes: latteTriple, Kind: latte.CMP, Attach: true, Why: "Adaptive-CMP: Alameldeen & Wood's cost-benefit counters"},
	{Name: "latte", Modes: latteTriple, Kind: latte.LatteCC, Attach: true, Why: "LATTE-CC: none, BDI or SC² per EP, least AMAT_GPU"},
	{Name: "bpc", Modes: []string{"bpc"}, Why: "Static-BPC"},
	{Name: "latte-bpc", Modes: []string{"none", "bdi", "bpc"}, Kind: latte.LatteCC, Attach: true, Why: "LATTE-CC-BDI-BPC (§V-E): none, BDI or BPC"},
	{Name: "latte-own", Modes: latteTriple, Kind: latte.LatteCC, Attach: true, OwnLinesOnly: true,
		Why: "LATTE-CC counting only hits to a dedicated set's own mode's lines (latte.Config.OwnLinesOnly)"},
	{Name: "latte-prev", Modes: latteTriple, Kind: latte.LatteCC, Attach: true, ObservedQueue: true, StridedSets: true, SharedDecompressor: true, SMWideTolerance: true,
		Why: "LATTE-CC with every rule before 2026-12: the results of earlier releases"},
	{Name: "latte-observed", Modes: latteTriple, Kind: latte.LatteCC, Attach: true, ObservedQueue: true,
		Why: "LATTE-CC with hit(m) from m's own unit (latte.Config.ObservedQueue)"},
	{Name: "latte-strided", Modes: latteTriple, Kind: latte.LatteCC, Attach: true, StridedSets: true,
		Why: "LATTE-CC with the earlier dedicated-set layout (latte.Config.StridedSets)"},
	{Name: "latte-shared", Modes: latteTriple, Kind: latte.LatteCC, Attach: true, SharedDecompressor: true,
		Why: "LATTE-CC with one decompressor shared by all modes (cache.Config.SharedDecompressor)"},
	{Name: "latte-smwide", Modes: latteTriple, Kind: latte.LatteCC, Attach: true, SMWideTolerance: true,
		Why: "LATTE-CC with Eq. 4 from SM-wide sums (gpu.Config.SMWideTolerance)"},
}

// Policy groups of the "policies" parameter.
var (
	lattePaper   = []string{"none", "bdi", "sc2", "hitcount", "cmp", "latte", "kernelopt"}
	latteEarlier = []string{"latte-prev", "latte-observed", "latte-strided", "latte-shared", "latte-smwide"}
)

// LattePolicies returns the study's policies (a copy).
func LattePolicies() []LattePolicy {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := append([]LattePolicy(nil), lattePolicies...)
	for i := range out {
		out[i].Modes = append([]string(nil), out[i].Modes...)
	}
	return out
}

func lattePolicy(name string) (LattePolicy, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	for _, p := range lattePolicies {
		if p.Name == name {
			return p, true
		}
	}
	return LattePolicy{}, false
}

// RegisterLattePolicy adds an L1 policy to the LATTE-CC study, e.g. LATTE-CC
// with another codec in a mode (a registered codec's name) or with other
// rules. Its jobs run in the process that registered it: a plan naming it
// runs with a binary that registers it too. A name already taken, a
// policy without modes, or one whose Kind needs three modes and has not,
// is an error wrapping ErrParam.
func RegisterLattePolicy(p LattePolicy) error {
	switch {
	case p.Name == "" || strings.ContainsAny(p.Name, ", =;") || p.Name == "kernelopt" || p.Name == "paper" || p.Name == "earlier" || p.Name == "all":
		return fmt.Errorf("%w: policy name %q (a word, not a group or kernelopt)", ErrParam, p.Name)
	case len(p.Modes) == 0 || len(p.Modes) > 3:
		return fmt.Errorf("%w: policy %s: 1 to 3 modes, got %d", ErrParam, p.Name, len(p.Modes))
	case p.Kind != latte.Static && len(p.Modes) != 3:
		return fmt.Errorf("%w: policy %s: %s needs three modes (none, low latency, high capacity)", ErrParam, p.Name, p.Kind)
	}
	if _, taken := lattePolicy(p.Name); taken {
		return fmt.Errorf("%w: policy %s is registered already", ErrParam, p.Name)
	}
	if _, err := LatteMachine(p.Modes...); err != nil {
		return fmt.Errorf("%w: policy %s: %w", ErrParam, p.Name, err)
	}
	p.Modes = append([]string(nil), p.Modes...)
	registryMu.Lock()
	defer registryMu.Unlock()
	lattePolicies = append(lattePolicies, p)
	return nil
}

// LatteSampling are LATTE-CC's sampling parameters (model-spec §4).
type LatteSampling struct{ EP, Learn, Period, Sets int }

// LatteDefaults are the paper's: 256-access EPs, 1 learning EP, 10 EPs a
// period, 4 dedicated sets per mode.
var latteDefaults = LatteSampling{EP: 256, Learn: 1, Period: 10, Sets: 4}

// CSensThreshold: a workload is cache-sensitive when an uncompressed L1
// with 4× the sets runs it more than 20% faster (LATTE-CC §IV-B).
const CSensThreshold = 1.2

// latteStudy is the LATTE-CC study. Plan parameters:
//
//	policies  comma-separated policy names, or the groups "paper" (none,
//	          bdi, sc2, hitcount, cmp, latte, kernelopt; the default),
//	          "earlier" (LATTE-CC with each rule before 2026-12) and "all"
//	classes   "on" (default): add each workload's run on an uncompressed
//	          L1 with 4× the sets, for its class; "off"
//	sweep     LATTE-CC sensitivity points, e.g. "ep=256,1024;sets=4,8"
//	          (keys ep, learn, period, sets; every combination runs)
//	config    machine overrides, a JSON object (see Overrides)
//	timeline  "on": keep every LATTE-CC decision in the results
type latteStudy struct{}

func init() { mustRegister(latteStudy{}) }

func (latteStudy) Name() string { return "latte" }

func (latteStudy) Stream() string { return "warps" }

func (latteStudy) Params() map[string]string {
	return map[string]string{
		"policies": "comma-separated policies or groups: paper (default), earlier, all",
		"classes":  "on (default) or off: run a 4× uncompressed L1 per workload for its class",
		"sweep":    "LATTE-CC sensitivity points, e.g. ep=256,1024,4096;sets=4,8 (keys ep, learn, period, sets)",
		"config":   "machine overrides, a JSON object (linecomp sim gpu -h lists the keys)",
		"timeline": "on: keep every LATTE-CC decision in the results",
	}
}

// ExpandLattePolicies resolves a "policies" parameter into policy names in
// study order (none always first, as the baseline), and whether Kernel-OPT
// is wanted (which adds bdi and sc2).
func ExpandLattePolicies(list string) ([]string, bool, error) {
	if list == "" {
		list = "paper"
	}
	want := map[string]bool{"none": true}
	oracle := false
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		switch n {
		case "paper":
			for _, p := range lattePaper {
				want[p] = true
			}
		case "earlier":
			for _, p := range latteEarlier {
				want[p] = true
			}
		case "all":
			for _, p := range LattePolicies() {
				want[p.Name] = true
			}
			want["kernelopt"] = true
		default:
			if _, ok := lattePolicy(n); !ok && n != "kernelopt" {
				var names []string
				for _, p := range LattePolicies() {
					names = append(names, p.Name)
				}
				return nil, false, fmt.Errorf("%w: policy %q: want %s, kernelopt, or the groups paper, earlier, all", ErrParam, n, strings.Join(names, ", "))
			}
			want[n] = true
		}
	}
	if want["kernelopt"] {
		oracle = true
		want["bdi"], want["sc2"] = true, true
	}
	var out []string
	for _, p := range LattePolicies() {
		if want[p.Name] {
			out = append(out, p.Name)
		}
	}
	return out, oracle, nil
}

// ParseSweep reads a sweep parameter ("ep=256,1024;sets=4,8") into the
// sampling points it spans, every combination, in order; keys left out
// keep the paper's value.
func ParseSweep(s string) ([]LatteSampling, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	axes := map[string][]int{}
	var order []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ' ' }) {
		k, vs, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("%w: sweep %q: want key=v1,v2,… (keys ep, learn, period, sets)", ErrParam, part)
		}
		switch k {
		case "ep", "learn", "period", "sets":
		default:
			return nil, fmt.Errorf("%w: sweep key %q: want ep, learn, period or sets", ErrParam, k)
		}
		if _, dup := axes[k]; dup {
			return nil, fmt.Errorf("%w: sweep key %q given twice", ErrParam, k)
		}
		for _, v := range strings.Split(vs, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n <= 0 || n > 1<<20 {
				return nil, fmt.Errorf("%w: sweep %s=%q: want whole numbers from 1 to 2^20", ErrParam, k, v)
			}
			axes[k] = append(axes[k], n)
		}
		order = append(order, k)
	}
	points := []LatteSampling{latteDefaults}
	for _, k := range order {
		var next []LatteSampling
		for _, p := range points {
			for _, v := range axes[k] {
				q := p
				switch k {
				case "ep":
					q.EP = v
				case "learn":
					q.Learn = v
				case "period":
					q.Period = v
				case "sets":
					q.Sets = v
				}
				next = append(next, q)
			}
		}
		points = next
	}
	for _, p := range points {
		if p.Period <= p.Learn {
			return nil, fmt.Errorf("%w: sweep point period=%d learn=%d: a period needs an adaptive EP", ErrParam, p.Period, p.Learn)
		}
	}
	if len(points) > 4096 {
		return nil, fmt.Errorf("%w: sweep of %d points; at most 4096", ErrParam, len(points))
	}
	return points, nil
}

func (s LatteSampling) params() []string {
	return []string{"ep", strconv.Itoa(s.EP), "learn", strconv.Itoa(s.Learn), "period", strconv.Itoa(s.Period), "sets", strconv.Itoa(s.Sets)}
}

func (latteStudy) Jobs(ws []Workload, p Params) ([]Job, error) {
	names, _, err := ExpandLattePolicies(p["policies"])
	if err != nil {
		return nil, err
	}
	classes := true
	switch p["classes"] {
	case "", "on":
	case "off":
		classes = false
	default:
		return nil, fmt.Errorf("%w: classes %q: want on or off", ErrParam, p["classes"])
	}
	switch p["timeline"] {
	case "", "on", "off":
	default:
		return nil, fmt.Errorf("%w: timeline %q: want on or off", ErrParam, p["timeline"])
	}
	base := Params{}
	if c := p["config"]; c != "" {
		o, err := ParseOverrides([]byte(c))
		if err != nil {
			return nil, err
		}
		// Check it builds a machine now, not in every job.
		if err := CheckOverrides(o); err != nil {
			return nil, fmt.Errorf("%w: config: %w", ErrParam, err)
		}
		if cc := o.canonical(); cc != "" {
			base["config"] = cc
		}
	}
	sweep, err := ParseSweep(p["sweep"])
	if err != nil {
		return nil, err
	}
	var jobs []Job
	for _, w := range ws {
		for _, n := range names {
			jp := base.with("policy", n)
			if pol, _ := lattePolicy(n); pol.Kind != latte.Static && pol.Attach && p["timeline"] == "on" {
				jp["timeline"] = "on"
			}
			jobs = append(jobs, newJob("latte", w, jp))
		}
		if classes {
			jobs = append(jobs, newJob("latte", w, base.with("policy", "none", "l1_scale", "4")))
		}
		for _, s := range sweep {
			jobs = append(jobs, newJob("latte", w, base.with(append([]string{"policy", "latte"}, s.params()...)...)))
		}
	}
	return jobs, nil
}

// LatteResult is one job's result: one policy on one workload.
type LatteResult struct {
	Cycles            uint64   `json:"cycles"`
	Instructions      uint64   `json:"instructions"`
	KernelCycles      []uint64 `json:"kernel_cycles"`
	L1Accesses        uint64   `json:"l1_accesses"`
	L1LoadHits        uint64   `json:"l1_load_hits"`
	L1LoadMisses      uint64   `json:"l1_load_misses"`
	EffectiveCapacity float64  `json:"effective_capacity"`
	Decompressions    uint64   `json:"decompressions"`
	QueueWait         uint64   `json:"queue_wait"`
	// EnergyNJ is the L1's compression and decompression energy, nil when
	// a mode's codec has no published figure.
	EnergyNJ     *float64 `json:"energy_nj"`
	EnergySource string   `json:"energy_source"`
	// ModeEPs counts, for an adaptive policy, the completed EPs each mode
	// won, summed over SMs.
	ModeEPs   []uint64         `json:"mode_eps,omitempty"`
	Decisions []latte.Decision `json:"decisions,omitempty"`
}

func (latteStudy) Run(j Job, trace io.Reader) (json.RawMessage, error) {
	r, err := RunLatte(j.Params, trace)
	if err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// latteMachineFor builds the machine of policy pol with overrides o.
func latteMachineFor(pol LattePolicy, o Overrides) (gpu.Config, error) {
	cfg, err := LatteMachine(pol.Modes...)
	if err != nil {
		return cfg, err
	}
	if err := o.Apply(&cfg); err != nil {
		return cfg, err
	}
	cfg.L1.SharedDecompressor = pol.SharedDecompressor
	cfg.SMWideTolerance = pol.SMWideTolerance
	return cfg, nil
}

// intParam reads an optional positive whole-number parameter.
func intParam(p Params, key string, def int) (int, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%w: %s=%q: want a positive whole number", ErrParam, key, v)
	}
	return n, nil
}

// RunLatte runs one job of the LATTE-CC study, given by its parameters
// (policy, and optionally config, l1_scale, ep, learn, period, sets,
// timeline), on a warp trace, streaming its kernels one at a time.
func RunLatte(p Params, trace io.Reader) (LatteResult, error) {
	var res LatteResult
	pol, ok := lattePolicy(p["policy"])
	if !ok {
		return res, fmt.Errorf("%w: policy %q", ErrParam, p["policy"])
	}
	var o Overrides
	if c := p["config"]; c != "" {
		var err error
		if o, err = ParseOverrides([]byte(c)); err != nil {
			return res, err
		}
	}
	cfg, err := latteMachineFor(pol, o)
	if err != nil {
		return res, err
	}
	scale, err := intParam(p, "l1_scale", 1)
	if err != nil {
		return res, err
	}
	if scale > 1<<10 {
		return res, fmt.Errorf("%w: l1_scale %d: at most 1024", ErrParam, scale)
	}
	cfg.L1.Sets *= scale
	lc := latte.Config{Kind: pol.Kind, InitialMissLatency: float64(cfg.L2HitLatency), OwnLinesOnly: pol.OwnLinesOnly,
		ObservedQueue: pol.ObservedQueue, StridedSets: pol.StridedSets}
	for _, f := range []struct {
		key string
		dst *int
		def int
	}{{"ep", &lc.EPAccesses, latteDefaults.EP}, {"learn", &lc.LearningEPs, latteDefaults.Learn},
		{"period", &lc.PeriodEPs, latteDefaults.Period}, {"sets", &lc.DedicatedPerMode, latteDefaults.Sets}} {
		if *f.dst, err = intParam(p, f.key, f.def); err != nil {
			return res, err
		}
	}
	var pols []*latte.Policy
	if pol.Attach {
		lc.CodeBooks = latte.NewCodeBooks() // one GPU's SC hardware
		cfg.AttachL1 = func(sm int, l1 *cache.Cache, probe *gpu.Probe) error {
			c := lc
			c.SM = sm
			pl, err := latte.New(l1, probe, c)
			pols = append(pols, pl)
			return err
		}
	}
	g, err := gpu.New(cfg)
	if err != nil {
		return res, err
	}
	err = runTrace(g, trace, func(ks gpu.KernelStats) error {
		res.KernelCycles = append(res.KernelCycles, ks.Cycles)
		return nil
	})
	if err != nil {
		return res, err
	}
	for _, pl := range pols {
		if err := pl.Err(); err != nil {
			return res, err
		}
	}
	s := g.Stats()
	res.Cycles, res.Instructions = s.Cycles, s.Instructions
	res.L1Accesses, res.L1LoadHits, res.L1LoadMisses = s.L1.Accesses, s.L1.LoadHits, s.L1.LoadMisses
	res.EffectiveCapacity = s.L1.EffectiveCapacity()
	res.Decompressions, res.QueueWait = s.L1.Decompressions, s.L1.QueueWait
	res.EnergyNJ, res.EnergySource = L1Energy(cfg.L1.Modes, s.L1)
	if pol.Kind != latte.Static && len(pols) > 0 {
		res.ModeEPs = make([]uint64, len(pol.Modes))
		for _, pl := range pols {
			for m, n := range pl.ModeEPs() {
				res.ModeEPs[m] += n
			}
			if p["timeline"] == "on" {
				res.Decisions = append(res.Decisions, pl.Decisions()...)
			}
		}
	}
	return res, nil
}

// runTrace runs a warp trace on g (gpu.GPU.RunTrace), saying what to
// capture when its lines are not the GPU model's 128 bytes.
func runTrace(g *gpu.GPU, r io.Reader, after func(gpu.KernelStats) error) error {
	wr, err := warp.NewReader(r)
	if err != nil {
		return err
	}
	err = g.RunTrace(wr, after)
	if errors.Is(err, linecomp.ErrLineSize) {
		return fmt.Errorf("%w (capture with -line 128)", err)
	}
	return err
}

// L1Energy charges LATTE-CC's per-operation energy (§IV-C): a compression
// per fill and a decompression per compressed hit, in each mode whose codec
// has published figures. It returns nil when some mode's codec has none.
func L1Energy(modes []linecomp.Codec, s cache.Stats) (*float64, string) {
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

// LatteRow is one row of the LATTE-CC table: a policy on a workload.
type LatteRow struct {
	Workload, Class, Policy string
	Result                  LatteResult
	// Speedup over none; MissReduction of L1 load misses against none
	// (NaN for Kernel-OPT, an oracle of cycles only).
	Speedup, MissReduction float64
	Oracle                 bool // Kernel-OPT: only cycles are meaningful
}

// LatteClass is a workload's class.
type LatteClass struct {
	Workload  string
	Speedup4x float64 // none on a 4× L1 over none
	Class     string  // "C-Sens", "C-InSens", or "" when not measured
}

// LatteSweepRow is LATTE-CC's speedup at one sampling point.
type LatteSweepRow struct {
	Workload string
	Point    LatteSampling
	Speedup  float64
}

// LatteTables is the aggregated LATTE-CC study.
type LatteTables struct {
	Rows    []LatteRow
	Classes []LatteClass
	Sweep   []LatteSweepRow
}

// AggregateLatte turns a LATTE-CC plan's results (in plan order) into its
// rows, classes and sweep, in the order of the plan's workloads and
// policies.
func AggregateLatte(jobs []Job, results []json.RawMessage) (*LatteTables, error) {
	type key struct{ w, policy string }
	byKey := map[key]LatteResult{}
	fourX := map[string]LatteResult{}
	var workloads []string
	var policies []string
	seenW, seenP := map[string]bool{}, map[string]bool{}
	out := &LatteTables{}
	var sweepJobs []int
	for i, j := range jobs {
		var r LatteResult
		if err := json.Unmarshal(results[i], &r); err != nil {
			return nil, fmt.Errorf("%w: job %d: %v", ErrResult, i, err)
		}
		w := j.Workload.Name
		if !seenW[w] {
			seenW[w] = true
			workloads = append(workloads, w)
		}
		switch {
		case j.Params["l1_scale"] == "4":
			fourX[w] = r
		case j.Params["ep"] != "":
			sweepJobs = append(sweepJobs, i)
		default:
			pn := j.Params["policy"]
			byKey[key{w, pn}] = r
			if !seenP[pn] {
				seenP[pn] = true
				policies = append(policies, pn)
			}
		}
	}
	oracle := seenP["none"] && seenP["bdi"] && seenP["sc2"]
	for _, w := range workloads {
		base, ok := byKey[key{w, "none"}]
		if !ok {
			return nil, fmt.Errorf("%w: workload %s has no run without compression (policy none)", ErrMissing, w)
		}
		class := LatteClass{Workload: w, Speedup4x: math.NaN()}
		if r, ok := fourX[w]; ok && r.Cycles > 0 {
			class.Speedup4x = float64(base.Cycles) / float64(r.Cycles)
			class.Class = "C-InSens"
			if class.Speedup4x > CSensThreshold {
				class.Class = "C-Sens"
			}
		}
		out.Classes = append(out.Classes, class)
		for _, pn := range policies {
			r, ok := byKey[key{w, pn}]
			if !ok {
				continue
			}
			out.Rows = append(out.Rows, latteRow(w, class.Class, pn, r, base, false))
		}
		if oracle {
			out.Rows = append(out.Rows, latteRow(w, class.Class, "kernelopt",
				kernelOpt(byKey[key{w, "none"}], byKey[key{w, "bdi"}], byKey[key{w, "sc2"}]), base, true))
		}
	}
	for _, i := range sweepJobs {
		j := jobs[i]
		var r LatteResult
		json.Unmarshal(results[i], &r) // decoded above already
		base := byKey[key{j.Workload.Name, "none"}]
		var pt LatteSampling
		pt.EP, _ = strconv.Atoi(j.Params["ep"])
		pt.Learn, _ = strconv.Atoi(j.Params["learn"])
		pt.Period, _ = strconv.Atoi(j.Params["period"])
		pt.Sets, _ = strconv.Atoi(j.Params["sets"])
		out.Sweep = append(out.Sweep, LatteSweepRow{Workload: j.Workload.Name, Point: pt, Speedup: ratio(base.Cycles, r.Cycles)})
	}
	return out, nil
}

func ratio(a, b uint64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func latteRow(w, class, policy string, r, base LatteResult, oracle bool) LatteRow {
	row := LatteRow{Workload: w, Class: class, Policy: policy, Result: r, Oracle: oracle,
		Speedup: ratio(base.Cycles, r.Cycles), MissReduction: math.NaN()}
	if !oracle && base.L1LoadMisses > 0 {
		row.MissReduction = 1 - float64(r.L1LoadMisses)/float64(base.L1LoadMisses)
	}
	return row
}

// kernelOpt is Kernel-OPT: per kernel the fastest of the static none, bdi
// and sc2 runs (an oracle, as in the paper).
func kernelOpt(runs ...LatteResult) LatteResult {
	var out LatteResult
	for _, r := range runs {
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
	out.Instructions = runs[0].Instructions
	return out
}

// GeoMean returns the geometric mean of xs (NaN for none, or any x ≤ 0).
func GeoMean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		if !(x > 0) {
			return math.NaN()
		}
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

// modeShare renders the share of EPs per mode, "bdi:0.85 none:0.10 …".
func modeShare(pol string, eps []uint64) string {
	p, ok := lattePolicy(pol)
	if !ok || len(eps) == 0 {
		return ""
	}
	total := uint64(0)
	for _, n := range eps {
		total += n
	}
	if total == 0 {
		return ""
	}
	var parts []string
	for m, n := range eps {
		parts = append(parts, fmt.Sprintf("%s:%.2f", p.Modes[m], float64(n)/float64(total)))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func (latteStudy) Aggregate(jobs []Job, results []json.RawMessage) ([]Table, error) {
	t, err := AggregateLatte(jobs, results)
	if err != nil {
		return nil, err
	}
	return t.Tables(), nil
}

// Tables renders the study: the per-workload table, the classes with the
// geometric means per class, and the sweep when there is one.
func (t *LatteTables) Tables() []Table {
	main := Table{Name: "latte", Title: "LATTE-CC and its baselines (speedup and L1 misses against no compression)",
		Columns: []Column{{Name: "workload"}, {Name: "class"}, {Name: "policy"}, {Name: "cycles"}, {Name: "ipc", Digits: 3},
			{Name: "speedup", Digits: 3}, {Name: "l1_miss_rate", Digits: 3}, {Name: "miss_reduction", Digits: 3},
			{Name: "eff_capacity", Digits: 3}, {Name: "decompressions"}, {Name: "queue_wait", Digits: 2},
			{Name: "energy_nj", Digits: 1}, {Name: "modes"}},
		Notes: []string{"energy: L1 compression and decompression only, LATTE-CC §IV-C (BDI 0.192/0.056 nJ, SC² 0.42/0.336 nJ); n/a where no paper gives a figure (BPC) and for Kernel-OPT, an oracle of cycles only"}}
	for _, r := range t.Rows {
		res := r.Result
		class := any(r.Class)
		if r.Class == "" {
			class = nil
		}
		ipc := ratio(res.Instructions, res.Cycles)
		if r.Oracle {
			main.Rows = append(main.Rows, []any{r.Workload, class, r.Policy, res.Cycles, ipc, r.Speedup, nil, nil, nil, nil, nil, nil, ""})
			continue
		}
		var energy any
		if res.EnergyNJ != nil {
			energy = *res.EnergyNJ
		}
		missRate := ratio(res.L1LoadMisses, res.L1LoadHits+res.L1LoadMisses)
		wait := ratio(res.QueueWait, res.Decompressions)
		if res.Decompressions == 0 {
			wait = 0
		}
		main.Rows = append(main.Rows, []any{r.Workload, class, r.Policy, res.Cycles, ipc, r.Speedup, missRate, r.MissReduction,
			res.EffectiveCapacity, res.Decompressions, wait, energy, modeShare(r.Policy, res.ModeEPs)})
	}
	tables := []Table{main}

	classes := Table{Name: "latte-classes", Title: fmt.Sprintf("Workload classes (LATTE-CC §IV-B: C-Sens when a 4× uncompressed L1 is > %.0f%% faster)", (CSensThreshold-1)*100),
		Columns: []Column{{Name: "workload"}, {Name: "speedup_4x_l1", Digits: 3}, {Name: "class"}}}
	classOf := map[string]string{}
	for _, c := range t.Classes {
		classOf[c.Workload] = c.Class
		var cl any = c.Class
		if c.Class == "" {
			cl = nil
		}
		classes.Rows = append(classes.Rows, []any{c.Workload, c.Speedup4x, cl})
	}
	tables = append(tables, classes)

	means := Table{Name: "latte-geomean", Title: "Geometric mean speedup per class",
		Columns: []Column{{Name: "policy"}, {Name: "c_sens", Digits: 3}, {Name: "c_insens", Digits: 3}, {Name: "all", Digits: 3},
			{Name: "n_c_sens"}, {Name: "n_c_insens"}}}
	var order []string
	by := map[string]map[string][]float64{}
	for _, r := range t.Rows {
		if by[r.Policy] == nil {
			by[r.Policy] = map[string][]float64{}
			order = append(order, r.Policy)
		}
		by[r.Policy][classOf[r.Workload]] = append(by[r.Policy][classOf[r.Workload]], r.Speedup)
		by[r.Policy]["all"] = append(by[r.Policy]["all"], r.Speedup)
	}
	for _, p := range order {
		m := by[p]
		means.Rows = append(means.Rows, []any{p, GeoMean(m["C-Sens"]), GeoMean(m["C-InSens"]), GeoMean(m["all"]), len(m["C-Sens"]), len(m["C-InSens"])})
	}
	tables = append(tables, means)

	if len(t.Sweep) > 0 {
		sweep := Table{Name: "latte-sweep", Title: "LATTE-CC sensitivity (speedup over none; * marks the paper's defaults, which are never chosen from a sweep)",
			Columns: []Column{{Name: "workload"}, {Name: "ep"}, {Name: "learn"}, {Name: "period"}, {Name: "sets"}, {Name: "default"}, {Name: "speedup", Digits: 3}}}
		type pk = LatteSampling
		var pts []pk
		per := map[pk][]float64{}
		for _, s := range t.Sweep {
			def := ""
			if s.Point == latteDefaults {
				def = "*"
			}
			if _, ok := per[s.Point]; !ok {
				pts = append(pts, s.Point)
			}
			per[s.Point] = append(per[s.Point], s.Speedup)
			sweep.Rows = append(sweep.Rows, []any{s.Workload, s.Point.EP, s.Point.Learn, s.Point.Period, s.Point.Sets, def, s.Speedup})
		}
		for _, p := range pts {
			def := ""
			if p == latteDefaults {
				def = "*"
			}
			sweep.Rows = append(sweep.Rows, []any{"geomean", p.EP, p.Learn, p.Period, p.Sets, def, GeoMean(per[p])})
		}
		tables = append(tables, sweep)
	}
	return tables
}
