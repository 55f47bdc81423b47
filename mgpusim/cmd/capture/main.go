// Command capture runs one of MGPUSim's benchmarks and writes a linecomp
// trace of the traffic it makes:
//
//	go run ./cmd/capture -bench NAME [benchmark parameters] -gpus N [-unified]
//	    [-timing] -stream rdma|dram|l1|warps[,…] [-line 128] -o FILE
//
// The benchmark parameters are the flags of MGPUSim's own sample program
// for the benchmark, with the same names and defaults (-bench NAME -help
// lists them). -gpus N uses GPU[1]..GPU[N], as discrete GPUs or, with
// -unified, as one unified GPU. rdma, dram and l1 need the timing model
// (-timing); warps is captured in emulation. The benchmark's verification
// always runs; a wrong result ends the command with a non-zero status and
// no output file. FILE "-" writes to standard output.
//
// One timing run can write several of its streams: -stream l1,dram with
// an -o FILE that contains {stream}, replaced by each stream's name (-line
// then applies to l1 only).
//
// The suite's benchmarks (bc, color, gbfs, km, mis, pf, prk, sssp: our own
// OpenCL kernels, package mgpusim/suite); the graph kernels read -graph
// FILE (DIMACS .gr, Matrix Market .mtx or METIS .graph) or generate an
// R-MAT or grid graph.
//
// While it runs the command reports progress to standard error about every
// 10 s; on success a summary: records, reads, writes, distinct payloads,
// file bytes, bytes per record, simulated time (timing only) and wall time.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/linecomp/linecomp/mgpusim/capture"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // the capture ran and failed (verification, traffic, I/O)
	exitUsage = 2 // the command line cannot work
)

func run(args []string, stdout, stderr io.Writer) int {
	benchName, found := capture.BenchFlag(args)
	if !found {
		if wantsHelp(args) {
			usage(stderr)
			return exitOK
		}
		fmt.Fprintf(stderr, "capture: -bench NAME is required (one of %s); -h for help\n",
			strings.Join(capture.Benchmarks(), ", "))
		return exitUsage
	}
	bench, err := capture.NewBenchmark(benchName)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}

	fs, opts := commonFlags(stderr)
	fs.String("bench", benchName, "benchmark: "+strings.Join(capture.Benchmarks(), ", "))
	bench.Params().VisitAll(func(f *flag.Flag) {
		fs.Var(f.Value, f.Name, benchName+": "+f.Usage)
	})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "capture: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *opts.out == "" {
		fmt.Fprintln(stderr, "capture: -o FILE is required")
		return exitUsage
	}
	cfg := capture.Config{
		Bench:    bench,
		GPUs:     *opts.gpus,
		Unified:  *opts.unified,
		Timing:   *opts.timing,
		LineSize: *opts.line,
	}
	streams := strings.Split(*opts.stream, ",")
	if *opts.stream == "" {
		streams = nil
	}
	if _, err := capture.StreamConfigs(cfg, streams); err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	paths, err := outputs(*opts.out, streams)
	if err != nil {
		fmt.Fprintln(stderr, "capture:", err)
		return exitUsage
	}
	start := time.Now()
	cfg.Progress = func(p capture.Progress) {
		if cfg.Timing {
			fmt.Fprintf(stderr, "capture: %s: %d records so far, simulated %.3f us, wall %.0f s\n",
				benchName, p.Records, float64(p.SimTimePS)/1e6, p.Wall.Seconds())
		} else {
			fmt.Fprintf(stderr, "capture: %s: %d instructions so far, wall %.0f s\n",
				benchName, p.Records, p.Wall.Seconds())
		}
	}
	if cfg.Timing {
		fmt.Fprintf(stderr, "capture: %s on %d GPU(s), timing model: building and running (progress every %.0f s)\n",
			benchName, cfg.GPUs, capture.ProgressInterval.Seconds())
	}

	results, sizes, err := write(paths, stdout, cfg, streams)
	if len(results) > 0 {
		for _, note := range results[0].Notes {
			fmt.Fprintln(stderr, "capture:", note)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "capture:", err)
		return exitFail
	}
	for i, res := range results {
		perRecord := 0.0
		if res.Records > 0 {
			perRecord = float64(sizes[i]) / float64(res.Records)
		}
		simulated := ""
		if cfg.Timing {
			simulated = fmt.Sprintf(", simulated %.3f us", float64(res.SimTimePS)/1e6)
		}
		fmt.Fprintf(stderr,
			"capture: %s: %d records (%d read, %d write), %d distinct payloads, %d bytes (%.2f bytes/record)%s, wall %.1f s\n",
			paths[i], res.Records, res.Reads, res.Writes, res.DistinctPayloads, sizes[i], perRecord,
			simulated, time.Since(start).Seconds())
		if streams[i] == capture.StreamWarps {
			fmt.Fprintf(stderr, "capture: %d warps, %d instructions: %d vector memory, %d scalar loads (as compute)\n",
				res.Warps, res.Instructions, res.MemInstructions, res.ScalarLoads)
		}
	}
	return exitOK
}

