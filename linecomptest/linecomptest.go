// Package linecomptest checks that a linecomp.Codec keeps the Codec
// contract, as testing/fstest checks an fs.FS. It is for the authors of
// codecs, ours and their own: TestCodec runs every check on a set of lines
// and returns what it found, so it works in any test framework:
//
//	func TestMyCodec(t *testing.T) {
//		c := mycodec.New(64)
//		if err := linecomptest.TestCodec(c, linecomptest.EdgeLines(64)); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// It checks, on every line: the round trip; that Size equals the bits
// Compress reports, that the stream takes (bits+7)/8 bytes with zero
// padding and starts with TagBits bits; that Compress and Decompress append
// to dst and work when dst overlaps their input; that streams derived from
// the valid one (truncations, bit flips, random bytes, a trailing byte)
// never make Decompress panic, write past what it returns or fail with an
// error that does not wrap linecomp.ErrCorrupt, and that a trailing byte is
// rejected; that lines of the wrong length give Size -1 and ErrLineSize;
// that Size, Compress, Decompress and EncodingOf allocate nothing with
// reused buffers; and that concurrent use gives the same streams. A codec that implements
// linecomp.EncodingReporter must report the encoding of every stream, with
// the stream's length where the encoding has a fixed one; training a
// linecomp.Trainable must leave the codec unchanged.
//
// It does not check that the streams are the right ones: compare them with
// a reference of your own (BitString helps).
package linecomptest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/linecomp/linecomp"
)

// maxErrors is where TestCodec stops: a broken codec usually fails the
// same way on every line.
const maxErrors = 10

// report collects the problems TestCodec finds.
type report struct {
	codec string
	errs  []error
}

func (r *report) add(format string, args ...any) {
	if len(r.errs) < maxErrors {
		r.errs = append(r.errs, fmt.Errorf("%s: "+format, append([]any{r.codec}, args...)...))
	}
}

func (r *report) full() bool { return len(r.errs) >= maxErrors }

// TestCodec checks c on every line of lines, which must all be
// c.LineSize() bytes long, and returns the problems it finds joined with
// errors.Join (at most ten), or nil. EdgeLines(c.LineSize()) plus some
// real data make a good set.
//
// For a linecomp.Trainable, TestCodec trains a trainer of the codec on
// every line and builds a codec from it, which must round-trip them all.
func TestCodec(c linecomp.Codec, lines [][]byte) error {
	r := &report{codec: fmt.Sprintf("%s/%d", c.Name(), c.LineSize())}
	n := c.LineSize()
	switch {
	case c.Name() == "":
		r.add("Name is empty")
	case n <= 0:
		r.add("LineSize is %d", n)
	case c.TagBits() < 0:
		r.add("TagBits is %d", c.TagBits())
	case c.Latency().Compress < linecomp.LatencyUnknown || c.Latency().Decompress < linecomp.LatencyUnknown:
		r.add("Latency %v has a field below LatencyUnknown", c.Latency())
	}
	if len(lines) == 0 {
		r.add("no lines to check")
	}
	for i, line := range lines {
		if len(line) != n {
			r.add("line %d is %d bytes, the codec takes %d: TestCodec needs lines of the codec's size", i, len(line), n)
		}
	}
	if len(r.errs) > 0 {
		return errors.Join(r.errs...)
	}

	rep, _ := c.(linecomp.EncodingReporter)
	if rep != nil {
		checkEncodingList(r, rep)
	}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	var s Scratch
	streams := make([][]byte, len(lines)) // each line's stream, for the checks below
	minLine, maxLine, minBits, maxBits := 0, 0, -1, -1
	for i, line := range lines {
		enc, bits, err := s.RoundTrip(c, line)
		if err != nil {
			r.add("line %d (%X): %v", i, line, err)
			if r.full() {
				break
			}
			continue
		}
		enc = slices.Clone(enc) // s's buffer is reused by the checks below
		streams[i] = enc
		if minBits < 0 || bits < minBits {
			minLine, minBits = i, bits
		}
		if bits > maxBits {
			maxLine, maxBits = i, bits
		}
		checkAppend(r, c, i, line, enc)
		checkOverlap(r, c, i, line, enc, bits)
		if rep != nil {
			checkEncodingOf(r, rep, i, enc, bits)
		}
		checkDerived(r, c, &s, i, enc, rng, i < 16)
		if r.full() {
			break
		}
	}
	if len(r.errs) > 0 {
		return errors.Join(r.errs...)
	}
	checkLineSizes(r, c, lines[0])
	for _, i := range []int{0, minLine, maxLine} {
		if err := CheckZeroAllocs(c, lines[i]); err != nil {
			r.add("line %d: %v", i, err)
			break
		}
	}
	checkConcurrent(r, c, lines, streams)
	if t, ok := c.(linecomp.Trainable); ok {
		checkTrainer(r, t, lines, streams)
	}
	return errors.Join(r.errs...)
}

