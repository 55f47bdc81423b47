package sc

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// encoded is one line and its stream under some code book.
type encoded struct {
	line, enc []byte
	bits      int
}

// compressAll compresses every whole line of data with c.
func compressAll(t testing.TB, c *Codec, data []byte) []encoded {
	t.Helper()
	var out []encoded
	n := c.LineSize()
	for off := 0; off+n <= len(data); off += n {
		line := data[off : off+n]
		enc, bits, err := c.Compress(nil, line)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, encoded{line, enc, bits})
	}
	return out
}

// decodesAll reports the first line of lines that c does not decode back.
func decodesAll(c *Codec, lines []encoded) error {
	var dec []byte
	for i, e := range lines {
		var err error
		dec, err = c.Decompress(dec[:0], e.enc)
		if err != nil {
			return fmt.Errorf("line %d: %v", i, err)
		}
		if !bytes.Equal(dec, e.line) {
			return fmt.Errorf("line %d: decoded %X, want %X", i, dec, e.line)
		}
	}
	return nil
}

// trainingFiles returns two sample files whose code books differ, cut to
// whole 128-byte lines.
func trainingFiles(t testing.TB) (a, b []byte) {
	t.Helper()
	files := codectest.Sample()
	if len(files) < 2 {
		t.Fatal("the sample has fewer than two files")
	}
	a, b = files[0].Data, files[1].Data
	return a[:len(a)/128*128], b[:len(b)/128*128]
}

// TestCodeBookNeverChanges is the regression test of the defect of issue 7
// §3. Lines compressed by a codec under code book A must decode with that
// codec whatever else happens. Before, a Table was rewritten in place by
// UnmarshalBinary (on the table a codec held, e.g. the one Table()
// returned) and replaced by SetTable, and Rebuild switched the codec to
// the new code book: after any of these the codec decoded its earlier
// lines under another code book. (Training now lives in a Trainer.) The test first shows that decoding A's
// lines under code book B does go wrong, so that it would fail had the
// codec's book become B; then it makes code books every way the API
// allows (a trainer of the codec itself, ParseTable of B's bytes, New with
// that table, BuildTable) and checks that the codec still decodes every
// line it compressed and still holds exactly code book A.
func TestCodeBookNeverChanges(t *testing.T) {
	dataA, dataB := trainingFiles(t)
	for _, n := range codectest.LineSizes {
		a := trained(t, dataA, n)
		linesA := compressAll(t, a, dataA)
		bookA, err := a.Table().MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}

		// Code book B, from the other file, cannot decode A's lines.
		trA := newTrainer(a)
		for off := 0; off+n <= len(dataB); off += n {
			trA.Observe(dataB[off : off+n])
		}
		b := built(t, trA)
		if decodesAll(b, linesA) == nil {
			t.Fatalf("%d bytes: code book B decodes every line of A: the test cannot see a changed code book", n)
		}

		// Every way of making code book B leaves the codec's own alone.
		bookB, err := b.Table().MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := ParseTable(bookB)
		if err != nil {
			t.Fatal(err)
		}
		fromB, err := New(n, WithTable(parsed))
		if err != nil {
			t.Fatal(err)
		}
		v := trA.VFT()
		if _, err := BuildTable(v.Freqs(), v.Escapes(), 12); err != nil {
			t.Fatal(err)
		}
		if err := decodesAll(a, linesA); err != nil {
			t.Errorf("%d bytes: after code book B was made, the codec no longer decodes its own lines: %v", n, err)
		}
		if got, _ := a.Table().MarshalBinary(); !bytes.Equal(got, bookA) {
			t.Errorf("%d bytes: the codec's code book changed", n)
		}
		// B's lines decode with B, and with a codec made from B's bytes.
		linesB := compressAll(t, b, dataB)
		if err := decodesAll(b, linesB); err != nil {
			t.Errorf("%d bytes: the built codec: %v", n, err)
		}
		if err := decodesAll(fromB, linesB); err != nil {
			t.Errorf("%d bytes: a codec made from the parsed code book: %v", n, err)
		}
	}
}

