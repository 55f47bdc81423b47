package study_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/study"
	"github.com/linecomp/linecomp/trace/warp"
)

// sampleFile writes an embedded warp trace to a file, so that a test can
// change it.
func sampleFile(t *testing.T, name string) string {
	t.Helper()
	for _, tr := range sample.Traces() {
		if tr.Name == name {
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, tr.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}
	}
	t.Fatalf("no sample trace %s", name)
	return ""
}

func smallPlan(t *testing.T, params study.Params, files ...string) *study.PlanFile {
	t.Helper()
	var ws []study.Workload
	for _, f := range files {
		w, err := study.FileWorkload(f)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	p, err := study.Plan("latte", ws, params)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func collectCSV(t *testing.T, dir string) []byte {
	t.Helper()
	plan, res, err := study.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := study.Aggregate(plan, res)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := study.WriteTables(&b, tables, "csv"); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRunOrdersAndResume: one plan run all at once, job by job in reverse,
// and resumed after results were deleted or cut short, collects to the
// same bytes; the resumed run reruns exactly the missing and broken jobs.
func TestRunOrdersAndResume(t *testing.T) {
	plan := smallPlan(t, study.Params{"policies": "none,bdi,latte"}, "sample/warps-fir.lct", "sample/warps-pagerank.lct")
	if len(plan.Jobs) != 8 { // 2 workloads × (none, bdi, latte, none on a 4× L1)
		t.Fatalf("%d jobs, want 8", len(plan.Jobs))
	}
	all := t.TempDir()
	r := &study.Runner{Dir: all}
	if sum, err := r.Run(plan, nil); err != nil || sum.Ran != 8 {
		t.Fatalf("%+v, %v", sum, err)
	}
	want := collectCSV(t, all)

	one := t.TempDir()
	r1 := &study.Runner{Dir: one, Workers: 1}
	for i := len(plan.Jobs) - 1; i >= 0; i-- {
		if _, err := r1.Run(plan, []int{i}); err != nil {
			t.Fatal(err)
		}
	}
	if got := collectCSV(t, one); !bytes.Equal(got, want) {
		t.Errorf("job by job in reverse:\n%s\nall at once:\n%s", got, want)
	}

	files, _ := filepath.Glob(filepath.Join(all, "0000[0-9]-*.json"))
	if len(files) != 8 {
		t.Fatalf("%d result files, want 8", len(files))
	}
	os.Remove(files[1])
	b, _ := os.ReadFile(files[5])
	os.WriteFile(files[5], b[:len(b)/2], 0o644)
	if _, _, err := study.Collect(all); !errors.Is(err, study.ErrResult) {
		t.Errorf("collect with a result cut short: %v, want ErrResult", err)
	}
	sum, err := r.Run(plan, nil)
	if err != nil || sum.Ran != 2 || sum.Skipped != 6 || sum.Rerun != 1 {
		t.Errorf("resumed: %+v, %v; want 2 run (1 of them again) and 6 skipped", sum, err)
	}
	if got := collectCSV(t, all); !bytes.Equal(got, want) {
		t.Errorf("resumed:\n%s\nwant:\n%s", got, want)
	}
	os.Remove(files[0])
	if _, _, err := study.Collect(all); !errors.Is(err, study.ErrMissing) || !strings.Contains(err.Error(), "jobs 0") {
		t.Errorf("collect with job 0 missing: %v", err)
	}
}

// TestChangedWorkload: a trace whose bytes changed after planning is an
// error naming it, never a reused or silently recomputed result.
func TestChangedWorkload(t *testing.T) {
	path := sampleFile(t, "warps-fir.lct")
	plan := smallPlan(t, study.Params{"policies": "none", "classes": "off"}, path)
	b, _ := os.ReadFile(path)
	b[len(b)/2] ^= 1
	os.WriteFile(path, b, 0o644)
	_, err := (&study.Runner{Dir: t.TempDir()}).Run(plan, nil)
	if !errors.Is(err, study.ErrChanged) || !strings.Contains(err.Error(), path) {
		t.Errorf("%v, want ErrChanged naming %s", err, path)
	}
}

// TestBadInput: unknown studies, parameters and values, a plan edited by
// hand, a directory of another plan.
func TestBadInput(t *testing.T) {
	w := study.SampleWorkloads("warps")[:1]
	for name, tc := range map[string]struct {
		study  string
		params study.Params
		want   error
	}{
		"unknown study":   {"lattice", nil, study.ErrUnknownStudy},
		"unknown param":   {"latte", study.Params{"polices": "none"}, study.ErrParam},
		"unknown policy":  {"latte", study.Params{"policies": "lat"}, study.ErrParam},
		"bad sweep key":   {"latte", study.Params{"sweep": "eps=1"}, study.ErrParam},
		"bad sweep value": {"latte", study.Params{"sweep": "ep=0"}, study.ErrParam},
		"bad config key":  {"latte", study.Params{"config": `{"l1_set":64}`}, study.ErrParam},
		"bad config":      {"latte", study.Params{"config": `{"l1_sets":63}`}, study.ErrParam},
		"config trailing": {"latte", study.Params{"config": `{"sms":2} x`}, study.ErrParam},
		"classes":         {"latte", study.Params{"classes": "maybe"}, study.ErrParam},
	} {
		if _, err := study.Plan(tc.study, w, tc.params); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
	plan := smallPlan(t, study.Params{"policies": "none", "classes": "off"}, "sample/warps-fir.lct")
	enc := plan.Encode()
	edited := bytes.Replace(enc, []byte(`"policy":"none"`), []byte(`"policy":"bdi"`), 1)
	if _, err := study.ReadPlan(bytes.NewReader(edited)); !errors.Is(err, study.ErrPlan) {
		t.Errorf("edited plan: %v", err)
	}
	if _, err := study.ReadPlan(strings.NewReader("{}\n")); !errors.Is(err, study.ErrPlan) {
		t.Errorf("empty job: %v", err)
	}
	dir := t.TempDir()
	if _, err := (&study.Runner{Dir: dir}).Run(plan, nil); err != nil {
		t.Fatal(err)
	}
	other := smallPlan(t, study.Params{"policies": "bdi", "classes": "off"}, "sample/warps-fir.lct")
	if _, err := (&study.Runner{Dir: dir}).Run(other, nil); !errors.Is(err, study.ErrPlan) {
		t.Errorf("another plan's directory: %v", err)
	}
	if _, err := (&study.Runner{Dir: dir}).Run(plan, []int{7}); !errors.Is(err, study.ErrParam) {
		t.Errorf("job 7 of 1: %v", err)
	}
}

// TestPublicMachine: a user who builds LATTE-CC's machine with the exported
// constructor, attaches LATTE-CC through policy/latte and replays a trace
// with sim/gpu gets exactly the cycles of the study (and so of linecomp
// sim gpu) on the sample bfs trace, for every paper policy.
func TestPublicMachine(t *testing.T) {
	tr := sampleTrace(t, "warps-bfs.lct")
	for _, tc := range []struct {
		policy string
		modes  []string
		kind   latte.Kind
		attach bool
	}{
		{"none", []string{"none"}, latte.Static, false},
		{"bdi", []string{"bdi"}, latte.Static, false},
		{"sc2", []string{"sc2"}, latte.Static, true},
		{"latte", []string{"none", "bdi", "sc2"}, latte.LatteCC, true},
		{"cmp", []string{"none", "bdi", "sc2"}, latte.CMP, true},
	} {
		cfg, err := study.LatteMachine(tc.modes...)
		if err != nil {
			t.Fatal(err)
		}
		if tc.attach {
			books := latte.NewCodeBooks() // the GPU's one SC table
			cfg.AttachL1 = func(sm int, l1 *cache.Cache, probe *gpu.Probe) error {
				_, err := latte.New(l1, probe, latte.Config{Kind: tc.kind, SM: sm, InitialMissLatency: float64(cfg.L2HitLatency), CodeBooks: books})
				return err
			}
		}
		g, err := gpu.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		replay(t, g, tr)
		res, err := study.RunLatte(study.Params{"policy": tc.policy}, bytes.NewReader(tr))
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Stats().Cycles; got != res.Cycles {
			t.Errorf("%s: the public API gives %d cycles, the study %d", tc.policy, got, res.Cycles)
		}
	}
}

func sampleTrace(t *testing.T, name string) []byte {
	for _, tr := range sample.Traces() {
		if tr.Name == name {
			return tr.Data
		}
	}
	t.Fatalf("no sample trace %s", name)
	return nil
}

// TestAggregate: speedups, classes, Kernel-OPT and the geometric means from
// results written by hand.
//
//	workload a: none 1000, none on a 4× L1 500 (2.0: C-Sens), bdi 800, sc2 900
//	workload b: none 1000, 4× 1000 (1.0: C-InSens), bdi 1250, sc2 500
//	Kernel-OPT: a's kernels (none 600+400, bdi 500+300, sc2 300+600) → 300+300
//	= 600; b's single kernel → 500.
//	geomean of bdi: C-Sens 1000/800 = 1.25; C-InSens 0.8; all √(1.25·0.8) = 1.
func TestAggregate(t *testing.T) {
	wa := study.Workload{Name: "a", Path: "a", SHA256: "aa"}
	wb := study.Workload{Name: "b", Path: "b", SHA256: "bb"}
	job := func(w study.Workload, kv ...string) study.Job {
		p := study.Params{}
		for i := 0; i < len(kv); i += 2 {
			p[kv[i]] = kv[i+1]
		}
		return study.Job{Study: "latte", Workload: w, Params: p}
	}
	res := func(cycles ...uint64) json.RawMessage {
		r := study.LatteResult{KernelCycles: cycles}
		for _, c := range cycles {
			r.Cycles += c
		}
		b, _ := json.Marshal(r)
		return b
	}
	jobs := []study.Job{
		job(wa, "policy", "none"), job(wa, "policy", "bdi"), job(wa, "policy", "sc2"), job(wa, "policy", "none", "l1_scale", "4"),
		job(wb, "policy", "none"), job(wb, "policy", "bdi"), job(wb, "policy", "sc2"), job(wb, "policy", "none", "l1_scale", "4"),
	}
	results := []json.RawMessage{res(600, 400), res(500, 300), res(300, 600), res(500), res(1000), res(1250), res(500), res(1000)}
	tab, err := study.AggregateLatte(jobs, results)
	if err != nil {
		t.Fatal(err)
	}
	if c := tab.Classes; len(c) != 2 || c[0].Class != "C-Sens" || c[0].Speedup4x != 2 || c[1].Class != "C-InSens" {
		t.Errorf("classes %+v", c)
	}
	got := map[string]float64{}
	for _, r := range tab.Rows {
		got[r.Workload+" "+r.Policy] = r.Speedup
		if r.Policy == "kernelopt" {
			got[r.Workload+" kernelopt cycles"] = float64(r.Result.Cycles)
		}
	}
	for k, want := range map[string]float64{"a bdi": 1.25, "b bdi": 0.8, "a kernelopt cycles": 600, "b kernelopt cycles": 500, "b sc2": 2} {
		if got[k] != want {
			t.Errorf("%s: %v, want %v", k, got[k], want)
		}
	}
	var means study.Table
	for _, tb := range tab.Tables() {
		if tb.Name == "latte-geomean" {
			means = tb
		}
	}
	for _, r := range means.Rows {
		if r[0] == "bdi" && (r[1] != 1.25 || r[2] != 0.8 || r[3].(float64) < 0.9999999 || r[3].(float64) > 1.0000001) {
			t.Errorf("bdi geomeans %v", r)
		}
	}
}

// TestSweep: every combination of the sweep's values, the paper's defaults
// kept for keys left out.
func TestSweep(t *testing.T) {
	pts, err := study.ParseSweep("ep=256,1024 sets=4,8")
	if err != nil {
		t.Fatal(err)
	}
	want := []study.LatteSampling{{EP: 256, Learn: 1, Period: 10, Sets: 4}, {EP: 256, Learn: 1, Period: 10, Sets: 8},
		{EP: 1024, Learn: 1, Period: 10, Sets: 4}, {EP: 1024, Learn: 1, Period: 10, Sets: 8}}
	if len(pts) != len(want) {
		t.Fatalf("%v", pts)
	}
	for i := range want {
		if pts[i] != want[i] {
			t.Errorf("point %d: %+v, want %+v", i, pts[i], want[i])
		}
	}
	if _, err := study.ParseSweep("period=1"); !errors.Is(err, study.ErrParam) {
		t.Errorf("period 1 with 1 learning EP: %v", err)
	}
}

// TestRunsIndependent is the regression test of SC² training state kept in
// the codec: two runs on one machine configuration, so with the same codec
// instances, give the same cycles. Before, the first run's Observe counts
// stayed in the shared sc2 codec and the second run built other code books
// (a second sweep point gave 68,756 cycles instead of 67,236).
func TestRunsIndependent(t *testing.T) {
	tr := sampleTrace(t, "warps-bfs.lct")
	cfg, err := study.LatteMachine("none", "bdi", "sc2")
	if err != nil {
		t.Fatal(err)
	}
	var cycles []uint64
	for range 2 {
		books := latte.NewCodeBooks()
		c := cfg
		c.AttachL1 = func(sm int, l1 *cache.Cache, probe *gpu.Probe) error {
			_, err := latte.New(l1, probe, latte.Config{SM: sm, CodeBooks: books, StridedSets: true, ObservedQueue: true})
			return err
		}
		g, err := gpu.New(c)
		if err != nil {
			t.Fatal(err)
		}
		replay(t, g, tr)
		cycles = append(cycles, g.Stats().Cycles)
	}
	if cycles[0] != cycles[1] {
		t.Errorf("two runs sharing the codecs: %d and %d cycles", cycles[0], cycles[1])
	}
}

// TestRatioByHand: ten 128-byte lines of one repeated 8-byte value are, for
// BDI, the 4-bit "repeated" tag and a 64-bit payload: 68 bits a line, a raw
// ratio of 1024/68; the payload moves as one 32-byte burst, an effective
// ratio of 1024/256 = 4.
func TestRatioByHand(t *testing.T) {
	line := make([]byte, 128)
	for i := 0; i < 128; i += 8 {
		line[i] = 0x5a
	}
	data := bytes.Repeat(line, 10)
	r, err := study.RunRatio("bdi", 128, 32, data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Lines != 10 || r.Bits != 680 || r.EffectiveBits != 2560 || r.Compressed != 10 || r.Trained != 0 {
		t.Errorf("%+v; want 10 lines, 680 bits, 2560 effective bits, all compressed", r)
	}
	if _, err := study.RunRatio("bdi", 128, 32, data[:100]); err == nil {
		t.Error("an image shorter than a line: no error")
	}
}

// replay runs every kernel of a warp trace on g.
func replay(t *testing.T, g *gpu.GPU, trace []byte) {
	t.Helper()
	wr, err := warp.NewReader(bytes.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.RunTrace(wr, nil); err != nil {
		t.Fatal(err)
	}
}
