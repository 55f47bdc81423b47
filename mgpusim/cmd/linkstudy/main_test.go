package main

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The study runs each configuration in a child process made from its own
// executable, which under `go test` is the test binary: with this
// variable set, the binary is the command.
const asCommand = "LINKSTUDY_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestUsage(t *testing.T) {
	for name, args := range map[string][]string{
		"no bench":          {"-gpus", "2"},
		"unknown bench":     {"-bench", "nosuch"},
		"none as a codec":   {"-bench", "fir", "-codecs", "none,bdi"},
		"unknown codec":     {"-bench", "fir", "-codecs", "zip"},
		"negative lambda":   {"-bench", "fir", "-lambdas", "0,-6"},
		"lambda not number": {"-bench", "fir", "-lambdas", "six"},
		"unknown fabric":    {"-bench", "fir", "-fabric", "ring"},
		"no jobs":           {"-bench", "fir", "-j", "0"},
		"one GPU":           {"-bench", "fir", "-gpus", "1"},
		"odd bytes/cycle":   {"-bench", "fir", "-bytes-per-cycle", "10"},
		"bad bench param":   {"-bench", "fir", "-length", "many"},
		"stray argument":    {"-bench", "fir", "extra"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != exitUsage {
			t.Errorf("%s: exit %d, want %d (stderr %q)", name, code, exitUsage, errOut.String())
		}
		if out.Len() != 0 {
			t.Errorf("%s: wrote %q to standard output", name, out.String())
		}
	}
}

// TestStudy runs a small study end to end: FIR on 2 GPUs under none, BDI
// and the vote at λ = 6.
func TestStudy(t *testing.T) {
	t.Setenv(asCommand, "1")
	csvPath := filepath.Join(t.TempDir(), "fir.csv")
	var out, errOut bytes.Buffer
	code := run([]string{"-bench", "fir", "-length", "1024", "-gpus", "2", "-codecs", "bdi",
		"-lambdas", "6", "-o", csvPath}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"fir -length=1024 -taps=16 on 2 unified GPUs", "none", "bdi", "vote-l6"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d CSV lines, want a header and 3 rows", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	get := func(r []string, name string) string {
		i, ok := col[name]
		if !ok {
			t.Fatalf("no column %q", name)
		}
		return r[i]
	}
	num := func(r []string, name string) float64 {
		v, err := strconv.ParseFloat(get(r, name), 64)
		if err != nil {
			t.Fatalf("%s = %q: %v", name, get(r, name), err)
		}
		return v
	}
	rows := map[string][]string{}
	for _, r := range recs[1:] {
		rows[get(r, "config")] = r
		if get(r, "verify_ok") != "true" {
			t.Errorf("%s: verification %q, error %q", get(r, "config"), get(r, "verify"), get(r, "error"))
		}
	}
	none, bdiRow, voteRow := rows["none"], rows["bdi"], rows["vote-l6"]
	if none == nil || bdiRow == nil || voteRow == nil {
		t.Fatalf("rows %v", rows)
	}
	if num(none, "wire_norm") != 1 || num(none, "time_norm") != 1 {
		t.Errorf("none normalised to itself: wire %v, time %v", get(none, "wire_norm"), get(none, "time_norm"))
	}
	transfers := num(none, "transfers")
	if transfers == 0 || num(bdiRow, "transfers") != transfers || num(voteRow, "transfers") != transfers {
		t.Errorf("transfers differ: none %v, bdi %v, vote %v", transfers, num(bdiRow, "transfers"), num(voteRow, "transfers"))
	}
	if want := "bdi=" + get(none, "transfers"); get(bdiRow, "uses") != want {
		t.Errorf("bdi uses %q, want %q", get(bdiRow, "uses"), want)
	}
	// wire_norm is the ratio of the delivered bytes.
	if got, want := num(bdiRow, "wire_norm"), num(bdiRow, "wire_bytes")/num(none, "wire_bytes"); math.Abs(got-want) > 1e-5 {
		t.Errorf("bdi wire_norm %v, bytes ratio %v", got, want)
	}
	// Without compression the bus carries MGPUSim's sizes: 80 bytes per
	// remote read (12 + 68) or write (76 + 4).
	if num(none, "wire_bytes") != 80*transfers {
		t.Errorf("none: %v wire bytes for %v transfers", get(none, "wire_bytes"), transfers)
	}
	if e := num(bdiRow, "codec_energy_pj"); num(none, "codec_energy_pj") != 0 || math.Abs(e-1.3*transfers) > 1e-3 {
		t.Errorf("codec energy: none %v, bdi %v (1.3 pJ per line, Tavana Table III)",
			get(none, "codec_energy_pj"), get(bdiRow, "codec_energy_pj"))
	}
}

// TestFailedVerificationIsReported: MGPUSim's bitonicsort finds its own
// result wrong in timing mode and ends the process with log.Fatal; the
// study still reports the run's numbers, marked.
func TestFailedVerificationIsReported(t *testing.T) {
	t.Setenv(asCommand, "1")
	csvPath := filepath.Join(t.TempDir(), "bs.csv")
	var out, errOut bytes.Buffer
	code := run([]string{"-bench", "bitonicsort", "-length", "256", "-gpus", "2", "-codecs", "",
		"-lambdas", "", "-o", csvPath}, &out, &errOut)
	if code != exitOK {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d CSV lines, want a header and the none row", len(recs))
	}
	row := map[string]string{}
	for i, h := range recs[0] {
		row[h] = recs[1][i]
	}
	if row["verify_ok"] != "false" || !strings.Contains(row["verify"], "Error: array[") || row["error"] != "" {
		t.Errorf("verify_ok %q, verify %q, error %q", row["verify_ok"], row["verify"], row["error"])
	}
	if n, err := strconv.Atoi(row["transfers"]); err != nil || n == 0 || row["sim_time_ps"] == "0" {
		t.Errorf("the failed run's numbers are missing: transfers %q, time %q", row["transfers"], row["sim_time_ps"])
	}
	if !strings.Contains(out.String(), "FAILED") {
		t.Errorf("the table does not mark the row:\n%s", out.String())
	}
}
