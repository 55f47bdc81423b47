// Command latte-live runs two of linecomp's studies live inside MGPUSim's
// timing model (R9 Nano, one GPU), on MGPUSim's own benchmarks:
//
//   - -study latte: the LATTE-CC table. Every L1V is replaced by a
//     compressed L1 of package mgpusim/l1v (4× tags, 16-byte sub-blocks,
//     modes none, bdi, sc2) under each policy: none (every line
//     uncompressed), Static-BDI, Static-SC², Adaptive-Hit-Count,
//     Adaptive-CMP and LATTE-CC. Columns: kernel time and speedup over
//     none, L1 load hit rate, misses, decompressions, the mean hit
//     latency, and the EPs spent in each mode.
//
//   - -study mag: the MAG study. A mem/dram channel (GDDR5, or -dram hbm2)
//     behind each L2 bank, with the compressing controller of package
//     mgpusim/memctl for each codec of -codecs (default none, bdi,
//     magbdi-32, fpc, cpack), and "mgpusim" (the channel without our
//     controller) first. Columns: data and metadata bursts, effective
//     ratio (uncompressed bursts over data bursts; and with metadata), MD
//     hit rate, DRAM time (Σ of each request's time in a channel), mean
//     memory latency the L2 sees, kernel time and speedup over none.
//
//     go run ./cmd/latte-live -study latte|mag -bench SPEC[,SPEC...] [-dram gddr5|hbm2] [-codecs LIST]
//
// A SPEC is a benchmark and its parameters, colon-separated:
// "fir:length=4096", "kmeans:points=256:max-iter=1". Runs are sequential in
// one process (every run sees the same inputs: package live reseeds the
// benchmarks' random source). A benchmark whose verification fails by
// panicking is marked in its row; MGPUSim's fir, kmeans and bitonicsort
// end the process instead (log.Fatal). Exit status 1 if any run failed, 2
// for a bad command line.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	_ "github.com/linecomp/linecomp/all" // registers every codec
	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/mgpusim/l1v"
	"github.com/linecomp/linecomp/mgpusim/live"
	"github.com/linecomp/linecomp/mgpusim/memctl"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("latte-live", flag.ContinueOnError)
	fs.SetOutput(stderr)
	study := fs.String("study", "", "latte or mag")
	benches := fs.String("bench", "", "comma-separated benchmark specs, e.g. fir:length=4096")
	dram := fs.String("dram", "gddr5", "DRAM channel of the mag study: gddr5 or hbm2")
	codecs := fs.String("codecs", "none,bdi,magbdi-32,fpc,cpack", "codecs of the mag study")
	ep := fs.Int("ep", 0, "latte study: accesses per EP of each L1 (0: LATTE-CC's 256); a sensitivity setting")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "latte-live: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() != 0 {
		return usage("unexpected arguments %q", fs.Args())
	}
	if *benches == "" {
		return usage("-bench is required")
	}
	var specs []string
	for _, s := range strings.Split(*benches, ",") {
		if _, err := live.NewBenchmark(s); err != nil {
			return usage("%v", err)
		}
		specs = append(specs, s)
	}
	var rows []row
	switch *study {
	case "latte":
		if *ep < 0 {
			return usage("-ep %d must not be negative", *ep)
		}
		rows = latteRows(*ep)
	case "mag":
		d := map[string]memctl.DRAM{"gddr5": memctl.GDDR5, "hbm2": memctl.HBM2}
		ch, ok := d[*dram]
		if !ok {
			return usage("-dram %q: want gddr5 or hbm2", *dram)
		}
		var err error
		if rows, err = magRows(strings.Split(*codecs, ","), ch); err != nil {
			return usage("%v", err)
		}
	default:
		return usage("-study %q: want latte or mag", *study)
	}
	status := exitOK
	for _, spec := range specs {
		fmt.Fprintf(stdout, "\n%s (%s study)\n\n", spec, *study)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, rows[0].header+"\t")
		var base float64
		for _, r := range rows {
			b, _ := live.NewBenchmark(spec)
			cells, kernel, err := r.run(b)
			note := "ok"
			switch {
			case errors.Is(err, capture.ErrVerify):
				note = "VERIFY FAILED"
				status = exitFail
			case err != nil:
				fmt.Fprintf(stderr, "latte-live: %s %s: %v\n", spec, r.name, err)
				status = exitFail
				continue
			}
			if r.name == "none" {
				base = kernel
			}
			speedup := "-"
			if base > 0 && kernel > 0 {
				speedup = fmt.Sprintf("%.3f", base/kernel)
			}
			fmt.Fprintf(tw, "%s\t%.0f\t%s\t%s\t%s\t\n", r.name, kernel, speedup, cells, note)
		}
		tw.Flush()
	}
	return status
}

