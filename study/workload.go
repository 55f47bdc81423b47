package study

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/linecomp/linecomp/sample"
)

// samplePrefix names an embedded sample trace, as the command prints it.
const samplePrefix = "sample/"

// Workload is one trace a study runs on.
type Workload struct {
	// Name labels the workload in tables: the path as given, or
	// "sample/NAME" for an embedded trace.
	Name string `json:"name"`
	// Path is where the trace is read from: an absolute file path, or
	// "sample/NAME" for an embedded trace.
	Path string `json:"path"`
	// SHA256 is the hex SHA-256 of the trace's bytes when it was planned.
	SHA256 string `json:"sha256"`
}

// FileWorkload hashes the trace at path and returns its workload, named
// path as given and read from its absolute path. An embedded sample trace
// is named "sample/NAME" (see SampleWorkloads).
func FileWorkload(path string) (Workload, error) {
	if data, ok := sampleData(path); ok {
		return Workload{Name: path, Path: path, SHA256: hashHex(data)}, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Workload{}, err
	}
	f, err := os.Open(abs)
	if err != nil {
		return Workload{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return Workload{}, fmt.Errorf("%s: %w", path, err)
	}
	return Workload{Name: path, Path: abs, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// SampleWorkloads returns the embedded sample traces of a stream ("warps",
// "l1", "dram", "rdma"), or for "images" the embedded memory images, named
// "sample/NAME".
func SampleWorkloads(stream string) []Workload {
	var ws []Workload
	if stream == "images" {
		for _, f := range sample.Files() {
			name := samplePrefix + f.Name
			ws = append(ws, Workload{Name: name, Path: name, SHA256: hashHex(f.Data)})
		}
		return ws
	}
	for _, t := range sample.Traces() {
		if t.Stream == stream {
			name := samplePrefix + t.Name
			ws = append(ws, Workload{Name: name, Path: name, SHA256: hashHex(t.Data)})
		}
	}
	return ws
}

func sampleData(path string) ([]byte, bool) {
	name, ok := strings.CutPrefix(path, samplePrefix)
	if !ok {
		return nil, false
	}
	if _, err := os.Stat(path); err == nil {
		return nil, false // a real file of that name wins
	}
	for _, t := range sample.Traces() {
		if t.Name == name {
			return t.Data, true
		}
	}
	for _, f := range sample.Files() {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

func hashHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Open opens the workload's trace for reading, without checking its hash
// (RunJob does).
func (w Workload) Open() (io.ReadCloser, error) { return w.open() }

// open opens the workload's trace for reading. The reader hashes what it
// reads; verify, after the job, reads the rest and fails with ErrChanged
// if the bytes are not those the plan hashed.
func (w Workload) open() (*hashingReader, error) {
	var r io.Reader
	var c io.Closer
	if data, ok := sampleData(w.Path); ok {
		r = bytes.NewReader(data)
	} else {
		f, err := os.Open(w.Path)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %w", w.Name, err)
		}
		r, c = f, f
	}
	h := sha256.New()
	return &hashingReader{w: w, r: io.TeeReader(r, h), h: h, c: c}, nil
}

type hashingReader struct {
	w Workload
	r io.Reader
	h hash.Hash
	c io.Closer
}

func (r *hashingReader) Read(p []byte) (int, error) { return r.r.Read(p) }

// verify reads what the job left unread and compares the hash with the
// plan's.
func (r *hashingReader) verify() error {
	if _, err := io.Copy(io.Discard, r.r); err != nil {
		return fmt.Errorf("workload %s: %w", r.w.Name, err)
	}
	if got := hex.EncodeToString(r.h.Sum(nil)); got != r.w.SHA256 {
		return fmt.Errorf("%w: %s now has sha256 %s, the plan recorded %s; make a new plan", ErrChanged, r.w.Name, got, r.w.SHA256)
	}
	return nil
}

func (r *hashingReader) Close() error {
	if r.c != nil {
		return r.c.Close()
	}
	return nil
}
