// Package codectest is the shared conformance harness for linecomp codecs:
// it finds the test data (the embedded sample, and the full corpora when
// present), checks a codec against its literal reference line by line, and
// checks that Decompress survives arbitrary input.
package codectest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/sample"
)

// LineSizes are the line sizes every codec is tested at, where it takes them.
var LineSizes = []int{32, 64, 128}

// File is one memory image to test on.
type File struct {
	Name string
	Data []byte
}

// Sample returns the embedded sample, which every clone has.
func Sample() []File {
	var out []File
	for _, f := range sample.Files() {
		out = append(out, File{f.Name, f.Data})
	}
	return out
}

// CorporaDir returns the directory of the full corpora: $LINECOMP_CORPORA,
// else ../shared/corpora beside the module root when it exists.
func CorporaDir() (string, error) {
	if d := os.Getenv("LINECOMP_CORPORA"); d != "" {
		if _, err := os.Stat(d); err != nil {
			return "", fmt.Errorf("LINECOMP_CORPORA=%s: %w", d, err)
		}
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "corpora")
			if _, err := os.Stat(d); err != nil {
				return "", fmt.Errorf("no LINECOMP_CORPORA and no %s", d)
			}
			return d, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no LINECOMP_CORPORA and no module root above the working directory")
		}
		dir = parent
	}
}

var corpora struct {
	once  sync.Once
	files []File
	err   error
}

// loadCorpora reads the full corpora once per test binary.
func loadCorpora() ([]File, error) {
	corpora.once.Do(func() {
		dir, err := CorporaDir()
		if err != nil {
			corpora.err = err
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			corpora.err = err
			return
		}
		for _, e := range entries {
			if e.IsDir() || filepath.Ext(e.Name()) == ".md" {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				corpora.err = err
				return
			}
			corpora.files = append(corpora.files, File{e.Name(), data})
		}
		if len(corpora.files) == 0 {
			corpora.err = fmt.Errorf("%s holds no corpus files", dir)
		}
	})
	return corpora.files, corpora.err
}

// Corpora returns every file of the full corpora, or skips the test with a
// message saying how to provide them.
func Corpora(t testing.TB) []File {
	t.Helper()
	files, err := loadCorpora()
	if err != nil {
		t.Skipf("full corpora not available (%v); set LINECOMP_CORPORA to run this test", err)
	}
	return files
}

// Files returns the embedded sample and, when present, the full corpora;
// without them it logs that only the sample is used.
func Files(t testing.TB) []File {
	t.Helper()
	files, err := loadCorpora()
	if err != nil {
		t.Logf("full corpora not available (%v): sample only", err)
	}
	return append(Sample(), files...)
}

// BitString renders the first bits bits of enc as '0'/'1' characters.
func BitString(enc []byte, bits int) string {
	s := make([]byte, bits)
	for i := range s {
		s[i] = '0' + enc[i/8]>>(7-uint(i%8))&1
	}
	return string(s)
}

// Scratch holds the reusable buffers of Conform, so a corpus run allocates
// nothing per line.
type Scratch struct{ enc, dec []byte }

// Conform checks one line: Size equals the bits of Compress, the stream is
// exactly the reference's bit string (if want is non-empty) in
// (bits+7)/8 bytes, and Decompress returns the line. It returns a
// description of the first difference, or nil.
func Conform(c linecomp.Codec, want string, line []byte, s *Scratch) error {
	size := c.Size(line)
	enc, bits, err := c.Compress(s.enc[:0], line)
	s.enc = enc
	if err != nil {
		return fmt.Errorf("Compress: %v", err)
	}
	if size != bits {
		return fmt.Errorf("Size = %d, Compress wrote %d bits", size, bits)
	}
	if len(enc) != (bits+7)/8 {
		return fmt.Errorf("Compress returned %d bytes for %d bits", len(enc), bits)
	}
	if want != "" {
		if got := BitString(enc, bits); got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			return fmt.Errorf("stream differs from the reference at bit %d:\n got %s (%d bits)\nwant %s (%d bits)", i, got, len(got), want, len(want))
		}
	}
	dec, err := c.Decompress(s.dec[:0], enc)
	s.dec = dec
	if err != nil {
		return fmt.Errorf("Decompress of own stream %X: %v", enc, err)
	}
	if !bytes.Equal(dec, line) {
		return fmt.Errorf("round trip changed the line:\n got %X\nwant %X", dec, line)
	}
	return nil
}

