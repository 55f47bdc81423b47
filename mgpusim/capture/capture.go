package capture

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/trace"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/akita/v4/simulation"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

// Versions of the simulator this package is built and checked against;
// every trace header names them.
const (
	MGPUSimVersion = "github.com/sarchlab/mgpusim/v4 v4.2.0"
	AkitaVersion   = "github.com/sarchlab/akita/v4 v4.9.0"
)

// The streams a capture can record.
const (
	StreamRDMA  = "rdma"  // payloads RDMA engines send to other GPUs (timing)
	StreamDRAM  = "dram"  // lines moving between L2 caches and DRAM (timing)
	StreamL1    = "l1"    // accesses reaching the L1 vector caches (timing)
	StreamWarps = "warps" // per-wavefront instruction streams (emulation)
)

// Streams lists the stream names in the order the documentation gives them.
func Streams() []string { return []string{StreamRDMA, StreamDRAM, StreamL1, StreamWarps} }

// WireLineSize is the block size of every cache in MGPUSim's R9 Nano model
// (log2 6 in amd/samples/runner/timingconfig/r9nano/builder.go), hence the
// size of every message between L1, L2, RDMA engines and DRAM.
const WireLineSize = 64

// ErrConfig is linecomp.ErrConfig: a configuration the capture cannot run.
var ErrConfig = linecomp.ErrConfig

// ErrVerify means the benchmark's own verification of its GPU results
// failed (for benchmarks that panic on a mismatch; those that call
// log.Fatal end the process with status 1 before Run can return).
var ErrVerify = errors.New("capture: benchmark verification failed")

// ErrCapture means the simulator produced traffic the capture does not
// expect (a message size or alignment other than the documented one, a
// response without its request); the message says which.
var ErrCapture = errors.New("capture: unexpected simulator traffic")

func configError(format string, args ...any) error {
	return linecomp.ConfigError("capture", format, args...)
}

// Config is one capture.
type Config struct {
	Bench   *Benchmark
	GPUs    int    // number of GPUs, 1..MaxGPUs; they are GPU[1]..GPU[GPUs]
	Unified bool   // one unified GPU over all of them, else discrete GPUs
	Timing  bool   // detailed timing model; rdma, dram and l1 need it, warps must not
	Stream  string // StreamRDMA, StreamDRAM, StreamL1 or StreamWarps
	// LineSize is the payload size of l1 and warps records (a power of two
	// from 4 to 4096); rdma and dram records carry the 64-byte wire lines
	// and accept only 0 or 64 here. 0 means 64 for rdma and dram and 128
	// for l1 and warps.
	LineSize int

	// Observe, when set, is called synchronously for every record as it
	// is captured, before it is written, with the simulator still at that
	// moment: tests use it to compare payloads with MGPUSim's own state.
	// The record's Data is only valid during the call.
	Observe func(trace.Record)
	// ObserveWarp is the same for warp-stream events.
	ObserveWarp func(WarpEvent)
	// Progress, when set, is called about every ProgressEvery of wall time
	// (ProgressInterval if 0) while the benchmark runs, from inside the
	// simulation (so it must not block long), with the records captured
	// so far.
	Progress      func(Progress)
	ProgressEvery time.Duration
	// Setup, when set, is called after the platform is built and the
	// capture hooks are attached, before the benchmark runs: tests attach
	// their own independent counters there.
	Setup func(*Platform)
}

// MaxGPUs bounds -gpus: MGPUSim's timing platform puts each GPU's 4 GB in
// one global storage and numbers GPUs in PCIe switches of two.
const MaxGPUs = 16

// Result summarises a finished capture.
type Result struct {
	Records          int // records (for warps: line accesses) written
	Reads, Writes    int // records by op (for warps: load and store lines)
	DistinctPayloads int // different payloads among the records

	// The warp stream's instruction counts: wavefronts, instructions
	// executed, vector memory instructions (Load and Store), scalar memory
	// loads (written as Compute).
	Warps, Instructions, MemInstructions, ScalarLoads int
	// SimTimePS is the simulated time at the end, in picoseconds, for
	// timing captures; 0 in emulation, whose time means nothing (the
	// emulated compute units run a kernel's work-groups at one event time).
	SimTimePS uint64
	Source    string // the header's Source text
	LineSize  int
	Notes     []string // what building the benchmark reported (the input graph)
}

// Platform is the simulated machine a capture runs, for Config.Setup.
type Platform struct {
	Simulation *simulation.Simulation
	Driver     *driver.Driver
	Storage    *mem.Storage // MGPUSim's global storage: every GPU's DRAM
	GPUs       int
	Timing     bool
	progress   *progress
}

