package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sample"
)

// TestCLibrary builds the library both ways, writes the data and what the
// Go codecs make of it, and compiles and runs against the library: the C
// test program (test/linecomp_test.c), the hello example of linecomp.h,
// the C++ gem5-shaped example, and the header alone under strict C and C++
// standards. It needs gcc and g++, which CI has; without them it fails.
func TestCLibrary(t *testing.T) {
	for _, tool := range []string{"gcc", "g++"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is required to test the C API: %v", tool, err)
		}
	}
	dir := t.TempDir()
	data := testData()
	dataPath := filepath.Join(dir, "data.bin")
	if err := os.WriteFile(dataPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var expect bytes.Buffer
	configs := writeExpect(t, &expect, data)
	expectPath := filepath.Join(dir, "expect.txt")
	if err := os.WriteFile(expectPath, expect.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	buildLibrary(t, dir, "c-shared", "liblinecomp.so")
	static := buildLibrary(t, dir, "c-archive", "liblinecomp.a")
	// Link against the shared library (with an rpath, as a user would) or
	// the archive.
	linkShared := []string{"-L" + dir, "-Wl,-rpath," + dir, "-llinecomp", "-lpthread"}
	linkStatic := []string{static, "-lpthread"}

	cFlags := []string{"-std=c99", "-D_POSIX_C_SOURCE=200809L", "-pedantic", "-Wall", "-Wextra", "-Werror", "-I."}
	runCTest := func(t *testing.T, bin, expectPath, dataPath string, configs, dataLen int) {
		out := run(t, bin, expectPath, dataPath)
		want := fmt.Sprintf("%d codec configurations on %d bytes, 0 failures", configs, dataLen)
		if !strings.Contains(out, want) {
			t.Errorf("output does not say %q:\n%s", want, out)
		}
	}
	cTest := map[string]string{}
	for _, link := range []struct {
		name string
		args []string
	}{{"shared", linkShared}, {"static", linkStatic}} {
		t.Run("c-test/"+link.name, func(t *testing.T) {
			bin := filepath.Join(dir, "linecomp_test_"+link.name)
			compile(t, "gcc", append(append(cFlags, "-o", bin, "test/linecomp_test.c"), link.args...)...)
			cTest[link.name] = bin
			runCTest(t, bin, expectPath, dataPath, configs, len(data))
		})
	}

	// The same on slices of the full corpora, which the sample does not
	// contain: the held-out data closest to what a simulator sees.
	t.Run("c-test/corpora", func(t *testing.T) {
		bin, ok := cTest["shared"]
		if !ok {
			t.Fatal("the C test did not build")
		}
		corpus := corporaSlices(corpora(t), 32<<10)
		path := filepath.Join(dir, "corpora.bin")
		if err := os.WriteFile(path, corpus, 0o644); err != nil {
			t.Fatal(err)
		}
		var expect bytes.Buffer
		configs := writeExpect(t, &expect, corpus)
		expectPath := filepath.Join(dir, "expect-corpora.txt")
		if err := os.WriteFile(expectPath, expect.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		runCTest(t, bin, expectPath, path, configs, len(corpus))
	})

	t.Run("hello", func(t *testing.T) {
		src := filepath.Join(dir, "hello.c")
		if err := os.WriteFile(src, []byte(helloExample(t)), 0o644); err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "hello")
		compile(t, "gcc", append(append(cFlags, "-o", bin, src), linkShared...)...)
		if out := run(t, bin); out != "4 bits in a 1-byte stream\n" {
			t.Errorf("hello printed %q, want the 4-bit zero line of bdi", out)
		}
	})

	t.Run("header", func(t *testing.T) {
		// The header alone, first in its file, under each standard a
		// simulator may build with.
		src := filepath.Join(dir, "header_only.c")
		if err := os.WriteFile(src, []byte("#include \"linecomp.h\"\nint main(void) { return linecomp_api_version() == LINECOMP_API_VERSION ? 0 : 1; }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		strict := []string{"-pedantic", "-Wall", "-Wextra", "-Werror", "-I.", "-fsyntax-only"}
		for _, std := range []string{"c99", "c11", "c17"} {
			compile(t, "gcc", append(strict, "-std="+std, src)...)
		}
		for _, std := range []string{"c++11", "c++14", "c++17", "c++20"} {
			compile(t, "g++", append(strict, "-std="+std, "-x", "c++", src)...)
		}
	})

	t.Run("gem5-example", func(t *testing.T) {
		bin := filepath.Join(dir, "gem5_compressor")
		compile(t, "g++", append([]string{"-std=c++14", "-Wall", "-Wextra", "-Werror", "-I.", "-o", bin, "examples/gem5_compressor.cc"}, linkStatic...)...)
		// The built-in lines.
		out := run(t, bin)
		if n := strings.Count(out, "round trip ok"); n != 8 {
			t.Errorf("built-in run: %d lines round-tripped, want 8:\n%s", n, out)
		}
		// Sample lines, checked against Go: bpc has no published
		// compression latency, so the example charges its 1-cycle stand-in
		// and says so.
		for _, tc := range []struct {
			codec        string
			lineSize     int
			compress     int
			decompress   int
			unknownPhras string
		}{
			{"bdi", 64, 5, 1, ""},
			{"bpc", 128, 1, 11, "compression latency unknown (charging 1), decompression latency published"},
			{"tavana-best", 32, 16, 9, ""},
		} {
			out := run(t, bin, tc.codec, strconv.Itoa(tc.lineSize), dataPath, "16")
			if tc.unknownPhras != "" && !strings.Contains(out, tc.unknownPhras) {
				t.Errorf("%s: the example does not say %q:\n%s", tc.codec, tc.unknownPhras, out)
			}
			c, err := linecomp.New(tc.codec, tc.lineSize)
			if err != nil {
				t.Fatal(err)
			}
			re := regexp.MustCompile(`line (\d+): (\d+) bits \((\d+) bytes\), compress (\d+) cycles, decompress (\d+) cycles, round trip ok`)
			got := re.FindAllStringSubmatch(out, -1)
			if len(got) != 16 {
				t.Fatalf("%s: %d lines of output, want 16:\n%s", tc.codec, len(got), out)
			}
			for i, m := range got {
				line := data[i*tc.lineSize : (i+1)*tc.lineSize]
				want := []string{strconv.Itoa(i), strconv.Itoa(c.Size(line)), strconv.Itoa((c.Size(line) + 7) / 8), strconv.Itoa(tc.compress), strconv.Itoa(tc.decompress)}
				if !slicesEqual(m[1:], want) {
					t.Errorf("%s line %d: example printed %v, Go gives %v", tc.codec, i, m[1:], want)
				}
			}
		}
	})
}

func slicesEqual(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

// buildLibrary runs go build -buildmode=mode in this package's directory.
func buildLibrary(t *testing.T, dir, mode, name string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not in PATH: %v", err)
	}
	out := filepath.Join(dir, name)
	start := time.Now()
	cmd := exec.Command(goTool, "build", "-buildmode="+mode, "-o", out, ".")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=%s: %v\n%s", mode, err, b)
	}
	t.Logf("go build -buildmode=%s: %v", mode, time.Since(start).Round(time.Millisecond))
	return out
}

func compile(t *testing.T, compiler string, args ...string) {
	t.Helper()
	if b, err := exec.Command(compiler, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", compiler, strings.Join(args, " "), err, b)
	}
}

func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	start := time.Now()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(bin), strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	t.Logf("%s: %v", filepath.Base(bin), time.Since(start).Round(time.Millisecond))
	return stdout.String()
}

// helloExample extracts the hello program from the comment of linecomp.h,
// so that the documentation is compiled and run.
func helloExample(t *testing.T) string {
	t.Helper()
	h, err := os.ReadFile("linecomp.h")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	in := false
	sc := bufio.NewScanner(bytes.NewReader(h))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "Hello, linecomp"):
			in = true
		case in && strings.HasPrefix(line, " *     "):
			src.WriteString(strings.TrimPrefix(line, " *     ") + "\n")
		case in && line == " *":
			src.WriteString("\n")
		case in && src.Len() > 0 && strings.HasPrefix(line, " * ---"):
			return src.String()
		}
	}
	t.Fatal("linecomp.h has no hello example")
	return ""
}

