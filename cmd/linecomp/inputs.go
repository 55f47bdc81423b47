package main

// The inputs of every subcommand: command-line arguments become sources
// (expandArgs, sampleSources), each source is opened into an input in turn
// (env.eachInput), and an input is read either as a plain io.Reader (a
// trace parser) or as whole lines through a lineReader (ratio, bench).
//
// Everything is read in chunks: no input is held in memory whole, and
// nothing is memory-mapped, so a file that shrinks under the command is a
// short read, reported as an error naming the file, never a SIGBUS.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/linecomp/linecomp/sample"
)

// A source is one input named on the command line (or an embedded sample
// file), not yet opened. Exactly one of open, skip and err is set.
type source struct {
	name string
	open func() (*input, error)
	skip string // why it is not read, e.g. "a directory", reported as a note
	err  error  // why it cannot be read, reported as a failure
}

// expandArgs turns command-line arguments into sources: "-" is standard
// input (named "stdin" in reports); a directory stands for the entries
// directly inside it, in name order, of which only regular files (and
// links to them) are read, and the others are skipped with a reason;
// anything else is opened as it is, so FIFOs, pipes such as /dev/fd/3 and
// devices are read like files. A name that is no file but one the reports
// give an embedded sample, such as sample/l1-bfs.lct, is that sample.
func expandArgs(args []string, stdin io.Reader) []source {
	var srcs []source
	for _, a := range args {
		if a == "-" {
			srcs = append(srcs, source{name: "stdin", open: func() (*input, error) { return openStdin(stdin) }})
			continue
		}
		st, err := os.Stat(a)
		switch {
		case err != nil && errors.Is(err, fs.ErrNotExist) && embedded(a) != nil:
			srcs = append(srcs, *embedded(a))
		case err != nil:
			srcs = append(srcs, source{name: a, err: unwrapPathError(err)})
		case st.IsDir():
			srcs = append(srcs, dirSources(a)...)
		default:
			srcs = append(srcs, fileSource(a))
		}
	}
	return srcs
}

func fileSource(path string) source {
	return source{name: path, open: func() (*input, error) { return openPath(path) }}
}

// dirSources lists the sources of a directory's entries. A directory
// without any regular file is itself a failed source, so that a mistyped
// directory is not a silent success.
func dirSources(dir string) []source {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return []source{{name: dir, err: unwrapPathError(err)}}
	}
	var srcs []source
	regular := 0
	for _, ent := range entries {
		path := filepath.Join(dir, ent.Name())
		if strings.HasPrefix(ent.Name(), ".") {
			srcs = append(srcs, source{name: path, skip: "a hidden file"})
			continue
		}
		mode := ent.Type()
		if mode&fs.ModeSymlink != 0 {
			st, err := os.Stat(path)
			if err != nil {
				srcs = append(srcs, source{name: path, skip: "a link to nothing readable (" + unwrapPathError(err).Error() + ")"})
				continue
			}
			mode = st.Mode().Type()
		}
		if !mode.IsRegular() {
			srcs = append(srcs, source{name: path, skip: "not a regular file (" + describeMode(mode) + ")"})
			continue
		}
		regular++
		srcs = append(srcs, fileSource(path))
	}
	if regular == 0 {
		srcs = append(srcs, source{name: dir, err: errors.New("the directory holds no regular file")})
	}
	return srcs
}

// describeMode names a file type for a skip note.
func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory; directories are not descended into"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO; name it on the command line to read it"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device; name it on the command line to read it"
	}
	return "type " + m.String()
}

// sampleSources returns the embedded sample files as sources named
// "sample/NAME".
func sampleSources() []source {
	var srcs []source
	for _, f := range sample.Files() {
		srcs = append(srcs, bytesSource("sample/"+f.Name, f.Data))
	}
	return srcs
}

// embedded returns the embedded sample file or trace that the reports name
// name ("sample/NAME"), or nil.
func embedded(name string) *source {
	base, ok := strings.CutPrefix(filepath.ToSlash(name), "sample/")
	if !ok {
		return nil
	}
	for _, f := range sample.Files() {
		if f.Name == base {
			s := bytesSource(name, f.Data)
			return &s
		}
	}
	for _, t := range sample.Traces() {
		if t.Name == base {
			s := bytesSource(name, t.Data)
			return &s
		}
	}
	return nil
}

