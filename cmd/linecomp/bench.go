package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
)

var benchCommand = &command{
	name:    "bench",
	args:    "[flags] [FILE|DIR|-]…",
	summary: "MB/s of Size, Sizes, Compress and Decompress per kernel level, against memcpy",
	run:     runBench,
}

const benchHelp = `
Times Size (per line, through the interface), Sizes (the batch entry
point), Compress and Decompress of each codec on the inputs (the embedded
sample without inputs), held in memory up to -max bytes, and memcpy of the
same buffer. Every measurement is repeated in -rounds rounds that
interleave the codecs and memcpy (memcpy once before each codec in each
round), after one untimed warm-up pass, so that a load that comes and goes
affects all of them alike; each sample runs for at least -time. It prints
the median MB/s and the spread, (max − min) / median, of the samples; a
large spread means the machine was busy. A trainable codec is trained on
the first tenth of the lines (at least 256) first.

For steadier numbers use go test -bench (see the README).`

var benchOps = []string{"size", "sizes", "compress", "decompress"}

// benchStats summarises the samples of one measurement.
type benchStats struct {
	Median  float64 `json:"mb_per_s"`
	Min     float64 `json:"mb_per_s_min"`
	Max     float64 `json:"mb_per_s_max"`
	Samples int     `json:"samples"`
}

func statsOf(samples []float64) benchStats {
	s := slices.Clone(samples)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return benchStats{Median: med, Min: s[0], Max: s[len(s)-1], Samples: len(s)}
}

// spread is (max − min) / median.
func (s benchStats) spread() float64 {
	if s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / s.Median
}

// benchRow is one measurement of the bench report.
type benchRow struct {
	Codec    string `json:"codec"`
	LineSize int    `json:"line_size"`
	Op       string `json:"op"`
	Level    string `json:"kernel_level"`
	benchStats
	LinesPerS float64 `json:"lines_per_s"`
	NsPerLine float64 `json:"ns_per_line"`
	VsMemcpy  float64 `json:"ratio_to_memcpy"` // of the medians

	samples []float64
}

type benchFlags struct {
	codecs  string
	line    int
	ops     []string
	time    time.Duration
	rounds  int
	levels  []cpu.Level
	format  string
	maxData int64
}

func parseBenchFlags(e *env, c *command, args []string) (benchFlags, []string, error) {
	fs := newFlags(e, c, benchHelp)
	var f benchFlags
	fs.StringVar(&f.codecs, "codecs", "", "comma-separated codecs, or all (the default: every codec that takes -line)")
	fs.IntVar(&f.line, "line", 128, "line size in bytes")
	ops := fs.String("ops", strings.Join(benchOps, ","), "operations: "+strings.Join(benchOps, ", "))
	fs.DurationVar(&f.time, "time", 50*time.Millisecond, "minimum time of one sample")
	fs.IntVar(&f.rounds, "rounds", 5, "samples of every measurement")
	level := fs.String("level", "best", "kernel level: best, all, or one of "+levelNames())
	fs.StringVar(&f.format, "format", "text", "output format: text, csv or json")
	maxData := fs.String("max", "64M", "most bytes of input held in memory and measured (suffix K, M or G: binary units)")
	inputs, err := fs.parse(args)
	if err != nil {
		return f, nil, err
	}
	if f.line <= 0 {
		return f, nil, usagef("-line %d: the line size must be positive", f.line)
	}
	if f.time <= 0 {
		return f, nil, usagef("-time %v: must be positive", f.time)
	}
	if f.rounds <= 0 {
		return f, nil, usagef("-rounds %d: must be positive", f.rounds)
	}
	if err := parseFormat(f.format); err != nil {
		return f, nil, err
	}
	for _, op := range strings.Split(*ops, ",") {
		switch {
		case !slices.Contains(benchOps, op):
			return f, nil, usagef("-ops %s: unknown operation (want %s)", op, strings.Join(benchOps, ", "))
		case slices.Contains(f.ops, op):
			return f, nil, usagef("-ops %q: %s is listed twice", *ops, op)
		}
		f.ops = append(f.ops, op)
	}
	if f.levels, err = parseLevels(*level); err != nil {
		return f, nil, err
	}
	if f.maxData, err = parseBytes(*maxData); err != nil || f.maxData < int64(f.line) {
		return f, nil, usagef("-max %q: want a size of at least one line, such as 64M", *maxData)
	}
	return f, inputs, nil
}

