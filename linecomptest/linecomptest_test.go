package linecomptest_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/race"
	"github.com/linecomp/linecomp/linecomptest"
)

// faulty is zeroOrRaw with one defect, to show that TestCodec finds it.
type faulty struct {
	zeroOrRaw
	fault string
}

func (f *faulty) Size(line []byte) int {
	switch f.fault {
	case "size off by one":
		if len(line) == lineSize {
			return f.zeroOrRaw.Size(line) + 1
		}
	case "size ignores length":
		if len(line) != lineSize {
			return 1 + 8*lineSize
		}
	}
	return f.zeroOrRaw.Size(line)
}

func (f *faulty) Compress(dst, line []byte) ([]byte, int, error) {
	switch f.fault {
	case "padding":
		out, bits, err := f.zeroOrRaw.Compress(dst, line)
		if err == nil && bits%8 != 0 {
			out[len(out)-1] |= 1
		}
		return out, bits, err
	case "compress allocates":
		out, bits, err := f.zeroOrRaw.Compress(nil, line)
		return append(dst, out...), bits, err
	case "compress ignores dst":
		return f.zeroOrRaw.Compress(nil, line)
	}
	return f.zeroOrRaw.Compress(dst, line)
}

func (f *faulty) Decompress(dst, enc []byte) ([]byte, error) {
	switch f.fault {
	case "unsafe overlap":
		// Decodes straight into dst: wrong when dst overlaps enc.
		if len(enc) == lineSize+1 && enc[0]&0x80 != 0 && enc[lineSize]&0x7F == 0 {
			for i := range lineSize {
				dst = append(dst, enc[i]<<1|enc[i+1]>>7)
			}
			return dst, nil
		}
	case "writes past":
		if len(enc) != 1 && len(enc) != lineSize+1 && cap(dst) > len(dst) {
			dst[:len(dst)+1][len(dst)] = 0
		}
	case "panics":
		if len(enc) == 0 {
			_ = enc[len(enc)-1]
		}
	case "trailing byte":
		if len(enc) == lineSize+2 {
			enc = enc[:lineSize+1]
		}
	case "plain error":
		if _, err := f.zeroOrRaw.Decompress(dst, enc); err != nil {
			return dst, errors.New("bad stream")
		}
	}
	return f.zeroOrRaw.Decompress(dst, enc)
}

func TestTestCodecFindsFaults(t *testing.T) {
	lines := linecomptest.EdgeLines(lineSize)
	for _, tc := range []struct{ fault, want string }{
		{"size off by one", "size 2 from Size, but Compress wrote 1 bits"},
		{"size ignores length", "Size of a 63-byte line = 513, want -1"},
		{"padding", "non-zero padding"},
		{"compress allocates", "1 allocations per line in Compress into a reused dst"},
		{"compress ignores dst", "Compress did not append to dst"},
		{"unsafe overlap", "Decompress of 80"},
		{"writes past", "past the 3 it returned"},
		{"panics", "panic: runtime error: index out of range"},
		{"trailing byte", "Decompress accepted the stream"},
		{"plain error", "which does not wrap ErrCorrupt"},
	} {
		if tc.fault == "compress allocates" && race.Enabled {
			continue // CheckZeroAllocs cannot measure under -race
		}
		err := linecomptest.TestCodec(&faulty{fault: tc.fault}, lines)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: TestCodec says %v\nwant a report containing %q", tc.fault, err, tc.want)
		}
	}
	if err := linecomptest.TestCodec(&faulty{}, lines); err != nil {
		t.Errorf("the codec without a fault: %v", err)
	}
}

// TestTestCodecMisuse: lines of the wrong size or none are the caller's
// mistake, reported as such.
func TestTestCodecMisuse(t *testing.T) {
	for _, tc := range []struct {
		lines [][]byte
		want  string
	}{
		{nil, "no lines to check"},
		{[][]byte{make([]byte, 32)}, "line 0 is 32 bytes, the codec takes 64"},
	} {
		if err := linecomptest.TestCodec(zeroOrRaw{}, tc.lines); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("TestCodec says %v, want %q", err, tc.want)
		}
	}
}

// reporting adds EncodingReporter to zeroOrRaw: encoding 0 is the zero
// line (1 bit), 1 the raw line (513 bits); lie makes the raw one 512.
type reporting struct {
	zeroOrRaw
	lie bool
}

