// Command linkstudy repeats Tavana et al.'s live study (Figs. 5–7) in
// MGPUSim: it runs one benchmark on GPUs unified into one, with every RDMA
// payload compressed on a 160 Gb/s inter-GPU fabric (package
// mgpusim/link), under each configuration:
//
//	none                  no compression (MGPUSim's message sizes)
//	bdi, fpc-tavana, …    one fixed codec for every payload (-codecs)
//	vote-l0, vote-l6, …   the penalty vote at each λ of -lambdas, one
//	                      selector per sending GPU, over none and -codecs
//	mgpusim               (with -reference) MGPUSim unchanged, its RDMA
//	                      traffic on its own PCIe network
//
// and prints, per configuration, the inter-GPU traffic (bytes the fabric
// delivered, all four message kinds) and the simulated execution time,
// both normalised to none, the payload compression ratio, each
// candidate's uses, the energy of wire and codecs normalised to none, and
// whether the benchmark's own verification passed:
//
//	go run ./cmd/linkstudy -bench NAME [benchmark parameters] [-gpus 4]
//	    [-codecs bdi,fpc-tavana,cpack-z] [-lambdas 0,6,32] [-j 2]
//	    [-fabric bus|crossbar] [-bytes-per-cycle 20] [-fabric-latency 1]
//	    [-reference] [-o FILE.csv]
//
// The benchmark parameters are the flags of MGPUSim's sample program for
// the benchmark (-bench NAME -help lists them). Every configuration is an
// independent simulation in its own process (MGPUSim keeps process-wide
// state), -j at a time. A failed verification does not stop the study:
// the row is marked. Exit status 1 if any run failed to produce a result.
package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all" // registers every codec
	"github.com/linecomp/linecomp/mgpusim/capture"
	mlink "github.com/linecomp/linecomp/mgpusim/link"
	"github.com/linecomp/linecomp/policy/vote"
	simlink "github.com/linecomp/linecomp/sim/link"
	"github.com/linecomp/linecomp/study"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// options is the parsed command line.
type options struct {
	bench      *capture.Benchmark
	gpus       int
	codecs     []string
	lambdas    []float64
	jobs       int
	fabric     mlink.Fabric
	reference  bool
	out        string
	child      string
	childArgs  []string // the command line, for the children
	configList []string
}

func run(args []string, stdout, stderr io.Writer) int {
	opt, code := parse(args, stderr)
	if opt == nil {
		return code
	}
	if opt.child != "" {
		return runChild(opt, stdout, stderr)
	}
	return runStudy(opt, stdout, stderr)
}

