package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-study", "mag"},
		{"-study", "nosuch", "-bench", "fir"},
		{"-study", "mag", "-bench", "nosuch"},
		{"-study", "mag", "-bench", "fir:length"},
		{"-study", "mag", "-bench", "fir", "-dram", "ddr3"},
		{"-study", "mag", "-bench", "fir", "-codecs", "nosuch"},
		{"-study", "latte", "-bench", "fir", "extra"},
		{"-study", "latte", "-bench", "fir", "-ep", "-1"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != exitUsage || errOut.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut.String())
		}
	}
}

// TestMAGRow runs the MAG study's two first rows on a tiny FIR: MGPUSim's
// channel alone and our controller without compression move the same
// bursts, and both verify.
func TestMAGRow(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-study", "mag", "-bench", "fir:length=1024", "-codecs", "none"}, &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var bursts []string
	for _, line := range strings.Split(out.String(), "\n") {
		f := strings.Fields(line)
		if len(f) == 11 && (f[0] == "mgpusim" || f[0] == "none") {
			if f[10] != "ok" {
				t.Errorf("row %q did not verify", line)
			}
			bursts = append(bursts, f[3])
		}
	}
	if len(bursts) != 2 || bursts[0] != bursts[1] || bursts[0] == "0" {
		t.Errorf("data bursts %q in\n%s", bursts, out.String())
	}
}
