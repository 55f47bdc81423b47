package linecomp_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
	"github.com/linecomp/linecomp/internal/race"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
	"github.com/linecomp/linecomp/sample"
)

// instance is one registered codec at one line size, with its reference.
type instance struct {
	c   linecomp.Codec
	ref ref.Encoder
}

// exampleCodec is registered by ExampleRegister, which runs after the
// tests (and before the fuzz coordinator when -run does not exclude it).
// It is a user's configuration with no literal reference.
const exampleCodec = "none-or-bdi"

// allInstances makes every registered codec at every line size it takes.
func allInstances(tb testing.TB) []instance {
	var out []instance
	for _, name := range linecomp.Names() {
		if name == exampleCodec {
			continue
		}
		r, ok := ref.Lookup(name)
		if !ok {
			tb.Fatalf("%s has no reference encoder", name)
		}
		for _, n := range codectest.LineSizes {
			if c, err := linecomp.New(name, n); err == nil {
				out = append(out, instance{c, r})
			}
		}
	}
	return out
}

// tile fills a line of n bytes by repeating data (zeros if data is empty),
// so short fuzz inputs still reach every word of the line.
func tile(data []byte, n int) []byte {
	line := make([]byte, n)
	if len(data) > 0 {
		for i := range line {
			line[i] = data[i%len(data)]
		}
	}
	return line
}

// seedLines adds the first lines of every sample file and the edge lines.
func seedLines(f *testing.F) {
	for _, s := range sample.Files() {
		for off := 0; off < 1024; off += 128 {
			f.Add(s.Data[off : off+128])
		}
	}
	for _, l := range linecomptest.EdgeLines(128) {
		f.Add(l)
	}
}

// FuzzRoundTrip: for every registered codec at every line size and every
// kernel level, Compress matches the literal reference bit for bit, Size
// and the batch Sizes equal the bits written, Decompress returns the line,
// and CompressLines and DecompressLines of two lines give what Compress
// gives line by line and the two lines.
func FuzzRoundTrip(f *testing.F) {
	seedLines(f)
	insts := allInstances(f)
	levels := cpu.Levels()
	var s linecomptest.Scratch
	var sizes []int
	var lines linecomp.Lines
	var decoded []byte
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, in := range insts {
			n := in.c.LineSize()
			line := tile(data, n)
			want := in.ref(line)
			// Two lines, the second the fuzz input itself where it is
			// long enough, so batch kernels see more than one line.
			batch := append(slices.Clone(line), tile(data[min(len(data), n):], n)...)
			for _, l := range levels {
				restore := cpu.Set(l)
				err := codectest.Conform(in.c, want, line, &s)
				if err == nil {
					sizes, err = linecomp.Sizes(in.c, sizes[:0], batch)
					if err == nil && (sizes[0] != len(want) || sizes[1] != in.c.Size(batch[n:])) {
						err = fmt.Errorf("batch Sizes %v, single-line %d and %d", sizes, len(want), in.c.Size(batch[n:]))
					}
				}
				if err == nil {
					lines.Reset()
					decoded, err = batchRoundTrip(in.c, &lines, decoded[:0], batch)
				}
				restore()
				if err != nil {
					t.Fatalf("%s/%d at level %s: line %X: %v", in.c.Name(), n, l, line, err)
				}
			}
		}
	})
}

// batchRoundTrip compresses the lines of data with CompressLines into
// lines, which must then hold one stream per line, each the stream and
// length of Compress of the line alone, and decodes them with
// DecompressLines, which must append data to dst and leave dst's bytes
// before it as they were.
func batchRoundTrip(c linecomp.Codec, lines *linecomp.Lines, dst, data []byte) ([]byte, error) {
	if err := linecomp.CompressLines(c, lines, data); err != nil {
		return dst, err
	}
	n := c.LineSize()
	if lines.Len() != len(data)/n || len(lines.Bits) != len(data)/n {
		return dst, fmt.Errorf("CompressLines of %d lines: %d ends, %d lengths", len(data)/n, lines.Len(), len(lines.Bits))
	}
	for i := range lines.Len() {
		enc, bits, err := c.Compress(nil, data[i*n:(i+1)*n])
		if err != nil || !bytes.Equal(lines.Line(i), enc) || lines.Bits[i] != bits {
			return dst, fmt.Errorf("CompressLines line %d: %X (%d bits), Compress: %X (%d bits, %v)", i, lines.Line(i), lines.Bits[i], enc, bits, err)
		}
	}
	prefix := slices.Clone(dst)
	dst, err := linecomp.DecompressLines(c, dst, lines)
	if err != nil || !bytes.Equal(dst[:len(prefix)], prefix) || !bytes.Equal(dst[len(prefix):], data) {
		return dst, fmt.Errorf("DecompressLines after %X: %X, %v", prefix, dst, err)
	}
	return dst, nil
}

