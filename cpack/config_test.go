package cpack

import (
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
)

// variants are the registered configurations and the options that make
// each one.
var variants = []codectest.Variant[Option]{
	{Name: "cpack", New: codectest.NewFunc(New)},
	{Name: "cpack-gem5", Opts: []Option{WithGem5PushRule()}, New: codectest.NewFunc(New)},
	{Name: "cpack-z", Opts: []Option{WithCPackZ()}, New: codectest.NewFunc(New)},
	{Name: "cpack-z-gem5", Opts: []Option{WithCPackZ(), WithGem5PushRule()}, New: codectest.NewFunc(New)},
	{Name: "cpack-z-gem5", Opts: []Option{WithGem5PushRule(), WithCPackZ()}, New: codectest.NewFunc(New)},
}

// TestVariants: names, the registry, line sizes and WithLatency
// (codectest.CheckVariants).
func TestVariants(t *testing.T) {
	codectest.CheckVariants(t, "cpack", variants, WithLatency)
}

// sampleLines returns the edge lines and the first 64 lines of every
// sample file.
func sampleLines(n int) [][]byte { return codectest.SampleLines(n, 64) }

// TestOptionsConfigureNewOnly: an option acts on the configuration New is
// building, never on a built codec, which other goroutines may share
// (codectest.CheckOptions; with the old func(*Codec) options,
// WithLatency(l)(c) changed a shared c).
func TestOptionsConfigureNewOnly(t *testing.T) {
	if err := codectest.CheckOptions[Option, *Codec](); err != nil {
		t.Fatal(err)
	}
}
