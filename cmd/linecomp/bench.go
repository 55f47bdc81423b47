package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
)

// benchRow is one measurement of the bench report.
type benchRow struct {
	Codec     string  `json:"codec"`
	LineSize  int     `json:"line_size"`
	Op        string  `json:"op"`
	Level     string  `json:"kernel_level"`
	MBps      float64 `json:"mb_per_s"`
	LinesPerS float64 `json:"lines_per_s"`
	NsPerLine float64 `json:"ns_per_line"`
	VsMemcpy  float64 `json:"ratio_to_memcpy"`
}

var benchOps = []string{"size", "sizes", "compress", "decompress"}

// bench measures Size (per line through the interface), Sizes (the batch
// entry point), Compress and Decompress of each codec, and memcpy of the
// same buffer in the same run.
func bench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	codecList := fs.String("codecs", "", "comma-separated codecs (default: all registered)")
	line := fs.Int("line", 128, "line size in bytes")
	ops := fs.String("ops", strings.Join(benchOps, ","), "operations: size, sizes, compress, decompress")
	minTime := fs.Duration("time", 200*time.Millisecond, "minimum time per measurement")
	levelFlag := fs.String("level", "best", "kernel level: best, all, or one of "+levelNames())
	format := fs.String("format", "text", "output format: text, csv or json")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *line <= 0 {
		return fmt.Errorf("-line %d: line size must be positive", *line)
	}
	if *minTime <= 0 {
		return fmt.Errorf("-time %v: must be positive", *minTime)
	}
	switch *format {
	case "text", "csv", "json":
	default:
		return fmt.Errorf("-format %q: want text, csv or json", *format)
	}
	var opList []string
	for _, op := range strings.Split(*ops, ",") {
		if !contains(benchOps, op) {
			return fmt.Errorf("-ops %s: unknown operation (want %s)", op, strings.Join(benchOps, ", "))
		}
		opList = append(opList, op)
	}
	levels, err := parseLevels(*levelFlag)
	if err != nil {
		return err
	}
	names, err := codecNames(*codecList, *line, stderr)
	if err != nil {
		return err
	}
	data, label, err := benchData(fs.Args(), *line, stderr)
	if err != nil {
		return err
	}
	lines := len(data) / *line

	dst := make([]byte, len(data))
	memcpy := throughput(*minTime, len(data), func() { copy(dst, data) })

	var rows []benchRow
	for _, name := range names {
		c, err := linecomp.New(name, *line)
		if err != nil {
			return err
		}
		if t, ok := c.(linecomp.Trainer); ok { // measure a trained code book, as ratio does by default
			for i := 0; i < max(lines/10, min(256, lines)); i++ {
				t.Observe(data[i**line : (i+1)**line])
			}
			if c, err = t.Rebuild(); err != nil {
				return fmt.Errorf("training %s: %w", name, err)
			}
		}
		var encoded linecomp.Lines
		if err := linecomp.CompressLines(c, &encoded, data); err != nil {
			return err
		}
		for _, level := range levels {
			restore := cpu.Set(level)
			for _, op := range opList {
				f := benchOp(c, op, data, &encoded)
				mbps := throughput(*minTime, len(data), f)
				linesPerS := mbps * 1e6 / float64(*line)
				rows = append(rows, benchRow{Codec: name, LineSize: *line, Op: op, Level: cpu.Active().String(),
					MBps: mbps, LinesPerS: linesPerS, NsPerLine: 1e9 / linesPerS, VsMemcpy: mbps / memcpy})
			}
			restore()
		}
	}
	return benchReport(stdout, rows, label, lines, memcpy, *format)
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

// throughput runs f until minTime has passed and returns MB/s of bytes
// per run.
func throughput(minTime time.Duration, bytes int, f func()) float64 {
	f() // warm caches and branch predictors
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
	return nil, fmt.Errorf("-level %q: this CPU and build support best, all, %s", s, levelNames())
}

// benchData concatenates the inputs (or the sample), each cut to whole
// lines.
func benchData(files []string, line int, stderr io.Writer) ([]byte, string, error) {
	if len(files) == 0 {
		var data []byte
		ins := sampleInputs()
		for _, in := range ins {
			data = append(data, in.data[:len(in.data)/line*line]...)
		}
		return data, fmt.Sprintf("sample(%d files)", len(ins)), nil
	}
	paths, err := expand(files)
	if err != nil {
		return nil, "", err
	}
	var data []byte
	for _, p := range paths {
		in, err := open(p)
		if err != nil {
			return nil, "", err
		}
		whole := len(in.data) / line * line
		if whole < len(in.data) {
			fmt.Fprintf(stderr, "linecomp: %s: trailing %d bytes are not a whole %d-byte line; ignored\n", p, len(in.data)-whole, line)
		}
		data = append(data, in.data[:whole]...)
		in.release()
	}
	if len(data) == 0 {
		return nil, "", fmt.Errorf("inputs hold no whole %d-byte line", line)
	}
	return data, fmt.Sprintf("%d files", len(paths)), nil
}

func benchReport(w io.Writer, rows []benchRow, label string, lines int, memcpy float64, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			CPU    string     `json:"cpu"`
			Input  string     `json:"input"`
			Lines  int        `json:"lines"`
			Memcpy float64    `json:"memcpy_mb_per_s"`
			Rows   []benchRow `json:"rows"`
		}{cpu.Name(), label, lines, memcpy, rows})
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"codec", "line_size", "op", "kernel_level", "mb_per_s", "lines_per_s", "ns_per_line", "ratio_to_memcpy"})
		for _, r := range rows {
			cw.Write([]string{r.Codec, fmt.Sprint(r.LineSize), r.Op, r.Level, f1(r.MBps), f1(r.LinesPerS), f1(r.NsPerLine), strconv.FormatFloat(r.VsMemcpy, 'f', 3, 64)})
		}
		cw.Flush()
		return cw.Error()
	}
	fmt.Fprintf(w, "cpu: %s\ninput: %s, %d lines\nmemcpy: %.0f MB/s\n\n", cpu.Name(), label, lines, memcpy)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "codec\tline\top\tlevel\tMB/s\tlines/s\tns/line\tx memcpy\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.0f\t%.3g\t%.1f\t%.3f\t\n", r.Codec, r.LineSize, r.Op, r.Level, r.MBps, r.LinesPerS, r.NsPerLine, r.VsMemcpy)
	}
	return tw.Flush()
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
