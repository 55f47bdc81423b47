package main

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"testing"
	"unsafe"

	"github.com/linecomp/linecomp"
)

// The status values of linecomp.h. Test files cannot use cgo, so they are
// spelled out here, and TestStatusValues checks them against the header.
const (
	statusOK           = 0
	statusArgument     = 1
	statusUnknownCodec = 2
	statusLineSize     = 3
	statusCorrupt      = 4
	statusBufferSmall  = 5
	statusPartialLine  = 6
	statusHandle       = 7
	statusNotSupported = 8
	statusConfig       = 9
	statusInternal     = 10
)

func TestStatusValues(t *testing.T) {
	h, err := os.ReadFile("linecomp.h")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"LINECOMP_OK": statusOK, "LINECOMP_ERR_ARGUMENT": statusArgument,
		"LINECOMP_ERR_UNKNOWN_CODEC": statusUnknownCodec, "LINECOMP_ERR_LINE_SIZE": statusLineSize,
		"LINECOMP_ERR_CORRUPT": statusCorrupt, "LINECOMP_ERR_BUFFER_TOO_SMALL": statusBufferSmall,
		"LINECOMP_ERR_PARTIAL_LINE": statusPartialLine, "LINECOMP_ERR_HANDLE": statusHandle,
		"LINECOMP_ERR_NOT_SUPPORTED": statusNotSupported, "LINECOMP_ERR_CONFIG": statusConfig,
		"LINECOMP_ERR_INTERNAL": statusInternal,
	}
	got := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(LINECOMP_\w+) = (\d+),?$`).FindAllStringSubmatch(string(h), -1) {
		got[m[1]], _ = strconv.Atoi(m[2])
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("linecomp.h statuses %v, test constants %v", got, want)
	}
}

func TestStatusOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want uint32
	}{
		{argError("x"), statusArgument},
		{fmt.Errorf("wrapped: %w", linecomp.ErrUnknownCodec), statusUnknownCodec},
		{linecomp.LineSizeError("bdi", 3, "64-byte lines"), statusLineSize},
		{&linecomp.CorruptError{Codec: "bdi", Offset: 4, Reason: "r"}, statusCorrupt},
		{fmt.Errorf("%w: n", errBufferSmall), statusBufferSmall},
		{linecomp.ErrPartialLine, statusPartialLine},
		{errHandle, statusHandle},
		{errNotSupported, statusNotSupported},
		{linecomp.ConfigError("sc2", "bad"), statusConfig},
		{errInternal, statusInternal},
		{errors.New("anything else"), statusInternal},
	} {
		if got := uint32(statusOf(tc.err)); got != tc.want {
			t.Errorf("statusOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// misbehaving wraps a real codec and breaks one promise, to reach the
// paths of the exports that a correct codec never takes.
type misbehaving struct {
	linecomp.Codec
	panics     bool // Size, Compress and Decompress panic
	shortLine  bool // Decompress returns one byte too few
	badEncoded bool // EncodingOf returns an encoding number out of range
}

func (m misbehaving) Size(line []byte) int {
	if m.panics {
		panic("Size exploded")
	}
	return m.Codec.Size(line)
}

func (m misbehaving) Compress(dst, line []byte) ([]byte, int, error) {
	if m.panics {
		_ = line[len(line)] // a runtime error, not just a panic value
	}
	return m.Codec.Compress(dst, line)
}

func (m misbehaving) Decompress(dst, enc []byte) ([]byte, error) {
	if m.panics {
		panic(errors.New("Decompress exploded"))
	}
	out, err := m.Codec.Decompress(dst, enc)
	if m.shortLine && err == nil {
		out = out[:len(out)-1]
	}
	return out, err
}

func (m misbehaving) Encodings() []linecomp.Encoding {
	return m.Codec.(linecomp.EncodingReporter).Encodings()
}

func (m misbehaving) EncodingOf(enc []byte) (int, error) {
	i, err := m.Codec.(linecomp.EncodingReporter).EncodingOf(enc)
	if m.badEncoded {
		i = len(m.Encodings())
	}
	return i, err
}

// newOut marks an out-parameter for callExport: a pointer to a new zero
// value of the parameter's element type.
type newOut struct{}

// callExport calls an exported function whose parameters are C types
// (which test files cannot name): nil is a NULL pointer, newOut{} a fresh
// out-parameter, []byte a pointer to its first byte, and a number is
// converted to the parameter's type. It returns the status.
func callExport(fn any, args ...any) uint32 {
	st, _ := callExportOut(fn, args...)
	return st
}

// callExportOut is callExport that also returns the arguments passed, so
// that out-parameters can be read (in[i].Elem()).
func callExportOut(fn any, args ...any) (uint32, []reflect.Value) {
	f := reflect.ValueOf(fn)
	in := make([]reflect.Value, f.Type().NumIn())
	for i := range in {
		pt := f.Type().In(i)
		switch a := args[i].(type) {
		case nil:
			in[i] = reflect.Zero(pt)
		case newOut:
			in[i] = reflect.New(pt.Elem())
		case []byte:
			in[i] = reflect.NewAt(pt.Elem(), unsafe.Pointer(&a[0]))
		default:
			in[i] = reflect.ValueOf(a).Convert(pt)
		}
	}
	return uint32(f.Call(in)[0].Uint()), in
}

// TestPanicsAndBrokenPromisesBecomeInternal: whatever a codec does, the C
// caller gets a status, never a Go panic.
func TestPanicsAndBrokenPromisesBecomeInternal(t *testing.T) {
	bdi, err := linecomp.New("bdi", 64)
	if err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 64)
	enc, _, _ := bdi.Compress(nil, line)
	out := make([]byte, 64)
	buf := make([]byte, 72)

	add := func(m misbehaving) uint64 {
		h := handles.add(m)
		t.Cleanup(func() { handles.remove(h) })
		return h
	}
	panicky := add(misbehaving{Codec: bdi, panics: true})
	short := add(misbehaving{Codec: bdi, shortLine: true})
	badEnc := add(misbehaving{Codec: bdi, badEncoded: true})

	for _, tc := range []struct {
		name string
		got  uint32
	}{
		{"size panics", callExport(linecompgo_size, panicky, line, 64, newOut{})},
		{"compress hits a runtime error", callExport(linecompgo_compress, panicky, line, 64, buf, 72, newOut{}, newOut{})},
		{"decompress panics", callExport(linecompgo_decompress, panicky, enc, len(enc), out, 64, newOut{})},
		{"decompress returns a short line", callExport(linecompgo_decompress, short, enc, len(enc), out, 64, newOut{})},
		{"encoding number out of range", callExport(linecompgo_encoding_of, badEnc, enc, len(enc), newOut{})},
	} {
		if tc.got != statusInternal {
			t.Errorf("%s: status %d, want LINECOMP_ERR_INTERNAL (%d)", tc.name, tc.got, statusInternal)
		}
	}
	// The same calls on the well-behaved codec succeed, so the failures
	// above come from the misbehaviour.
	h := add(misbehaving{Codec: bdi})
	if st := callExport(linecompgo_decompress, h, enc, len(enc), out, 64, newOut{}); st != statusOK {
		t.Errorf("decompress on the plain codec: status %d", st)
	}
	if st := callExport(linecompgo_encoding_of, h, enc, len(enc), newOut{}); st != statusOK {
		t.Errorf("encoding_of on the plain codec: status %d", st)
	}
}

func TestHandles(t *testing.T) {
	bdi, err := linecomp.New("bdi", 64)
	if err != nil {
		t.Fatal(err)
	}
	a, b := handles.add(bdi), handles.add(bdi)
	if a == 0 || b == 0 || a == b {
		t.Fatalf("handles %d and %d: want distinct and non-zero", a, b)
	}
	if !handles.remove(a) || handles.remove(a) {
		t.Error("remove: want true once, then false")
	}
	if _, ok := handles.get(a); ok {
		t.Error("a removed handle is still live")
	}
	if c := handles.add(bdi); c == a {
		t.Error("a freed handle value was reused")
	} else {
		handles.remove(c)
	}
	if c, ok := handles.get(b); !ok || c != bdi {
		t.Error("the other handle was disturbed")
	}
	handles.remove(b)
}

// TestConcurrentExports calls the exports from many goroutines at once, as
// C threads would: making, using and freeing handles, and reading the
// registry and interned names. Run with -race to check the Go side.
func TestConcurrentExports(t *testing.T) {
	line := make([]byte, 64)
	for i := range line {
		line[i] = byte(i * 7)
	}
	name := []byte("fpc\x00")
	const workers, rounds = 8, 200
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			errs <- func() error {
				for r := range rounds {
					st, in := callExportOut(linecompgo_new, name, 64, newOut{})
					if st != statusOK {
						return fmt.Errorf("worker %d: new: status %d", w, st)
					}
					h := in[2].Elem().Uint()
					enc := make([]byte, 72)
					st, in = callExportOut(linecompgo_compress, h, line, 64, enc, 72, newOut{}, newOut{})
					if st != statusOK {
						return fmt.Errorf("worker %d: compress: status %d", w, st)
					}
					n := in[5].Elem().Uint()
					out := make([]byte, 64)
					if st := callExport(linecompgo_decompress, h, enc, n, out, 64, newOut{}); st != statusOK || string(out) != string(line) {
						return fmt.Errorf("worker %d: decompress: status %d", w, st)
					}
					if st := callExport(linecompgo_name, h, newOut{}); st != statusOK {
						return fmt.Errorf("worker %d: name: status %d", w, st)
					}
					if st := callExport(linecompgo_encoding_info, h, r%2, newOut{}); st != statusOK {
						return fmt.Errorf("worker %d: encoding_info: status %d", w, st)
					}
					if st := callExport(linecompgo_codec_info, r%len(linecomp.Infos()), newOut{}); st != statusOK {
						return fmt.Errorf("worker %d: codec_info: status %d", w, st)
					}
					if st := callExport(linecompgo_free, h); st != statusOK {
						return fmt.Errorf("worker %d: free: status %d", w, st)
					}
					if st := callExport(linecompgo_free, h); st != statusHandle {
						return fmt.Errorf("worker %d: second free: status %d", w, st)
					}
				}
				return nil
			}()
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
