package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/sim/link"
	"github.com/linecomp/linecomp/study"
	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/warp"
)

// sampleTrace returns the bytes of an embedded sample trace.
func sampleTrace(t *testing.T, name string) []byte {
	t.Helper()
	for _, tr := range sample.Traces() {
		if tr.Name == name {
			return tr.Data
		}
	}
	t.Fatalf("no sample trace %s", name)
	return nil
}

// csvColumn returns, from a CSV report, the value of column col in the row
// whose column key is value.
func csvColumn(t *testing.T, out, key, value, col string) string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("CSV %v:\n%s", err, out)
	}
	ki, ci := -1, -1
	for i, h := range recs[0] {
		switch h {
		case key:
			ki = i
		case col:
			ci = i
		}
	}
	if ki < 0 || ci < 0 {
		t.Fatalf("no column %s or %s in %v", key, col, recs[0])
	}
	for _, r := range recs[1:] {
		if r[ki] == value {
			return r[ci]
		}
	}
	t.Fatalf("no row with %s = %s", key, value)
	return ""
}

// runKernels replays a warp trace on g, kernel by kernel.
func runKernels(t *testing.T, g *gpu.GPU, data []byte) {
	t.Helper()
	wr, err := warp.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.RunTrace(wr, nil); err != nil {
		t.Fatal(err)
	}
}

// TestPaperMachinesEmbed: a user who builds each paper's machine with the
// exported constructors, as the package docs describe, gets exactly the
// command's numbers: LATTE-CC's Table II machine with LATTE-CC itself
// (sim gpu), CABA's HW-BDI design (sim gpu -design) and Tavana's link with
// the penalty vote (sim link).
func TestPaperMachinesEmbed(t *testing.T) {
	bfs := sampleTrace(t, "warps-bfs.lct")

	// LATTE-CC.
	cfg, err := study.LatteMachine("none", "bdi", "sc2")
	if err != nil {
		t.Fatal(err)
	}
	books := latte.NewCodeBooks()
	cfg.AttachL1 = func(sm int, l1 *cache.Cache, probe *gpu.Probe) error {
		_, err := latte.New(l1, probe, latte.Config{SM: sm, InitialMissLatency: float64(cfg.L2HitLatency), CodeBooks: books})
		return err
	}
	g, err := gpu.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	runKernels(t, g, bfs)
	st, out, errOut := runTrace(t, nil, "sim", "gpu", "-policy", "latte", "-classes=false", "-format", "csv", "sample/warps-bfs.lct")
	if st != 0 {
		t.Fatalf("sim gpu: %d %s", st, errOut)
	}
	if got := csvColumn(t, out, "policy", "latte", "cycles"); got != strconv.FormatUint(g.Stats().Cycles, 10) {
		t.Errorf("LATTE-CC: the command gives %s cycles, the public API %d", got, g.Stats().Cycles)
	}

	// CABA's HW-BDI.
	var hw study.CabaDesign
	for _, d := range study.CabaDesigns() {
		if d.Name == "hw-bdi" {
			hw = d
		}
	}
	rig, err := study.CabaMachine(hw, study.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	g, err = gpu.New(rig.Config)
	if err != nil {
		t.Fatal(err)
	}
	runKernels(t, g, bfs)
	st, out, errOut = runTrace(t, nil, "sim", "gpu", "-design", "hw-bdi", "-format", "csv", "sample/warps-bfs.lct")
	if st != 0 {
		t.Fatalf("sim gpu -design: %d %s", st, errOut)
	}
	if got := csvColumn(t, out, "design", "hw-bdi", "cycles"); got != strconv.FormatUint(g.Stats().Cycles, 10) {
		t.Errorf("HW-BDI: the command gives %s cycles, the public API %d", got, g.Stats().Cycles)
	}
	ms := rig.Mem.Stats()
	if got := csvColumn(t, out, "design", "hw-bdi", "burst_ratio"); got != strconv.FormatFloat(ms.EffectiveRatio(), 'g', -1, 64) {
		t.Errorf("HW-BDI: the command's burst ratio %s, the public API's %v", got, ms.EffectiveRatio())
	}

	// Tavana's link, the vote at λ = 6.
	rdma := sampleTrace(t, "rdma-simpleconvolution.lct")
	tr, err := trace.NewReader(bytes.NewReader(rdma))
	if err != nil {
		t.Fatal(err)
	}
	setup := study.LinkSetup{Candidates: []string{"none", "bdi", "fpc-tavana", "cpack-z"}, Wire: link.WireInPackage()}
	rc, err := setup.ReplayConfig(tr.Header().LineSize, 6, -1)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := link.NewReplay(rc)
	if err != nil {
		t.Fatal(err)
	}
	for {
		r, err := tr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.Add(link.Transfer{Time: r.Time, Src: r.Src, Dst: r.Dst, Op: link.Op(r.Op), Data: append([]byte(nil), r.Data...)}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := rep.Finish()
	if err != nil {
		t.Fatal(err)
	}
	st, out, errOut = runTrace(t, nil, "sim", "link", "-lambda", "6", "-format", "csv", "sample/rdma-simpleconvolution.lct")
	if st != 0 {
		t.Fatalf("sim link: %d %s", st, errOut)
	}
	if got := csvColumn(t, out, "config", "vote λ=6", "wire_bytes"); got != strconv.FormatUint(res.WireBytes, 10) {
		t.Errorf("link: the command gives %s wire bytes, the public API %d", got, res.WireBytes)
	}
}

// TestTimeline: -timeline and -svg cover every workload and adaptive
// policy, and are refused before any run when no adaptive policy is asked
// for.
func TestTimeline(t *testing.T) {
	dir := t.TempDir()
	csvPath, svgPath := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.svg")
	if st, _, errOut := runTrace(t, nil, "sim", "gpu", "-policy", "bdi,sc2", "-timeline", csvPath); st != 2 || !strings.Contains(errOut, "adaptive") {
		t.Errorf("-timeline without an adaptive policy: status %d, %s", st, errOut)
	}
	st, _, errOut := runTrace(t, nil, "sim", "gpu", "-policy", "latte,hitcount", "-classes=false", "-timeline", csvPath, "-svg", svgPath,
		"sample/warps-bfs.lct", "sample/warps-fir.lct")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range recs[1:] {
		seen[r[0]+" "+r[1]] = true
	}
	for _, want := range []string{"sample/warps-bfs.lct latte", "sample/warps-bfs.lct hitcount", "sample/warps-fir.lct latte", "sample/warps-fir.lct hitcount"} {
		if !seen[want] {
			t.Errorf("the timeline has no decision of %s (it has %v)", want, seen)
		}
	}
	svg, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"latte on sample/warps-fir.lct", "hitcount on sample/warps-bfs.lct", ">cycle<"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}

// TestConfigHelp: sim gpu -h lists every -config key, and an unknown key's
// error lists the valid ones.
func TestConfigHelp(t *testing.T) {
	_, out, _ := runTrace(t, nil, "sim", "gpu", "-h")
	for _, k := range study.OverrideKeys() {
		if !strings.Contains(out, k[0]) {
			t.Errorf("sim gpu -h does not document the -config key %s", k[0])
		}
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "c.json"), []byte(`{"l1_set": 64}`))
	st, _, errOut := runTrace(t, nil, "sim", "gpu", "-config", path)
	if st != 2 || !strings.Contains(errOut, "l1_sets") || !strings.Contains(errOut, "l2_sets") {
		t.Errorf("unknown key: status %d, %s", st, errOut)
	}
}