// CheckData runs Conform on every whole line of data (a trailing partial
// line is ignored) against reference r, reporting at most a few failures.
func CheckData(t *testing.T, c linecomp.Codec, r ref.Encoder, name string, data []byte) {
	t.Helper()
	var s Scratch
	n := c.LineSize()
	fails := 0
	for off := 0; off+n <= len(data); off += n {
		line := data[off : off+n]
		want := ""
		if r != nil {
			want = r(line)
		}
		if err := Conform(c, want, line, &s); err != nil {
			t.Errorf("%s: %s line at byte %d (%X): %v", c.Name(), name, off, line, err)
			if fails++; fails == 5 {
				t.Fatalf("%s: stopping after 5 failures in %s", c.Name(), name)
			}
		}
	}
}

// CheckAll checks c against its registered reference on the edge lines, the
// embedded sample and, when present, every line of the full corpora.
func CheckAll(t *testing.T, c linecomp.Codec) {
	t.Helper()
	r, ok := ref.Lookup(c.Name())
	if !ok {
		t.Fatalf("no reference encoder registered for %q", c.Name())
	}
	for i, line := range EdgeLines(c.LineSize()) {
		CheckData(t, c, r, fmt.Sprintf("edge line %d", i), line)
	}
	for _, f := range Sample() {
		CheckData(t, c, r, "sample/"+f.Name, f.Data)
	}
	// Only this subtest skips without the corpora: the checks above still
	// run for every codec and line size on a clone without them.
	t.Run(fmt.Sprintf("%s/%d/corpora", c.Name(), c.LineSize()), func(t *testing.T) {
		for _, f := range Corpora(t) {
			CheckData(t, c, r, f.Name, f.Data)
		}
	})
}

// EdgeLines returns synthetic lines that sit on the boundaries of the
// common encodings: zeros, all ones, repeated words, narrow and sign-boundary
// values at every width, ramps, and seeded random data.
func EdgeLines(n int) [][]byte {
	var out [][]byte
	fill32 := func(f func(i int) uint32) []byte {
		b := make([]byte, n)
		for i := 0; i < n/4; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], f(i))
		}
		return b
	}
	fill64 := func(f func(i int) uint64) []byte {
		b := make([]byte, n)
		for i := 0; i < n/8; i++ {
			binary.LittleEndian.PutUint64(b[8*i:], f(i))
		}
		return b
	}
	out = append(out, make([]byte, n), bytes.Repeat([]byte{0xFF}, n), bytes.Repeat([]byte{0xAB}, n))
	for _, v := range []uint32{1, 7, 8, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0x12345678, 0xFFFFFFF8, 0xFFFFFF80, 0xFFFF8000, 0x80000000, 0x00AB0000, 0x00050003, 0xFFF0FFF0} {
		out = append(out,
			fill32(func(int) uint32 { return v }),
			fill32(func(i int) uint32 { return v * uint32(i&1) }),
			fill32(func(i int) uint32 { return v + uint32(i) }),
			fill32(func(i int) uint32 { return v - uint32(i) }))
	}
	for _, step := range []uint64{1, 4, 8, 0x7F, 0x80, 0x7FFF, 0x8000, 0x7FFFFFFF, 0x80000000} {
		out = append(out,
			fill64(func(i int) uint64 { return 0x00007F0012345678 + step*uint64(i) }),
			fill64(func(i int) uint64 { return uint64(i&1) * (0xC0403900 + step*uint64(i)) }))
	}
	out = append(out,
		fill32(func(i int) uint32 { return math.Float32bits(float32(i) * 0.25) }),
		fill32(func(i int) uint32 { return uint32(int32(-i)) }),
		fill32(func(i int) uint32 { return uint32(i) }))
	rng := rand.New(rand.NewPCG(uint64(n), 42))
	for range 8 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		out = append(out, b)
	}
	return out
}