// checkEncodingList: the encodings have unique non-empty names and a
// fixed size is either -1 or a possible stream length.
func checkEncodingList(r *report, rep linecomp.EncodingReporter) {
	encs := rep.Encodings()
	if len(encs) == 0 {
		r.add("Encodings is empty")
	}
	seen := map[string]bool{}
	for i, e := range encs {
		if e.Name == "" || seen[e.Name] {
			r.add("encoding %d has an empty or repeated name %q", i, e.Name)
		}
		seen[e.Name] = true
		if e.Bits < -1 {
			r.add("encoding %d (%s) has Bits %d", i, e.Name, e.Bits)
		}
	}
}

// checkEncodingOf: EncodingOf names an encoding of the stream, and a fixed
// size is the stream's.
func checkEncodingOf(r *report, rep linecomp.EncodingReporter, i int, enc []byte, bits int) {
	e, err := rep.EncodingOf(enc)
	encs := rep.Encodings()
	switch {
	case err != nil:
		r.add("line %d: EncodingOf(%X): %v", i, enc, err)
	case e < 0 || e >= len(encs):
		r.add("line %d: EncodingOf(%X) = %d, of %d encodings", i, enc, e, len(encs))
	case encs[e].Bits >= 0 && encs[e].Bits != bits:
		r.add("line %d: encoding %s has %d bits, its stream %X %d", i, encs[e].Name, encs[e].Bits, enc, bits)
	}
}

// sentinel fills spare capacity, to see writes past a returned length.
const sentinel = 0xA5

// guarded returns a buffer holding prefix whose spare capacity (extra
// bytes) is filled with sentinel.
func guarded(prefix []byte, extra int) []byte {
	buf := make([]byte, len(prefix), len(prefix)+extra)
	copy(buf, prefix)
	full := buf[:cap(buf)]
	for i := len(prefix); i < len(full); i++ {
		full[i] = sentinel
	}
	return buf
}

// writtenPast returns the index of the first byte of buf's spare capacity
// from want on that is not sentinel, or -1.
func writtenPast(buf []byte, want int) int {
	full := buf[:cap(buf)]
	for i := want; i < len(full); i++ {
		if full[i] != sentinel {
			return i
		}
	}
	return -1
}

// checkAppend: Compress appends to a dst that holds data, leaves that data
// alone and writes nothing past the returned stream.
func checkAppend(r *report, c linecomp.Codec, i int, line, enc []byte) {
	prefix := []byte{1, 2, 3}
	buf := guarded(prefix, len(enc)+64)
	out, _, err := c.Compress(buf, line)
	switch {
	case err != nil:
		r.add("line %d: Compress after 3 bytes of dst: %v", i, err)
	case !bytes.Equal(out[:min(3, len(out))], prefix) || &out[0] != &buf[0]:
		r.add("line %d: Compress did not append to dst", i)
	case !bytes.Equal(out[3:], enc):
		r.add("line %d: Compress after 3 bytes of dst gave %X, into an empty dst %X", i, out[3:], enc)
	default:
		if p := writtenPast(buf, len(out)); p >= 0 {
			r.add("line %d: Compress wrote byte %d past the %d it returned", i, p, len(out))
		}
	}
}