func parse(args []string, stderr io.Writer) (*options, int) {
	benchName, found := capture.BenchFlag(args)
	if !found {
		fmt.Fprintf(stderr, "linkstudy: -bench NAME is required (one of %s)\n",
			strings.Join(capture.Benchmarks(), ", "))
		return nil, exitUsage
	}
	bench, err := capture.NewBenchmark(benchName)
	if err != nil {
		fmt.Fprintln(stderr, "linkstudy:", err)
		return nil, exitUsage
	}
	fs := flag.NewFlagSet("linkstudy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.String("bench", benchName, "benchmark: "+strings.Join(capture.Benchmarks(), ", "))
	gpus := fs.Int("gpus", 4, "number of GPUs, unified into one")
	codecs := fs.String("codecs", "bdi,fpc-tavana,cpack-z", "the static codecs, which are also the vote's candidates after none")
	lambdas := fs.String("lambdas", "0,6,32", "the vote's λ values (empty: no vote runs)")
	jobs := fs.Int("j", 2, "simulations run at the same time")
	fabric := fs.String("fabric", "bus", "inter-GPU fabric: bus (one shared medium) or crossbar")
	perCycle := fs.Int("bytes-per-cycle", mlink.DefaultBytesPerCycle, "fabric bytes per 1 GHz cycle (20 = 160 Gb/s); a multiple of 4")
	latency := fs.Int("fabric-latency", mlink.DefaultLatency, "switch latency of the fabric in cycles")
	reference := fs.Bool("reference", false, "also run MGPUSim unchanged (RDMA over its own PCIe network)")
	out := fs.String("o", "", "also write the table as CSV to FILE")
	child := fs.String("child", "", "run one configuration and print its result (used by the study itself)")
	bench.Params().VisitAll(func(f *flag.Flag) {
		fs.Var(f.Value, f.Name, benchName+": "+f.Usage)
	})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, exitOK
		}
		return nil, exitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "linkstudy: unexpected argument %q\n", fs.Arg(0))
		return nil, exitUsage
	}
	opt := &options{
		bench: bench, gpus: *gpus, jobs: *jobs, reference: *reference, out: *out, child: *child,
		fabric: mlink.Fabric{BytesPerCycle: *perCycle, Latency: *latency},
	}
	bad := func(format string, a ...any) (*options, int) {
		fmt.Fprintf(stderr, "linkstudy: "+format+"\n", a...)
		return nil, exitUsage
	}
	switch *fabric {
	case "bus":
		opt.fabric.Topology = mlink.Bus
	case "crossbar":
		opt.fabric.Topology = mlink.Crossbar
	default:
		return bad("-fabric=%q: want bus or crossbar", *fabric)
	}
	if opt.jobs < 1 {
		return bad("-j=%d must be at least 1", opt.jobs)
	}
	if opt.gpus < 2 || opt.gpus > capture.MaxGPUs {
		return bad("-gpus=%d must be in 2..%d: one GPU has no inter-GPU link", opt.gpus, capture.MaxGPUs)
	}
	for _, name := range splitList(*codecs) {
		if name == "none" {
			return bad("-codecs: none is always the baseline and the vote's first candidate; list only codecs")
		}
		if _, err := linecomp.Lookup(name); err != nil {
			return bad("-codecs: %v", err)
		}
		opt.codecs = append(opt.codecs, name)
	}
	for _, s := range splitList(*lambdas) {
		l, err := strconv.ParseFloat(s, 64)
		if err != nil || l < 0 || l != l || l > 1e12 {
			return bad("-lambdas: %q is not a λ ≥ 0", s)
		}
		opt.lambdas = append(opt.lambdas, l)
	}
	opt.configList = configNames(opt)
	// The children get the same command line; -child comes last and wins.
	opt.childArgs = args
	// Every configuration shares the fabric; the candidates are checked
	// when the codecs are looked up above and again by each child.
	if err := (mlink.Config{Fabric: opt.fabric}).Check(); err != nil {
		return bad("%v", err)
	}
	return opt, exitOK
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

const (
	configNone      = "none"
	configReference = "mgpusim"
	votePrefix      = "vote-l"
)

func configNames(opt *options) []string {
	names := []string{configNone}
	names = append(names, opt.codecs...)
	for _, l := range opt.lambdas {
		names = append(names, votePrefix+strconv.FormatFloat(l, 'g', -1, 64))
	}
	if opt.reference {
		names = append(names, configReference)
	}
	return names
}

// candidates are none followed by -codecs, with Tavana Table III's
// latencies (as `linecomp sim link -latency tavana` has them): a candidate
// that is one of tavana-best's members (none, bdi, fpc-tavana, cpack-z) is
// that member, so bdi carries 2/1 rather than its own paper's 5/1.
func (opt *options) candidates() ([]linecomp.Codec, error) {
	return study.TavanaCandidates(append([]string{"none"}, opt.codecs...), capture.WireLineSize, true)
}

// linkConfig is the plug-in's configuration for one configuration name;
// nil for the reference run.
func (opt *options) linkConfig(name string) (*mlink.Config, error) {
	if name == configReference {
		return nil, nil
	}
	cfg := &mlink.Config{Fabric: opt.fabric}
	if name == configNone {
		return cfg, nil
	}
	cands, err := opt.candidates()
	if err != nil {
		return nil, err
	}
	cfg.Candidates = cands
	if s, ok := strings.CutPrefix(name, votePrefix); ok {
		l, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("configuration %q: bad λ", name)
		}
		cfg.NewChooser = mlink.Vote(vote.Config{Lambda: l})
		return cfg, nil
	}
	for i, c := range cands {
		if i > 0 && c.Name() == name {
			cfg.NewChooser = simlink.Static(i)
			return cfg, nil
		}
	}
	return nil, fmt.Errorf("unknown configuration %q", name)
}