func (r reporting) Encodings() []linecomp.Encoding {
	raw := 1 + 8*lineSize
	if r.lie {
		raw--
	}
	return []linecomp.Encoding{{Name: "zero", Bits: 1}, {Name: "raw", Bits: raw}}
}

func (r reporting) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, &linecomp.CorruptError{Codec: "zero-or-raw", Reason: "empty"}
	}
	return int(enc[0] >> 7), nil
}

func TestTestCodecEncodings(t *testing.T) {
	lines := linecomptest.EdgeLines(lineSize)
	if err := linecomptest.TestCodec(reporting{}, lines); err != nil {
		t.Errorf("honest encodings: %v", err)
	}
	err := linecomptest.TestCodec(reporting{lie: true}, lines)
	if err == nil || !strings.Contains(err.Error(), "encoding raw has 512 bits, its stream") {
		t.Errorf("a wrong fixed size: TestCodec says %v", err)
	}
}

// trainer is zeroOrRaw as a Trainable. When bad, building from its trainer
// changes the codec, which from then on appends a zero byte to every stream
// (and counts it in Size, so that only the comparison with the streams from
// before training can tell).
type trainer struct {
	*faulty
	mu      sync.Mutex
	bad     bool
	rebuilt bool
}

func (t *trainer) NewTrainer() linecomp.Trainer { return learner{t} }

// learner is trainer's Trainer.
type learner struct{ codec *trainer }

func (learner) Observe([]byte) {}

func (l learner) Build() (linecomp.Trainable, error) {
	if l.codec.bad {
		l.codec.mu.Lock()
		l.codec.rebuilt = true
		l.codec.mu.Unlock()
	}
	return &trainer{faulty: &faulty{}}, nil
}

func (t *trainer) Size(line []byte) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rebuilt && len(line) == lineSize {
		return 1 + 8*lineSize + 7 // an extra byte after Rebuild
	}
	return t.faulty.Size(line)
}

func (t *trainer) Compress(dst, line []byte) ([]byte, int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rebuilt {
		out, _, err := t.faulty.Compress(dst, line)
		return append(out, 0), 1 + 8*lineSize + 7, err
	}
	return t.faulty.Compress(dst, line)
}

func TestTestCodecTrainer(t *testing.T) {
	lines := linecomptest.EdgeLines(lineSize)
	if err := linecomptest.TestCodec(&trainer{faulty: &faulty{}}, lines); err != nil {
		t.Errorf("training that leaves the codec alone: %v", err)
	}
	err := linecomptest.TestCodec(&trainer{faulty: &faulty{}, bad: true}, lines)
	if err == nil || !strings.Contains(err.Error(), "training changed the codec") {
		t.Errorf("training that changes the codec: TestCodec says %v", err)
	}
}

func TestCheckGarbage(t *testing.T) {
	if err := linecomptest.CheckGarbage(zeroOrRaw{}, []byte{0x80}); err != nil {
		t.Errorf("a rejected stream: %v", err)
	}
	if err := linecomptest.CheckGarbage(zeroOrRaw{}, []byte{0}); err != nil {
		t.Errorf("a valid stream: %v", err)
	}
	if err := linecomptest.CheckGarbage(&faulty{fault: "panics"}, nil); err == nil || !strings.Contains(err.Error(), "panic") {
		t.Errorf("a panic: %v", err)
	}
}

// TestBitString: the first bit is the top bit of byte 0.
func TestBitString(t *testing.T) {
	if got := linecomptest.BitString([]byte{0xA5, 0xC0}, 10); got != "1010010111" {
		t.Errorf("BitString(A5 C0, 10) = %s", got)
	}
}

// TestEdgeLines: the lines have the size asked for and are the same on
// every call (the random ones are seeded).
func TestEdgeLines(t *testing.T) {
	a, b := linecomptest.EdgeLines(32), linecomptest.EdgeLines(32)
	if len(a) != len(b) || len(a) < 50 {
		t.Fatalf("%d and %d lines", len(a), len(b))
	}
	for i := range a {
		if len(a[i]) != 32 || string(a[i]) != string(b[i]) {
			t.Fatalf("line %d differs between calls or is %d bytes", i, len(a[i]))
		}
	}
}
