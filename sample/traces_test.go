package sample

import (
	"bytes"
	"testing"
)

// TestTraces: every embedded trace is named STREAM-BENCH.lct for a known
// stream and starts with the trace format's magic and the kind byte of its
// stream ('W' for warp traces, 'L' for line traces).
func TestTraces(t *testing.T) {
	traces := Traces()
	if len(traces) == 0 {
		t.Fatal("no embedded trace")
	}
	streams := map[string]int{}
	for _, tr := range traces {
		kind := byte('L')
		switch tr.Stream {
		case "warps":
			kind = 'W'
		case "rdma", "dram", "l1":
		default:
			t.Errorf("%s: unknown stream %q", tr.Name, tr.Stream)
		}
		if !bytes.HasPrefix(tr.Data, append([]byte("LCTRACE"), kind)) || tr.Bench == "" {
			t.Errorf("%s: bench %q, starts % X", tr.Name, tr.Bench, tr.Data[:min(8, len(tr.Data))])
		}
		streams[tr.Stream]++
	}
	for _, s := range []string{"warps", "rdma", "dram", "l1"} {
		if streams[s] == 0 {
			t.Errorf("no %s trace embedded", s)
		}
	}
}
