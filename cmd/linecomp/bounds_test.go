package main

import (
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
