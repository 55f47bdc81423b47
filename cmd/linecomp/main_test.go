package main

// In-process tests of the pieces: the input API, training, progress.

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testEnv returns an env writing to buffers.
func testEnv(stdin io.Reader) (*env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &env{stdin: stdin, stdout: &out, stderr: &errOut}, &out, &errOut
}

// TestTruncatedAfterOpen: a file that shrinks between its stat at opening
// and its reading is an error naming it, and the other inputs are still
// measured.
func TestTruncatedAfterOpen(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "shrinks.bin"), sampleData(t, 64*1024))
	good := writeFile(t, filepath.Join(dir, "good.bin"), sampleData(t, 4096))
	e, _, errOut := testEnv(nil)
	srcs := expandArgs([]string{path, good}, nil)
	open := srcs[0].open
	srcs[0].open = func() (*input, error) {
		in, err := open()
		if err == nil {
			err = os.Truncate(path, 1000)
		}
		return in, err
	}
	m := &ratioMeter{e: e, f: ratioFlags{line: 128, mag: 32, train: trainAuto}, names: []string{"bdi", "sc2"}}
	var measured []string
	err := e.eachInput(srcs, func(in *input) error {
		rows, err := m.measure(in)
		if err == nil {
			measured = append(measured, rows[0].Input)
		}
		return err
	})
	if !errors.Is(err, errInputsFailed) {
		t.Errorf("eachInput: %v, want errInputsFailed", err)
	}
	want := "linecomp: " + path + ": changed while being read: it ended after 1000 of the 65536 bytes"
	if !strings.Contains(errOut.String(), want) {
		t.Errorf("stderr %q, want it to say %q", errOut.String(), want)
	}
	if len(measured) != 1 || measured[0] != good {
		t.Errorf("measured %q, want only %s", measured, good)
	}
}

// TestShrinksMidRead: a file cut shorter after its first chunk was read,
// and one that grows, are errors.
func TestShrinksMidRead(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "big.bin"), make([]byte, 2*chunkBytes+128))
	in, err := openPath(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	e, _, _ := testEnv(nil)
	lr := e.newLineReader(in, 128)
	if _, err := lr.next(); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, chunkBytes+chunkBytes/2); err != nil {
		t.Fatal(err)
	}
	var last error
	for last == nil {
		_, last = lr.next()
	}
	if last == io.EOF || !strings.Contains(last.Error(), "changed while being read") {
		t.Errorf("after truncation: %v, want a change error", last)
	}

	grows := writeFile(t, filepath.Join(dir, "grows.bin"), make([]byte, 1024))
	in2, err := openPath(grows)
	if err != nil {
		t.Fatal(err)
	}
	defer in2.Close()
	writeFile(t, grows, make([]byte, 4096))
	_, err = io.ReadAll(in2)
	if err == nil || !strings.Contains(err.Error(), "grew past the 1024 bytes") {
		t.Errorf("after growth: %v", err)
	}
}

// TestPeekReadOnce: peek on an input that can be read only once keeps what
// it read, and next returns every line in order after it.
func TestPeekReadOnce(t *testing.T) {
	data := sampleData(t, 128*1000+7)
	for _, tc := range []struct {
		name   string
		in     func() *input
		wantIn int64 // lines peek passes for a request of 300
	}{
		{"stream", func() *input { return &input{name: "s", size: -1, r: bytes.NewBufferString(string(data))} }, 300},
		{"file", func() *input {
			r := bytes.NewReader(data)
			return &input{name: "f", size: int64(len(data)), r: r, seeker: r}
		}, 300},
	} {
		e, _, errOut := testEnv(nil)
		lr := e.newLineReader(tc.in(), 128)
		var peeked []byte
		n, err := lr.peek(300, func(lines []byte) { peeked = append(peeked, lines...) })
		if err != nil || n != tc.wantIn || !bytes.Equal(peeked, data[:300*128]) {
			t.Errorf("%s: peek passed %d lines (%v), want 300 equal to the first", tc.name, n, err)
		}
		var all []byte
		for {
			chunk, err := lr.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			all = append(all, chunk...)
		}
		if !bytes.Equal(all, data[:1000*128]) || lr.lines != 1000 {
			t.Errorf("%s: next gave %d bytes in %d lines, want the 1000 whole lines", tc.name, len(all), lr.lines)
		}
		if !strings.Contains(errOut.String(), "trailing 7 bytes") {
			t.Errorf("%s: partial line not noted: %q", tc.name, errOut.String())
		}
	}
	// Peeking past the end of a short stream.
	e, _, _ := testEnv(nil)
	lr := e.newLineReader(&input{name: "short", size: -1, r: bytes.NewReader(data[:128*3])}, 128)
	if n, err := lr.peek(256, func([]byte) {}); n != 3 || err != nil {
		t.Errorf("short stream: peek passed %d (%v), want 3", n, err)
	}
	if chunk, err := lr.next(); len(chunk) != 3*128 || err != nil {
		t.Errorf("short stream: next %d bytes (%v)", len(chunk), err)
	}
	if _, err := lr.next(); err != io.EOF {
		t.Errorf("short stream: %v, want EOF", err)
	}
}

// TestTrainingRule: the first lines that train a trainable codec.
func TestTrainingRule(t *testing.T) {
	m := &ratioMeter{f: ratioFlags{train: trainAuto}}
	for _, tc := range []struct{ known, want int64 }{
		{-1, 256},     // a pipe: size-independent
		{1000, 256},   // at least 256
		{10000, 1000}, // a tenth
		{100, 256},    // more than the input: peek stops at its end
		{123456, 12345},
	} {
		if got := m.trainLines(tc.known); got != tc.want {
			t.Errorf("trainLines(%d) = %d, want %d", tc.known, got, tc.want)
		}
	}
}

