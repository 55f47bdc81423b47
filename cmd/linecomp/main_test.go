package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
)

func runCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(args, &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestDefaultRunsEveryCodecOnSample(t *testing.T) {
	out, _, err := runCmd(t)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range linecomp.Names() {
		if !strings.Contains(out, " "+name+" ") {
			t.Errorf("no row for %s in:\n%s", name, out)
		}
	}
	if !strings.Contains(out, "sample(8 files)") {
		t.Errorf("output does not name the sample:\n%s", out)
	}
}

func TestJSONAndCSV(t *testing.T) {
	out, _, err := runCmd(t, "ratio", "-codecs", "bdi", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []result
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if len(rows) != 1 || rows[0].Codec != "bdi" || rows[0].Lines != 2048 || rows[0].Raw == nil || *rows[0].Raw <= 1 || rows[0].Input != "sample(8 files)" {
		t.Fatalf("unexpected rows %+v", rows)
	}
	// ratio is the line bits over the summed sizes
	if want := float64(rows[0].LineBits) / float64(rows[0].SizeBits); *rows[0].Raw != want {
		t.Errorf("ratio %v, want %v", *rows[0].Raw, want)
	}
	out, _, err = runCmd(t, "ratio", "-codecs", "bdi,magbdi-32", "-format", "csv", "-line", "64")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 3 || recs[1][2] != "64" {
		t.Fatalf("csv: %v %q", err, recs)
	}
}

func TestFilesAndTrailingBytes(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte{1, 0, 0, 0}, 64) // 256 bytes: two 128-byte lines
	if err := os.WriteFile(filepath.Join(dir, "a.bin"), append(data, 9, 9, 9), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "ratio", "-codecs", "bdi", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "a.bin: trailing 3 bytes") {
		t.Errorf("trailing bytes not reported: %q", errOut)
	}
	if strings.Count(out, "bdi") != 2 {
		t.Errorf("want a row per file:\n%s", out)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.bin")
	os.WriteFile(empty, nil, 0o644)
	short := filepath.Join(dir, "short.bin")
	os.WriteFile(short, []byte{1, 2, 3}, 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"ratio", "-codecs", "nope"}, `unknown codec "nope"`},
		{[]string{"ratio", "-codecs", "magbdi-64", "-line", "64"}, "magbdi-64"},
		{[]string{"ratio", "-line", "0"}, "line size must be positive"},
		{[]string{"ratio", "-format", "xml"}, "want text, csv or json"},
		{[]string{"ratio", "-train", "some"}, `-train "some"`},
		{[]string{"ratio", filepath.Join(dir, "missing.bin")}, "missing.bin: no such file or directory"},
		{[]string{"ratio", empty}, "empty.bin: file is empty"},
		{[]string{"ratio", short}, "short.bin: 3 bytes hold no whole 128-byte line"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
	}
	for _, tc := range cases {
		_, _, err := runCmd(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want it to mention %q", tc.args, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error is not one line: %q", tc.args, err)
		}
	}
}

func TestCodecsList(t *testing.T) {
	out, _, err := runCmd(t, "codecs")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "bdi") || !strings.Contains(out, "32,64,128") {
		t.Errorf("codecs output:\n%s", out)
	}
}

// TestTraining: SC² trains on the first lines of each input, the report
// says how many, and training on every line is labelled optimistic.
func TestTraining(t *testing.T) {
	out, _, err := runCmd(t, "ratio", "-codecs", "sc2", "-format", "json", "-line", "64")
	if err != nil {
		t.Fatal(err)
	}
	var rows []result
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	// 8 sample files of 512 64-byte lines: each trains on max(512/10, 256) = 256
	if len(rows) != 1 || rows[0].Trained != 8*256 || rows[0].TrainedAll || *rows[0].Raw <= 1 {
		t.Fatalf("rows %+v", rows)
	}
	out, _, err = runCmd(t, "ratio", "-codecs", "sc2", "-train", "all")
	if err != nil || !strings.Contains(out, "(all lines: optimistic)") {
		t.Fatalf("-train all: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "ratio", "-codecs", "sc2,bdi", "-train", "10", "-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	rows = nil
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	// 10 lines of each of the 8 files train SC²; BDI does not train
	if len(rows) != 2 || rows[0].Trained != 80 || rows[1].Trained != 0 {
		t.Fatalf("-train 10: %+v", rows)
	}
}