// CheckGarbage decompresses enc, which need not be a valid stream, into a
// buffer guarded by sentinel bytes. It returns an error if Decompress
// panics, returns a line of the wrong length, returns a different buffer
// than it was given, or writes past what it returns.
func CheckGarbage(c linecomp.Codec, enc []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("Decompress(%X) panicked: %v", enc, p)
		}
	}()
	const sentinel = 0xA5
	prefix := []byte{1, 2, 3}
	buf := make([]byte, len(prefix), len(prefix)+c.LineSize()+64)
	copy(buf, prefix)
	full := buf[:cap(buf)]
	for i := len(prefix); i < len(full); i++ {
		full[i] = sentinel
	}
	in := slices.Clone(enc)
	out, derr := c.Decompress(buf, enc)
	if !bytes.Equal(in, enc) {
		return fmt.Errorf("Decompress modified its input")
	}
	want := len(prefix)
	if derr == nil {
		want += c.LineSize()
	}
	if len(out) != want {
		return fmt.Errorf("Decompress(%X) returned %d bytes (err %v), want %d", enc, len(out), derr, want)
	}
	if !bytes.Equal(out[:len(prefix)], prefix) || &out[0] != &buf[0] {
		return fmt.Errorf("Decompress did not append to dst")
	}
	for i := want; i < len(full); i++ {
		if full[i] != sentinel {
			return fmt.Errorf("Decompress(%X) wrote byte %d past what it returned (err %v)", enc, i, derr)
		}
	}
	return nil
}

// CheckZeroAllocs fails the test if Size, Compress into a reused dst or
// Decompress into a reused dst allocates for line.
func CheckZeroAllocs(t *testing.T, c linecomp.Codec, line []byte) {
	t.Helper()
	enc := make([]byte, 0, 2*c.LineSize()+16)
	dec := make([]byte, 0, c.LineSize())
	e, _, err := c.Compress(enc, line)
	if err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(50, func() { c.Size(line) }); a != 0 {
		t.Errorf("%s Size: %v allocs per line", c.Name(), a)
	}
	if a := testing.AllocsPerRun(50, func() { c.Compress(enc[:0], line) }); a != 0 {
		t.Errorf("%s Compress: %v allocs per line", c.Name(), a)
	}
	if a := testing.AllocsPerRun(50, func() { c.Decompress(dec[:0], e) }); a != 0 {
		t.Errorf("%s Decompress: %v allocs per line", c.Name(), a)
	}
}

// ForEachLevel runs f as a subtest once per kernel level this machine and
// build support (generic first), with kernels switched to that level, so
// that every implementation level is checked against the same oracle.
func ForEachLevel(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, l := range cpu.Levels() {
		t.Run(l.String(), func(t *testing.T) {
			defer cpu.Set(l)()
			f(t)
		})
	}
}

// CrossCheck checks a kernel against its pure-Go definition, as
// hash/crc32's tests check each implementation against the simple one. On
// every line of lineSize bytes of the sample, of the corpora when present,
// of EdgeLines(lineSize) and of extra, at every kernel level this machine
// and build support, kernel must give generic's result both for a batch of
// lines and for each line on its own. kernel writes one result per line of
// data, a whole number of lines, to out; a kernel of one line is wrapped in
// a loop. generic is computed once per line and must not depend on the
// kernel level.
func CrossCheck[T comparable](t *testing.T, lineSize int, extra [][]byte, kernel func(data []byte, out []T), generic func(line []byte) T) {
	t.Helper()
	n := lineSize
	sets := []File{{"edge lines", bytes.Join(EdgeLines(n), nil)}, {"extra lines", bytes.Join(extra, nil)}}
	for _, l := range extra {
		if len(l) != n {
			t.Fatalf("CrossCheck: an extra line is %d bytes, not %d", len(l), n)
		}
	}
	const chunk = 4096 // lines per batch: the wanted results stay small
	want := make([]T, chunk)
	got := make([]T, chunk)
	levels := cpu.Levels()
	defer cpu.Set(cpu.Active())()
	for _, f := range append(Files(t), sets...) {
		data := f.Data[:len(f.Data)/n*n]
		for first := 0; first < len(data)/n; first += chunk {
			batch := data[first*n : min(len(data), (first+chunk)*n)]
			lines := len(batch) / n
			for i := range lines {
				want[i] = generic(batch[i*n : (i+1)*n])
			}
			for _, level := range levels {
				cpu.Set(level)
				kernel(batch, got[:lines])
				for i := range lines {
					line := batch[i*n : (i+1)*n]
					var one [1]T
					kernel(line, one[:])
					if got[i] != want[i] || one[0] != want[i] {
						t.Fatalf("%s, %d-byte line %d, level %v: batch kernel %+v, one-line kernel %+v, pure Go %+v\nline %X",
							f.Name, n, first+i, level, got[i], one[0], want[i], line)
					}
				}
			}
		}
	}
}