// TestAccessorsCopy: what Table().Symbols() and a Trainer's VFT() hand out
// is a copy; changing it changes neither the table nor the trainer.
func TestAccessorsCopy(t *testing.T) {
	c, _ := New(32, WithMaxCodeLen(16), WithVFTEntries(4))
	tr := newTrainer(c)
	for _, l := range goldenTraining() {
		tr.Observe(l)
	}
	c = built(t, tr)
	tr = newTrainer(c)
	for _, l := range goldenTraining() {
		tr.Observe(l)
	}
	want := fmt.Sprint(c.Table().Symbols())
	syms := c.Table().Symbols()
	for i := range syms {
		syms[i] = Symbol{Value: 99, Len: 9, Code: 1}
	}
	if got := fmt.Sprint(c.Table().Symbols()); got != want {
		t.Errorf("changing Symbols' result changed the table: %s, want %s", got, want)
	}
	// The golden training: A 13, B 7, C 3, D 1, escape 4.
	wantFreqs := fmt.Sprint([]Freq{{valA, 13}, {valC, 3}, {valD, 1}, {valB, 7}})
	v := tr.VFT()
	v.ObserveWord(12345)
	v.Reset()
	v.ObserveWord(777)
	if got := tr.VFT(); fmt.Sprint(got.Freqs()) != wantFreqs || got.Escapes() != 4 {
		t.Errorf("changing VFT's result changed the trainer's VFT: %v escape %d, want %s escape 4", got.Freqs(), got.Escapes(), wantFreqs)
	}
	if fmt.Sprint(v.Freqs()) != "[{777 1}]" {
		t.Errorf("the copy: %v, want [{777 1}]", v.Freqs())
	}
}

// TestZeroValues: the zero Table and the zero VFT never panic. The zero
// Table has no symbols and no encoding, and no codec takes it; the zero
// VFT is an empty table of the default size.
func TestZeroValues(t *testing.T) {
	var tab Table
	if tab.Len() != 0 || tab.MaxLen() != 0 || len(tab.Symbols()) != 0 {
		t.Errorf("zero Table: %d symbols, L = %d", tab.Len(), tab.MaxLen())
	}
	if code, length, escaped := tab.Code(5); code != 0 || length != 0 || !escaped {
		t.Errorf("zero Table Code(5) = %d, %d, %v; want 0, 0, true", code, length, escaped)
	}
	if b, err := tab.AppendBinary([]byte{1}); !errors.Is(err, linecomp.ErrConfig) || !bytes.Equal(b, []byte{1}) {
		t.Errorf("zero Table AppendBinary = % X, %v; want dst unchanged and ErrConfig", b, err)
	}
	if _, err := New(32, WithTable(&tab)); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("New with the zero Table: %v, want ErrConfig", err)
	}

	var v VFT
	if v.Entries() != DefaultVFTEntries || len(v.Freqs()) != 0 || v.Escapes() != 0 {
		t.Errorf("zero VFT: %d entries, %v, escape %d", v.Entries(), v.Freqs(), v.Escapes())
	}
	// Saturation at 12 bits shows the default counter width: 5000 hits
	// count 4095.
	for range 5001 {
		v.ObserveWord(3)
	}
	if got := v.Freqs(); len(got) != 1 || got[0] != (Freq{3, 4095}) || v.Escapes() != 1 {
		t.Errorf("zero VFT after 5001 × 3: %v escape %d, want [{3 4095}] escape 1", got, v.Escapes())
	}
}

