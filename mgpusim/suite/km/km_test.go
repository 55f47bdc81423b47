package km_test

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite/km"
)

func TestReference(t *testing.T) {
	// Two obvious clusters on a line, 1 feature: {0, 1, 2} and {10, 11}.
	d := &km.Data{Points: 5, Features: 1, Values: []float32{0, 10, 1, 11, 2}}
	// Initial centres are points 0 and 2 (i·N/k): 0 and 1.
	if got := km.Nearest(d, []float32{0, 1}, 1); got != 1 {
		t.Fatalf("10 is nearer centre 1: got %d", got)
	}
	// A tie goes to the first centre.
	if got := km.Nearest(d, []float32{1, 1}, 0); got != 0 {
		t.Fatalf("tie: got %d", got)
	}
	m, c, rounds := km.Reference(d, 2, 10)
	if !slices.Equal(m, []int32{0, 1, 0, 1, 0}) || !slices.Equal(c, []float32{1, 10.5}) {
		t.Fatalf("membership %v centres %v", m, c)
	}
	// Round 1 moves the centres to 0 and 6 (means of {0} and
	// {10,1,11,2}); round 2 settles; round 3 moves nothing.
	if rounds != 3 {
		t.Fatalf("%d rounds", rounds)
	}
	if _, _, r := km.Reference(d, 2, 1); r != 1 {
		t.Fatalf("max 1 round ran %d", r)
	}
}

func TestReadData(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, vals ...float32) string {
		b := make([]byte, 4*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	d, err := km.ReadData(write("ok.f32", 1, 2, 3, 4, 5, 6), 3)
	if err != nil || d.Points != 2 || !slices.Equal(d.Values, []float32{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("%+v %v", d, err)
	}
	for name, c := range map[string]struct {
		path     string
		features int
		want     string
	}{
		"partial point": {write("p.f32", 1, 2, 3, 4), 3, "not a whole number"},
		"empty":         {write("e.f32"), 3, "0 bytes"},
		"nan":           {write("n.f32", 1, float32(math.NaN())), 2, "point 0, feature 1"},
		"inf":           {write("i.f32", 1, 2, float32(math.Inf(1)), 4), 2, "point 1, feature 0"},
		"no features":   {write("z.f32", 1), 0, "0 features"},
	} {
		if _, err := km.ReadData(c.path, c.features); !errors.Is(err, km.ErrData) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrData mentioning %q", name, err, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	d := km.Generate(10, 2, 1)
	for _, c := range [][2]int{{0, 5}, {11, 5}, {3, 0}} {
		if err := km.Check(d, c[0], c[1]); err == nil {
			t.Errorf("%v accepted", c)
		}
	}
}

func TestVerifyCatches(t *testing.T) {
	d := km.Generate(50, 3, 2)
	m, c, r := km.Reference(d, 4, 10)
	c[5] = math.Nextafter32(c[5], 2)
	b := &km.Benchmark{Data: d, Clusters: 4, MaxIter: 10, Membership: m, Centres: c, Rounds: r}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "km centre[5]") {
			t.Fatalf("Verify: %v", r)
		}
	}()
	b.Verify()
}
