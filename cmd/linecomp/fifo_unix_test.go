//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestFIFO: a named pipe given on the command line is read as it is
// written.
func TestFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "lines.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	data := sampleData(t, 128*300)
	writeErr := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			writeErr <- err
			return
		}
		_, err = f.Write(data)
		f.Close()
		writeErr <- err
	}()
	o := linecompRun(t, "ratio", "-codecs", "bdi,sc2", "-format", "csv", fifo)
	if err := <-writeErr; err != nil {
		t.Fatal(err)
	}
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	recs := csvRows(t, o)
	if len(recs) != 2 || recs[0][3] != "300" || recs[1][1] != "sc2" || recs[1][3] != "300" {
		t.Errorf("want rows of 300 lines for bdi and sc2:\n%v", o)
	}
}

// TestDirectoryWithFIFOAndSubdir: non-regular entries of a directory are
// reported as skipped (a FIFO is not opened, which would block), and the
// regular files are measured.
func TestDirectoryWithFIFOAndSubdir(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, filepath.Join(dir, "a.bin"), sampleData(t, 1024))
	if err := syscall.Mkfifo(filepath.Join(dir, "f.fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "sub", "inner.bin"), sampleData(t, 1024))
	o := linecompRun(t, "ratio", "-codecs", "bdi", "-format", "csv", dir)
	if o.code != 0 {
		t.Fatalf("%v", o)
	}
	if got := inputsOf(csvRows(t, o)); !slices.Equal(got, []string{a}) {
		t.Errorf("rows for %q, want %q", got, []string{a})
	}
	for _, want := range []string{"f.fifo: skipped", "sub: skipped"} {
		if !strings.Contains(o.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, o.stderr)
		}
	}
}