// TestConcurrentTraining shares one trained codec among goroutines that
// compress, size and decompress lines (each checked against the results
// computed alone beforehand), goroutines that share one trainer of it to
// Observe and Build, and goroutines that read the trainer's VFT and decode
// with the codec. Run under -race it shows training is safe beside use.
func TestConcurrentTraining(t *testing.T) {
	dataA, dataB := trainingFiles(t)
	const n = 64
	c := trained(t, dataA, n)
	lines := compressAll(t, c, dataA[:min(len(dataA), 64*n)])
	sizes := make([]int, len(lines))
	for i, e := range lines {
		sizes[i] = c.Size(e.line)
	}
	tr := c.NewTrainer()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var enc, dec []byte
			for round := range 4 {
				switch {
				case g < 4: // users
					for i, e := range lines {
						var bits int
						enc, bits, _ = c.Compress(enc[:0], e.line)
						if bits != e.bits || !bytes.Equal(enc, e.enc) || c.Size(e.line) != sizes[i] {
							errs <- fmt.Errorf("goroutine %d: line %d compressed differently beside training", g, i)
							return
						}
					}
					if err := decodesAll(c, lines); err != nil {
						errs <- fmt.Errorf("goroutine %d: %v", g, err)
						return
					}
				case g < 6: // trainers
					off := (g*7 + round*13) % (len(dataB) / n) * n
					for k := 0; k < 32 && off+n <= len(dataB); k, off = k+1, off+n {
						tr.Observe(dataB[off : off+n])
					}
					next, err := tr.Build()
					if err != nil {
						errs <- err
						return
					}
					own := compressAll(t, next.(*Codec), dataB[:16*n])
					if err := decodesAll(next.(*Codec), own); err != nil {
						errs <- fmt.Errorf("goroutine %d: a built codec: %v", g, err)
						return
					}
				default: // readers of the VFT and the table
					v := tr.(*Trainer).VFT()
					if len(v.Freqs()) > v.Entries() {
						errs <- fmt.Errorf("VFT copy has %d values in %d entries", len(v.Freqs()), v.Entries())
						return
					}
					if _, err := c.Table().MarshalBinary(); err != nil {
						errs <- err
						return
					}
					dec, _ = c.Decompress(dec[:0], lines[round].enc)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestOverlap: Compress and Decompress read all of their input before they
// write, so dst may start at the input or anywhere inside or before it.
// Raw lines (untrained codec) and coded ones (trained) are both covered,
// and so is a table above fastMaxLen, which takes the reference paths.
func TestOverlap(t *testing.T) {
	data, _ := trainingFiles(t)
	for _, n := range codectest.LineSizes {
		slow, _ := New(n, WithMaxCodeLen(fastMaxLen+1))
		trSlow := newTrainer(slow)
		for off := 0; off+n <= len(data); off += n {
			trSlow.Observe(data[off : off+n])
		}
		codecs := []*Codec{mustNew(t, n), trained(t, data, n), built(t, trSlow)}
		for ci, c := range codecs {
			for _, e := range compressAll(t, c, data[:min(len(data), 24*n)]) {
				m := len(e.enc)
				for _, shift := range []int{-m - 3, -m, -5, -1, 0, 1, 3, n / 2, n - 1} {
					// The input at base, the output from base+shift.
					base := max(0, -shift)
					buf := make([]byte, base+max(n, m)+max(shift, 0)+8)
					copy(buf[base:], e.line)
					got, bits, err := c.Compress(buf[base+shift:base+shift], buf[base:base+n])
					if err != nil || bits != e.bits || !bytes.Equal(got, e.enc) {
						t.Fatalf("codec %d, %d bytes: Compress with dst at %+d from the line: %X (%d bits), %v; want %X", ci, n, shift, got, bits, err, e.enc)
					}
					clear(buf)
					copy(buf[base:], e.enc)
					dec, err := c.Decompress(buf[base+shift:base+shift], buf[base:base+m])
					if err != nil || !bytes.Equal(dec, e.line) {
						t.Fatalf("codec %d, %d bytes: Decompress with dst at %+d from the stream: %X, %v; want %X", ci, n, shift, dec, err, e.line)
					}
				}
			}
		}
	}
}

func mustNew(t testing.TB, n int, opts ...Option) *Codec {
	t.Helper()
	c, err := New(n, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEncodings: the flag tells the encoding; a raw line is always
// 1 + 8·LineSize bits, a coded one varies; streams of every kind and
// garbage give the encoding the flag selects, and an empty one an error.
func TestEncodings(t *testing.T) {
	data, _ := trainingFiles(t)
	for _, n := range codectest.LineSizes {
		c := trained(t, data, n)
		want := []linecomp.Encoding{{Name: "compressed", Bits: -1}, {Name: "raw", Bits: 1 + 8*n}}
		if got := c.Encodings(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d bytes: Encodings %v, want %v", n, got, want)
		}
		if linecomp.TagGivesSize(c) {
			t.Errorf("%d bytes: TagGivesSize is true, but coded lines vary in length", n)
		}
		seen := [2]int{}
		for _, e := range compressAll(t, c, data) {
			enc, err := c.EncodingOf(e.enc)
			if err != nil {
				t.Fatal(err)
			}
			// The flag is the first bit: 1 coded, 0 raw.
			if wantEnc := 1 - int(e.enc[0]>>7); enc != wantEnc {
				t.Fatalf("%d bytes: EncodingOf(%X) = %d, want %d", n, e.enc, enc, wantEnc)
			}
			if enc == encRaw && e.bits != 1+8*n {
				t.Fatalf("%d bytes: a raw line of %d bits", n, e.bits)
			}
			seen[enc]++
		}
		if seen[0] == 0 || seen[1] == 0 {
			t.Errorf("%d bytes: the sample file gave %v lines per encoding; want both", n, seen)
		}
		for _, enc := range [][]byte{{0x80}, {0x7F, 0xFF}, {0xFF}} {
			if got, err := c.EncodingOf(enc); err != nil || got != 1-int(enc[0]>>7) {
				t.Errorf("EncodingOf(% X) = %d, %v", enc, got, err)
			}
		}
		var ce *linecomp.CorruptError
		if _, err := c.EncodingOf(nil); !errors.As(err, &ce) || ce.Offset != 0 {
			t.Errorf("EncodingOf(nil): %v, want a *CorruptError at bit 0", err)
		}
	}
}

// TestName: every configuration is "sc2", and the registry's codec made
// from Name() with the code book of a trained codec produces its bits.
func TestName(t *testing.T) {
	data, _ := trainingFiles(t)
	for _, n := range codectest.LineSizes {
		c, err := New(n, WithVFTEntries(64), WithCounterBits(5), WithMaxCodeLen(10),
			WithLatency(linecomp.Latency{Compress: linecomp.LatencyUnknown, Decompress: 3}))
		if err != nil {
			t.Fatal(err)
		}
		tr := newTrainer(c)
		for off := 0; off+n <= len(data); off += n {
			tr.Observe(data[off : off+n])
		}
		c = built(t, tr)
		if c.Name() != "sc2" {
			t.Errorf("Name %q", c.Name())
		}
		// The untrained registry codec and this one untrained agree.
		reg, err := linecomp.New(c.Name(), c.LineSize())
		if err != nil {
			t.Fatal(err)
		}
		plain := mustNew(t, n, WithVFTEntries(64), WithCounterBits(5), WithMaxCodeLen(10))
		again := mustNew(t, n, WithTable(c.Table()))
		for off := 0; off+n <= len(data); off += n {
			line := data[off : off+n]
			e1, b1, _ := reg.Compress(nil, line)
			e2, b2, _ := plain.Compress(nil, line)
			e3, b3, _ := c.Compress(nil, line)
			e4, b4, _ := again.Compress(nil, line)
			if b1 != b2 || !bytes.Equal(e1, e2) || b3 != b4 || !bytes.Equal(e3, e4) {
				t.Fatalf("%d bytes, line at %d: registry %d bits, untrained %d, trained %d, its table %d", n, off, b1, b2, b3, b4)
			}
		}
	}
}
