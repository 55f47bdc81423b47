package linecomp_test

import (
	"bytes"
	"errors"
	"testing"

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
		var lines linecomp.Lines
		if err := linecomp.CompressLines(c, &lines, data); err != nil {
			t.Fatal(err)
		}
		if len(sizes) != len(data)/n || lines.Len() != len(data)/n {
			t.Fatalf("%s/%d: %d sizes, %d encodings for %d lines", c.Name(), n, len(sizes), lines.Len(), len(data)/n)
		}
		for i := range sizes {
			line := data[i*n : (i+1)*n]
			enc, bits, _ := c.Compress(nil, line)
			if sizes[i] != bits || lines.Bits[i] != bits || !bytes.Equal(lines.Line(i), enc) {
				t.Fatalf("%s/%d line %d: batch %d/%d bits, single %d", c.Name(), n, i, sizes[i], lines.Bits[i], bits)
			}
		}
		out, err := linecomp.DecompressLines(c, []byte{7}, &lines)
		if err != nil || out[0] != 7 || !bytes.Equal(out[1:], data) {
			t.Fatalf("%s/%d: DecompressLines: %v", c.Name(), n, err)
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