// checkOverlap: the Codec doc promises that Compress and Decompress read
// all their input before writing, so dst may overlap it: starting at the
// input, at its second, sixth, middle or last byte, or before it.
func checkOverlap(r *report, c linecomp.Codec, i int, line, enc []byte, bits int) {
	n := len(line)
	room := 2*n + len(enc) + 64 // dst never needs to grow
	for _, at := range []struct {
		name    string
		in, dst int // offsets of the input and of dst in one buffer
	}{
		{"at the input", 0, 0},
		{"1 byte into the input", 0, 1},
		{"5 bytes into the input", 0, min(5, n-1)},
		{"inside the input", 0, n / 2},
		{"at the input's last byte", 0, n - 1},
		{"just before the input", 8, 0},
	} {
		buf := make([]byte, room)
		copy(buf[at.in:], line)
		out, got, err := c.Compress(buf[at.dst:at.dst], buf[at.in:at.in+n])
		if err != nil || !bytes.Equal(out, enc) || got != bits {
			r.add("line %d: Compress with dst %s gave %X, %d bits (%v), want %X, %d bits", i, at.name, out, got, err, enc, bits)
		}
	}
	m := len(enc)
	for _, at := range []struct {
		name    string
		in, dst int
	}{
		{"at the input", 0, 0},
		{"1 byte into the input", 0, 1},
		{"5 bytes into the input", 0, min(5, m-1)},
		{"inside the input", 0, m / 2},
		{"at the input's last byte", 0, m - 1},
		{"just before the input", 8, 0},
	} {
		buf := make([]byte, room)
		copy(buf[at.in:], enc)
		out, err := c.Decompress(buf[at.dst:at.dst], buf[at.in:at.in+m])
		if err != nil || !bytes.Equal(out, line) {
			r.add("line %d: Decompress of %X with dst %s gave %X (%v), want %X", i, enc, at.name, out, err, line)
		}
	}
}

// checkDerived runs CheckGarbage on streams derived from the valid enc:
// truncations, single bit flips, random bytes and a trailing byte, which
// must be rejected. Every prefix and every bit flip is tried when
// exhaustive, a few otherwise. A derived stream that Decompress accepts
// gives a line, which must round-trip in turn.
func checkDerived(r *report, c linecomp.Codec, s *Scratch, i int, enc []byte, rng *rand.Rand, exhaustive bool) {
	try := func(what string, bad []byte) {
		if err := CheckGarbage(c, bad); err != nil {
			r.add("line %d, stream %X %s: %v", i, enc, what, err)
			return
		}
		if line, err := c.Decompress(nil, bad); err == nil {
			if _, _, err := s.RoundTrip(c, line); err != nil {
				r.add("line %d, stream %X %s was accepted as %X, which does not round-trip: %v", i, enc, what, line, err)
			}
		}
	}
	var cuts []int
	if exhaustive {
		for k := range len(enc) {
			cuts = append(cuts, k)
		}
	} else {
		cuts = []int{0, len(enc) / 2, max(len(enc)-1, 0)}
	}
	for _, k := range cuts {
		try(fmt.Sprintf("cut to %d bytes", k), enc[:k:k])
	}
	flips := 8
	if exhaustive {
		flips = 8 * len(enc)
	}
	for f := range min(flips, 8*len(enc)) {
		bit := f
		if !exhaustive {
			bit = rng.IntN(8 * len(enc))
		}
		bad := slices.Clone(enc)
		bad[bit/8] ^= 0x80 >> (bit % 8)
		try(fmt.Sprintf("with bit %d flipped", bit), bad)
	}
	for _, size := range []int{len(enc), rng.IntN(2*len(enc) + 2)} {
		bad := make([]byte, size)
		for j := range bad {
			bad[j] = byte(rng.Uint32())
		}
		try("replaced by random bytes", bad)
	}
	for _, b := range []byte{0x00, 0xFF} {
		long := append(slices.Clone(enc), b)
		if err := CheckGarbage(c, long); err != nil {
			r.add("line %d, stream %X with a trailing byte %02X: %v", i, enc, b, err)
		} else if _, err := c.Decompress(nil, long); err == nil {
			r.add("line %d: Decompress accepted the stream %X with a trailing byte %02X", i, enc, b)
		}
	}
}

