// Package codectest is the conformance harness of this repository's codec
// packages. It finds the test data (the embedded sample, and the full
// corpora when present), checks a codec against its literal reference in
// internal/ref line by line, runs the contract checks of linecomptest, and
// switches kernel levels. The checks that hold for any codec live in
// linecomptest; this package adds what needs our references and data.
//
// # Corpora
//
// The full corpora are read from $LINECOMP_CORPORA, else from
// ../shared/corpora beside the module root. A LINECOMP_CORPORA that names
// no readable directory of corpus files fails every test that wants the
// corpora (a mistyped path must not pass by skipping); only when it is
// unset and ../shared/corpora does not exist do those tests skip, so that
// a clone without the corpora still runs every sample check. With -short
// the corpora are not read at all: the tests run on the sample only, which
// is what the CI's -race run uses.
package codectest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/race"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
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

// errNoCorpora means LINECOMP_CORPORA is unset and ../shared/corpora does
// not exist: the corpus tests skip.
var errNoCorpora = errors.New("LINECOMP_CORPORA is unset and there is no ../shared/corpora beside the module root")

// CorporaDir returns the directory of the full corpora: $LINECOMP_CORPORA,
// else ../shared/corpora beside the module root. The error wraps
// errNoCorpora only in the second case, when that directory is absent.
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
			if _, err := os.Stat(d); errors.Is(err, os.ErrNotExist) {
				return "", errNoCorpora
			} else if err != nil {
				return "", err
			}
			return d, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%w (no module root above the working directory)", errNoCorpora)
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

// Corpora returns every file of the full corpora. It skips the test with
// -short or when the corpora are absent and were not asked for, and fails
// it when they were asked for (LINECOMP_CORPORA) and cannot be read.
func Corpora(t testing.TB) []File {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the sample only, not the full corpora")
	}
	files, err := loadCorpora()
	if errors.Is(err, errNoCorpora) {
		t.Skipf("full corpora not available (%v); set LINECOMP_CORPORA to run this test", err)
	}
	if err != nil {
		t.Fatalf("full corpora: %v", err)
	}
	return files
}

// Files returns the embedded sample and, unless -short is set or the
// corpora are absent and were not asked for, the full corpora; it fails
// the test when LINECOMP_CORPORA is set and cannot be read.
func Files(t testing.TB) []File {
	t.Helper()
	if testing.Short() {
		return Sample()
	}
	files, err := loadCorpora()
	if errors.Is(err, errNoCorpora) {
		t.Logf("full corpora not available (%v): sample only", err)
	} else if err != nil {
		t.Fatalf("full corpora: %v", err)
	}
	return append(Sample(), files...)
}

// Conform checks one line: the stream is exactly the reference's bit
// string (if want is non-empty), and it passes linecomptest's round trip
// (Size, length, padding, Decompress). It returns a description of the
// first difference, or nil.
func Conform(c linecomp.Codec, want string, line []byte, s *linecomptest.Scratch) error {
	enc, bits, err := s.RoundTrip(c, line)
	if enc != nil && want != "" {
		if got := linecomptest.BitString(enc, bits); got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			return fmt.Errorf("stream differs from the reference at bit %d:\n got %s (%d bits)\nwant %s (%d bits)", i, got, len(got), want, len(want))
		}
	}
	return err
}