// bytesSource is a source of data held in memory, such as an embedded
// file: it has a known size and can be read more than once.
func bytesSource(name string, data []byte) source {
	return source{name: name, open: func() (*input, error) {
		r := bytes.NewReader(data)
		return &input{name: name, size: int64(len(data)), r: r, seeker: r}, nil
	}}
}

// eachInput opens each source in turn and calls fn with it, then closes
// it. It reports on standard error, in one line naming it, every skipped
// source and every failed one: one that could not be opened, or for which
// fn returned an error. It tries every source, and returns errInputsFailed
// if any failed.
func (e *env) eachInput(srcs []source, fn func(in *input) error) error {
	failed, skipped := 0, 0
	for _, s := range srcs {
		switch {
		case s.skip != "":
			e.warnf("%s: skipped: %s", s.name, s.skip)
			skipped++
			continue
		case s.err != nil:
			e.warnf("%s: %v", s.name, s.err)
			failed++
			continue
		}
		in, err := s.open()
		if err == nil {
			err = fn(in)
			in.Close()
		}
		if err != nil {
			e.warnf("%s: %v", s.name, err)
			failed++
		}
	}
	if failed > 0 {
		if tried := len(srcs) - skipped; tried > 1 {
			e.warnf("%d of %d inputs failed", failed, tried)
		}
		return errInputsFailed
	}
	return nil
}

// An input is one opened memory image: a regular file, a FIFO, a pipe, a
// device, standard input or an embedded sample file. Reading it gives an
// error when a file turns out to have changed while it was read.
type input struct {
	name   string
	size   int64     // bytes, known before reading; -1 if not known
	r      io.Reader // the data
	seeker io.Seeker // nil if the input can be read only once
	start  int64     // where reading starts and Rewind returns to
	closer io.Closer // nil if the input is not ours to close

	// A regular file's state at opening, to notice a change by the end.
	file   *os.File
	opened fs.FileInfo
	read   int64 // bytes read since opening or the last Rewind
}

// openPath opens a file named on the command line.
func openPath(path string) (*input, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, unwrapPathError(err)
	}
	in, err := fileInput(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	in.closer = f
	return in, nil
}

// openStdin makes an input of standard input. Redirected from a regular
// file, it is read like that file; otherwise (a pipe, a terminal) once.
func openStdin(stdin io.Reader) (*input, error) {
	if f, ok := stdin.(*os.File); ok {
		return fileInput("stdin", f)
	}
	return &input{name: "stdin", size: -1, r: stdin}, nil
}

// fileInput describes an open file: a regular file has a size and can be
// read again; anything else is read once, to its end.
func fileInput(name string, f *os.File) (*input, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if st.IsDir() {
		return nil, errors.New("is a directory")
	}
	in := &input{name: name, size: -1, r: f}
	if !st.Mode().IsRegular() {
		return in, nil
	}
	// Standard input redirected from a file may start past its first byte,
	// where an earlier command stopped reading it.
	start, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return in, nil // read it once, to its end
	}
	in.seeker, in.start, in.file, in.opened = f, start, f, st
	// A regular file of size 0 may still hold data: procfs and sysfs files
	// report 0 and are read to their end.
	if st.Size() > 0 {
		in.size = max(st.Size()-start, 0)
	}
	return in, nil
}

// Read reads from the input. Where the size was known at opening, reading
// more or fewer bytes, or a file whose size or modification time differ at
// its end from when it was opened, is an error saying that it changed.
func (in *input) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	in.read += int64(n)
	if in.size < 0 {
		return n, err
	}
	if in.read > in.size {
		return n, fmt.Errorf("changed while being read: it grew past the %d bytes it had when opened", in.size)
	}
	if err == io.EOF {
		if in.read < in.size {
			return n, fmt.Errorf("changed while being read: it ended after %d of the %d bytes it had when opened", in.read, in.size)
		}
		if in.file != nil {
			if st, serr := in.file.Stat(); serr == nil && (st.Size() != in.opened.Size() || !st.ModTime().Equal(in.opened.ModTime())) {
				return n, errors.New("changed while being read: its size or modification time differ from when it was opened")
			}
		}
	}
	return n, err
}

// errReadOnce says that an input cannot be read a second time.
var errReadOnce = errors.New("can be read only once (a pipe, FIFO, device or standard input)")

// Rewind starts the input again from where it started, or returns
// errReadOnce.
func (in *input) Rewind() error {
	if in.seeker == nil {
		return errReadOnce
	}
	if _, err := in.seeker.Seek(in.start, io.SeekStart); err != nil {
		return err
	}
	in.read = 0
	return nil
}

