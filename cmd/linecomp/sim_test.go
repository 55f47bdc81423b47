package main

import (
	"bytes"
	"encoding/json"
	"github.com/linecomp/linecomp/study"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/policy/vote"
	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/sim/link"
	"github.com/linecomp/linecomp/sim/mem"
	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/warp"
)

// lineTrace writes a line trace of the sample's lines: every line read,
// every fifth one written back after it, over a strided address pattern
// that revisits lines.
func lineTrace(t *testing.T, dir string, lineSize int) (string, []trace.Record) {
	t.Helper()
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, trace.Header{LineSize: lineSize, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var recs []trace.Record
	data := sample.Files()[0].Data
	n := len(data) / lineSize
	for i := 0; i < 3*n; i++ {
		l := (i * 7) % min(n, 48)
		r := trace.Record{Op: trace.Read, Addr: uint64(l * lineSize), Data: data[l*lineSize : (l+1)*lineSize]}
		if i%5 == 4 {
			r.Op = trace.Write
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, filepath.Join(dir, "t.lctrace"), buf.Bytes()), recs
}

// TestSimCacheJSON: the command's counters are those of the cache replayed
// directly, under the JSON names held-out checks read, as integers.
func TestSimCacheJSON(t *testing.T) {
	path, recs := lineTrace(t, t.TempDir(), 128)
	e, out, errOut := testEnv(nil)
	if st := run(e, []string{"sim", "cache", "-codec", "fpc", "-sets", "8", "-format", "json", path}); st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	cd, _ := linecomp.New("fpc", 128)
	c, err := cache.New(cache.Config{Sets: 8, Ways: 4, LineSize: 128, TagFactor: 4, SubBlock: 32, Modes: []linecomp.Codec{cd}})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		if r.Op == trace.Write {
			_, err = c.Store(uint64(i), r.Addr, r.Data)
		} else {
			_, err = c.Load(uint64(i), r.Addr, r.Data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	s := c.Stats()
	for name, want := range map[string]uint64{"accesses": s.Accesses, "load_hits": s.LoadHits, "load_misses": s.LoadMisses,
		"store_hits": s.StoreHits, "store_misses": s.StoreMisses, "evictions": s.Evictions} {
		if got, ok := rows[0][name].(float64); !ok || uint64(got) != want || got != float64(uint64(got)) {
			t.Errorf("%s = %v, want the integer %d", name, rows[0][name], want)
		}
	}
	if got := rows[0]["effective_capacity"].(float64); got != s.EffectiveCapacity() {
		t.Errorf("effective_capacity %v, want %v", got, s.EffectiveCapacity())
	}
	if s.LoadHits == 0 || s.Evictions == 0 || s.StoreHits == 0 {
		t.Errorf("the trace does not exercise the cache: %+v", s)
	}
}

// TestSimMemJSON: likewise for the memory controllers.
func TestSimMemJSON(t *testing.T) {
	path, recs := lineTrace(t, t.TempDir(), 128)
	e, out, errOut := testEnv(nil)
	if st := run(e, []string{"sim", "mem", "-codec", "bdi", "-md-kb", "1", "-format", "json", path}); st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	cd, _ := linecomp.New("bdi", 128)
	m, err := mem.New(mem.Config{LineSize: 128, Codec: cd, MDCacheBytes: 1024})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		op := mem.Read
		if r.Op == trace.Write {
			op = mem.Write
		}
		if _, err := m.Access(uint64(i), op, r.Addr, r.Data); err != nil {
			t.Fatal(err)
		}
	}
	s := m.Stats()
	for name, want := range map[string]uint64{"requests": s.Requests, "bursts": s.Bursts, "uncompressed_bursts": s.UncompressedBursts,
		"metadata_bursts": s.MetadataBursts, "md_hits": s.MDHits, "md_misses": s.MDMisses, "md_writebacks": s.MDWriteBacks} {
		if got, ok := rows[0][name].(float64); !ok || uint64(got) != want {
			t.Errorf("%s = %v, want %d", name, rows[0][name], want)
		}
	}
}

// TestSimErrors: a line size other than the trace's, a bad flag and a
// truncated trace are errors that name their cause.
func TestSimErrors(t *testing.T) {
	dir := t.TempDir()
	path, _ := lineTrace(t, dir, 128)
	data, _ := os.ReadFile(path)
	cut := writeFile(t, filepath.Join(dir, "cut.lctrace"), data[:len(data)-7])
	for _, tc := range []struct {
		args   []string
		status int
		says   string
	}{
		{[]string{"sim", "cache", "-line", "64", path}, 1, "the trace has 128-byte lines"},
		{[]string{"sim", "cache", "-write", "sideways", path}, 2, "-write"},
		{[]string{"sim", "cache", "-sets", "6", path}, 2, "power of two"},
		{[]string{"sim", "cache", cut}, 1, "cut.lctrace"},
		{[]string{"sim", "mem", "-mag", "48", path}, 2, "MAG"},
		{[]string{"sim", "gpu", "-policy", "fastest", path}, 2, "-policy"},
		{[]string{"sim", "gpu", path}, 1, "t.lctrace"}, // a line trace is not a warp trace
	} {
		e, _, errOut := testEnv(nil)
		if st := run(e, tc.args); st != tc.status || !strings.Contains(errOut.String(), tc.says) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tc.args, st, errOut, tc.status, tc.says)
		}
	}
}

// TestSimGPU: a tiny warp trace (two blocks of two warps loading and
// storing sample lines) runs under every policy; the speedup of none is 1
// and Kernel-OPT is at least as fast as each static policy.
func TestSimGPU(t *testing.T) {
	var buf bytes.Buffer
	w, err := warp.NewWriter(&buf, warp.Header{LineSize: 128, WarpSize: 64, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	data := sample.Files()[1].Data
	for k := 0; k < 2; k++ {
		if err := w.BeginKernel(warp.Kernel{Name: "k", Grid: [3]uint32{256, 1, 1}, Block: [3]uint32{128, 1, 1}}); err != nil {
			t.Fatal(err)
		}
		for b := uint32(0); b < 2; b++ {
			for i := uint32(0); i < 2; i++ {
				wp := warp.Warp{Block: b, Index: i}
				for j := 0; j < 400; j++ {
					l := (int(b*2+i)*40 + j*3) % (len(data) / 128)
					kind := warp.Load
					if j%7 == 6 {
						kind = warp.Store
					}
					in := warp.Inst{Warp: wp, Kind: kind, PC: 0x100, Lines: []warp.Line{{Addr: uint64(l * 128), Data: data[l*128 : (l+1)*128]}}}
					if err := w.Write(in); err != nil {
						t.Fatal(err)
					}
					if err := w.Write(warp.Inst{Warp: wp, Kind: warp.Compute, Count: 3}); err != nil {
						t.Fatal(err)
					}
				}
				if err := w.Write(warp.Inst{Warp: wp, Kind: warp.Exit}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "w.lctrace"), buf.Bytes())
	e, out, errOut := testEnv(nil)
	svg := filepath.Join(dir, "t.svg")
	if st := run(e, []string{"sim", "gpu", "-format", "json", "-policy", "paper,bpc", "-svg", svg, path}); st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var rows []struct {
		Policy   string   `json:"policy"`
		Cycles   uint64   `json:"cycles"`
		Speedup  float64  `json:"speedup"`
		EnergyNJ *float64 `json:"energy_nj"`
		Class    *string  `json:"class"`
	}
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, r := range rows {
		byName[r.Policy] = i
		if r.Class == nil || (*r.Class != "C-Sens" && *r.Class != "C-InSens") {
			t.Errorf("%s: class %v", r.Policy, r.Class)
		}
	}
	// none, bdi, sc2, hitcount, cmp, latte, bpc and Kernel-OPT.
	if len(rows) != 8 || rows[byName["none"]].Speedup != 1 {
		t.Fatalf("%d rows, none's speedup %v", len(rows), rows[byName["none"]].Speedup)
	}
	for _, p := range []string{"none", "bdi", "sc2"} {
		if ko, r := rows[byName["kernelopt"]], rows[byName[p]]; ko.Cycles > r.Cycles {
			t.Errorf("Kernel-OPT %d cycles, slower than %s's %d", ko.Cycles, p, r.Cycles)
		}
	}
	if rows[byName["bpc"]].EnergyNJ != nil || rows[byName["bdi"]].EnergyNJ == nil {
		t.Errorf("energy: bpc %v (no published figure), bdi %v", rows[byName["bpc"]].EnergyNJ, rows[byName["bdi"]].EnergyNJ)
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("svg: %v", err)
	}

	// The CABA designs on the same trace: base is the reference, only the
	// CABA designs run assist warps, and a design that compresses DRAM
	// traffic moves fewer bursts than base.
	e, out, errOut = testEnv(nil)
	if st := run(e, []string{"sim", "gpu", "-design", "all", "-format", "json", path}); st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var drows []struct {
		Design           string  `json:"design"`
		Speedup          float64 `json:"speedup"`
		AssistDecompress uint64  `json:"assist_dec"`
		AssistCompress   uint64  `json:"assist_comp"`
		BurstRatio       float64 `json:"burst_ratio"`
	}
	if err := json.Unmarshal(out.Bytes(), &drows); err != nil || len(drows) != len(study.CabaDesigns()) {
		t.Fatalf("%v: %d rows", err, len(drows))
	}
	for _, r := range drows {
		caba := strings.HasPrefix(r.Design, "caba-")
		if (r.AssistDecompress+r.AssistCompress > 0) != caba {
			t.Errorf("%s: %d + %d assist instructions", r.Design, r.AssistDecompress, r.AssistCompress)
		}
		if r.Design == "base" && (r.Speedup != 1 || r.BurstRatio != 1) {
			t.Errorf("base: %+v", r)
		}
		if r.Design == "hw-bdi" && r.BurstRatio <= 1 {
			t.Errorf("hw-bdi: burst ratio %v", r.BurstRatio)
		}
	}
}

// TestSimLinkJSON: one object per trace and λ with the spec's integer
// counters, equal to a replay made directly with the library, and a static
// configuration that uses its one codec for every transfer.
func TestSimLinkJSON(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, trace.Header{LineSize: 64, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	data := sample.Files()[2].Data
	var recs []link.Transfer
	for i := 0; i < 700; i++ {
		l := (i * 5) % (len(data) / 64)
		r := trace.Record{Time: uint64(i) * 3000, Src: uint32(1 + i%2), Dst: uint32(2 - i%2), Op: trace.Read, Addr: uint64(l * 64), Data: data[l*64 : (l+1)*64]}
		if i%3 == 0 {
			r.Op = trace.Write
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, link.Transfer{Time: r.Time, Src: r.Src, Dst: r.Dst, Op: link.Op(r.Op), Data: r.Data})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, filepath.Join(dir, "r.lctrace"), buf.Bytes())
	e, out, errOut := testEnv(nil)
	if st := run(e, []string{"sim", "link", "-lambda", "0,6", "-format", "json", path}); st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("%v: %s", err, out)
	}
	for i, lambda := range []float64{0, 6} {
		cands, err := study.TavanaCandidates([]string{"none", "bdi", "fpc-tavana", "cpack-z"}, 64, true)
		if err != nil {
			t.Fatal(err)
		}
		r, err := link.NewReplay(link.ReplayConfig{Link: link.Config{Candidates: cands}, NewChooser: func(c []linecomp.Codec) (link.Chooser, error) {
			return vote.New(vote.Config{Candidates: c, Lambda: lambda})
		}})
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs {
			if err := r.Add(rec); err != nil {
				t.Fatal(err)
			}
		}
		want, err := r.Finish()
		if err != nil {
			t.Fatal(err)
		}
		got := rows[i]
		if got["lambda"].(float64) != lambda {
			t.Errorf("row %d: lambda %v", i, got["lambda"])
		}
		for name, w := range map[string]uint64{"transfers": want.Transfers, "payload_bits": want.PayloadBits,
			"uncompressed_payload_bits": want.UncompressedPayloadBits, "wire_bytes": want.WireBytes, "bus_cycles": want.BusCycles} {
			if g, ok := got[name].(float64); !ok || uint64(g) != w {
				t.Errorf("λ=%v: %s = %v, want %d", lambda, name, got[name], w)
			}
		}
		uses := got["uses"].(map[string]any)
		for n, w := range want.Uses {
			if uint64(uses[n].(float64)) != w {
				t.Errorf("λ=%v: uses[%s] = %v, want %d", lambda, n, uses[n], w)
			}
		}
	}
	e, out, errOut = testEnv(nil)
	if st := run(e, []string{"sim", "link", "-static", "fpc-tavana", "-format", "json", path}); st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	rows = nil
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	if uses := rows[0]["uses"].(map[string]any); uses["fpc-tavana"].(float64) != 700 {
		t.Errorf("static fpc-tavana: uses %v", uses)
	}
}

// TestSimMemImage: a memory image gives the counters of a trace that reads
// each of its lines once, in order, at its offset.
func TestSimMemImage(t *testing.T) {
	dir := t.TempDir()
	data := sample.Files()[3].Data
	img := writeFile(t, filepath.Join(dir, "img.bin"), data)
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, trace.Header{LineSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off+64 <= len(data); off += 64 {
		if err := w.Write(trace.Record{Op: trace.Read, Addr: uint64(off), Data: data[off : off+64]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tr := writeFile(t, filepath.Join(dir, "img.lctrace"), buf.Bytes())
	outs := make([]string, 2)
	for i, args := range [][]string{{"sim", "mem", "-codec", "fpc", "-line", "64", "-format", "csv", "-image", img},
		{"sim", "mem", "-codec", "fpc", "-format", "csv", tr}} {
		e, out, errOut := testEnv(nil)
		if st := run(e, args); st != 0 {
			t.Fatalf("%v: status %d: %s", args, st, errOut)
		}
		rows := strings.Split(strings.TrimSpace(out.String()), "\n")
		outs[i] = rows[1][strings.Index(rows[1], ","):] // without the input's name
	}
	if outs[0] != outs[1] {
		t.Errorf("image %s\ntrace %s", outs[0], outs[1])
	}
}