// options are the command's own flags.
type options struct {
	gpus        *int
	unified     *bool
	timing      *bool
	stream, out *string
	line        *int
}

func commonFlags(stderr io.Writer) (*flag.FlagSet, options) {
	fs := flag.NewFlagSet("capture", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	o.gpus = fs.Int("gpus", 1, "number of GPUs (GPU[1]..GPU[N])")
	o.unified = fs.Bool("unified", false, "run the GPUs as one unified GPU (MGPUSim -unified-gpus)")
	o.timing = fs.Bool("timing", false, "detailed timing simulation (needed by rdma, dram, l1)")
	o.stream = fs.String("stream", "", "what to record: "+strings.Join(capture.Streams(), ", ")+
		"; several timing streams as a comma list, with {stream} in -o")
	o.line = fs.Int("line", 0, "payload bytes of l1 and warps records (default 128); rdma and dram carry 64-byte lines")
	o.out = fs.String("o", "", "output trace file, - for standard output; {stream} is replaced by the stream's name")
	return fs, o
}

func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help", "--h":
			return true
		case "--":
			return false
		}
	}
	return false
}

// usage is the help without a benchmark: the synopsis, the command's own
// flags and the benchmarks.
func usage(w io.Writer) {
	fmt.Fprint(w, `usage: capture -bench NAME [benchmark parameters] [-gpus N] [-unified] [-timing]
               -stream rdma|dram|l1|warps[,...] [-line BYTES] -o FILE

Runs one of MGPUSim's benchmarks, or one of linecomp's own GPU kernels, and
writes a linecomp trace of the data it moves. rdma, dram and l1 need -timing
(rdma also 2 or more GPUs); warps is captured in emulation on one GPU.
capture -bench NAME -h lists the benchmark's own parameters.

`)
	fs, _ := commonFlags(w)
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nbenchmarks: %s\n", strings.Join(capture.Benchmarks(), ", "))
	fmt.Fprintln(w, "linecomp's own kernels: bc, color, gbfs, km, mis, pf, prk, sssp; the graph ones take")
	fmt.Fprintln(w, "-graph FILE (DIMACS .gr, Matrix Market .mtx, METIS .graph) or generate one (-gen rmat|grid).")
}

// outputs are the files of the streams: -o itself for one stream, and
// for several, -o with {stream} replaced by each.
func outputs(out string, streams []string) ([]string, error) {
	if len(streams) == 1 {
		return []string{strings.ReplaceAll(out, "{stream}", streams[0])}, nil
	}
	if !strings.Contains(out, "{stream}") || out == "-" {
		return nil, fmt.Errorf("%d streams need one file each: put {stream} in -o (e.g. -o {stream}-bench.lct)", len(streams))
	}
	paths := make([]string, len(streams))
	for i, s := range streams {
		paths[i] = strings.ReplaceAll(out, "{stream}", s)
	}
	return paths, nil
}

// countingWriter counts the bytes of the trace as they are written.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// write runs the capture into paths (each through a temporary file renamed
// on success, so a failed run leaves no file that looks finished), or into
// stdout for a single "-".
func write(paths []string, stdout io.Writer, cfg capture.Config, streams []string) ([]capture.Result, []int64, error) {
	sizes := make([]int64, len(paths))
	if len(paths) == 1 && paths[0] == "-" {
		cw := &countingWriter{w: stdout}
		res, err := capture.RunStreams(cfg, streams, []io.Writer{cw})
		sizes[0] = cw.n
		return res, sizes, err
	}
	files := make([]*os.File, len(paths))
	outs := make([]io.Writer, len(paths))
	counters := make([]*countingWriter, len(paths))
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
				os.Remove(f.Name()) // fails harmlessly once renamed
			}
		}
	}()
	for i, path := range paths {
		f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".partial-")
		if err != nil {
			return nil, sizes, err
		}
		files[i] = f
		counters[i] = &countingWriter{w: f}
		outs[i] = counters[i]
	}
	res, err := capture.RunStreams(cfg, streams, outs)
	for i, c := range counters {
		sizes[i] = c.n
	}
	if err != nil {
		return res, sizes, err
	}
	for i, f := range files {
		if err := f.Chmod(0o644); err != nil {
			return res, sizes, err
		}
		if err := f.Close(); err != nil {
			return res, sizes, err
		}
		if err := os.Rename(f.Name(), paths[i]); err != nil {
			return res, sizes, err
		}
		files[i] = nil
	}
	return res, sizes, nil
}
