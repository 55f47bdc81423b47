package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/linecomp/linecomp"
)

// result is one row of the ratio report.
type result struct {
	Input      string   `json:"input"`
	Codec      string   `json:"codec"`
	LineSize   int      `json:"line_size"`
	Lines      int      `json:"lines"`
	Trained    int      `json:"trained_lines"`   // lines that trained the codec; 0 if it does not train
	TrainedAll bool     `json:"trained_on_all"`  // trained on every line: an optimistic upper bound
	LineBits   int64    `json:"line_bits"`       // uncompressed bits
	SizeBits   int64    `json:"compressed_bits"` // sum of Size
	EffBits    int64    `json:"effective_bits"`  // sum of EffectiveBits(Size − TagBits, mag)
	MAG        int      `json:"mag"`
	Raw        *float64 `json:"ratio"`           // nil when no bits remain (infinite)
	Effective  *float64 `json:"effective_ratio"` // nil when no bits remain
	Compressed float64  `json:"compressed_fraction"`
	MBps       float64  `json:"compress_mb_per_s"`

	compressedLines int
	seconds         float64
}

// finish derives the ratios and rates from the sums.
func (r *result) finish() {
	r.Raw = ratioOf(r.LineBits, r.SizeBits)
	r.Effective = ratioOf(r.LineBits, r.EffBits)
	r.Compressed = float64(r.compressedLines) / float64(r.Lines)
	if r.seconds > 0 {
		r.MBps = float64(r.LineBits/8) / r.seconds / 1e6
	}
}

// add sums another input's measurement of the same codec into r.
func (r *result) add(o result) {
	r.Lines += o.Lines
	r.Trained += o.Trained
	r.TrainedAll = r.TrainedAll && o.TrainedAll
	r.LineBits += o.LineBits
	r.SizeBits += o.SizeBits
	r.EffBits += o.EffBits
	r.compressedLines += o.compressedLines
	r.seconds += o.seconds
}

type ratioFlags struct {
	codecs []string
	line   int
	mag    int
	format string
	train  int // lines; trainAll for every line; trainAuto for the default
}

const (
	trainAuto = -1
	trainAll  = -2
)

func parseRatioFlags(args []string, stderr io.Writer) (ratioFlags, []string, error) {
	fs := flag.NewFlagSet("ratio", flag.ContinueOnError)
	fs.SetOutput(stderr)
	codecList := fs.String("codecs", "", "comma-separated codecs to run (default: all registered)")
	line := fs.Int("line", 128, "line size in bytes")
	mag := fs.Int("mag", 32, "memory access granularity in bytes, for the effective ratio")
	format := fs.String("format", "text", "output format: text, csv or json")
	train := fs.String("train", "", `lines that train a trainable codec: N, or "all" (default: the first tenth, at least 256)`)
	if err := fs.Parse(args); err != nil {
		return ratioFlags{}, nil, err
	}
	f := ratioFlags{line: *line, mag: *mag, format: *format, train: trainAuto}
	if f.line <= 0 {
		return f, nil, fmt.Errorf("-line %d: line size must be positive", f.line)
	}
	if f.mag <= 0 {
		return f, nil, fmt.Errorf("-mag %d: granularity must be positive", f.mag)
	}
	switch f.format {
	case "text", "csv", "json":
	default:
		return f, nil, fmt.Errorf("-format %q: want text, csv or json", f.format)
	}
	switch *train {
	case "":
	case "all":
		f.train = trainAll
	default:
		n, err := strconv.Atoi(*train)
		if err != nil || n < 0 {
			return f, nil, fmt.Errorf(`-train %q: want a number of lines or "all"`, *train)
		}
		f.train = n
	}
	if *codecList != "" {
		f.codecs = strings.Split(*codecList, ",")
	}
	return f, fs.Args(), nil
}

