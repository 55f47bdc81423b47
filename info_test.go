package linecomp_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
)

// TestInfos: every registered codec is described, sorted by name, and can
// be rebuilt from its own name at every size it lists, reporting the tag
// bits and latency the description gives.
func TestInfos(t *testing.T) {
	infos := linecomp.Infos()
	if len(infos) != len(linecomp.Names()) {
		t.Fatalf("Infos has %d entries, Names %d", len(infos), len(linecomp.Names()))
	}
	if !slices.IsSortedFunc(infos, func(a, b linecomp.Info) int { return cmpString(a.Name, b.Name) }) {
		t.Error("Infos is not sorted by name")
	}
	for _, in := range infos {
		if in.Algorithm == "" || in.Paper == "" || len(in.LineSizes) == 0 || len(in.TagBits) != len(in.LineSizes) {
			t.Errorf("%s: incomplete Info %+v", in.Name, in)
		}
		for i, n := range in.LineSizes {
			c, err := linecomp.New(in.Name, n)
			if err != nil {
				t.Fatalf("New(%s, %d): %v", in.Name, n, err)
			}
			if c.Name() != in.Name || c.TagBits() != in.TagBits[i] || c.Latency() != in.Latency {
				t.Errorf("New(%s, %d): name %s, tag bits %d, latency %v; Info says %d, %v", in.Name, n, c.Name(), c.TagBits(), c.Latency(), in.TagBits[i], in.Latency)
			}
			if tb, ok := in.TagBitsAt(n); !ok || tb != c.TagBits() {
				t.Errorf("%s: TagBitsAt(%d) = %d, %v", in.Name, n, tb, ok)
			}
		}
		// Lookup hands out copies: changing one does not change the registry.
		in.LineSizes[0] = -1
		if again, _ := linecomp.Lookup(in.Name); again.LineSizes[0] == -1 {
			t.Errorf("%s: Lookup returned the registry's own slice", in.Name)
		}
	}
	// Algorithm is the preset key: cpack-z-gem5 finds C-Pack+Z's numbers.
	in, err := linecomp.Lookup("cpack-z-gem5")
	if err != nil || in.Algorithm != "cpack-z" {
		t.Fatalf("Lookup(cpack-z-gem5) = %+v, %v", in, err)
	}
	if l, ok := linecomp.PresetLatency(linecomp.SourceTavana, in.Algorithm); !ok || l != (linecomp.Latency{Compress: 16, Decompress: 9}) {
		t.Errorf("Tavana latency of %s: %v %v", in.Algorithm, l, ok)
	}
	if e, ok := linecomp.PresetEnergy(linecomp.SourceTavana, in.Algorithm, linecomp.EnergyRoundTrip); !ok || e.PicoJoule != 40.0 || e.LineBits != 512 {
		t.Errorf("Tavana energy of %s: %+v %v", in.Algorithm, e, ok)
	}
	if _, err := linecomp.Lookup("no-such-codec"); !errors.Is(err, linecomp.ErrUnknownCodec) {
		t.Errorf("Lookup(unknown): %v", err)
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestRegisterChecksTheCodec: a factory whose codec does not carry the
// registered name, or that fails at a listed size, is a registration
// defect found at once.
func TestRegisterChecksTheCodec(t *testing.T) {
	none, _ := linecomp.New("none", 64)
	for _, tc := range []struct {
		name string
		info linecomp.Info
		f    linecomp.Factory
	}{
		{"misnamed", linecomp.Info{Name: "test-misnamed", LineSizes: []int{64}}, func(int) (linecomp.Codec, error) { return none, nil }},
		{"fails", linecomp.Info{Name: "test-fails", LineSizes: []int{64}}, func(int) (linecomp.Codec, error) { return nil, linecomp.ErrLineSize }},
		{"no sizes", linecomp.Info{Name: "test-nosizes"}, func(int) (linecomp.Codec, error) { return none, nil }},
		{"unsorted", linecomp.Info{Name: "test-unsorted", LineSizes: []int{64, 32}}, func(int) (linecomp.Codec, error) { return none, nil }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", tc.name)
				}
			}()
			linecomp.Register(tc.info, tc.f)
		}()
		if _, err := linecomp.Lookup(tc.info.Name); err == nil {
			t.Errorf("%s: a rejected codec is registered", tc.name)
		}
	}
}

