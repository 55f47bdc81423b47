package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/linecomp/linecomp/sample"
)

// input is one memory image to compress.
type input struct {
	name    string
	data    []byte
	release func() // unmaps or drops data
}

// sampleInputs returns the embedded sample files.
func sampleInputs() []input {
	var ins []input
	for _, f := range sample.Files() {
		ins = append(ins, input{name: "sample/" + f.Name, data: f.Data, release: func() {}})
	}
	return ins
}

// expand turns the command-line arguments into file paths: a directory
// stands for the regular files directly inside it, in name order.
func expand(args []string) ([]string, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, unwrapPathError(err))
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, unwrapPathError(err))
		}
		var inDir []string
		for _, e := range entries {
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
				inDir = append(inDir, filepath.Join(a, e.Name()))
			}
		}
		if len(inDir) == 0 {
			return nil, fmt.Errorf("%s: directory has no regular files", a)
		}
		slices.Sort(inDir)
		paths = append(paths, inDir...)
	}
	return paths, nil
}

// open reads a file, mapping it into memory where the platform allows, and
// rejects an empty one.
func open(path string) (input, error) {
	f, err := os.Open(path)
	if err != nil {
		return input{}, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return input{}, fmt.Errorf("%s: %w", path, err)
	}
	if st.Size() == 0 {
		return input{}, fmt.Errorf("%s: file is empty", path)
	}
	data, release, err := mapFile(f, st.Size())
	if err != nil {
		return input{}, fmt.Errorf("%s: %w", path, err)
	}
	return input{name: path, data: data, release: release}, nil
}

// unwrapPathError drops the *fs.PathError wrapper, whose text repeats the
// path the caller already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readAll reads the whole file into memory.
func readAll(f *os.File, size int64) ([]byte, func(), error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}
