package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHugeSizes: sizes whose products wrap, or that no machine holds, are
// usage errors (exit 2) naming the field, before any trace is read: not a
// panic, an out-of-memory death, or a value wrapped silently to a default.
func TestHugeSizes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"sim", "cache", "-sets", "1", "-ways", "4611686018427387904"}, "Ways"},
		{[]string{"sim", "cache", "-sets", "4611686018427387904"}, "Sets"},
		{[]string{"sim", "mem", "-controllers", "1152921504606846976"}, "Controllers"},
		{[]string{"sim", "mem", "-controllers", "1099511627776"}, "Controllers"},
		{[]string{"sim", "mem", "-md-ways", "144115188075855872"}, "MDWays"},
		{[]string{"sim", "mem", "-md-kb", "67108864"}, "MDCacheBytes"},
		{[]string{"sim", "mem", "-md-kb", "18014398509481984"}, "-md-kb"}, // × 1024 wraps to 0
	} {
		st, _, errOut := runTrace(t, nil, tc.args...)
		if st != 2 || !strings.Contains(errOut, tc.says) {
			t.Errorf("%v: status %d, stderr %q; want 2 and %q", tc.args, st, errOut, tc.says)
		}
	}
}

// TestGPUConfigChecked: a -config that cannot work (a size no machine
// holds, a negative or wrapping latency, a bad cache geometry, data after
// the object) is one usage error about the config, exit 2, before any
// trace is read: not a panic, an impossible IPC, nor one error per policy
// blaming the trace.
func TestGPUConfigChecked(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ config, says string }{
		{`{"sms":4611686018427387904}`, "SMs"},
		{`{"warps_per_sm":4611686018427387904}`, "WarpsPerSM"},
		{`{"blocks_per_sm":4611686018427387904}`, "BlocksPerSM"},
		{`{"schedulers":4611686018427387904}`, "Schedulers"},
		{`{"mem_latency":-1000}`, "FixedLatency"},
		{`{"mem_latency":9223372036854775807}`, "FixedLatency"},
		{`{"l2_hit_latency":9223372036854775807}`, "L2HitLatency"},
		{`{"l1_hit_latency":-5}`, "HitLatency"},
		{`{"l1_sets":63}`, "Sets"},
		{`{"sms":2} garbage`, "more after"},
		{`{"sms":2}{"sms":3}`, "more after"},
	} {
		path := writeFile(t, filepath.Join(dir, "c.json"), []byte(tc.config))
		st, out, errOut := runTrace(t, nil, "sim", "gpu", "-config", path)
		if st != 2 || !strings.Contains(errOut, tc.says) || !strings.Contains(errOut, "-config") ||
			strings.Count(errOut, "\n") != 1 || out != "" {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2 and one line with %q", tc.config, st, out, errOut, tc.says)
		}
	}
}

// TestFlagsCheckedAtTheTraceSize: flags are checked before any trace is
// read at a line size the trace may have, not only at the codec's largest:
// 8-byte sub-blocks of none's 128-byte lines are 16, a valid cache, though
// none's 4,096-byte lines would be 512 of them.
func TestFlagsCheckedAtTheTraceSize(t *testing.T) {
	if st, _, errOut := runTrace(t, nil, "sim", "cache", "-codec", "none", "-subblock", "8"); st != 0 {
		t.Errorf("sim cache -codec none -subblock 8: status %d, %s", st, errOut)
	}
	if st, _, errOut := runTrace(t, nil, "sim", "cache", "-codec", "none", "-subblock", "7"); st != 2 || !strings.Contains(errOut, "SubBlock") {
		t.Errorf("sim cache -codec none -subblock 7: status %d, %s; want 2", st, errOut)
	}
}
