package link

import (
	"errors"
	"fmt"
	"io"

	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/trace"
)

// RunConfig is one run of a benchmark on GPUs unified into one: MGPUSim's
// mode closest to the paper's setup (Tavana §VI-A spreads workgroups over
// the CUs of all four GPUs and interleaves memory over them). MGPUSim's
// unified GPU gives each GPU a share of every kernel's workgroups, and the
// GPUs reach each other's memory through their RDMA engines; as discrete
// GPUs the benchmarks make almost no inter-GPU traffic.
type RunConfig struct {
	Bench *capture.Benchmark
	GPUs  int
	// Link is the plug-in's configuration; nil runs MGPUSim unchanged,
	// its RDMA traffic on its own PCIe network, and only counts.
	Link *Config
	// Records, when set, gets every payload the capture's rdma stream
	// records (capture.Config.Observe): tests compare them with what the
	// plug-in did.
	Records func(trace.Record)
	// Attached, when set, is called with the plug-in once it is attached,
	// before the benchmark runs: a command that must report even when a
	// benchmark ends the process keeps it to read its Stats.
	Attached func(*Plugin)
}

// Result is what a run measured.
type Result struct {
	Stats
	SimTimePS uint64 // simulated time at the end of the run, in picoseconds
	Source    string // the capture's description of the run
}

// Run runs the benchmark with the plug-in attached and then the
// benchmark's own verification. A wrong result gives the complete Result
// with an error wrapping capture.ErrVerify (benchmarks that log.Fatal on a
// wrong result end the process instead: MGPUSim's fir, kmeans and
// bitonicsort). Traffic the plug-in does not understand gives an error
// wrapping ErrTraffic, a configuration that cannot run one wrapping
// ErrConfig.
//
// Like capture.Run, Run uses process-wide state of MGPUSim: run one at a
// time in a process.
func Run(rc RunConfig) (Result, error) {
	if rc.Link != nil {
		if _, err := rc.Link.resolve(); err != nil {
			return Result{}, err
		}
	}
	var (
		pl        *Plugin
		attachErr error
	)
	cfg := capture.Config{
		Bench:   rc.Bench,
		GPUs:    rc.GPUs,
		Unified: true,
		Timing:  true,
		Stream:  capture.StreamRDMA,
		Observe: rc.Records,
		Setup: func(p *capture.Platform) {
			pl, attachErr = Attach(p, rc.Link)
			if attachErr == nil && rc.Attached != nil {
				rc.Attached(pl)
			}
		},
	}
	if err := cfg.Check(); err != nil {
		return Result{}, err
	}
	res := Result{Source: cfg.Describe(capture.WireLineSize)}
	_, runErr := capture.Run(cfg, io.Discard)
	if attachErr != nil {
		return res, attachErr
	}
	if pl == nil {
		// The capture failed before it built the platform.
		return res, runErr
	}
	res.Stats = pl.Stats()
	res.SimTimePS = pl.SimTimePS()
	if err := pl.Err(); err != nil {
		return res, err
	}
	if runErr != nil && !errors.Is(runErr, capture.ErrVerify) {
		return res, runErr
	}
	if sent := res.sent(); sent != res.DeliveredMessages || pl.Pending() != 0 {
		return res, fmt.Errorf("%w: %d messages sent, %d delivered", ErrTraffic, sent, res.DeliveredMessages)
	}
	return res, runErr
}

// sent is the number of messages the RDMA engines sent to other GPUs.
func (s Stats) sent() uint64 {
	var n uint64
	for _, k := range s.Messages {
		n += k
	}
	return n
}