// corpora returns the files of the full corpora in $LINECOMP_CORPORA (the
// root module's internal test support is not this module's to import). It
// skips the test with -short or without LINECOMP_CORPORA, and fails it
// when the directory cannot be read.
func corpora(t *testing.T) [][]byte {
	t.Helper()
	dir := os.Getenv("LINECOMP_CORPORA")
	if testing.Short() || dir == "" {
		t.Skip("the full corpora: set LINECOMP_CORPORA, without -short")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("LINECOMP_CORPORA: %v", err)
	}
	var files [][]byte
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) == ".md" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	if len(files) == 0 {
		t.Fatalf("LINECOMP_CORPORA=%s holds no corpus files", dir)
	}
	return files
}

// corporaSlices takes up to n bytes, whole 4 KiB pages, from the middle
// of each corpus file and concatenates them.
func corporaSlices(files [][]byte, n int) []byte {
	var out []byte
	for _, f := range files {
		k := min(n, len(f)) &^ 4095
		start := (len(f)/2 - k/2) &^ 4095
		out = append(out, f[start:start+k]...)
	}
	return out
}

// testData is the embedded sample followed by synthetic lines of the kinds
// simulators see, none of which any codec was tuned on.
func testData() []byte {
	var data []byte
	for _, f := range sample.Files() {
		data = append(data, f.Data...)
	}
	return append(data, syntheticLines(512, 0x5eed)...)
}