// TestNone: the identity codec stores the line as it is, with no tag bits
// and no latency.
func TestNone(t *testing.T) {
	c, err := linecomp.New("none", 64)
	if err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 64)
	for i := range line {
		line[i] = byte(3 * i)
	}
	enc, bits, err := c.Compress(nil, line)
	if err != nil || bits != 512 || c.Size(line) != 512 || !bytes.Equal(enc, line) {
		t.Fatalf("Compress: %X, %d bits, %v", enc, bits, err)
	}
	if c.TagBits() != 0 || c.Latency() != (linecomp.Latency{}) {
		t.Errorf("tag bits %d, latency %v", c.TagBits(), c.Latency())
	}
	dec, err := c.Decompress(nil, enc)
	if err != nil || !bytes.Equal(dec, line) {
		t.Fatalf("Decompress: %v", err)
	}
	for _, bad := range [][]byte{nil, enc[:63], append(slices.Clone(enc), 0)} {
		if _, err := c.Decompress(nil, bad); !errors.Is(err, linecomp.ErrCorrupt) {
			t.Errorf("Decompress of %d bytes: %v", len(bad), err)
		}
	}
	if !linecomp.TagGivesSize(c) {
		t.Error("none's one encoding has a fixed size")
	}
	if _, err := linecomp.New("none", 48); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("New(none, 48): %v", err)
	}
}

// TestLatencyKnown: an unknown latency is reported as unknown by every
// accessor, so that a model cannot charge −1 cycles by accident.
func TestLatencyKnown(t *testing.T) {
	l, _ := linecomp.PresetLatency(linecomp.SourceLatteCC, "bpc") // –/11
	if _, ok := l.CompressCycles(); ok {
		t.Error("LATTE-CC gives no BPC compression latency")
	}
	if d, ok := l.DecompressCycles(); !ok || d != 11 {
		t.Errorf("BPC decompression: %d %v", d, ok)
	}
	if l.Known() || !(linecomp.Latency{}).Known() {
		t.Error("Known")
	}
}

// TestNilLines: the batch calls reject a nil *Lines with ErrConfig.
func TestNilLines(t *testing.T) {
	c, _ := linecomp.New("bdi", 64)
	if err := linecomp.CompressLines(c, nil, make([]byte, 64)); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("CompressLines(nil): %v", err)
	}
	if _, err := linecomp.DecompressLines(c, nil, nil); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("DecompressLines(nil): %v", err)
	}
}

// TestLatencyCheck: only a negative field other than LatencyUnknown, or
// one above 2^30 cycles, is an error, and it names the component and the field.
func TestLatencyCheck(t *testing.T) {
	for _, l := range []linecomp.Latency{{}, {Compress: 5, Decompress: 1}, {Compress: linecomp.LatencyUnknown, Decompress: 11}} {
		if err := l.Check("x"); err != nil {
			t.Errorf("%v: %v", l, err)
		}
	}
	err := linecomp.Latency{Compress: 1, Decompress: -2}.Check("mycodec")
	if !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), "mycodec") || !strings.Contains(err.Error(), "decompression") {
		t.Errorf("-2 cycles: %v", err)
	}
	// a latency a model would add to a uint64 clock without wrapping
	for _, l := range []linecomp.Latency{{Compress: math.MaxInt, Decompress: 1}, {Compress: 1, Decompress: 1<<30 + 1}} {
		if err := l.Check("mycodec"); !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), "exceeds") {
			t.Errorf("%v: %v", l, err)
		}
	}
	if err := (linecomp.Latency{Compress: 1 << 30, Decompress: 1 << 30}).Check("x"); err != nil {
		t.Errorf("2^30 cycles: %v", err)
	}
}