// TestTrainAllOnStream: -train all cannot be honoured in bounded memory on
// an input read once, and says so.
func TestTrainAllOnStream(t *testing.T) {
	e, _, errOut := testEnv(bytes.NewReader(sampleData(t, 128*10)))
	code := run(e, []string{"ratio", "-codecs", "sc2", "-train", "all", "-"})
	if code != exitFailed || !strings.Contains(errOut.String(), "stdin: -train all needs to read the input twice") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestProgress: the status line is rate-limited, rewritten in place and
// erased before other output; a nil progress shows nothing.
func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	p := newProgress(&buf)
	p.now = func() time.Time { return now }
	p.next = now
	p.show("a %d", 1)
	p.show("b %d", 2) // too soon: dropped
	now = now.Add(time.Second)
	p.show("c %d", 3)
	e := &env{stderr: &buf, progress: p}
	e.warnf("note")
	want := "\ra 1\x1b[K\rc 3\x1b[K\r\x1b[Klinecomp: note\n"
	if buf.String() != want {
		t.Errorf("progress wrote %q, want %q", buf.String(), want)
	}
	var none *progress
	none.show("x")
	none.clear()
	f, err := os.CreateTemp(t.TempDir(), "notty")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file taken for a terminal")
	}
}

// TestParseFlags: flags after positional arguments, and "--".
func TestParseFlags(t *testing.T) {
	e, _, _ := testEnv(nil)
	fs := newFlags(e, ratioCommand, "")
	codecs := fs.String("codecs", "", "")
	pos, err := fs.parse([]string{"a", "-codecs", "bdi", "b", "--", "-c", "-codecs"})
	if err != nil || *codecs != "bdi" || strings.Join(pos, " ") != "a b -c -codecs" {
		t.Errorf("positional %q codecs %q err %v", pos, *codecs, err)
	}
	pos, err = fs.parse([]string{"-", "x"})
	if err != nil || strings.Join(pos, " ") != "- x" {
		t.Errorf("positional %q err %v", pos, err)
	}
}

// TestCommandGroup: a command with subcommands dispatches to them, gives
// each its full path in help and messages, and lists them for -h.
func TestCommandGroup(t *testing.T) {
	var got []string
	leaf := &command{name: "leaf", args: "[flags] FILE…", summary: "a leaf", run: func(e *env, c *command, args []string) error {
		fs := newFlags(e, c, "Does nothing.")
		n := fs.Int("n", 1, "a number")
		inputs, err := fs.parse(args)
		if err != nil {
			return err
		}
		got = append(inputs, fmt.Sprint(*n))
		return nil
	}}
	table := []*command{{name: "grp", summary: "a group", sub: []*command{leaf}}}
	setPaths(table, "linecomp")
	e, out, _ := testEnv(nil)
	if err := dispatch(e, table, "linecomp", []string{"grp", "leaf", "a", "-n", "3"}); err != nil || strings.Join(got, " ") != "a 3" {
		t.Errorf("grp leaf: %v, ran with %q", err, got)
	}
	if err := dispatch(e, table, "linecomp", []string{"grp", "leaf", "-h"}); !errors.Is(err, flag.ErrHelp) || !strings.HasPrefix(out.String(), "usage: linecomp grp leaf [flags] FILE…") {
		t.Errorf("grp leaf -h: %v\n%s", err, out.String())
	}
	err := dispatch(e, table, "linecomp", []string{"grp", "leaf", "-x"})
	var u usageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "grp leaf: flag provided but not defined: -x (run 'linecomp grp leaf -h')") {
		t.Errorf("grp leaf -x: %v", err)
	}
	out.Reset()
	if err := dispatch(e, table, "linecomp", []string{"grp", "-h"}); err != nil || !strings.Contains(out.String(), "linecomp grp leaf [flags] FILE…\n      a leaf") {
		t.Errorf("grp -h: %v\n%s", err, out.String())
	}
	if err := dispatch(e, table, "linecomp", []string{"grp", "nope"}); !errors.As(err, &u) {
		t.Errorf("grp nope: %v, want a usage error", err)
	}
}

// TestStdinFromFile: standard input redirected from a regular file is read
// from where it stands, can be read twice for training, and its size is
// what is left of the file.
func TestStdinFromFile(t *testing.T) {
	data := sampleData(t, 128*50)
	path := writeFile(t, filepath.Join(t.TempDir(), "in.bin"), data)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(128*10, io.SeekStart); err != nil { // an earlier reader took 10 lines
		t.Fatal(err)
	}
	in, err := openStdin(f)
	if err != nil {
		t.Fatal(err)
	}
	if in.size != 128*40 || in.seeker == nil {
		t.Fatalf("size %d, seekable %v; want 5120 and true", in.size, in.seeker != nil)
	}
	e, _, errOut := testEnv(nil)
	lr := e.newLineReader(in, 128)
	var peeked []byte
	if n, err := lr.peek(5, func(b []byte) { peeked = append(peeked, b...) }); n != 5 || err != nil || !bytes.Equal(peeked, data[128*10:128*15]) {
		t.Errorf("peek: %d lines, %v", n, err)
	}
	var all []byte
	for {
		chunk, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%v (%s)", err, errOut.String())
		}
		all = append(all, chunk...)
	}
	if !bytes.Equal(all, data[128*10:]) {
		t.Errorf("read %d bytes, want the last 40 lines", len(all))
	}
}