// CheckData runs Conform on every whole line of data (a trailing partial
// line is ignored) against reference r, reporting at most a few failures.
func CheckData(t *testing.T, c linecomp.Codec, r ref.Encoder, name string, data []byte) {
	t.Helper()
	var s linecomptest.Scratch
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

// CheckAll checks c against its registered reference on the edge lines,
// the embedded sample and, when present, every line of the full corpora,
// and runs linecomptest.TestCodec on the edge lines and about a thousand
// lines of the sample.
func CheckAll(t *testing.T, c linecomp.Codec) {
	t.Helper()
	r, ok := ref.Lookup(c.Name())
	if !ok {
		t.Fatalf("no reference encoder registered for %q", c.Name())
	}
	n := c.LineSize()
	lines := linecomptest.EdgeLines(n)
	for i, line := range lines {
		CheckData(t, c, r, fmt.Sprintf("edge line %d", i), line)
	}
	// TestCodec tries some twenty streams per line: on the edge lines and
	// about a thousand lines spread over the sample, not all 8,192 of a
	// 32-byte line size, which the reference check above covers.
	sampleBytes := 0
	for _, f := range Sample() {
		sampleBytes += len(f.Data)
	}
	stride := max(1, sampleBytes/n/1024) * n
	for _, f := range Sample() {
		CheckData(t, c, r, "sample/"+f.Name, f.Data)
		for off := 0; off+n <= len(f.Data); off += stride {
			lines = append(lines, f.Data[off:off+n])
		}
	}
	if err := linecomptest.TestCodec(c, lines); err != nil {
		t.Errorf("linecomptest on the edge lines and %d sample lines:\n%v", len(lines)-len(linecomptest.EdgeLines(n)), err)
	}
	// Only this subtest skips without the corpora: the checks above still
	// run for every codec and line size on a clone without them.
	t.Run(fmt.Sprintf("%s/%d/corpora", c.Name(), n), func(t *testing.T) {
		for _, f := range Corpora(t) {
			CheckData(t, c, r, f.Name, f.Data)
		}
	})
}

// CheckZeroAllocs fails the test if Size, Compress into a reused dst or
// Decompress into a reused dst allocates for line
// (linecomptest.CheckZeroAllocs).
func CheckZeroAllocs(t *testing.T, c linecomp.Codec, line []byte) {
	t.Helper()
	if err := linecomptest.CheckZeroAllocs(c, line); err != nil {
		t.Errorf("%s/%d: %v", c.Name(), c.LineSize(), err)
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
	sets := []File{{"edge lines", bytes.Join(linecomptest.EdgeLines(n), nil)}, {"extra lines", bytes.Join(extra, nil)}}
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

// CheckOptions checks that a codec package's options cannot change a built
// codec, which the Codec contract promises is immutable: Option must be a
// function type whose one parameter is a pointer to an unexported struct
// (New's configuration) that is not Codec, and Codec (a struct, or a
// pointer to one) must hold no pointer to that struct, only, if anything,
// a copy. Then WithX()(c) does not compile for a *Codec c, and a
// configuration New has read cannot reach the codec it built. It returns
// what is wrong, or nil.
func CheckOptions[Option, Codec any]() error {
	opt, codec := reflect.TypeFor[Option](), reflect.TypeFor[Codec]()
	if codec.Kind() == reflect.Pointer {
		codec = codec.Elem()
	}
	if opt.Kind() != reflect.Func || opt.NumIn() != 1 || opt.NumOut() != 0 || opt.In(0).Kind() != reflect.Pointer {
		return fmt.Errorf("option type %v is not a function of one pointer", opt)
	}
	cfg := opt.In(0).Elem()
	if cfg.Kind() != reflect.Struct || cfg == codec || cfg.Name() == "" || !unicode.IsLower([]rune(cfg.Name())[0]) {
		return fmt.Errorf("option type %v acts on %v, not on an unexported configuration struct other than %v", opt, cfg, codec)
	}
	if codec.Kind() != reflect.Struct {
		return fmt.Errorf("codec type %v is not a struct", codec)
	}
	for i := range codec.NumField() {
		if f := codec.Field(i); f.Type == reflect.PointerTo(cfg) {
			return fmt.Errorf("%v.%s points to the configuration %v that options write", codec, f.Name, cfg)
		}
	}
	return nil
}

// Variant is one configuration of a codec package, for CheckVariants: its
// registry name, the options that make it, and the package's New with any
// other arguments fixed (e.g. magbdi's MAG), which must return a nil
// Codec with its error.
type Variant[O any] struct {
	Name string
	Opts []O
	New  func(lineSize int, opts ...O) (linecomp.Codec, error)
}

// NewFunc adapts a codec package's New to Variant.New: a nil Codec, not
// a nil *Codec in an interface, with an error.
func NewFunc[C linecomp.Codec, O any](newCodec func(lineSize int, opts ...O) (C, error)) func(int, ...O) (linecomp.Codec, error) {
	return func(n int, opts ...O) (linecomp.Codec, error) {
		c, err := newCodec(n, opts...)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
}

// SampleLines returns linecomptest.EdgeLines(n) and the whole n-byte
// lines of the embedded sample: the first perFile of each file, or all of
// them if perFile is 0.
func SampleLines(n, perFile int) [][]byte {
	lines := linecomptest.EdgeLines(n)
	for _, f := range Sample() {
		for i, off := 0, 0; off+n <= len(f.Data) && (perFile == 0 || i < perFile); i, off = i+1, off+n {
			lines = append(lines, f.Data[off:off+n])
		}
	}
	return lines
}

// CheckVariants checks what every codec package promises of its options
// and names, for the variants of one package, whose registry names are
// pkg and pkg-…:
//   - the registry holds exactly the names of variants;
//   - at every size the registry lists, a variant built with its options
//     is named as registered, and linecomp.New(c.Name(), c.LineSize())
//     produces the same bits on the edge lines and the sample's first 64
//     lines of each file;
//   - at every other size from -300 to 300, the package's New and
//     linecomp.New fail with ErrLineSize only and no codec, never a panic;
//   - withLatency's latency replaces the default before or after the other
//     options; a field may be LatencyUnknown; any other negative field is
//     an ErrConfig (not ErrLineSize) naming the codec and the latency.
func CheckVariants[O any](t *testing.T, pkg string, variants []Variant[O], withLatency func(linecomp.Latency) O) {
	t.Helper()
	var registered, want []string
	for _, in := range linecomp.Infos() {
		if in.Name == pkg || strings.HasPrefix(in.Name, pkg+"-") {
			registered = append(registered, in.Name)
		}
	}
	for _, v := range variants {
		if !slices.Contains(want, v.Name) {
			want = append(want, v.Name)
		}
	}
	slices.Sort(want)
	if !slices.Equal(registered, want) {
		t.Fatalf("registered %q, the test knows %q", registered, want)
	}
	build := func(v Variant[O], n int, more ...O) (linecomp.Codec, error) {
		return v.New(n, append(slices.Clone(v.Opts), more...)...)
	}
	for _, v := range variants {
		info, _ := linecomp.Lookup(v.Name)
		for n := -300; n <= 300; n++ {
			if !slices.Contains(info.LineSizes, n) {
				checkBadSize(t, v.Name, n, func() (linecomp.Codec, error) { return build(v, n) })
				checkBadSize(t, v.Name, n, func() (linecomp.Codec, error) { return linecomp.New(v.Name, n) })
				continue
			}
			own, err := build(v, n)
			if err != nil {
				t.Fatalf("%s/%d built with its options: %v", v.Name, n, err)
			}
			if own.Name() != v.Name || own.LineSize() != n {
				t.Errorf("%s/%d built with its options is named %q for %d bytes", v.Name, n, own.Name(), own.LineSize())
			}
			reg, err := linecomp.New(own.Name(), n)
			if err != nil {
				t.Fatalf("linecomp.New(%q, %d): %v", own.Name(), n, err)
			}
			for _, line := range SampleLines(n, 64) {
				a, abits, _ := own.Compress(nil, line)
				b, bbits, _ := reg.Compress(nil, line)
				if abits != bbits || !bytes.Equal(a, b) {
					t.Fatalf("%s/%d: built with its options % X (%d bits), rebuilt by its name % X (%d bits)\nline %X", v.Name, n, a, abits, b, bbits, line)
				}
			}
		}
		n := info.LineSizes[0]
		for _, l := range []linecomp.Latency{
			{Compress: 6, Decompress: 10},
			{Compress: linecomp.LatencyUnknown, Decompress: 5},
			{Compress: 3, Decompress: linecomp.LatencyUnknown},
			{Compress: linecomp.LatencyUnknown, Decompress: linecomp.LatencyUnknown},
			{Compress: 0, Decompress: 0},
		} {
			before, err1 := v.New(n, append([]O{withLatency(l)}, v.Opts...)...)
			after, err2 := build(v, n, withLatency(l))
			if err1 != nil || err2 != nil || before.Latency() != l || after.Latency() != l {
				t.Errorf("%s WithLatency(%v) before and after the other options: %v, %v", v.Name, l, err1, err2)
			}
		}
		for _, l := range []linecomp.Latency{{Compress: -2, Decompress: 5}, {Compress: 3, Decompress: -2}, {Compress: -100, Decompress: -1}} {
			c, err := build(v, n, withLatency(l))
			if !errors.Is(err, linecomp.ErrConfig) || errors.Is(err, linecomp.ErrLineSize) || c != nil {
				t.Errorf("%s WithLatency(%v): codec %v, error %v; want no codec and an ErrConfig", v.Name, l, c != nil, err)
			} else if !strings.Contains(err.Error(), v.Name) || !strings.Contains(err.Error(), "latency") {
				t.Errorf("%s WithLatency(%v): %q does not name the codec and the field", v.Name, l, err)
			}
		}
	}
}

// checkBadSize: newCodec, for a size name does not take, fails with
// ErrLineSize only and no codec, and does not panic.
func checkBadSize(t *testing.T, name string, n int, newCodec func() (linecomp.Codec, error)) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s at %d bytes: panic %v", name, n, p)
		}
	}()
	if c, err := newCodec(); !errors.Is(err, linecomp.ErrLineSize) || errors.Is(err, linecomp.ErrConfig) || c != nil {
		t.Errorf("%s at %d bytes: codec %v, error %v; want no codec and an ErrLineSize only", name, n, c != nil, err)
	}
}

// PatternCounter is a codec that counts its per-word patterns, as fpc and
// cpack do (the shape of Tavana et al.'s Table VI).
type PatternCounter interface {
	linecomp.Codec
	Patterns() []string
	CountPatterns(counts []int, data []byte) error
}

// CheckPatternCounts checks what every PatternCounter promises, on lines
// (each c.LineSize() bytes): CountPatterns counts every word of each line
// once, adding to what counts holds, also for all the lines at once; it
// rejects a counts slice of the wrong length with ErrConfig and data that
// is not a whole number of lines with ErrPartialLine, counting nothing
// then; and it does not allocate. Whether the patterns are the right ones
// is the package's own test.
func CheckPatternCounts(t *testing.T, c PatternCounter, lines [][]byte) {
	t.Helper()
	np, n := len(c.Patterns()), c.LineSize()
	sum := func(counts []int) int {
		s := 0
		for _, k := range counts {
			s += k
		}
		return s
	}
	counts := make([]int, np)
	for i := range counts {
		counts[i] = 100 // counts are added to what is there
	}
	for _, line := range lines {
		before := sum(counts)
		if err := c.CountPatterns(counts, line); err != nil || sum(counts)-before != n/4 {
			t.Fatalf("%s/%d: CountPatterns counted %d words (%v), want %d\nline %X", c.Name(), n, sum(counts)-before, err, n/4, line)
		}
	}
	all := make([]int, np)
	if err := c.CountPatterns(all, bytes.Join(lines, nil)); err != nil {
		t.Fatal(err)
	}
	for i := range all {
		if all[i] != counts[i]-100 {
			t.Fatalf("%s/%d: counts of all lines at once %v, one by one %v (plus 100)", c.Name(), n, all, counts)
		}
	}
	for _, bad := range []struct {
		counts []int
		data   []byte
		want   error
	}{
		{make([]int, np-1), lines[0], linecomp.ErrConfig},
		{make([]int, np+1), lines[0], linecomp.ErrConfig},
		{make([]int, np), append(slices.Clone(lines[0]), 0), linecomp.ErrPartialLine},
		{make([]int, np), lines[0][:n-1], linecomp.ErrPartialLine},
	} {
		if err := c.CountPatterns(bad.counts, bad.data); !errors.Is(err, bad.want) || sum(bad.counts) != 0 {
			t.Errorf("%s/%d: %d counts of %d bytes: %v, counted %v; want %v and nothing counted", c.Name(), n, len(bad.counts), len(bad.data), err, bad.counts, bad.want)
		}
	}
	data := bytes.Join(lines[:min(len(lines), 100)], nil)
	if !race.Enabled {
		if a := testing.AllocsPerRun(20, func() { c.CountPatterns(all, data) }); a != 0 {
			t.Errorf("%s/%d: CountPatterns: %v allocations", c.Name(), n, a)
		}
	}
}

// AppendStream appends the stream enc to l as one more line's encoding, of
// 8·len(enc) bits.
func AppendStream(l *linecomp.Lines, enc []byte) {
	l.Enc = append(l.Enc, enc...)
	l.End = append(l.End, len(l.Enc))
	l.Bits = append(l.Bits, 8*len(enc))
}

// MangledLines returns Lines of a line's streams for a test of a batch
// decoder against decoding line by line. stream(mangle) is the line's
// stream changed as mangle says ("" leaves it as it is). There are four
// streams, the first or the second changed by one of mangles, so that a
// kernel stops at the line it decodes or at the one after; then, for two
// lines in three, one more stream, with an end offset before its start or
// one byte past Enc (that byte, the stream's last, still in Enc's
// capacity); for one line in two, Enc has junk-filled room past its end,
// so that a kernel that reads streams in place reads the last ones there.
// The choices are a function of the line's bytes 8 to 15.
func MangledLines(line []byte, mangles []string, stream func(mangle string) []byte) *linecomp.Lines {
	h := binary.LittleEndian.Uint64(line[8:]) * 0x9E3779B97F4A7C15 >> 32
	changes := []string{"", "", "", ""}
	changes[h/64%2] = mangles[h%uint64(len(mangles))]
	var l linecomp.Lines
	for _, mangle := range changes {
		AppendStream(&l, stream(mangle))
	}
	end := 0
	switch h / 8 % 3 {
	case 0:
		AppendStream(&l, stream(""))
		l.End[len(l.End)-1] = l.End[len(l.End)-2] - 1
		end = len(l.Enc)
	case 1:
		AppendStream(&l, stream(""))
		end = len(l.Enc) - 1
	default:
		end = len(l.Enc)
	}
	if h/128%2 == 0 {
		for range 256 {
			l.Enc = append(l.Enc, byte(h))
			h = h*5 + 1
		}
	}
	l.Enc = l.Enc[:end]
	return &l
}

// CheckBadStarts checks that the batch decoder d takes no line whose start
// (the end of the line before from) is outside Enc, and none from past the
// last line or before the first, on Lines of two lines: Enc is stream, a
// well-formed stream of bits bits, without its first two bytes, so that a
// start of −2 taken as it is would find the stream in the bytes before
// Enc, and the first line's end is −2 or past Enc.
func CheckBadStarts(t *testing.T, d linecomp.LinesDecompressor, stream []byte, bits int) {
	t.Helper()
	enc := stream[2:]
	for _, l := range []linecomp.Lines{
		{Enc: enc, End: []int{-2, len(enc)}, Bits: []int{0, bits}},
		{Enc: enc, End: []int{len(enc) + 1, len(enc)}, Bits: []int{0, bits}},
	} {
		if out, got := d.DecompressLines([]byte{1}, &l, 1); got != 0 || string(out) != "\x01" {
			t.Errorf("%d-byte stream, ends %v, from line 1: %d lines, % X", len(stream), l.End, got, out)
		}
		for _, from := range []int{2, -1} {
			if out, got := d.DecompressLines(nil, &l, from); got != 0 || len(out) != 0 {
				t.Errorf("%d-byte stream, ends %v, from line %d of 2: %d lines, % X", len(stream), l.End, from, got, out)
			}
		}
	}
}

// Mangle returns enc, a stream of line, changed as mangle says, and true;
// or enc and false for a mangle it does not know, which the caller makes
// itself. It knows "" (no change), "flip" (one bit flipped), "short" (a
// byte short), "long" (a zero byte more) and "random" (1 to randomMax
// random bytes, sparse ones if sparse, behind flag 1). The changes are a
// function of the line.
func Mangle(enc, line []byte, mangle string, randomMax int, sparse bool) ([]byte, bool) {
	h := binary.LittleEndian.Uint64(line) * 0x9E3779B97F4A7C15
	switch mangle {
	case "":
	case "flip":
		i := int(h >> 32 % uint64(8*len(enc)))
		enc[i/8] ^= 0x80 >> (i % 8)
	case "short":
		enc = enc[:len(enc)-1]
	case "long":
		enc = append(enc, 0)
	case "random":
		rng := rand.New(rand.NewPCG(h, uint64(len(line))))
		enc = make([]byte, 1+rng.IntN(randomMax))
		for i := range enc {
			enc[i] = byte(rng.Uint32())
			if sparse {
				enc[i] &= byte(rng.Uint32())
			}
		}
		enc[0] |= 0x80
	default:
		return enc, false
	}
	return enc, true
}

// CrossCheckDecompressLines checks linecomp.DecompressLines of c, by way
// of its batch decoder, against the same with the batch decoder hidden
// (line by line with Decompress), results and errors, on linesOf(line)
// for every line that CrossCheck takes (extra among them).
func CrossCheckDecompressLines(t *testing.T, c linecomp.Codec, extra [][]byte, linesOf func(line []byte) *linecomp.Lines) {
	t.Helper()
	n := c.LineSize()
	kernel := func(data []byte, out []string) {
		for i := range out {
			got, err := linecomp.DecompressLines(c, []byte{9}, linesOf(data[i*n:(i+1)*n]))
			out[i] = fmt.Sprintf("%X %v", got, err)
		}
	}
	generic := func(line []byte) string {
		got, err := linecomp.DecompressLines(struct{ linecomp.Codec }{c}, []byte{9}, linesOf(line))
		return fmt.Sprintf("%X %v", got, err)
	}
	CrossCheck(t, n, extra, kernel, generic)
}