// syntheticLines makes n 128-byte blocks, each of one randomly chosen
// kind: zeros, one repeated word, small integers, pointers, floats,
// sparse, narrow and random bytes.
func syntheticLines(n int, seed uint64) []byte {
	rng := splitmix(seed)
	out := make([]byte, 0, 128*n)
	var b [128]byte
	for range n {
		kind := rng.next() % 8
		base := rng.next()
		for w := 0; w < 128; w += 8 {
			var v uint64
			switch kind {
			case 0:
			case 1:
				v = base
			case 2:
				v = rng.next()%256 | (rng.next()%256)<<32
			case 3:
				v = 0x7f0000000000 | base&0xffff0000 + rng.next()%4096
			case 4:
				v = uint64(0x3f800000+rng.next()%0x10000) | uint64(0x40000000+rng.next()%0x10000)<<32
			case 5:
				if rng.next()%5 == 0 {
					v = rng.next()
				}
			case 6:
				v = (rng.next() & 0x00ff00ff00ff00ff)
			default:
				v = rng.next()
			}
			for i := range 8 {
				b[w+i] = byte(v >> (8 * i))
			}
		}
		out = append(out, b[:]...)
	}
	return out
}

// splitmix is SplitMix64, which the C test implements identically to
// draw the same garbage streams.
type splitmixState struct{ s uint64 }

func splitmix(seed uint64) *splitmixState { return &splitmixState{seed} }

func (r *splitmixState) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (r *splitmixState) fill(p []byte) {
	var w uint64
	for j := range p {
		if j%8 == 0 {
			w = r.next()
		}
		p[j] = byte(w >> (8 * (j % 8)))
	}
}

// digest is FNV-1a 64, as in the C test.
type digest struct{ h uint64 }

func newDigest() *digest { return &digest{14695981039346656037} }

func (d *digest) bytes(p []byte) {
	for _, c := range p {
		d.h ^= uint64(c)
		d.h *= 1099511628211
	}
}

func (d *digest) u32(v uint32) { d.bytes([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}) }

func fnvString(s string) uint64 {
	h := fnv.New64a()
	io.WriteString(h, s)
	return h.Sum64()
}

const (
	garbageStreams = 256 // random streams decoded per configuration
	mutatedStreams = 64  // real streams with one bit flipped, per configuration
	trainLines     = 256 // lines a trainable codec observes before rebuilding
)

// maxCompressedBytes is LINECOMP_MAX_COMPRESSED_BYTES of linecomp.h.
func maxCompressedBytes(lineSize int) int { return lineSize + 8 }

// writeExpect writes, for the C test, what the Go codecs make of data: the
// registry, and for every codec at every line size (and each trainable one
// trained on the first trainLines lines) the digests of its streams,
// encodings and of its decoding of garbage. It returns the number of
// configurations. It fails t if a Go codec breaks a promise linecomp.h
// makes (a stream longer than LINECOMP_MAX_COMPRESSED_BYTES, garbage
// rejected with anything but ErrCorrupt).
func writeExpect(t *testing.T, w io.Writer, data []byte) int {
	t.Helper()
	fmt.Fprintf(w, "linecomp-expect 1\ndata %d %d\n", len(data), digestOf(data))
	infos := linecomp.Infos()
	fmt.Fprintf(w, "codecs %d\n", len(infos))
	for _, in := range infos {
		fmt.Fprintf(w, "info %s %s %d %d %d", in.Name, in.Algorithm, fnvString(in.Paper), fnvString(in.Variant), len(in.LineSizes))
		for _, n := range in.LineSizes {
			fmt.Fprintf(w, " %d", n)
		}
		for _, n := range in.TagBits {
			fmt.Fprintf(w, " %d", n)
		}
		fmt.Fprintf(w, " %s %d %d", latencyFields(in.Latency), b2i(in.Trainable), len(in.Encodings))
		for _, e := range in.Encodings {
			fmt.Fprintf(w, " %s", e)
		}
		fmt.Fprintln(w)
	}
	configs := 0
	for _, in := range infos {
		for _, n := range in.LineSizes {
			trains := []int{0}
			if in.Trainable {
				trains = append(trains, trainLines)
			}
			for _, train := range trains {
				configs++
				writeConfig(t, w, data, in.Name, n, train, uint64(configs)*0x1000193)
			}
		}
	}
	fmt.Fprintln(w, "end")
	return configs
}

