package capture

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"
)

// TestDeterministic captures the same run twice: the files must be
// byte-identical (MGPUSim's serial engine, the godebug settings in go.mod
// for math/rand, and no map-order dependence in the capture).
func TestDeterministic(t *testing.T) {
	for _, c := range []struct {
		stream string
		timing bool
		gpus   int
	}{{StreamRDMA, true, 2}, {StreamWarps, false, 1}} {
		var files [2][]byte
		for i := range files {
			var out bytes.Buffer
			cfg := Config{Bench: tinyFIR(t), GPUs: c.gpus, Unified: c.gpus > 1, Timing: c.timing, Stream: c.stream}
			if _, err := Run(cfg, &out); err != nil {
				t.Fatal(err)
			}
			files[i] = out.Bytes()
		}
		if len(files[0]) == 0 || !bytes.Equal(files[0], files[1]) {
			t.Errorf("%s: two captures differ (%d and %d bytes)", c.stream, len(files[0]), len(files[1]))
		}
	}
}

// TestConfigErrors checks that configurations that cannot work are
// refused before anything is simulated, each with ErrConfig.
func TestConfigErrors(t *testing.T) {
	fir, err := NewBenchmark("fir")
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]Config{
		"no benchmark":         {GPUs: 1, Timing: true, Stream: StreamRDMA},
		"zero GPUs":            {Bench: fir, GPUs: 0, Timing: true, Stream: StreamRDMA},
		"too many GPUs":        {Bench: fir, GPUs: MaxGPUs + 1, Timing: true, Stream: StreamRDMA},
		"no stream":            {Bench: fir, GPUs: 1, Timing: true},
		"unknown stream":       {Bench: fir, GPUs: 1, Timing: true, Stream: "l2"},
		"rdma untimed":         {Bench: fir, GPUs: 2, Stream: StreamRDMA},
		"rdma one GPU":         {Bench: fir, GPUs: 1, Timing: true, Stream: StreamRDMA},
		"dram untimed":         {Bench: fir, GPUs: 1, Stream: StreamDRAM},
		"l1 untimed":           {Bench: fir, GPUs: 1, Stream: StreamL1},
		"warps timed":          {Bench: fir, GPUs: 1, Timing: true, Stream: StreamWarps},
		"rdma 128-byte lines":  {Bench: fir, GPUs: 2, Timing: true, Stream: StreamRDMA, LineSize: 128},
		"l1 line not pow2":     {Bench: fir, GPUs: 1, Timing: true, Stream: StreamL1, LineSize: 96},
		"warps line too small": {Bench: fir, GPUs: 1, Stream: StreamWarps, LineSize: 2},
		"warps line too large": {Bench: fir, GPUs: 1, Stream: StreamWarps, LineSize: 8192},
	} {
		if _, err := Run(cfg, &bytes.Buffer{}); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: got %v, want ErrConfig", name, err)
		}
	}
	if _, err := NewBenchmark("nosuch"); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown benchmark: got %v", err)
	}
	if err := fir.Set("length", "many"); !errors.Is(err, ErrConfig) {
		t.Errorf("bad parameter: got %v", err)
	}
	// Parameters are checked when the benchmark is built on a driver,
	// before the simulation starts.
	if err := fir.Set("length", "-4"); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(Config{Bench: fir, GPUs: 1, Stream: StreamWarps}, &bytes.Buffer{}); !errors.Is(err, ErrConfig) {
		t.Errorf("negative length: got %v", err)
	}
}

// TestBenchmarkDescribe checks the header text lists every parameter.
func TestBenchmarkDescribe(t *testing.T) {
	b, err := NewBenchmark("kmeans")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Set("points", "256"); err != nil {
		t.Fatal(err)
	}
	want := "-clusters=5 -features=32 -max-iter=5 -points=256"
	if got := b.Describe(); got != want {
		t.Errorf("Describe() = %q, want %q", got, want)
	}
}

// TestRunStreams captures l1 and dram in one timing run: each file must be
// byte-identical to the capture of that stream alone, and combinations
// that cannot work are refused.
func TestRunStreams(t *testing.T) {
	var alone [2]bytes.Buffer
	for i, s := range []string{StreamL1, StreamDRAM} {
		if _, err := Run(Config{Bench: tinyFIR(t), GPUs: 1, Timing: true, Stream: s}, &alone[i]); err != nil {
			t.Fatal(err)
		}
	}
	var both [2]bytes.Buffer
	res, err := RunStreams(Config{Bench: tinyFIR(t), GPUs: 1, Timing: true, LineSize: 128},
		[]string{StreamL1, StreamDRAM}, []io.Writer{&both[0], &both[1]})
	if err != nil {
		t.Fatal(err)
	}
	for i := range both {
		if alone[i].Len() == 0 || !bytes.Equal(alone[i].Bytes(), both[i].Bytes()) {
			t.Errorf("stream %d: together %d bytes, alone %d, not identical", i, both[i].Len(), alone[i].Len())
		}
		if res[i].Records == 0 || res[i].SimTimePS == 0 {
			t.Errorf("stream %d: result %+v", i, res[i])
		}
	}
	for name, streams := range map[string][]string{
		"warps with l1": {StreamWarps, StreamL1},
		"twice":         {StreamL1, StreamL1},
		"none":          nil,
	} {
		outs := make([]io.Writer, len(streams))
		for i := range outs {
			outs[i] = io.Discard
		}
		if _, err := RunStreams(Config{Bench: tinyFIR(t), GPUs: 1, Timing: true}, streams, outs); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", name, err)
		}
	}
}

// TestProgressAndEmulationTime: Progress reports while a capture runs,
// and an emulation capture has no simulated time.
func TestProgressAndEmulationTime(t *testing.T) {
	var reports []Progress
	cfg := Config{Bench: tinyFIR(t), GPUs: 1, Stream: StreamWarps,
		Progress: func(p Progress) { reports = append(reports, p) }, ProgressEvery: time.Nanosecond}
	res, err := Run(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.SimTimePS != 0 {
		t.Errorf("emulation reports %d ps of simulated time", res.SimTimePS)
	}
	if len(reports) == 0 || reports[0].Records != progressCheck || reports[len(reports)-1].Records > res.Instructions {
		t.Errorf("%d reports (first %+v) for %d instructions", len(reports), reports, res.Instructions)
	}
}