// Check reports whether the configuration can run: an error wrapping
// ErrConfig says what is wrong.
func (c *Config) Check() error {
	_, err := c.lineSize()
	return err
}

// lineSize is the checked configuration's payload size.
func (c *Config) lineSize() (lineSize int, err error) {
	if c.Bench == nil {
		return 0, configError("no benchmark")
	}
	if c.GPUs < 1 || c.GPUs > MaxGPUs {
		return 0, configError("-gpus=%d must be in 1..%d", c.GPUs, MaxGPUs)
	}
	if c.GPUs > 1 && !c.Unified && c.Bench.oneGPU {
		return 0, configError("%s runs on one GPU; use -unified to spread it over %d GPUs as one", c.Bench.Name(), c.GPUs)
	}
	switch c.Stream {
	case StreamRDMA, StreamDRAM:
		if c.Stream == StreamRDMA && c.GPUs < 2 {
			return 0, configError("stream rdma records traffic between GPUs; -gpus=%d has none (use -gpus 2 or more)", c.GPUs)
		}
		if !c.Timing {
			return 0, configError("stream %s needs -timing: only the timing model has caches, DRAM controllers and RDMA engines", c.Stream)
		}
		if c.LineSize != 0 && c.LineSize != WireLineSize {
			return 0, configError("stream %s carries MGPUSim's %d-byte lines as they move; -line=%d is not available", c.Stream, WireLineSize, c.LineSize)
		}
		return WireLineSize, nil
	case StreamL1:
		if !c.Timing {
			return 0, configError("stream l1 needs -timing: the emulator has no L1 caches")
		}
	case StreamWarps:
		if c.Timing {
			return 0, configError("stream warps is captured in emulation; drop -timing")
		}
	case "":
		return 0, configError("no stream (want one of %s)", strings.Join(Streams(), ", "))
	default:
		return 0, configError("unknown stream %q (want one of %s)", c.Stream, strings.Join(Streams(), ", "))
	}
	lineSize = c.LineSize
	if lineSize == 0 {
		lineSize = 128
	}
	if lineSize < 4 || lineSize > 4096 || lineSize&(lineSize-1) != 0 {
		return 0, configError("-line=%d must be a power of two from 4 to 4096", c.LineSize)
	}
	return lineSize, nil
}

// Describe is the trace header's Source text for the configuration.
func (c *Config) Describe(lineSize int) string {
	mode := "discrete"
	if c.Unified {
		mode = "unified"
	}
	model := "emulation"
	if c.Timing {
		model = "timing r9nano"
	}
	return fmt.Sprintf("%s (%s); bench=%s %s; gpus=%d %s; %s; stream=%s line=%d",
		MGPUSimVersion, AkitaVersion, c.Bench.Name(), c.Bench.Describe(),
		c.GPUs, mode, model, c.Stream, lineSize)
}

// Run builds the platform, attaches the stream's hooks, runs the benchmark
// and its verification, and writes the trace to out. It returns an error
// wrapping ErrConfig for a configuration that cannot run, ErrVerify when
// the benchmark's results are wrong, ErrCapture for traffic the capture
// does not understand, or the trace writer's error.
//
// Run uses process-wide state of MGPUSim (its ID generator and the
// math/rand global source the benchmarks draw their inputs from): run one
// capture at a time.
func Run(cfg Config, out io.Writer) (Result, error) {
	res, err := RunStreams(cfg, []string{cfg.Stream}, []io.Writer{out})
	if len(res) == 0 {
		return Result{}, err
	}
	return res[0], err
}