// writeConfig writes the "config" record of codec name at lineSize,
// trained on the first train lines of data if train > 0. The C test reads
// the fields in this order.
func writeConfig(t *testing.T, w io.Writer, data []byte, name string, lineSize, train int, seed uint64) {
	t.Helper()
	c, err := linecomp.New(name, lineSize)
	if err != nil {
		t.Fatal(err)
	}
	what := fmt.Sprintf("%s/%d", name, lineSize)
	if train > 0 {
		if c, err = linecomp.Train(c, data[:train*lineSize]); err != nil {
			t.Fatalf("%s: training: %v", what, err)
		}
		what += "/trained"
	}
	r, hasEncodings := c.(linecomp.EncodingReporter)
	fmt.Fprintf(w, "config %s %d %d %d %s %d %d", name, lineSize, train, c.TagBits(), latencyFields(c.Latency()), b2i(linecomp.TagGivesSize(c)), b2i(hasEncodings))
	if hasEncodings {
		fmt.Fprintf(w, " %d", len(r.Encodings()))
		for _, e := range r.Encodings() {
			fmt.Fprintf(w, " %s %d", e.Name, e.Bits)
		}
	}

	maxBytes := maxCompressedBytes(lineSize)
	lines := len(data) / lineSize
	total, streams, encodings := 0, newDigest(), newDigest()
	buf := make([]byte, 0, maxBytes)
	for i := range lines {
		enc, bits, err := c.Compress(buf[:0], data[i*lineSize:(i+1)*lineSize])
		if err != nil {
			t.Fatalf("%s line %d: %v", what, i, err)
		}
		if len(enc) > maxBytes {
			t.Errorf("%s line %d: %d-byte stream, above LINECOMP_MAX_COMPRESSED_BYTES = %d", what, i, len(enc), maxBytes)
		}
		total += bits
		streams.u32(uint32(bits))
		streams.bytes(enc)
		if hasEncodings {
			e, err := r.EncodingOf(enc)
			if err != nil {
				t.Fatalf("%s line %d: EncodingOf: %v", what, i, err)
			}
			encodings.u32(uint32(e))
		}
	}
	fmt.Fprintf(w, " %d %d %d %d", lines, total, streams.h, encodings.h)

	rng := splitmix(seed)
	garbage := newDigest()
	for range garbageStreams {
		p := make([]byte, rng.next()%uint64(maxBytes+1))
		rng.fill(p)
		decodeDigest(t, what, garbage, c, p)
	}
	fmt.Fprintf(w, " %d %d %d", seed, garbageStreams, garbage.h)

	mutated := newDigest()
	for k := 0; k < mutatedStreams && k < lines; k++ {
		enc, _, _ := c.Compress(nil, data[k*lineSize:(k+1)*lineSize])
		if len(enc) == 0 {
			continue
		}
		pos := rng.next() % uint64(8*len(enc))
		enc[pos/8] ^= 0x80 >> (pos % 8)
		decodeDigest(t, what, mutated, c, enc)
	}
	fmt.Fprintf(w, " %d %d\n", mutatedStreams, mutated.h)
}

// decodeDigest folds into d what c makes of stream enc, as the C test's
// decode_digest does: a status byte (0 decoded, 1 corrupt) and the line,
// then the same for EncodingOf and the encoding number.
func decodeDigest(t *testing.T, what string, d *digest, c linecomp.Codec, enc []byte) {
	line, err := c.Decompress(nil, enc)
	switch {
	case err == nil:
		if len(line) != c.LineSize() {
			t.Errorf("%s: Decompress gave %d bytes", what, len(line))
		}
		d.bytes([]byte{0})
		d.bytes(line)
	case errors.Is(err, linecomp.ErrCorrupt):
		d.bytes([]byte{1})
	default:
		t.Errorf("%s: Decompress of garbage: %v does not wrap ErrCorrupt", what, err)
	}
	r, ok := c.(linecomp.EncodingReporter)
	if !ok {
		return
	}
	e, err := r.EncodingOf(enc)
	switch {
	case err == nil:
		d.bytes([]byte{0})
		d.u32(uint32(e))
	case errors.Is(err, linecomp.ErrCorrupt):
		d.bytes([]byte{1})
	default:
		t.Errorf("%s: EncodingOf garbage: %v does not wrap ErrCorrupt", what, err)
	}
}

func latencyFields(l linecomp.Latency) string {
	c, cok := l.CompressCycles()
	d, dok := l.DecompressCycles()
	if !cok {
		c = linecomp.LatencyUnknown
	}
	if !dok {
		d = linecomp.LatencyUnknown
	}
	return fmt.Sprintf("%d %d %d %d", c, d, b2i(cok), b2i(dok))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func digestOf(p []byte) uint64 {
	d := newDigest()
	d.bytes(p)
	return d.h
}