// result is one configuration's outcome, as a child prints it.
type result struct {
	Config    string            `json:"config"`
	Source    string            `json:"source"`
	Stats     mlink.Stats       `json:"stats"`
	Uses      map[string]uint64 `json:"uses,omitempty"`
	SimTimePS uint64            `json:"sim_time_ps"`
	// Verify is "ok", or what the benchmark said when it failed.
	Verify string `json:"verify"`
	// Error is a failure other than verification: the numbers are not
	// usable.
	Error string `json:"error,omitempty"`
	// Provisional marks a line printed when the benchmark logged
	// something: if the process then ends, the benchmark has called
	// log.Fatal (how MGPUSim's fir, kmeans and bitonicsort report a wrong
	// result) and the line holds the finished run's numbers.
	Provisional bool    `json:"provisional,omitempty"`
	WallSeconds float64 `json:"wall_seconds"`
}

const resultPrefix = "linkstudy-result "

// runChild runs one configuration and prints its result line.
func runChild(opt *options, stdout, stderr io.Writer) int {
	cfg, err := opt.linkConfig(opt.child)
	if err != nil {
		fmt.Fprintln(stderr, "linkstudy:", err)
		return exitUsage
	}
	start := time.Now()
	var (
		mu     sync.Mutex
		plugin *mlink.Plugin
		names  []string
		emit   = func(r result) {
			r.WallSeconds = time.Since(start).Seconds()
			line, _ := json.Marshal(r)
			fmt.Fprintf(stdout, "%s%s\n", resultPrefix, line)
		}
	)
	if cfg != nil {
		for _, c := range cfg.Candidates {
			names = append(names, c.Name())
		}
	}
	fill := func(r *result, s mlink.Stats) {
		r.Stats = s
		if len(s.Uses) > 0 {
			r.Uses = make(map[string]uint64)
			for i, n := range s.Uses {
				r.Uses[names[i]] = n
			}
		}
	}
	// Benchmarks that find a wrong result call log.Fatal, which ends the
	// process before Run returns: print what the run measured with every
	// log line, marked provisional.
	// Without the date and time, the message is the benchmark's own.
	log.SetFlags(0)
	log.SetOutput(writerFunc(func(p []byte) (int, error) {
		stderr.Write(p)
		mu.Lock()
		defer mu.Unlock()
		if plugin != nil {
			r := result{Config: opt.child, SimTimePS: plugin.SimTimePS(), Provisional: true,
				Verify: "log: " + strings.TrimSpace(string(p))}
			fill(&r, plugin.Stats())
			emit(r)
		}
		return len(p), nil
	}))
	res, err := mlink.Run(mlink.RunConfig{
		Bench: opt.bench, GPUs: opt.gpus, Link: cfg,
		Attached: func(p *mlink.Plugin) { mu.Lock(); plugin = p; mu.Unlock() },
	})
	mu.Lock()
	defer mu.Unlock()
	r := result{Config: opt.child, Source: res.Source, SimTimePS: res.SimTimePS, Verify: "ok"}
	fill(&r, res.Stats)
	switch {
	case errors.Is(err, capture.ErrVerify):
		r.Verify = firstLine(err.Error())
	case err != nil:
		r.Error = err.Error()
	}
	emit(r)
	if r.Error != "" {
		return exitFail
	}
	return exitOK
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// runStudy runs every configuration in a child process, -j at a time, and
// reports.
func runStudy(opt *options, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "linkstudy:", err)
		return exitFail
	}
	start := time.Now()
	results := make([]result, len(opt.configList))
	sem := make(chan struct{}, opt.jobs)
	var wg sync.WaitGroup
	var logMu sync.Mutex
	for i, name := range opt.configList {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = runOne(exe, opt, name, stderr, &logMu)
			logMu.Lock()
			fmt.Fprintf(stderr, "linkstudy: %s done in %.1f s (verify: %s)%s\n", name,
				results[i].WallSeconds, results[i].Verify, errSuffix(results[i].Error))
			logMu.Unlock()
		}()
	}
	wg.Wait()
	rows := makeRows(opt, results)
	printTable(stdout, opt, rows)
	fmt.Fprintf(stdout, "wall time %.1f s for %d simulations, %d at a time\n",
		time.Since(start).Seconds(), len(results), opt.jobs)
	if opt.out != "" {
		if err := writeCSV(opt.out, rows); err != nil {
			fmt.Fprintln(stderr, "linkstudy:", err)
			return exitFail
		}
	}
	for _, r := range results {
		if r.Error != "" {
			return exitFail
		}
	}
	return exitOK
}

