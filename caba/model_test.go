package caba

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/linecomptest"
)

// laneModel is the lane model of one codec: the decompression subroutine
// on a stream and the compression subroutine on a line.
type laneModel struct {
	decompress func(enc []byte) (line []byte, issued int)
	compress   func(line []byte) (enc []byte, issued int)
}

// modelOf returns the lane model of a codec of this package. The tag is
// split off the stream as hardware keeps it apart from the data.
func modelOf(c linecomp.Codec) laneModel {
	switch c := c.(type) {
	case *BDI:
		return laneModel{
			func(enc []byte) ([]byte, int) {
				tag, p := payloadOf(enc, bdiTagBits)
				e := int(tag)
				if tag == BDIUncompressed {
					e = bdiRaw
				}
				return bdiWarpDecompress(c, e, p)
			},
			func(line []byte) ([]byte, int) { return bdiWarpCompress(c, line) },
		}
	case *FPC:
		return laneModel{
			func(enc []byte) ([]byte, int) {
				tag, p := payloadOf(enc, fpcTagBits)
				return fpcWarpDecompress(c, tag == flagRaw, p)
			},
			func(line []byte) ([]byte, int) { return fpcWarpCompress(c, line) },
		}
	case *CPack:
		return laneModel{
			func(enc []byte) ([]byte, int) {
				tag, p := payloadOf(enc, cpackTagBits)
				return cpackWarpDecompress(c, tag == flagRaw, p)
			},
			func(line []byte) ([]byte, int) { return cpackWarpCompress(c, line) },
		}
	}
	panic(fmt.Sprintf("no lane model for %T", c))
}

// checkLanes checks one line: the lane model's stream is the codec's, its
// line the serial decoder's, and both instruction counts are the cost
// tables'.
func checkLanes(c AssistWarpCoster, m laneModel, line []byte) error {
	enc, _, err := c.Compress(nil, line)
	if err != nil {
		return err
	}
	want, err := c.Decompress(nil, enc)
	if err != nil {
		return err
	}
	got, dIssued := m.decompress(enc)
	if !bytes.Equal(got, want) {
		return fmt.Errorf("lane decode of %X gives %X, the serial decoder %X", enc, got, want)
	}
	genc, cIssued := m.compress(line)
	if !bytes.Equal(genc, enc) {
		return fmt.Errorf("lane encode gives %X, the serial encoder %X", genc, enc)
	}
	if n, err := c.DecompressInstructions(enc); err != nil || n != dIssued {
		return fmt.Errorf("DecompressInstructions(%X) = %d (%v), the lane model issued %d", enc, n, err, dIssued)
	}
	if n, err := c.CompressInstructions(line); err != nil || n != cIssued {
		return fmt.Errorf("CompressInstructions = %d (%v), the lane model issued %d", n, err, cIssued)
	}
	return nil
}

// TestLaneModels: on every line of the edge lines, the sample and the
// corpora, at every line size, the lane model decodes the codec's stream
// to the serial decoder's line, encodes the line to the serial encoder's
// stream, and issues the instructions that the cost tables give.
func TestLaneModels(t *testing.T) {
	files := codectest.Files(t)
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				lc, _ := linecomp.New(name, n)
				c := lc.(AssistWarpCoster)
				m := modelOf(c)
				fails := 0
				check := func(where string, line []byte) {
					if err := checkLanes(c, m, line); err != nil {
						t.Errorf("%s: %v\nline %X", where, err, line)
						if fails++; fails == 5 {
							t.FailNow()
						}
					}
				}
				for i, line := range linecomptest.EdgeLines(n) {
					check(fmt.Sprintf("edge line %d", i), line)
				}
				for _, f := range files {
					for off := 0; off+n <= len(f.Data); off += n {
						check(fmt.Sprintf("%s at %d", f.Name, off), f.Data[off:off+n])
					}
				}
			})
		}
	}
}
