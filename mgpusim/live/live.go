// Package live runs one of MGPUSim's benchmarks in timing mode on the R9
// Nano platform that mgpusim/capture builds, with components of ours put in
// place before it runs, and measures the time the GPUs spend in kernels.
// It is the harness of the live plug-ins mgpusim/memctl (a compressing
// memory controller) and mgpusim/l1v (a compressed L1 vector cache) and of
// the command mgpusim/cmd/latte-live; nothing in MGPUSim or Akita is
// patched.
package live

import (
	"errors"
	"io"
	"math"
	"math/rand"
	"strings"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/trace"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/mgpusim/v4/amd/protocol"
)

// Config is one run.
type Config struct {
	Bench *capture.Benchmark
	GPUs  int // discrete GPUs, 1 or more; 0 means 1
	// Stream is the capture stream recorded while the run goes (to
	// Observe); "" records the dram stream, the cheapest to capture.
	Stream  string
	Observe func(trace.Record)
	// Setup puts our components into the platform once it is built and
	// before the benchmark runs; an error stops the run.
	Setup func(p *capture.Platform) error
}

// Result is what a run measured.
type Result struct {
	// SimTimePS is the simulated time at the end, KernelTimePS the time
	// during which at least one GPU ran a kernel (from the driver's launch
	// to the GPU's answer; the driver's memory copies are left out), both
	// in picoseconds.
	SimTimePS, KernelTimePS uint64
	Kernels                 int
	Records                 int // capture records seen
}

// Run builds the platform, calls Setup, runs the benchmark and its own
// verification. A wrong result gives the Result with an error wrapping
// capture.ErrVerify; Setup's error is returned as it is. Like capture.Run,
// it uses MGPUSim's process-wide state: one run at a time.
func Run(cfg Config) (Result, error) {
	gpus := cfg.GPUs
	if gpus == 0 {
		gpus = 1
	}
	stream := cfg.Stream
	if stream == "" {
		stream = capture.StreamDRAM
	}
	var (
		res      Result
		setupErr error
		kt       *kernelTimer
	)
	cc := capture.Config{
		Bench:   cfg.Bench,
		GPUs:    gpus,
		Timing:  true,
		Stream:  stream,
		Observe: cfg.Observe,
		Setup: func(p *capture.Platform) {
			kt = &kernelTimer{engine: p.Simulation.GetEngine()}
			p.Driver.GetPortByName("GPU").AcceptHook(kt)
			if cfg.Setup != nil {
				setupErr = cfg.Setup(p)
			}
		},
	}
	if err := cc.Check(); err != nil {
		return res, err
	}
	// A Setup that fails leaves the platform as it was; the benchmark
	// still runs (the capture cannot be stopped from Setup) and the error
	// is returned after it. Callers check their configuration first.
	// MGPUSim's benchmarks draw their inputs from math/rand's global
	// source; the module's godebug settings seed it as Seed(1) at process
	// start, so seeding it so again gives every run in a process the
	// inputs of a run in a fresh process, and configurations compare on
	// the same data.
	rand.Seed(1) //lint:ignore SA1019 the benchmarks use the global source
	cr, err := capture.Run(cc, io.Discard)
	if setupErr != nil {
		return res, setupErr
	}
	res.SimTimePS = cr.SimTimePS
	res.Records = cr.Records
	if kt != nil {
		res.KernelTimePS, res.Kernels = kt.total, kt.kernels
	}
	if err != nil && !errors.Is(err, capture.ErrVerify) {
		return res, err
	}
	return res, err
}

// kernelTimer watches the driver's port to the GPUs for kernel launches
// and their answers.
type kernelTimer struct {
	engine  sim.Engine
	running int
	start   uint64
	total   uint64
	kernels int
}

func (k *kernelTimer) now() uint64 { return Picoseconds(k.engine.CurrentTime()) }

// Func implements sim.Hook.
func (k *kernelTimer) Func(ctx sim.HookCtx) {
	switch ctx.Item.(type) {
	case *protocol.LaunchKernelReq:
		if ctx.Pos != sim.HookPosPortMsgSend {
			return
		}
		if k.running == 0 {
			k.start = k.now()
		}
		k.running++
	case *protocol.LaunchKernelRsp:
		if ctx.Pos != sim.HookPosPortMsgRecvd || k.running == 0 {
			return
		}
		k.running--
		k.kernels++
		if k.running == 0 {
			k.total += k.now() - k.start
		}
	}
}

// Picoseconds converts Akita's time (float64 seconds) to integer
// picoseconds; every clock of the platform ticks on whole nanoseconds or
// on the DRAM clock's picoseconds, so rounding loses nothing that matters.
func Picoseconds(t sim.VTimeInSec) uint64 { return uint64(math.Round(float64(t) * 1e12)) }

// NewBenchmark returns the benchmark a spec names: its name, then its
// parameters as name=value, separated by colons ("fir:length=1024"). An
// unknown benchmark or parameter is an error wrapping linecomp.ErrConfig.
func NewBenchmark(spec string) (*capture.Benchmark, error) {
	parts := strings.Split(spec, ":")
	b, err := capture.NewBenchmark(parts[0])
	if err != nil {
		return nil, err
	}
	for _, p := range parts[1:] {
		name, value, ok := strings.Cut(p, "=")
		if !ok {
			return nil, linecomp.ConfigError("live", "benchmark %s: parameter %q is not name=value", parts[0], p)
		}
		if err := b.Set(name, value); err != nil {
			return nil, err
		}
	}
	return b, nil
}
