package linecomp_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sample"
)

// TestBatchMatchesSingleLine: Sizes, CompressLines and DecompressLines give
// exactly what the single-line methods give, for every codec and size.
func TestBatchMatchesSingleLine(t *testing.T) {
	data := sample.Files()[3].Data[:4096]
	for _, in := range allInstances(t) {
		c, n := in.c, in.c.LineSize()
		sizes, err := linecomp.Sizes(c, nil, data)
		if err != nil {
			t.Fatal(err)
		}
		// batchRoundTrip checks lines.Bits against Compress line by line.
		var lines linecomp.Lines
		if _, err := batchRoundTrip(c, &lines, []byte{7}, data); err != nil {
			t.Fatalf("%s/%d: %v", c.Name(), n, err)
		}
		if !slices.Equal(sizes, lines.Bits) {
			t.Fatalf("%s/%d: Sizes %v, Compress line by line %v", c.Name(), n, sizes, lines.Bits)
		}
	}
}

func TestBatchErrors(t *testing.T) {
	c, _ := linecomp.New("bdi", 64)
	if _, err := linecomp.Sizes(c, nil, make([]byte, 65)); !errors.Is(err, linecomp.ErrPartialLine) {
		t.Errorf("Sizes of 65 bytes: %v", err)
	}
	var l linecomp.Lines
	if err := linecomp.CompressLines(c, &l, make([]byte, 100)); !errors.Is(err, linecomp.ErrPartialLine) || l.Len() != 0 {
		t.Errorf("CompressLines of 100 bytes: %v, %d lines", err, l.Len())
	}
	linecomp.CompressLines(c, &l, make([]byte, 128))
	l.End[1] = 1000
	if _, err := linecomp.DecompressLines(c, nil, &l); !errors.Is(err, linecomp.ErrCorrupt) {
		t.Errorf("DecompressLines with a bad offset: %v", err)
	}
	l.Bits = l.Bits[:1]
	if _, err := linecomp.DecompressLines(c, nil, &l); !errors.Is(err, linecomp.ErrCorrupt) {
		t.Errorf("DecompressLines with mismatched slices: %v", err)
	}
}

// pickyBatch is a codec whose batch decoder takes at most two lines a call
// and none whose number is a multiple of three, so that DecompressLines
// must decode those with Decompress and call it again after them.
type pickyBatch struct {
	linecomp.Codec
	calls int
}

func (p *pickyBatch) DecompressLines(dst []byte, src *linecomp.Lines, from int) ([]byte, int) {
	p.calls++
	start, n := 0, 0
	if from > 0 {
		start = src.End[from-1]
	}
	for i := from; i < len(src.End) && i < from+2 && i%3 != 0; i++ {
		out, err := p.Codec.Decompress(dst, src.Enc[start:src.End[i]])
		if err != nil {
			break
		}
		dst, start, n = out, src.End[i], n+1
	}
	return dst, n
}

// TestDecompressLinesResumes: DecompressLines with a batch decoder that
// stops early gives the lines and the error that decoding line by line
// gives, for well-formed lines and with a malformed line at each place.
func TestDecompressLinesResumes(t *testing.T) {
	c, _ := linecomp.New("fpc", 64)
	data := sample.Files()[3].Data[:64*10]
	var lines linecomp.Lines
	if err := linecomp.CompressLines(c, &lines, data); err != nil {
		t.Fatal(err)
	}
	for bad := -1; bad < lines.Len(); bad++ {
		src := linecomp.Lines{Enc: bytes.Clone(lines.Enc), End: lines.End, Bits: lines.Bits}
		if bad >= 0 {
			src.Enc[src.End[bad]-1] ^= 0xFF // the last byte: a broken padding or a raw line's last bits
			if bad%2 == 1 {
				src.End = slices.Clone(lines.End)
				src.End[bad] = len(src.Enc) + 1 // an end past Enc
			}
		}
		picky := &pickyBatch{Codec: c}
		got, gotErr := linecomp.DecompressLines(picky, []byte{5}, &src)
		want, wantErr := linecomp.DecompressLines(c, []byte{5}, &src)
		if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("malformed line %d: resumed batch gave %d bytes, %v; line by line %d bytes, %v", bad, len(got), gotErr, len(want), wantErr)
		}
		if bad < 0 && (wantErr != nil || !bytes.Equal(want[1:], data)) {
			t.Errorf("well-formed lines: %v, or the lines differ", wantErr)
		}
		// From lines 0 (which it refuses), 1 (taking 1 and 2), 4 (4, 5)
		// and 7 (7, 8); lines 0, 3, 6 and 9 by Decompress.
		if bad < 0 && picky.calls != 4 {
			t.Errorf("the batch decoder was called %d times for 10 lines, want 4", picky.calls)
		}
	}
}

// TestBatchKernelsPartialLine: every codec's batch kernels, called
// directly rather than through Sizes and CompressLines, refuse data that is
// not a whole number of lines with an error wrapping ErrPartialLine and
// leave dst as it was; they take no data as no lines. Chunked loops that
// take len(data)/LineSize() lines at a time once spun forever on the half
// line left over, so each codec's calls must return within a deadline.
func TestBatchKernelsPartialLine(t *testing.T) {
	for _, in := range allInstances(t) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			batchKernelsPartialLine(t, in.c)
		}()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s/%d: a batch kernel given a line and a half did not return in a minute", in.c.Name(), in.c.LineSize())
		}
	}
}

// batchKernelsPartialLine checks c's batch kernels, those it has, as
// TestBatchKernelsPartialLine says. It reports with t.Errorf only, so it
// may run on another goroutine.
func batchKernelsPartialLine(t *testing.T, c linecomp.Codec) {
	n := c.LineSize()
	name := fmt.Sprintf("%s/%d", c.Name(), n)
	partial := sample.Files()[0].Data[:n+n/2]
	if s, ok := c.(linecomp.SizeAppender); ok {
		if got, err := s.AppendSizes([]int{7}, partial); !errors.Is(err, linecomp.ErrPartialLine) || !slices.Equal(got, []int{7}) {
			t.Errorf("%s: AppendSizes of %d bytes: %v, %v", name, len(partial), got, err)
		}
		if got, err := s.AppendSizes([]int{7}, nil); err != nil || !slices.Equal(got, []int{7}) {
			t.Errorf("%s: AppendSizes of no bytes: %v, %v", name, got, err)
		}
	}
	if b, ok := c.(linecomp.LinesCompressor); ok {
		l := linecomp.Lines{Enc: []byte{1}, End: []int{1}, Bits: []int{8}}
		if err := b.CompressLines(&l, partial); !errors.Is(err, linecomp.ErrPartialLine) || l.Len() != 1 || len(l.Enc) != 1 || len(l.Bits) != 1 {
			t.Errorf("%s: CompressLines of %d bytes: %v, %d lines", name, len(partial), err, l.Len())
		}
		if err := b.CompressLines(&l, nil); err != nil || l.Len() != 1 || len(l.Enc) != 1 {
			t.Errorf("%s: CompressLines of no bytes: %v, %d lines", name, err, l.Len())
		}
	}
}
