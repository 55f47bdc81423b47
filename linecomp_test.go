package linecomp_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/internal/ref"
)

func TestEffectiveBits(t *testing.T) {
	cases := []struct{ bits, g, want int }{
		{0, 32, 0},     // all-zero line: nothing moves
		{1, 32, 256},   // one bit costs a whole 32-byte burst
		{256, 32, 256}, // exactly one burst
		{257, 32, 512}, // one bit over: two bursts
		{1024, 32, 1024},
		{13, 1, 16},  // whole bytes
		{13, 0, 16},  // granularity ≤ 1 means bytes
		{-1, 32, -1}, // an invalid size stays invalid
	}
	for _, c := range cases {
		if got := linecomp.EffectiveBits(c.bits, c.g); got != c.want {
			t.Errorf("EffectiveBits(%d, %d) = %d, want %d", c.bits, c.g, got, c.want)
		}
	}
}

func TestRegistry(t *testing.T) {
	names := linecomp.Names()
	if !slices.IsSorted(names) || len(names) == 0 {
		t.Fatalf("Names() = %v", names)
	}
	for _, want := range []string{"bdi", "magbdi-16", "magbdi-32", "magbdi-64"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s not registered", want)
		}
	}
	_, err := linecomp.New("no-such-codec", 64)
	if !errors.Is(err, linecomp.ErrUnknownCodec) || !strings.Contains(err.Error(), "bdi") {
		t.Errorf("New(unknown): %v", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("registering bdi twice did not panic")
			}
		}()
		linecomp.Register(linecomp.Info{Name: "bdi", LineSizes: []int{64}}, func(int) (linecomp.Codec, error) { return nil, nil })
	}()
	for _, name := range names {
		if _, ok := ref.Lookup(name); !ok {
			t.Errorf("%s has no literal reference encoder in internal/ref", name)
		}
		info, err := linecomp.Lookup(name)
		if err != nil {
			t.Fatalf("Lookup(%s): %v", name, err)
		}
		for _, n := range []int{-4, 0, 16, 48, 100, 256, 8192} {
			if slices.Contains(info.LineSizes, n) {
				continue
			}
			c, err := linecomp.New(name, n)
			if !errors.Is(err, linecomp.ErrLineSize) || c != nil {
				t.Errorf("New(%s, %d): %v, %v; want a nil Codec and ErrLineSize", name, n, c, err)
			} else if !strings.Contains(err.Error(), name+" ") {
				t.Errorf("New(%s, %d): error %q does not name the codec", name, n, err)
			}
		}
		for _, n := range []int{32, 64, 128} {
			c, err := linecomp.New(name, n)
			if err != nil {
				continue
			}
			if c.Name() != name || c.LineSize() != n {
				t.Errorf("New(%s, %d) made %s for %d bytes", name, n, c.Name(), c.LineSize())
			}
		}
	}
}

// TestDefaultLatencies checks each algorithm's default against the rule:
// its own paper, else the first of LATTE-CC, Tavana, MAG-aware BDI, CABA
// and gem5 that gives it.
func TestDefaultLatencies(t *testing.T) {
	cases := []struct {
		own  linecomp.Source
		alg  string
		want linecomp.Latency
	}{
		{linecomp.SourceBDIPaper, "bdi", linecomp.Latency{Compress: 5, Decompress: 1}},
		{linecomp.SourceFPCReport, "fpc", linecomp.Latency{Compress: 3, Decompress: 5}},
		{linecomp.SourceMAG, "magbdi", linecomp.Latency{Compress: 1, Decompress: 1}},
		{linecomp.SourceTavana, "cpack-z", linecomp.Latency{Compress: 16, Decompress: 9}},
		{"", "cpack", linecomp.Latency{Compress: 12, Decompress: 13}},                    // MAG-aware BDI §V
		{"", "bpc", linecomp.Latency{Compress: linecomp.LatencyUnknown, Decompress: 11}}, // LATTE-CC Table I
		{"", "sc2", linecomp.Latency{Compress: 6, Decompress: 14}},                       // LATTE-CC §IV
	}
	for _, c := range cases {
		if got, ok := linecomp.DefaultLatency(c.own, c.alg); !ok || got != c.want {
			t.Errorf("DefaultLatency(%q, %s) = %v %v, want %v", c.own, c.alg, got, ok, c.want)
		}
	}
	if _, ok := linecomp.DefaultLatency("", "lz4"); ok {
		t.Error("a latency for an algorithm no source gives")
	}
	bdi, _ := linecomp.New("bdi", 64)
	if bdi.Latency() != (linecomp.Latency{Compress: 5, Decompress: 1}) {
		t.Errorf("bdi codec latency %v", bdi.Latency())
	}
}

func TestCorruptError(t *testing.T) {
	err := error(&linecomp.CorruptError{Codec: "bdi", Offset: 12, Reason: "non-zero padding bits"})
	if !errors.Is(err, linecomp.ErrCorrupt) || err.Error() != "linecomp: bdi: corrupt encoding at bit 12: non-zero padding bits" {
		t.Errorf("CorruptError: %v", err)
	}
}