// parseBytes reads a byte count with an optional K, M or G suffix (powers
// of 1024).
func parseBytes(s string) (int64, error) {
	shift := 0
	switch {
	case strings.HasSuffix(s, "K"):
		shift = 10
	case strings.HasSuffix(s, "M"):
		shift = 20
	case strings.HasSuffix(s, "G"):
		shift = 30
	}
	if shift > 0 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n << shift, nil
}

func runBench(e *env, c *command, args []string) error {
	f, inputs, err := parseBenchFlags(e, c, args)
	if err != nil {
		return err
	}
	names, err := e.selectCodecs(f.codecs, f.line)
	if err != nil {
		return err
	}
	data, label, failed := loadBenchData(e, inputs, f)
	if len(data) == 0 {
		return failed // every input failed and was reported
	}
	lines := len(data) / f.line

	dst := make([]byte, len(data))
	memcpyRun := func() { copy(dst, data) }
	memcpyRun() // warm-up
	var memcpySamples []float64
	var rows []*benchRow
	type job struct {
		row *benchRow
		run func()
	}
	jobs := make([][]job, len(names)) // per codec, per level and op
	for i, name := range names {
		c, err := benchCodec(name, data, f.line)
		if err != nil {
			return err
		}
		var encoded linecomp.Lines
		if err := linecomp.CompressLines(c, &encoded, data); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, level := range f.levels {
			restore := cpu.Set(level)
			for _, op := range f.ops {
				r := &benchRow{Codec: name, LineSize: f.line, Op: op, Level: cpu.Active().String()}
				run := benchOp(c, op, data, &encoded)
				run() // warm-up
				rows = append(rows, r)
				jobs[i] = append(jobs[i], job{r, run})
			}
			restore()
		}
	}
	levelOf := map[string]cpu.Level{}
	for _, l := range cpu.Levels() {
		levelOf[l.String()] = l
	}
	for round := 0; round < f.rounds; round++ {
		for k := range names {
			i := (k + round) % len(names) // a different codec goes first each round
			memcpySamples = append(memcpySamples, timeSample(f.time, len(data), memcpyRun))
			for _, j := range jobs[i] {
				e.progress.show("bench: round %d/%d: %s %s (%s)", round+1, f.rounds, j.row.Codec, j.row.Op, j.row.Level)
				restore := cpu.Set(levelOf[j.row.Level])
				j.row.samples = append(j.row.samples, timeSample(f.time, len(data), j.run))
				restore()
			}
		}
	}
	memcpy := statsOf(memcpySamples)
	out := make([]benchRow, len(rows))
	for i, r := range rows {
		r.benchStats = statsOf(r.samples)
		r.LinesPerS = r.Median * 1e6 / float64(f.line)
		r.NsPerLine = 1e9 / r.LinesPerS
		r.VsMemcpy = r.Median / memcpy.Median
		out[i] = *r
	}
	if err := benchReport(e.stdout, out, label, lines, memcpy, f); err != nil {
		return err
	}
	return failed
}

// loadBenchData reads the inputs (the sample without inputs) into one
// buffer of whole lines, up to f.maxData bytes. An input that fails
// contributes nothing; failed is errInputsFailed if any did.
func loadBenchData(e *env, inputs []string, f benchFlags) (data []byte, label string, failed error) {
	srcs := expandArgs(inputs, e.stdin)
	label = plural(int64(len(srcs)), "input", "inputs")
	if len(inputs) == 0 {
		srcs = sampleSources()
		label = fmt.Sprintf("sample(%d files)", len(srcs))
	}
	limit := f.maxData / int64(f.line) * int64(f.line)
	failed = e.eachInput(srcs, func(in *input) error {
		if int64(len(data)) >= limit {
			e.warnf("%s: not measured: -max %d bytes reached", in.name, f.maxData)
			return nil
		}
		start := len(data)
		lr := e.newLineReader(in, f.line)
		for {
			chunk, err := lr.next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				data = data[:start]
				return err
			}
			if room := limit - int64(len(data)); int64(len(chunk)) > room {
				data = append(data, chunk[:room]...)
				e.warnf("%s: measured its first %d bytes only: -max %d bytes reached", in.name, int64(len(data)-start), f.maxData)
				return nil
			}
			data = append(data, chunk...)
			e.progress.show("bench: reading %s: %s", in.name, progressBytes(int64(len(data)-start), in.size))
		}
	})
	return data, label, failed
}