// StreamConfigs checks a capture of several streams from one run and
// returns the configuration of each: cfg with Stream set. The timing
// streams (rdma, dram, l1) can be captured together; warps, from the
// emulator, only alone. With several streams, cfg.LineSize applies to l1
// only (rdma and dram carry 64-byte wire lines).
func StreamConfigs(cfg Config, streams []string) ([]Config, error) {
	if len(streams) == 0 {
		return nil, configError("no stream (want one of %s)", strings.Join(Streams(), ", "))
	}
	out := make([]Config, len(streams))
	seen := make(map[string]bool)
	for i, s := range streams {
		c := cfg
		c.Stream = s
		if len(streams) > 1 {
			if s == StreamWarps {
				return nil, configError("stream warps comes from the emulator and cannot be captured with %s from the timing model", strings.Join(streams, ","))
			}
			if s != StreamL1 {
				c.LineSize = 0
			}
		}
		if seen[s] {
			return nil, configError("stream %s given twice", s)
		}
		seen[s] = true
		if err := c.Check(); err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// RunStreams is Run for several streams of one run, each written to its
// writer in outs (same order as streams); see StreamConfigs. cfg.Stream is
// ignored. The results are in the same order.
func RunStreams(cfg Config, streams []string, outs []io.Writer) (res []Result, err error) {
	cfgs, err := StreamConfigs(cfg, streams)
	if err != nil {
		return nil, err
	}
	if len(outs) != len(streams) {
		return nil, configError("%d streams but %d outputs", len(streams), len(outs))
	}
	res = make([]Result, len(cfgs))
	for i, c := range cfgs {
		res[i].LineSize, _ = c.lineSize()
		res[i].Source = c.Describe(res[i].LineSize)
	}

	// Akita's simulation always opens an SQLite recorder; keep it out of
	// the working directory and remove it afterwards.
	tmp, err := os.MkdirTemp("", "linecomp-capture-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)

	s := simulation.MakeBuilder().
		WithoutMonitoring().
		WithOutputFileName(filepath.Join(tmp, "akita")).
		Build()

	p := &Platform{Simulation: s, GPUs: cfg.GPUs, Timing: cfg.Timing,
		progress: newProgress(cfg.Progress, cfg.ProgressEvery, s)}
	p.progress.timing = cfg.Timing
	var hooks *warpCapture
	if cfg.Timing {
		p.buildTiming()
	} else {
		hooks = newWarpCapture(res[0].LineSize)
		p.buildEmulation(hooks.aluFactory)
	}

	sinks := make([]*sink, len(cfgs))
	finishes := make([]func() error, len(cfgs))
	for i, c := range cfgs {
		if c.Stream == StreamWarps {
			hooks.progress = p.progress
			finishes[i], err = hooks.attach(p, outs[i], res[i].Source, cfg.ObserveWarp)
		} else {
			w, werr := trace.NewWriter(outs[i], trace.Header{LineSize: res[i].LineSize, Source: res[i].Source})
			if werr != nil {
				return res, werr
			}
			sk := &sink{w: w, observe: cfg.Observe, distinct: make(map[string]struct{}), progress: p.progress}
			sinks[i] = sk
			switch c.Stream {
			case StreamRDMA:
				finishes[i], err = attachRDMA(p, sk)
			case StreamDRAM:
				finishes[i], err = attachDRAM(p, sk)
			case StreamL1:
				finishes[i], err = attachL1(p, sk, res[i].LineSize)
			}
		}
		if err != nil {
			return res, err
		}
	}
	if cfg.Setup != nil {
		cfg.Setup(p)
	}

	err = p.run(cfg)
	for i := range res {
		res[i].Notes = cfg.Bench.notes
	}
	if err != nil {
		return res, err
	}
	for i, finish := range finishes {
		if err := finish(); err != nil {
			return res, err
		}
		r := &res[i]
		if sk := sinks[i]; sk == nil {
			r.Records, r.Reads, r.Writes = hooks.counts()
			r.DistinctPayloads = len(hooks.distinct)
			r.Warps, r.Instructions, r.MemInstructions, r.ScalarLoads =
				hooks.warps, hooks.insts, hooks.memInsts, hooks.scalarLoads
		} else {
			if sk.err != nil {
				return res, sk.err
			}
			if err := sk.w.Close(); err != nil {
				return res, err
			}
			r.Records, r.Reads, r.Writes = sk.n, sk.reads, sk.writes
			r.DistinctPayloads = len(sk.distinct)
		}
		// Emulation has no meaningful time: MGPUSim's emulated compute
		// units run whole kernels at one event time.
		if cfg.Timing {
			r.SimTimePS = picoseconds(s.GetEngine().CurrentTime())
		}
	}
	return res, nil
}

// run does what MGPUSim's sample runner does (amd/samples/runner/runner.go,
// Run): start the driver, run the benchmark, verify it, stop.
func (p *Platform) run(cfg Config) (runErr error) {
	gpuIDs := make([]int, cfg.GPUs)
	for i := range gpuIDs {
		gpuIDs[i] = i + 1
	}
	if cfg.Unified {
		gpuIDs = []int{p.Driver.CreateUnifiedGPU(nil, gpuIDs)}
	}
	cfg.Bench.notes = nil
	bm, err := cfg.Bench.build(p.Driver)
	if err != nil {
		return err
	}
	bm.SelectGPU(gpuIDs)

	p.Driver.Run()
	stop := make(chan struct{})
	go p.rescueStalls(stop)
	defer func() {
		close(stop)
		// Let the engine finish whatever it still runs, so that no hook
		// fires after Run returns; Run takes the engine's run lock, which
		// also orders the hooks' writes before our reads.
		if err := p.Simulation.GetEngine().Run(); err != nil && runErr == nil {
			runErr = err
		}
		p.Driver.Terminate()
		p.Simulation.Terminate()
	}()
	bm.Run()

	// Benchmarks report a wrong result by panicking (most) or by
	// log.Fatal (fir, kmeans, bitonicsort: the process exits with
	// status 1). Turn the panics into an error.
	defer func() {
		if r := recover(); r != nil {
			runErr = fmt.Errorf("%w: %s: %v\n%s", ErrVerify, cfg.Bench.Name(), r, debug.Stack())
		}
	}()
	bm.Verify()
	return nil
}

// stallCheckInterval is how often rescueStalls looks at the engine.
const stallCheckInterval = 5 * time.Second

// rescueStalls works around a race in MGPUSim's driver
// (amd/driver/driver.go:94-136): runAsync schedules the driver's tick for
// a new command and starts the engine only if runEngine has not yet
// marked it stopped; when the command arrives just after Engine.Run
// returned but before runEngine cleared engineRunning, the tick stays in
// the queue with nothing to run it, and the benchmark waits forever (it
// happened once in our first few dozen captures, on a heavily loaded
// machine: a floydwarshall run idle at 0% CPU). Every few
// seconds this runs the engine itself: Akita's serial engine lets one Run
// at a time proceed (singleRunLock), so the call waits for a running one,
// returns at once on an empty queue, and otherwise runs the stranded
// events exactly as runEngine would have.
func (p *Platform) rescueStalls(stop <-chan struct{}) {
	t := time.NewTicker(stallCheckInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			_ = p.Simulation.GetEngine().Run()
		}
	}
}

// sink writes line records, remembering the first error: hooks run inside
// the simulator and cannot return one.
type sink struct {
	w             *trace.Writer
	progress      *progress
	observe       func(trace.Record)
	err           error
	n             int
	reads, writes int
	distinct      map[string]struct{}
}

func (s *sink) put(r trace.Record) {
	if s.err != nil {
		return
	}
	if s.observe != nil {
		s.observe(r)
	}
	if err := s.w.Write(r); err != nil {
		s.err = err
		return
	}
	s.n++
	s.progress.tick()
	if _, seen := s.distinct[string(r.Data)]; !seen {
		s.distinct[string(r.Data)] = struct{}{}
	}
	if r.Op == trace.Read {
		s.reads++
	} else {
		s.writes++
	}
}

func (s *sink) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("%w: "+format, append([]any{ErrCapture}, args...)...)
	}
}

