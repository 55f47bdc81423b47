package multi

import (
	"errors"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/cpack"
	"github.com/linecomp/linecomp/fpc"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/ref"
	"github.com/linecomp/linecomp/linecomptest"
	"github.com/linecomp/linecomp/sample"
)

// fuzzCodec is one codec of FuzzMulti, with the reference of its stream.
type fuzzCodec struct {
	c   *Codec
	ref func(line []byte) string
}

// fuzzCodecs: tavana-best at every size against its literal reference,
// and hand-built codecs with odd field widths (3 and 7 bits) and a whole
// byte, against the field followed by the member's own stream.
func fuzzCodecs(tb testing.TB) []fuzzCodec {
	var out []fuzzCodec
	r, ok := ref.Lookup("tavana-best")
	if !ok {
		tb.Fatal("no reference for tavana-best")
	}
	for _, n := range codectest.LineSizes {
		out = append(out, fuzzCodec{mustNew(tb, "tavana-best", n).(*Codec), r})
		b, _ := bdi.New(n)
		f, _ := fpc.New(n)
		z, _ := cpack.New(n, cpack.WithCPackZ())
		members := []linecomp.Codec{mustNew(tb, "none", n), b, f, z, mustNew(tb, "bpc", n)}
		for _, k := range []int{3, 7, 8} {
			c, err := New(members, WithFieldBits(k))
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, fuzzCodec{c, func(line []byte) string {
				i := c.Choose(line)
				enc, bits, _ := c.Member(i).Compress(nil, line)
				return linecomptest.BitString([]byte{byte(i << (8 - k))}, k) + linecomptest.BitString(enc, bits)
			}})
		}
	}
	return out
}

// FuzzMulti: the fuzz input as a line (repeated to the line size) must
// compress exactly as the reference says and round-trip; as a stream it
// must never make Decompress panic or write past what it returns, and a
// stream it accepts must give a line that in turn matches the reference.
func FuzzMulti(f *testing.F) {
	codecs := fuzzCodecs(f)
	for _, s := range sample.Files() {
		f.Add(s.Data[:128])
		for _, fc := range codecs {
			if enc, _, err := fc.c.Compress(nil, s.Data[:fc.c.LineSize()]); err == nil {
				f.Add(enc)
			}
		}
	}
	for _, l := range linecomptest.EdgeLines(128)[:20] {
		f.Add(l)
	}
	var s linecomptest.Scratch
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fc := range codecs {
			n := fc.c.LineSize()
			line := make([]byte, n)
			if len(data) > 0 {
				for i := range line {
					line[i] = data[i%len(data)]
				}
			}
			if err := codectest.Conform(fc.c, fc.ref(line), line, &s); err != nil {
				t.Fatalf("%s/%d: line %X: %v", fc.c.Name(), n, line, err)
			}
			if err := linecomptest.CheckGarbage(fc.c, data); err != nil {
				t.Fatalf("%s/%d: %v", fc.c.Name(), n, err)
			}
			dec, err := fc.c.Decompress(nil, data)
			if err != nil {
				if !errors.Is(err, linecomp.ErrCorrupt) {
					t.Fatalf("%s/%d: %X rejected with %v", fc.c.Name(), n, data, err)
				}
				continue
			}
			if err := codectest.Conform(fc.c, fc.ref(dec), dec, &s); err != nil {
				t.Fatalf("%s/%d: %X decoded to %X: %v", fc.c.Name(), n, data, dec, err)
			}
		}
	})
}