// Close releases the input.
func (in *input) Close() error {
	if in.closer == nil {
		return nil
	}
	return in.closer.Close()
}

// unwrapPathError drops the *fs.PathError wrapper, whose text repeats the
// path the report already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// chunkBytes bounds the memory a lineReader reads into: large enough that
// a read costs little per line, small enough to stay in the L2 cache.
const chunkBytes = 1 << 20

// A lineReader reads an input as whole lines of a fixed size, many lines
// at a time, in memory bounded by chunkBytes (plus what peek keeps of an
// input that can be read only once).
type lineReader struct {
	e        *env
	in       *input
	lineSize int
	buf      []byte
	replay   []byte // lines that peek read from a read-once input, returned first
	lines    int64  // whole lines returned by next
	eof      bool   // the input has ended
	partial  int    // bytes after the last whole line, known at the end
	err      error  // the final result of next, once known
}

func (e *env) newLineReader(in *input, lineSize int) *lineReader {
	return &lineReader{e: e, in: in, lineSize: lineSize, buf: make([]byte, max(1, chunkBytes/lineSize)*lineSize)}
}

// knownLines returns the number of whole lines in the input when its size
// is known before reading, and -1 otherwise.
func (lr *lineReader) knownLines() int64 {
	if lr.in.size < 0 {
		return -1
	}
	return lr.in.size / int64(lr.lineSize)
}

// read fills the buffer and returns the whole lines read. At the end of the
// input it returns io.EOF along with the last lines, and keeps the number
// of bytes of a trailing partial line.
func (lr *lineReader) read() ([]byte, error) {
	n, err := io.ReadFull(lr.in, lr.buf)
	switch err {
	case nil:
		return lr.buf, nil
	case io.EOF, io.ErrUnexpectedEOF:
		whole := n / lr.lineSize * lr.lineSize
		lr.eof, lr.partial = true, n-whole
		return lr.buf[:whole], io.EOF
	}
	return nil, err
}

// next returns the next chunk of whole lines, valid until the next call,
// or io.EOF after the last. At the end it notes a trailing partial line on
// standard error (the partial line is not measured); an input without any
// whole line is an error.
func (lr *lineReader) next() ([]byte, error) {
	if lr.err != nil {
		return nil, lr.err
	}
	var chunk []byte
	switch {
	case len(lr.replay) > 0:
		chunk, lr.replay = lr.replay, nil
	case !lr.eof:
		var err error
		chunk, err = lr.read()
		if err != nil && err != io.EOF {
			lr.err = err
			return nil, err
		}
	}
	if len(chunk) == 0 {
		lr.err = lr.end()
		return nil, lr.err
	}
	lr.lines += int64(len(chunk) / lr.lineSize)
	return chunk, nil
}

// end is the result of reading past the last line.
func (lr *lineReader) end() error {
	switch {
	case lr.lines == 0 && lr.partial == 0:
		return errors.New("empty")
	case lr.lines == 0:
		return fmt.Errorf("%d bytes hold no whole %d-byte line", lr.partial, lr.lineSize)
	case lr.partial > 0:
		lr.e.warnf("%s: trailing %d bytes are not a whole %d-byte line; ignored", lr.in.name, lr.partial, lr.lineSize)
	}
	return io.EOF
}

// peek passes the first n lines of the input (all of them if it has fewer)
// to fn, a chunk at a time, and returns how many it passed. Then next
// starts again from the first line: peek rewinds an input that can be read
// again, and keeps the lines it read from one that cannot in memory. It
// must be called before next.
func (lr *lineReader) peek(n int64, fn func(lines []byte)) (int64, error) {
	if lr.lines > 0 || lr.eof {
		return 0, errors.New("lineReader.peek after next") // a bug in the caller
	}
	passed := int64(0)
	for passed < n && !lr.eof {
		chunk, err := lr.read()
		if err != nil && err != io.EOF {
			return passed, err
		}
		if lr.in.seeker == nil {
			lr.replay = append(lr.replay, chunk...)
		}
		take := min(int64(len(chunk)/lr.lineSize), n-passed)
		if take > 0 {
			fn(chunk[:take*int64(lr.lineSize)])
		}
		passed += take
	}
	if lr.in.seeker != nil {
		if err := lr.in.Rewind(); err != nil {
			return passed, err
		}
		lr.eof, lr.partial = false, 0
	}
	return passed, nil
}
