package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReplayCodecLists: sim cache and sim mem take -codecs lists and all,
// as ratio and bench do (and -codec still works): a row per codec, each
// the same as the codec's run alone.
func TestReplayCodecLists(t *testing.T) {
	type row struct {
		Trace, Codec string
		Accesses     uint64  `json:"accesses"`
		Requests     uint64  `json:"requests"`
		Capacity     float64 `json:"effective_capacity"`
		Bursts       uint64  `json:"bursts"`
	}
	rows := func(args ...string) []row {
		t.Helper()
		st, out, errOut := runTrace(t, nil, append(args, "-format", "json")...)
		var rs []row
		if st != 0 || json.Unmarshal([]byte(out), &rs) != nil {
			t.Fatalf("%v: status %d, %s", args, st, errOut)
		}
		return rs
	}
	for _, tc := range []struct{ cmd, trace, list string }{
		{"cache", "sample/l1-floydwarshall.lct", "bdi,fpc,sc2"},
		{"mem", "sample/dram-fir.lct", "magbdi-32,bdi,none"},
	} {
		list := rows("sim", tc.cmd, "-codecs", tc.list, tc.trace)
		names := strings.Split(tc.list, ",")
		if len(list) != len(names) {
			t.Fatalf("sim %s -codecs %s: %d rows", tc.cmd, tc.list, len(list))
		}
		for i, name := range names {
			alone := rows("sim", tc.cmd, "-codec", name, tc.trace)
			if len(alone) != 1 || list[i] != alone[0] || list[i].Codec != name {
				t.Errorf("sim %s: %+v in the list, %+v alone", tc.cmd, list[i], alone)
			}
		}
		all := rows("sim", tc.cmd, "-codecs", "all", tc.trace)
		if len(all) < 10 {
			t.Errorf("sim %s -codecs all: %d rows", tc.cmd, len(all))
		}
	}
	if st, _, errOut := runTrace(t, nil, "ratio", "-codecs", "all", "sample/tab_digits.f32"); st != 0 {
		t.Errorf("ratio -codecs all: status %d, %s", st, errOut)
	}
}

// TestEmbeddedNamesAccepted: the names the command prints for embedded
// samples (sample/l1-bfs.lct) are accepted as inputs by every subcommand.
func TestEmbeddedNamesAccepted(t *testing.T) {
	for _, args := range [][]string{
		{"ratio", "-codecs", "bdi", "sample/tab_digits.f32"},
		{"trace", "info", "sample/l1-bfs.lct"},
		{"trace", "cat", "sample/rdma-fir.lct"},
		{"trace", "lines", "-o", "/dev/null", "sample/dram-fir.lct"},
		{"sim", "cache", "sample/l1-bfs.lct"},
		{"sim", "mem", "sample/dram-fir.lct"},
		{"sim", "mem", "-image", "sample/tab_digits.f32"},
		{"sim", "link", "sample/rdma-fir.lct"},
		{"sim", "gpu", "-policy", "none", "sample/warps-fir.lct"},
	} {
		st, out, errOut := runTrace(t, nil, args...)
		if st != 0 || !strings.Contains(out, args[len(args)-1]) && args[1] != "cat" && args[1] != "lines" {
			t.Errorf("%v: status %d, stdout %.200q, stderr %q", args, st, out, errOut)
		}
	}
	if st, _, errOut := runTrace(t, nil, "sim", "cache", "sample/nothing.lct"); st != 1 || !strings.Contains(errOut, "no such file") {
		t.Errorf("an embedded name that is not: status %d, %s", st, errOut)
	}
}

// TestWording: "n/a" for every cell without a value (Kernel-OPT's row had
// "–"; ratio's untrained codecs and trace info "-"), "1 input", and
// sim link's -latency own (its old name default still accepted).
func TestWording(t *testing.T) {
	st, out, errOut := runTrace(t, nil, "sim", "gpu", "-policy", "kernelopt", "sample/warps-fir.lct")
	if st != 0 || strings.Contains(out, "–") || !strings.Contains(out, "n/a") {
		t.Errorf("sim gpu kernelopt: status %d, %s%s", st, out, errOut)
	}
	st, out, _ = runTrace(t, nil, "ratio", "-codecs", "bdi", "sample/tab_digits.f32")
	if st != 0 || !strings.Contains(out, "n/a") {
		t.Errorf("ratio: status %d, %s", st, out)
	}
	st, out, errOut = runTrace(t, nil, "bench", "-codecs", "none", "-time", "1ms", "sample/tab_digits.f32")
	if st != 0 || !strings.Contains(out, "1 input,") {
		t.Errorf("bench of one input: status %d, %s%s", st, out, errOut)
	}
	_, own, _ := runTrace(t, nil, "sim", "link", "-latency", "own", "-format", "json", "sample/rdma-fir.lct")
	_, def, _ := runTrace(t, nil, "sim", "link", "-latency", "default", "-format", "json", "sample/rdma-fir.lct")
	if own == "" || own != def {
		t.Errorf("-latency own and default differ:\n%s\n%s", own, def)
	}
	if st, _, errOut := runTrace(t, nil, "sim", "link", "-latency", "fast"); st != 2 || !strings.Contains(errOut, "tavana or own") {
		t.Errorf("-latency fast: status %d, %s", st, errOut)
	}
}

// TestRatioPatterns: ratio -patterns counts the words of each pattern for
// the codecs that count them (CountPatterns' caller), every word of every
// line once, and says so for a codec that does not.
func TestRatioPatterns(t *testing.T) {
	st, out, errOut := runTrace(t, nil, "ratio", "-patterns", "-codecs", "fpc-tavana,cpack-z,bdi", "-format", "json", "sample/tab_digits.f32")
	var rows []struct {
		Codec            string
		Lines            int64
		PatternsReported *bool `json:"patterns_reported"`
		Patterns         []struct {
			Name  string
			Words int64
		}
	}
	if st != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 3 {
		t.Fatalf("status %d, %s%s", st, out, errOut)
	}
	for _, r := range rows[:2] {
		var words int64
		for _, p := range r.Patterns {
			words += p.Words
		}
		if r.PatternsReported == nil || !*r.PatternsReported || len(r.Patterns) < 8 || words != r.Lines*128/4 {
			t.Errorf("%s: %d words in %d patterns for %d lines; want %d", r.Codec, words, len(r.Patterns), r.Lines, r.Lines*32)
		}
	}
	if r := rows[2]; r.PatternsReported == nil || *r.PatternsReported || r.Patterns != nil {
		t.Errorf("bdi: %+v", r)
	}
	st, out, _ = runTrace(t, nil, "ratio", "-patterns", "-codecs", "fpc", "sample/tab_digits.f32")
	if st != 0 || !strings.Contains(out, "share of words per pattern") || !strings.Contains(out, "zero-word") {
		t.Errorf("text: status %d, %s", st, out)
	}
}