// row is one configuration of a study: run gives its cells after the
// kernel time and speedup, and the kernel time in cycles.
type row struct {
	name, header string
	run          func(b *capture.Benchmark) (cells string, kernelCycles float64, err error)
}

const latteHeader = "config\tkernel cycles\tspeedup\tL1 hit rate\tL2 reads\tdecompressions\tmean hit cycles\tEPs none/bdi/sc2\tverify"

func latteRows(ep int) []row {
	configs := []struct {
		name string
		cfg  l1v.Config
	}{
		{"none", l1v.Config{Policy: "static", StaticMode: 0}},
		{"static-bdi", l1v.Config{Policy: "static", StaticMode: 1}},
		{"static-sc2", l1v.Config{Policy: "static", StaticMode: 2}},
		{"hit-count", l1v.Config{Policy: "hitcount"}},
		{"cmp", l1v.Config{Policy: "cmp"}},
		{"latte-cc", l1v.Config{Policy: "latte"}},
	}
	var rows []row
	for _, c := range configs {
		cfg := c.cfg
		cfg.EPAccesses = ep
		rows = append(rows, row{name: c.name, header: latteHeader, run: func(b *capture.Benchmark) (string, float64, error) {
			pl, res, err := runWith(b, func(p *capture.Platform) (*l1v.Plugin, error) { return l1v.Attach(p, cfg) })
			if pl == nil {
				return "", 0, err
			}
			s := pl.Stats()
			loads := s.LoadHits + s.LoadMisses
			hitRate, meanHit := 0.0, 0.0
			if loads > 0 {
				hitRate = float64(s.LoadHits) / float64(loads)
			}
			if s.LoadHits > 0 {
				meanHit = float64(s.HitCycles) / float64(s.LoadHits)
			}
			eps := make([]string, 3)
			for i := range eps {
				eps[i] = "0"
				if i < len(s.ModeEPs) {
					eps[i] = fmt.Sprint(s.ModeEPs[i])
				}
			}
			cells := fmt.Sprintf("%.4f\t%d\t%d\t%.2f\t%s", hitRate, s.L2Reads, s.Decompressions, meanHit, strings.Join(eps, "/"))
			return cells, float64(res.KernelTimePS) / 1000, err
		}})
	}
	return rows
}

const magHeader = "config\tkernel cycles\tspeedup\tdata bursts\tMD bursts\tratio\tratio w/ MD\tMD hit rate\tDRAM time ns\tmean mem latency\tverify"

func magRows(codecs []string, ch memctl.DRAM) ([]row, error) {
	names := append([]string{"mgpusim"}, codecs...)
	var rows []row
	for _, name := range names {
		cfg := memctl.Config{DRAM: ch}
		if name != "mgpusim" {
			cfg.Codec = name
		}
		if err := cfg.Check(); err != nil {
			return nil, err
		}
		rows = append(rows, row{name: name, header: magHeader, run: func(b *capture.Benchmark) (string, float64, error) {
			pl, res, err := runWith(b, func(p *capture.Platform) (*memctl.Plugin, error) { return memctl.Attach(p, cfg) })
			if pl == nil {
				return "", 0, err
			}
			s := pl.Stats()
			data, md := s.DRAMBursts, uint64(0)
			ratio, ratioMD, mdHit := "-", "-", "-"
			if cfg.Codec != "" {
				data, md = s.Model.Bursts, s.Model.MetadataBursts
				ratio = fmt.Sprintf("%.3f", s.Model.EffectiveRatio())
				ratioMD = fmt.Sprintf("%.3f", s.Model.EffectiveRatioWithMetadata())
				if s.Model.MDHits+s.Model.MDMisses > 0 {
					mdHit = fmt.Sprintf("%.3f", s.Model.MDHitRate())
				}
			}
			lat := 0.0
			if s.L2Requests > 0 {
				lat = float64(s.L2LatencyPS) / float64(s.L2Requests) / 1000
			}
			cells := fmt.Sprintf("%d\t%d\t%s\t%s\t%s\t%.0f\t%.1f", data, md, ratio, ratioMD, mdHit,
				float64(s.DRAMTimePS)/1000, lat)
			return cells, float64(res.KernelTimePS) / 1000, err
		}})
	}
	return rows, nil
}

// plugin is what both studies' plug-ins offer.
type plugin interface{ Err() error }

// runWith runs b with a plug-in attached and returns it (nil if the run
// failed before the platform was built), the run's result, and the run's
// error or else the plug-in's.
func runWith[P plugin](b *capture.Benchmark, attach func(*capture.Platform) (P, error)) (P, live.Result, error) {
	var pl P
	res, err := live.Run(live.Config{Bench: b, Setup: func(p *capture.Platform) error {
		var err error
		pl, err = attach(p)
		return err
	}})
	if any(pl) != nil && err == nil {
		err = pl.Err()
	}
	return pl, res, err
}
