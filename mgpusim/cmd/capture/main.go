// Command capture runs one of MGPUSim's benchmarks and writes a linecomp
// trace of the traffic it makes:
//
//	go run ./cmd/capture -bench NAME [benchmark parameters] -gpus N [-unified]
//	    [-timing] -stream rdma|dram|l1|warps [-line 128] -o FILE
//
// The benchmark parameters are the flags of MGPUSim's own sample program
// for the benchmark, with the same names and defaults (-bench NAME -help
// lists them). -gpus N uses GPU[1]..GPU[N], as discrete GPUs or, with
// -unified, as one unified GPU. rdma, dram and l1 need the timing model
// (-timing); warps is captured in emulation. The benchmark's verification
// always runs; a wrong result ends the command with a non-zero status and
// no output file. FILE "-" writes to standard output.
//
// On success a summary goes to standard error: records, reads, writes,
// distinct payloads, file bytes, bytes per record, simulated and wall time.
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
	benchName, found := findBench(args)
	if !found {
		fmt.Fprintf(stderr, "capture: -bench NAME is required (one of %s)\n",
			strings.Join(capture.Benchmarks(), ", "))
		return exitUsage
	}
	bench, err := capture.NewBenchmark(benchName)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}

	fs := flag.NewFlagSet("capture", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.String("bench", benchName, "benchmark: "+strings.Join(capture.Benchmarks(), ", "))
	gpus := fs.Int("gpus", 1, "number of GPUs (GPU[1]..GPU[N])")
	unified := fs.Bool("unified", false, "run the GPUs as one unified GPU (MGPUSim -unified-gpus)")
	timing := fs.Bool("timing", false, "detailed timing simulation (needed by rdma, dram, l1)")
	stream := fs.String("stream", "", "what to record: "+strings.Join(capture.Streams(), ", "))
	line := fs.Int("line", 0, "payload bytes of l1 and warps records (default 128); rdma and dram carry 64-byte lines")
	out := fs.String("o", "", "output trace file, - for standard output")
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
	if *out == "" {
		fmt.Fprintln(stderr, "capture: -o FILE is required")
		return exitUsage
	}
	cfg := capture.Config{
		Bench:    bench,
		GPUs:     *gpus,
		Unified:  *unified,
		Timing:   *timing,
		Stream:   *stream,
		LineSize: *line,
	}
	if err := cfg.Check(); err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}

	start := time.Now()
	res, size, err := write(*out, stdout, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "capture:", err)
		return exitFail
	}
	perRecord := 0.0
	if res.Records > 0 {
		perRecord = float64(size) / float64(res.Records)
	}
	fmt.Fprintf(stderr,
		"capture: %s: %d records (%d read, %d write), %d distinct payloads, %d bytes (%.2f bytes/record), simulated %.3f us, wall %.1f s\n",
		*out, res.Records, res.Reads, res.Writes, res.DistinctPayloads, size, perRecord,
		float64(res.SimTimePS)/1e6, time.Since(start).Seconds())
	if cfg.Stream == capture.StreamWarps {
		fmt.Fprintf(stderr, "capture: %d warps, %d instructions: %d vector memory, %d scalar loads (as compute)\n",
			res.Warps, res.Instructions, res.MemInstructions, res.ScalarLoads)
	}
	return exitOK
}

// findBench returns the value of -bench wherever it is on the command
// line: the other flags depend on it.
func findBench(args []string) (string, bool) {
	for i, a := range args {
		if a == "--" {
			break
		}
		name := strings.TrimLeft(a, "-")
		if len(a)-len(name) < 1 || len(a)-len(name) > 2 {
			continue
		}
		if name == "bench" && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(name, "bench="); ok {
			return v, true
		}
	}
	return "", false
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

// write runs the capture into path (through a temporary file renamed on
// success, so a failed run leaves no file that looks finished), or into
// stdout for "-".
func write(path string, stdout io.Writer, cfg capture.Config) (capture.Result, int64, error) {
	if path == "-" {
		cw := &countingWriter{w: stdout}
		res, err := capture.Run(cfg, cw)
		return res, cw.n, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".partial-")
	if err != nil {
		return capture.Result{}, 0, err
	}
	defer os.Remove(f.Name()) // fails harmlessly once renamed
	cw := &countingWriter{w: f}
	res, err := capture.Run(cfg, cw)
	if err != nil {
		f.Close()
		return res, cw.n, err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return res, cw.n, err
	}
	if err := f.Close(); err != nil {
		return res, cw.n, err
	}
	return res, cw.n, os.Rename(f.Name(), path)
}