// FuzzDecompress: Decompress of arbitrary bytes either fails with
// ErrCorrupt or returns exactly LineSize bytes; it never panics and never
// writes past what it returns. A line it accepts must in turn compress
// exactly as the reference says and round-trip. DecompressLines of a
// well-formed line followed by the bytes gives what decoding them line by
// line gives, lines and error, with and without room past the bytes.
func FuzzDecompress(f *testing.F) {
	insts := allInstances(f)
	for _, s := range sample.Files() {
		for _, in := range insts {
			if enc, _, err := in.c.Compress(nil, s.Data[:in.c.LineSize()]); err == nil {
				f.Add(enc)
				f.Add(enc[:len(enc)/2])
			}
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0xFF, 0xFF, 0xFF})
	var s linecomptest.Scratch
	var line []byte
	firsts := make([][]byte, len(insts))
	for i, in := range insts {
		firsts[i], _, _ = in.c.Compress(nil, sample.Files()[0].Data[:in.c.LineSize()])
	}
	f.Fuzz(func(t *testing.T, enc []byte) {
		for i, in := range insts {
			if err := linecomptest.CheckGarbage(in.c, enc); err != nil {
				t.Fatalf("%s/%d: %v", in.c.Name(), in.c.LineSize(), err)
			}
			// Enc exactly as long as its streams, and with room past them
			// (junk), which a batch kernel may read but must not decode.
			both := append(slices.Clone(firsts[i]), enc...)
			roomy := append(slices.Clone(both), bytes.Repeat([]byte{0xA5}, 256)...)[:len(both)]
			for _, e := range [][]byte{both[:len(both):len(both)], roomy} {
				two := linecomp.Lines{Enc: e, End: []int{len(firsts[i]), len(firsts[i]) + len(enc)}, Bits: []int{0, 0}}
				got, gotErr := linecomp.DecompressLines(in.c, nil, &two)
				want, wantErr := linecomp.DecompressLines(struct{ linecomp.Codec }{in.c}, nil, &two) // line by line
				if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Fatalf("%s/%d: DecompressLines of a line and %X (room past Enc: %d bytes): %X, %v; line by line %X, %v", in.c.Name(), in.c.LineSize(), enc, cap(e)-len(e), got, gotErr, want, wantErr)
				}
			}
			var err error
			if line, err = in.c.Decompress(line[:0], enc); err != nil {
				if !errors.Is(err, linecomp.ErrCorrupt) {
					t.Fatalf("%s/%d: rejected %X with %v, which does not wrap ErrCorrupt", in.c.Name(), in.c.LineSize(), enc, err)
				}
				continue
			}
			if err := codectest.Conform(in.c, in.ref(line), line, &s); err != nil {
				t.Fatalf("%s/%d: %X decoded to %X: %v", in.c.Name(), in.c.LineSize(), enc, line, err)
			}
		}
	})
}

// TestDecompressGarbageAllocs: decoding a rejected or accepted arbitrary
// stream into a reused dst allocates nothing (an error allocates only its
// *CorruptError).
func TestDecompressGarbageAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("-race changes allocation (sync.Pool drops items at random)")
	}
	insts := allInstances(t)
	dst := make([]byte, 0, 128)
	for _, in := range insts {
		enc, _, _ := in.c.Compress(nil, sample.Files()[0].Data[:in.c.LineSize()])
		if a := testing.AllocsPerRun(20, func() { in.c.Decompress(dst[:0], enc) }); a != 0 {
			t.Errorf("%s/%d: Decompress of a valid stream allocates %v", in.c.Name(), in.c.LineSize(), a)
		}
		bad := append(enc, 0xFF) // trailing byte
		if a := testing.AllocsPerRun(20, func() { in.c.Decompress(dst[:0], bad) }); a > 1 {
			t.Errorf("%s/%d: rejecting a stream allocates %v (more than its error)", in.c.Name(), in.c.LineSize(), a)
		}
	}
}

// TestFuzzCoversRegistry: the fuzz targets reach every registered codec
// (each at one of codectest.LineSizes at least), the root's none and the
// multi package's tavana-best included.
func TestFuzzCoversRegistry(t *testing.T) {
	insts := allInstances(t)
	covered := map[string]bool{}
	for _, in := range insts {
		covered[in.c.Name()] = true
	}
	for _, in := range linecomp.Infos() {
		if !covered[in.Name] && in.Name != exampleCodec {
			t.Errorf("%s (line sizes %v) is not fuzzed", in.Name, in.LineSizes)
		}
	}
	for _, name := range []string{"none", "tavana-best", "bdi", "sc2"} {
		if !covered[name] {
			t.Errorf("%s is not registered in the root's test binary", name)
		}
	}
}