// picoseconds converts Akita's time (float64 seconds) to integer
// picoseconds. Every clock in the R9 Nano model runs at 1 GHz or 500 MHz,
// so event times are whole nanoseconds and the rounding is exact.
func picoseconds(t sim.VTimeInSec) uint64 {
	return uint64(math.Round(float64(t) * 1e12))
}

// ProgressInterval is how often Config.Progress is called by default.
const ProgressInterval = 10 * time.Second

// Progress is a running capture's state, for Config.Progress.
type Progress struct {
	Records   int           // records (warps: instructions) captured so far, all streams
	SimTimePS uint64        // simulated time so far (timing; 0 in emulation)
	Wall      time.Duration // since the capture started
}

// progress rate-limits Config.Progress: records and instructions tick it,
// and it looks at the clock only every progressCheck ticks.
type progress struct {
	report func(Progress)
	every  time.Duration
	sim    *simulation.Simulation
	start  time.Time
	last   time.Time
	n      int
	timing bool
}

const progressCheck = 4096

func newProgress(report func(Progress), every time.Duration, s *simulation.Simulation) *progress {
	if every <= 0 {
		every = ProgressInterval
	}
	now := time.Now()
	return &progress{report: report, every: every, sim: s, start: now, last: now}
}

// tick counts one record or instruction; it runs inside the simulation's
// hooks, the only place that may read the engine's time safely.
func (p *progress) tick() {
	if p == nil || p.report == nil {
		return
	}
	p.n++
	if p.n%progressCheck != 0 {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	var ps uint64
	if p.timing {
		ps = picoseconds(p.sim.GetEngine().CurrentTime())
	}
	p.report(Progress{Records: p.n, SimTimePS: ps, Wall: now.Sub(p.start)})
}