func errSuffix(e string) string {
	if e == "" {
		return ""
	}
	return "; error: " + e
}

// runOne runs a child for one configuration and reads its result: the
// last result line, unless the child ended without a final one.
func runOne(exe string, opt *options, name string, stderr io.Writer, logMu *sync.Mutex) result {
	start := time.Now()
	args := append(append([]string(nil), opt.childArgs...), "-child", name)
	cmd := exec.Command(exe, args...)
	var out, errBuf bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errBuf
	runErr := cmd.Run()
	var last *result
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), resultPrefix)
		if !ok {
			continue
		}
		var r result
		if err := json.Unmarshal([]byte(line), &r); err == nil {
			last = &r
		}
	}
	fail := func(msg string) result {
		logMu.Lock()
		fmt.Fprintf(stderr, "linkstudy: %s: %s; its standard error:\n%s\n", name, msg, errBuf.String())
		logMu.Unlock()
		return result{Config: name, Error: msg, WallSeconds: time.Since(start).Seconds()}
	}
	switch {
	case last == nil:
		return fail(fmt.Sprintf("no result (%v)", runErr))
	case last.Provisional && runErr != nil:
		// log.Fatal: the benchmark found its result wrong.
		last.Provisional = false
		last.Verify = "failed (" + last.Verify + ")"
	case last.Provisional:
		return fail("ended without a final result")
	}
	if last.Source == "" {
		last.Source = opt.bench.Name() + " " + opt.bench.Describe()
	}
	last.WallSeconds = time.Since(start).Seconds()
	return *last
}

// row is one configuration's line of the report.
type row struct {
	result
	Bench, Params      string
	Lambda             string
	WireNorm, TimeNorm float64 // to none; 0 when none has no result
	KernelNorm         float64
	EnergyNorm         float64
	Ratio              float64 // uncompressed / carried payload bits
}

func makeRows(opt *options, results []result) []row {
	var base *result
	for i := range results {
		if results[i].Config == configNone && results[i].Error == "" {
			base = &results[i]
		}
	}
	norm := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	rows := make([]row, len(results))
	for i, r := range results {
		w := row{result: r, Bench: opt.bench.Name(), Params: opt.bench.Describe()}
		if l, ok := strings.CutPrefix(r.Config, votePrefix); ok {
			w.Lambda = l
		}
		s := r.Stats
		w.Ratio = norm(float64(s.UncompressedPayloadBits), float64(s.PayloadBits))
		if base != nil && r.Error == "" {
			b := base.Stats
			w.WireNorm = norm(float64(s.DeliveredBytes), float64(b.DeliveredBytes))
			w.TimeNorm = norm(float64(r.SimTimePS), float64(base.SimTimePS))
			w.KernelNorm = norm(float64(s.KernelTimePS), float64(b.KernelTimePS))
			w.EnergyNorm = norm(s.WireEnergyPJ+s.CodecEnergyPJ, b.WireEnergyPJ+b.CodecEnergyPJ)
		}
		rows[i] = w
	}
	return rows
}

