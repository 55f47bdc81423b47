package link_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/link"
)

// TestHugeConfig: sizes beyond any link and latencies that would wrap the
// cycle arithmetic are errors naming the field; buffers that cannot hold
// the largest message a candidate can send (an incompressible line behind
// its tag bits) are refused by New, not mid-replay.
func TestHugeConfig(t *testing.T) {
	none := noneCodec(t, 64)
	bdi, err := linecomp.New("bdi", 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  link.Config
		want string
	}{
		{link.Config{Candidates: []linecomp.Codec{none}, Nodes: math.MaxInt}, "Nodes"},
		{link.Config{Candidates: []linecomp.Codec{none}, Nodes: math.MaxInt>>31 + 2}, "Nodes"}, // 2^32 + 1 on 64 bits: 1 as a uint32
		{link.Config{Candidates: []linecomp.Codec{none}, InputBuffer: math.MaxInt}, "InputBuffer"},
		{link.Config{Candidates: []linecomp.Codec{none}, BytesPerCycle: math.MaxInt}, "BytesPerCycle"},
		{link.Config{Candidates: []linecomp.Codec{fake{"slow", 64, linecomp.Latency{Compress: math.MaxInt, Decompress: 1}}}}, "Candidates[0]"},
		// a WriteReq of bdi's raw 64-byte line: 13 header bytes + 65
		{link.Config{Candidates: []linecomp.Codec{none, bdi}, InputBuffer: 77, OutputBuffer: 77}, "buffers"},
	} {
		if l, err := link.New(tc.cfg); l != nil || !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v; want ErrConfig naming %q", tc.want, l, err, tc.want)
		}
	}
	if _, err := link.New(link.Config{Candidates: []linecomp.Codec{none, bdi}, InputBuffer: 78, OutputBuffer: 78}); err != nil {
		t.Errorf("buffers of 78 bytes for bdi-64: %v", err)
	}
}

// TestTimeBeyondMaxCycle: a record at the end of time is refused as that
// record's fault, naming MaxCycle, before it changes any counter; the
// link's Advance refuses such a cycle too. Neither says time went
// backwards.
func TestTimeBeyondMaxCycle(t *testing.T) {
	none := noneCodec(t, 64)
	r, err := link.NewReplay(link.ReplayConfig{Link: link.Config{Candidates: []linecomp.Codec{none}, Nodes: 2},
		NewChooser: link.Static(0), PicosecondsPerCycle: 1})
	if err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 64)
	if err := r.Add(link.Transfer{Time: 1000, Src: 0, Dst: 1, Op: link.Write, Data: line}); err != nil {
		t.Fatal(err)
	}
	err = r.Add(link.Transfer{Time: math.MaxUint64, Src: 0, Dst: 1, Op: link.Write, Data: line})
	if !errors.Is(err, link.ErrTransfer) || !strings.Contains(err.Error(), "MaxCycle") || strings.Contains(err.Error(), "backwards") {
		t.Errorf("a record at MaxUint64 ps: %v", err)
	}
	res, err := r.Finish()
	if err != nil || res.Transfers != 1 {
		t.Errorf("after the refused record: %d transfers, %v; want 1", res.Transfers, err)
	}
	l := mustLink(t, link.Config{Candidates: []linecomp.Codec{none}})
	if err := l.Advance(math.MaxUint64); !errors.Is(err, link.ErrTime) || !strings.Contains(err.Error(), "MaxCycle") {
		t.Errorf("Advance(MaxUint64): %v", err)
	}
	if err := l.Advance(link.MaxCycle); err != nil {
		t.Errorf("Advance(MaxCycle): %v", err)
	}
}

// TestWirePresetsAreValues: the wire presets are functions and copies.
func TestWirePresetsAreValues(t *testing.T) {
	ws := link.WirePresets()
	ws[0].PicoJoulePerBit = 1e9
	if w, ok := link.WirePreset("in-package"); !ok || w != link.WireInPackage() || w.PicoJoulePerBit != 1 {
		t.Errorf("in-package after a caller changed its copy: %+v", w)
	}
	l := mustLink(t, link.Config{Candidates: []linecomp.Codec{noneCodec(t, 64)}})
	if l.Config().Wire != link.WireInPackage() || link.WirePresets()[0] != link.WireInPackage() {
		t.Errorf("default wire %+v", l.Config().Wire)
	}
}