// benchCodec builds a codec, training a trainable one on the first tenth
// of the lines (at least 256), as ratio does for a file.
func benchCodec(name string, data []byte, line int) (linecomp.Codec, error) {
	c, err := linecomp.New(name, line)
	if err != nil {
		return nil, err
	}
	lines := len(data) / line
	trained, err := linecomp.Train(c, data[:min(lines, max(lines/10, 256))*line])
	if err != nil {
		return nil, fmt.Errorf("training %s: %w", name, err)
	}
	return trained, nil
}

// benchOp returns one pass of op over every line.
func benchOp(c linecomp.Codec, op string, data []byte, encoded *linecomp.Lines) func() {
	n := c.LineSize()
	switch op {
	case "size":
		return func() {
			for off := 0; off < len(data); off += n {
				c.Size(data[off : off+n])
			}
		}
	case "sizes":
		sizes := make([]int, 0, len(data)/n)
		return func() { sizes, _ = linecomp.Sizes(c, sizes[:0], data) }
	case "compress":
		buf := make([]byte, 0, 2*n+16)
		return func() {
			for off := 0; off < len(data); off += n {
				buf, _, _ = c.Compress(buf[:0], data[off:off+n])
			}
		}
	default: // decompress
		buf := make([]byte, 0, n)
		return func() {
			for i := 0; i < encoded.Len(); i++ {
				buf, _ = c.Decompress(buf[:0], encoded.Line(i))
			}
		}
	}
}

// timeSample runs f until minTime has passed and returns MB/s of bytes per
// run.
func timeSample(minTime time.Duration, bytes int, f func()) float64 {
	runs := 0
	start := time.Now()
	for {
		f()
		runs++
		if el := time.Since(start); el >= minTime {
			return float64(bytes) * float64(runs) / el.Seconds() / 1e6
		}
	}
}

func levelNames() string {
	var s []string
	for _, l := range cpu.Levels() {
		s = append(s, l.String())
	}
	return strings.Join(s, ", ")
}

func parseLevels(s string) ([]cpu.Level, error) {
	switch s {
	case "best":
		return []cpu.Level{cpu.Best}, nil
	case "all":
		return cpu.Levels(), nil
	}
	for _, l := range cpu.Levels() {
		if l.String() == s {
			return []cpu.Level{l}, nil
		}
	}
	return nil, usagef("-level %q: this CPU and build support best, all, %s", s, levelNames())
}

func benchReport(w io.Writer, rows []benchRow, label string, lines int, memcpy benchStats, f benchFlags) error {
	switch f.format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			CPU        string     `json:"cpu"`
			Input      string     `json:"input"`
			Lines      int        `json:"lines"`
			SampleTime string     `json:"sample_time"`
			Memcpy     benchStats `json:"memcpy"`
			Rows       []benchRow `json:"rows"`
		}{cpu.Name(), label, lines, f.time.String(), memcpy, rows})
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"codec", "line_size", "op", "kernel_level", "mb_per_s", "mb_per_s_min", "mb_per_s_max", "samples", "lines_per_s", "ns_per_line", "ratio_to_memcpy"})
		cw.Write([]string{"memcpy", fmt.Sprint(f.line), "copy", "", f1(memcpy.Median), f1(memcpy.Min), f1(memcpy.Max), fmt.Sprint(memcpy.Samples), "", "", "1.000"})
		for _, r := range rows {
			cw.Write([]string{r.Codec, fmt.Sprint(r.LineSize), r.Op, r.Level, f1(r.Median), f1(r.Min), f1(r.Max), fmt.Sprint(r.Samples),
				f1(r.LinesPerS), f1(r.NsPerLine), strconv.FormatFloat(r.VsMemcpy, 'f', 3, 64)})
		}
		cw.Flush()
		return cw.Error()
	}
	fmt.Fprintf(w, "cpu: %s\ninput: %s, %d lines of %d bytes\n", cpu.Name(), label, lines, f.line)
	fmt.Fprintf(w, "memcpy: %.0f MB/s (spread %.0f%%, %d samples)\n", memcpy.Median, 100*memcpy.spread(), memcpy.Samples)
	fmt.Fprintf(w, "median of %d samples of at least %v each; spread = (max - min) / median\n\n", f.rounds, f.time)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "codec\tline\top\tlevel\tMB/s\tspread\tlines/s\tns/line\tx memcpy\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.0f\t%.0f%%\t%.3g\t%.1f\t%.3f\t\n", r.Codec, r.LineSize, r.Op, r.Level, r.Median, 100*r.spread(), r.LinesPerS, r.NsPerLine, r.VsMemcpy)
	}
	return tw.Flush()
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