func (opt *options) candidateNames() []string {
	return append([]string{"none"}, opt.codecs...)
}

func usesText(names []string, uses map[string]uint64) string {
	if len(uses) == 0 {
		return "-"
	}
	var parts []string
	for _, n := range names {
		if uses[n] != 0 {
			parts = append(parts, fmt.Sprintf("%s:%d", n, uses[n]))
		}
	}
	return strings.Join(parts, " ")
}

func printTable(w io.Writer, opt *options, rows []row) {
	fmt.Fprintf(w, "linkstudy: %s %s on %d unified GPUs; fabric %s, %d bytes/cycle at 1 GHz, switch latency %d\n",
		opt.bench.Name(), opt.bench.Describe(), opt.gpus, opt.fabric.Topology, orDefault(opt.fabric.BytesPerCycle, mlink.DefaultBytesPerCycle),
		orDefault(opt.fabric.Latency, mlink.DefaultLatency))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "config\ttransfers\tpayload ratio\twire bytes\twire/none\ttime us\ttime/none\tkernel us\tkernel/none\tenergy/none\tverify\tuses\t")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\terror\t%s\t\n", r.Config, r.Error)
			continue
		}
		s := r.Stats
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%d\t%.3f\t%.3f\t%.4f\t%.3f\t%.4f\t%.3f\t%s\t%s\t\n",
			r.Config, s.Transfers, r.Ratio, s.DeliveredBytes, r.WireNorm,
			float64(r.SimTimePS)/1e6, r.TimeNorm, float64(s.KernelTimePS)/1e6, r.KernelNorm,
			r.EnergyNorm, shortVerify(r.Verify),
			usesText(opt.candidateNames(), r.Uses))
	}
	tw.Flush()
	for _, r := range rows {
		if r.Verify != "ok" && r.Error == "" {
			fmt.Fprintf(w, "%s: verification: %s\n", r.Config, r.Verify)
		}
	}
}

func shortVerify(v string) string {
	if v == "ok" {
		return "ok"
	}
	return "FAILED"
}

func orDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

func writeCSV(path string, rows []row) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	header := []string{"bench", "params", "config", "lambda", "transfers", "payload_bits", "uncompressed_payload_bits",
		"payload_ratio", "read_req", "data_ready", "write_req", "write_ack", "mgpusim_bytes", "wire_bytes", "wire_norm",
		"flits", "sim_time_ps", "time_norm", "kernels", "kernel_time_ps", "kernel_norm", "wire_energy_pj", "codec_energy_pj", "energy_norm", "uses", "verify_ok",
		"verify", "error", "wall_seconds"}
	if err := cw.Write(header); err != nil {
		f.Close()
		return err
	}
	for _, r := range rows {
		s := r.Stats
		u := func(v uint64) string { return strconv.FormatUint(v, 10) }
		g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
		var uses []string
		for n, k := range r.Uses {
			if k != 0 {
				uses = append(uses, n+"="+u(k))
			}
		}
		slices.Sort(uses)
		rec := []string{r.Bench, r.Params, r.Config, r.Lambda, u(s.Transfers), u(s.PayloadBits),
			u(s.UncompressedPayloadBits), g(r.Ratio),
			u(s.Messages[simlink.ReadReq]), u(s.Messages[simlink.DataReady]),
			u(s.Messages[simlink.WriteReq]), u(s.Messages[simlink.WriteAck]),
			u(s.MGPUSimBytes), u(s.DeliveredBytes), g(r.WireNorm), u(s.Flits), u(r.SimTimePS), g(r.TimeNorm),
			u(s.Kernels), u(s.KernelTimePS), g(r.KernelNorm),
			g(s.WireEnergyPJ), g(s.CodecEnergyPJ), g(r.EnergyNorm), strings.Join(uses, " "),
			strconv.FormatBool(r.Verify == "ok" && r.Error == ""), r.Verify, r.Error, g(r.WallSeconds)}
		if err := cw.Write(rec); err != nil {
			f.Close()
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