// checkLineSizes: a line one byte short or long, or none, gives Size -1,
// and Compress an error wrapping ErrLineSize with dst unchanged.
func checkLineSizes(r *report, c linecomp.Codec, line []byte) {
	n := len(line)
	for _, bad := range [][]byte{line[:n-1], append(slices.Clone(line), 0), nil} {
		if s := c.Size(bad); s != -1 {
			r.add("Size of a %d-byte line = %d, want -1", len(bad), s)
		}
		buf := guarded([]byte{1, 2, 3}, 2*n+64)
		out, _, err := c.Compress(buf, bad)
		if !errors.Is(err, linecomp.ErrLineSize) {
			r.add("Compress of a %d-byte line: error %v, want one wrapping ErrLineSize", len(bad), err)
		}
		if len(out) != 3 || !bytes.Equal(out, []byte{1, 2, 3}) || writtenPast(buf, 3) >= 0 {
			r.add("Compress of a %d-byte line changed dst", len(bad))
		}
	}
}

// checkConcurrent: several goroutines sharing c make the same streams and
// lines as one did (run with -race to see data races).
func checkConcurrent(r *report, c linecomp.Codec, lines, streams [][]byte) {
	const workers = 4
	lines, streams = lines[:min(len(lines), 64)], streams[:min(len(streams), 64)]
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s Scratch
			for j := range lines {
				i := (j + w*len(lines)/workers) % len(lines) // each worker starts elsewhere
				enc, _, err := s.RoundTrip(c, lines[i])
				if err == nil && !bytes.Equal(enc, streams[i]) {
					err = fmt.Errorf("stream %X, alone %X", enc, streams[i])
				}
				if err != nil {
					mu.Lock()
					r.add("line %d, used by %d goroutines at once: %v", i, workers, err)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
}

// checkTrainer: a trainer of the codec builds a codec that round-trips
// every line, and training leaves the codec unchanged: it makes the same
// streams and decodes the ones it made before.
func checkTrainer(r *report, t linecomp.Trainable, lines, streams [][]byte) {
	tr := t.NewTrainer()
	for _, line := range lines {
		tr.Observe(line)
	}
	next, err := tr.Build()
	if err != nil {
		r.add("Build: %v", err)
		return
	}
	if next.Name() != t.Name() || next.LineSize() != t.LineSize() {
		r.add("Build made %s/%d", next.Name(), next.LineSize())
	}
	var s Scratch
	for i, line := range lines {
		if _, _, err := s.RoundTrip(next, line); err != nil {
			r.add("line %d, codec from Build: %v", i, err)
			return
		}
		enc, _, err := s.RoundTrip(t, line)
		if err == nil && !bytes.Equal(enc, streams[i]) {
			err = fmt.Errorf("stream %X after training, %X before", enc, streams[i])
		}
		if err == nil {
			var dec []byte
			if dec, err = t.Decompress(nil, streams[i]); err == nil && !bytes.Equal(dec, line) {
				err = fmt.Errorf("its stream from before training decodes to %X", dec)
			}
		}
		if err != nil {
			r.add("line %d: training changed the codec: %v", i, err)
			return
		}
	}
}