// codecNames resolves a -codecs list: the named codecs, each of which must
// take lines of lineSize bytes, or, for an empty list, every registered
// codec that does (saying which are skipped).
func codecNames(list string, lineSize int, stderr io.Writer) ([]string, error) {
	var names []string
	if list != "" {
		for _, name := range strings.Split(list, ",") {
			name = strings.TrimSpace(name)
			if _, err := linecomp.New(name, lineSize); err != nil {
				return nil, fmt.Errorf("-codecs %s: %w", name, err)
			}
			names = append(names, name)
		}
		return names, nil
	}
	for _, name := range linecomp.Names() {
		if _, err := linecomp.New(name, lineSize); errors.Is(err, linecomp.ErrLineSize) {
			fmt.Fprintf(stderr, "linecomp: %s skipped: it has no encoding for %d-byte lines\n", name, lineSize)
			continue
		} else if err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

func ratio(args []string, stdout, stderr io.Writer) error {
	f, files, err := parseRatioFlags(args, stderr)
	if err != nil {
		return err
	}
	names, err := codecNames(strings.Join(f.codecs, ","), f.line, stderr)
	if err != nil {
		return err
	}
	var inputs []func() (input, error)
	if len(files) == 0 {
		// The sample files are measured one by one, so that a trainable
		// codec trains on each, and summed into one row per codec.
		for _, in := range sampleInputs() {
			inputs = append(inputs, func() (input, error) { return in, nil })
		}
	} else {
		paths, err := expand(files)
		if err != nil {
			return err
		}
		for _, p := range paths {
			inputs = append(inputs, func() (input, error) { return open(p) })
		}
	}
	var rows []result
	for _, load := range inputs {
		in, err := load()
		if err != nil {
			return err
		}
		lines := len(in.data) / f.line
		if rest := len(in.data) % f.line; rest != 0 {
			fmt.Fprintf(stderr, "linecomp: %s: trailing %d bytes are not a whole %d-byte line; ignored\n", in.name, rest, f.line)
		}
		if lines == 0 {
			in.release()
			return fmt.Errorf("%s: %d bytes hold no whole %d-byte line", in.name, len(in.data), f.line)
		}
		for _, name := range names {
			r, err := measure(name, in, lines, f)
			if err != nil {
				in.release()
				return err
			}
			rows = append(rows, r)
		}
		in.release()
	}
	if len(files) == 0 {
		rows = sumByCodec(rows, fmt.Sprintf("sample(%d files)", len(inputs)))
	}
	for i := range rows {
		rows[i].finish()
	}
	return report(stdout, rows, f.format)
}

// sumByCodec merges the rows of each codec into one row named input.
func sumByCodec(rows []result, input string) []result {
	var out []result
	index := map[string]int{}
	for _, r := range rows {
		i, ok := index[r.Codec]
		if !ok {
			index[r.Codec] = len(out)
			r.Input = input
			out = append(out, r)
			continue
		}
		out[i].add(r)
	}
	return out
}

// measure compresses every line of in with a fresh codec, trained first if
// it is trainable.
func measure(name string, in input, lines int, f ratioFlags) (result, error) {
	c, err := linecomp.New(name, f.line)
	if err != nil {
		return result{}, err
	}
	r := result{Input: in.name, Codec: name, LineSize: f.line, Lines: lines, MAG: f.mag}
	if t, ok := c.(linecomp.Trainer); ok {
		n := f.train
		switch n {
		case trainAuto:
			n = max(lines/10, 256)
		case trainAll:
			n = lines
		}
		n = min(n, lines)
		r.TrainedAll = n == lines // scored on its own training data
		for i := 0; i < n; i++ {
			t.Observe(in.data[i*f.line : (i+1)*f.line])
		}
		if c, err = t.Rebuild(); err != nil {
			return result{}, fmt.Errorf("%s: training %s: %w", in.name, name, err)
		}
		r.Trained = n
	}
	uncompressed := c.TagBits() + 8*f.line // the size of a line stored raw
	buf := make([]byte, 0, 2*f.line+16)
	start := time.Now()
	for i := 0; i < lines; i++ {
		var bits int
		buf, bits, err = c.Compress(buf[:0], in.data[i*f.line:(i+1)*f.line])
		if err != nil {
			return result{}, fmt.Errorf("%s: %s line %d: %w", in.name, name, i, err)
		}
		r.SizeBits += int64(bits)
		r.EffBits += int64(linecomp.EffectiveBits(bits-c.TagBits(), f.mag))
		if bits < uncompressed {
			r.compressedLines++
		}
	}
	r.seconds = time.Since(start).Seconds()
	r.LineBits = int64(lines) * int64(8*f.line)
	return r, nil
}

func ratioOf(num, den int64) *float64 {
	if den <= 0 {
		return nil
	}
	v := float64(num) / float64(den)
	return &v
}

func fmtRatio(v *float64) string {
	if v == nil {
		return "inf"
	}
	return strconv.FormatFloat(*v, 'f', 3, 64)
}

func trainedLabel(r result) string {
	switch {
	case r.TrainedAll:
		return fmt.Sprintf("%d (all lines: optimistic)", r.Trained)
	case r.Trained > 0:
		return fmt.Sprint(r.Trained)
	}
	return "-"
}

func report(w io.Writer, rows []result, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"input", "codec", "line_size", "lines", "ratio", "effective_ratio", "mag", "compressed_fraction", "compress_mb_per_s", "trained_lines", "trained_on_all"})
		for _, r := range rows {
			cw.Write([]string{r.Input, r.Codec, fmt.Sprint(r.LineSize), fmt.Sprint(r.Lines), fmtRatio(r.Raw), fmtRatio(r.Effective),
				fmt.Sprint(r.MAG), strconv.FormatFloat(r.Compressed, 'f', 4, 64), strconv.FormatFloat(r.MBps, 'f', 1, 64),
				fmt.Sprint(r.Trained), fmt.Sprint(r.TrainedAll)})
		}
		cw.Flush()
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	mag := 0
	if len(rows) > 0 {
		mag = rows[0].MAG
	}
	fmt.Fprintf(tw, "input\tcodec\tline\tlines\tratio\teff@%dB\tcompressed\tMB/s\ttrained\t\n", mag)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%.1f%%\t%.0f\t%s\t\n", r.Input, r.Codec, r.LineSize, r.Lines,
			fmtRatio(r.Raw), fmtRatio(r.Effective), 100*r.Compressed, r.MBps, trainedLabel(r))
	}
	return tw.Flush()
}
