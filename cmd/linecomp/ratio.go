package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/linecomp/linecomp"
)

var ratioCommand = &command{
	name:    "ratio",
	args:    "[flags] [FILE|DIR|-]…",
	summary: "compression ratios of memory images (the embedded sample without inputs)",
	run:     runRatio,
}

const ratioHelp = `
Cuts every input into lines of -line bytes and prints, per input and
codec: lines, the raw ratio (line bits / Size), the effective ratio at the
MAG (line bits / EffectiveBits(Size − TagBits, MAG), since tag bits do not
travel with the data), the share of lines stored compressed, and for a
trainable codec (SC²) what trained it. A trailing partial line is noted and
not measured. Without inputs it measures the embedded sample, one file at a
time, and sums the files per codec. -encodings adds the lines of each
encoding, for codecs that name their encodings; -patterns the words stored
with each pattern, for FPC and C-Pack (the shape of Tavana et al. Table VI).

Training: a trainable codec is trained on the first lines of each input
and then scores every line, training lines included. By default that is a
tenth of the lines, at least 256, when the input's size is known (a file),
and 256 lines when it is not (a pipe, a FIFO, standard input), whose lines
are then held in memory for scoring. On the embedded sample it is instead
trained on the other sample files and scored on lines it never saw
(leave-one-out). "-train all" trains on every line: an optimistic bound.

Speed is not measured here (run linecomp bench): a single pass over data
being read would charge page faults and cache misses to whichever codec
happened to run first.`

// result is one row of the ratio report.
type result struct {
	Input           string   `json:"input"`
	Codec           string   `json:"codec"`
	LineSize        int      `json:"line_size"`
	Lines           int64    `json:"lines"`
	LineBits        int64    `json:"line_bits"`       // uncompressed bits
	SizeBits        int64    `json:"compressed_bits"` // sum of Size
	EffBits         int64    `json:"effective_bits"`  // sum of EffectiveBits(Size − TagBits, MAG)
	MAG             int      `json:"mag"`
	Raw             *float64 `json:"ratio"`           // nil when no bits remain (infinite)
	Effective       *float64 `json:"effective_ratio"` // nil when no bits remain
	CompressedLines int64    `json:"compressed_lines"`
	Compressed      float64  `json:"compressed_fraction"`
	Trained         int64    `json:"trained_lines"`        // lines that trained the codec; 0 if it does not train
	TrainedOn       string   `json:"trained_on,omitempty"` // what those lines were
	TrainedAll      bool     `json:"trained_on_all"`       // scored only on its training lines: optimistic

	// With -encodings: whether the codec names its encodings, and how many
	// lines used each.
	EncodingsReported *bool           `json:"encodings_reported,omitempty"`
	Encodings         []encodingCount `json:"encodings,omitempty"`
	// With -patterns: whether the codec counts its word patterns, and how
	// many words each stored (Tavana et al. Table VI's shape).
	PatternsReported *bool          `json:"patterns_reported,omitempty"`
	Patterns         []patternCount `json:"patterns,omitempty"`

	trainable bool
	looFiles  int // > 0: trained leave-one-out on this many other sample files
}

type encodingCount struct {
	Name  string  `json:"name"`
	Lines int64   `json:"lines"`
	Share float64 `json:"share"` // of the row's lines
}

type patternCount struct {
	Name  string  `json:"name"`
	Words int64   `json:"words"`
	Share float64 `json:"share"` // of the row's words
}

// patternCounter is a codec that counts the words it stores per pattern
// (fpc, cpack and their variants).
type patternCounter interface {
	Patterns() []string
	CountPatterns(counts []int, data []byte) error
}

type ratioFlags struct {
	codecs    string
	line      int
	mag       int
	format    string
	train     int64 // lines; trainAll; trainAuto for the default
	encodings bool
	patterns  bool
}

const (
	trainAuto = -1
	trainAll  = -2
)

func parseRatioFlags(e *env, c *command, args []string) (ratioFlags, []string, error) {
	fs := newFlags(e, c, ratioHelp)
	var f ratioFlags
	fs.StringVar(&f.codecs, "codecs", "", "comma-separated codecs to run, or all (the default: every codec that takes -line)")
	fs.IntVar(&f.line, "line", 128, "line size in bytes")
	fs.IntVar(&f.mag, "mag", 32, "memory access granularity in bytes, for the effective ratio")
	fs.StringVar(&f.format, "format", "text", "output format: text, csv or json")
	train := fs.String("train", "", `lines that train a trainable codec: N, or "all" (default: see above)`)
	fs.BoolVar(&f.encodings, "encodings", false, "also count the lines of each encoding, for codecs that name their encodings")
	fs.BoolVar(&f.patterns, "patterns", false, "also count the words of each pattern, for codecs that count them (FPC, C-Pack; Tavana et al. Table VI)")
	inputs, err := fs.parse(args)
	if err != nil {
		return f, nil, err
	}
	if f.line <= 0 {
		return f, nil, usagef("-line %d: the line size must be positive", f.line)
	}
	if f.mag <= 0 {
		return f, nil, usagef("-mag %d: the granularity must be positive", f.mag)
	}
	if err := parseFormat(f.format); err != nil {
		return f, nil, err
	}
	f.train = trainAuto
	switch *train {
	case "":
	case "all":
		f.train = trainAll
	default:
		n, err := strconv.ParseInt(*train, 10, 64)
		if err != nil || n < 0 {
			return f, nil, usagef(`-train %q: want a number of lines or "all"`, *train)
		}
		f.train = n
	}
	return f, inputs, nil
}

func runRatio(e *env, c *command, args []string) error {
	f, inputs, err := parseRatioFlags(e, c, args)
	if err != nil {
		return err
	}
	names, err := e.selectCodecs(f.codecs, f.line)
	if err != nil {
		return err
	}
	m := &ratioMeter{e: e, f: f, names: names}
	srcs := expandArgs(inputs, e.stdin)
	if len(inputs) == 0 {
		srcs = sampleSources()
		if f.train == trainAuto {
			m.leaveOneOut = srcs
		}
	}
	var rows []result
	failed := e.eachInput(srcs, func(in *input) error {
		r, err := m.measure(in)
		rows = append(rows, r...)
		return err
	})
	if len(inputs) == 0 {
		rows = sumByCodec(rows, fmt.Sprintf("sample(%d files)", len(srcs)))
	}
	for i := range rows {
		rows[i].finish()
	}
	if err := ratioReport(e.stdout, rows, f); err != nil {
		return err
	}
	return failed
}

// ratioMeter measures inputs with a list of codecs.
type ratioMeter struct {
	e     *env
	f     ratioFlags
	names []string
	// leaveOneOut, when set, trains a trainable codec on every source but
	// the one measured.
	leaveOneOut []source
}

// trainLines is how many first lines of an input train a trainable codec;
// see ratioHelp.
func (m *ratioMeter) trainLines(known int64) int64 {
	switch {
	case m.f.train >= 0:
		return m.f.train
	case m.f.train == trainAll:
		return math.MaxInt64
	case known < 0:
		return 256
	}
	return max(known/10, 256)
}

// measure scores every line of in with each codec, after training the
// trainable ones.
func (m *ratioMeter) measure(in *input) ([]result, error) {
	lr := m.e.newLineReader(in, m.f.line)
	codecs := make([]linecomp.Codec, len(m.names))
	var trainers []int              // indexes of the trainable codecs
	var learners []linecomp.Trainer // their trainers, in the same order
	for i, name := range m.names {
		c, err := linecomp.New(name, m.f.line)
		if err != nil {
			return nil, err
		}
		codecs[i] = c
		if t, ok := c.(linecomp.Trainable); ok {
			trainers = append(trainers, i)
			learners = append(learners, t.NewTrainer())
		}
	}
	var trained int64
	if len(trainers) > 0 {
		observe := func(lines []byte) {
			for _, t := range learners {
				for off := 0; off < len(lines); off += m.f.line {
					t.Observe(lines[off : off+m.f.line])
				}
			}
		}
		var err error
		if m.leaveOneOut != nil {
			trained, err = m.trainOnOthers(in.name, observe)
		} else {
			if m.f.train == trainAll && in.seeker == nil {
				return nil, fmt.Errorf("-train all needs to read the input twice, and it %v; give -train N", errReadOnce)
			}
			trained, err = lr.peek(m.trainLines(lr.knownLines()), observe)
		}
		if err != nil {
			return nil, err
		}
		for k, i := range trainers {
			if codecs[i], err = learners[k].Build(); err != nil {
				return nil, fmt.Errorf("training %s: %w", m.names[i], err)
			}
		}
	}
	tallies := make([]tally, len(codecs))
	for {
		chunk, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for i, c := range codecs {
			if err := tallies[i].add(c, chunk, m.f); err != nil {
				return nil, fmt.Errorf("%s: %w", m.names[i], err)
			}
		}
		m.e.progress.show("ratio: %s: %s", in.name, progressBytes(lr.lines*int64(m.f.line), in.size))
	}
	rows := make([]result, len(codecs))
	for i, c := range codecs {
		rows[i] = tallies[i].result(in.name, m.names[i], c, lr.lines, m.f)
		if _, ok := c.(linecomp.Trainable); ok {
			rows[i].trainable = true
			rows[i].Trained = trained
			rows[i].TrainedAll = trained >= lr.lines && m.leaveOneOut == nil
			if m.leaveOneOut != nil {
				rows[i].looFiles = len(m.leaveOneOut) - 1
			}
		}
	}
	return rows, nil
}

// trainOnOthers passes every line of every leave-one-out source except the
// one named skip to observe, and returns how many.
func (m *ratioMeter) trainOnOthers(skip string, observe func([]byte)) (int64, error) {
	var n int64
	for _, s := range m.leaveOneOut {
		if s.name == skip {
			continue
		}
		in, err := s.open()
		if err != nil {
			return n, fmt.Errorf("training on %s: %w", s.name, err)
		}
		passed, err := m.e.newLineReader(in, m.f.line).peek(math.MaxInt64, observe)
		in.Close()
		if err != nil {
			return n, fmt.Errorf("training on %s: %w", s.name, err)
		}
		n += passed
	}
	return n, nil
}

// progressBytes says how far a read has come.
func progressBytes(done, size int64) string {
	if size > 0 {
		return fmt.Sprintf("%d%% of %.1f MB", 100*done/size, float64(size)/1e6)
	}
	return fmt.Sprintf("%.1f MB", float64(done)/1e6)
}

// tally sums one codec's sizes over the chunks of an input.
type tally struct {
	sizeBits, effBits, compressed int64
	perEncoding                   []int64 // lines per encoding number, with -encodings
	perPattern                    []int   // words per pattern, with -patterns
	sizes                         []int   // scratch
	enc                           []byte  // scratch
}

func (t *tally) add(c linecomp.Codec, chunk []byte, f ratioFlags) error {
	if pc, ok := c.(patternCounter); ok && f.patterns {
		if t.perPattern == nil {
			t.perPattern = make([]int, len(pc.Patterns()))
		}
		if err := pc.CountPatterns(t.perPattern, chunk); err != nil {
			return err
		}
	}
	rep, withEncodings := c.(linecomp.EncodingReporter)
	withEncodings = withEncodings && f.encodings
	t.sizes = t.sizes[:0]
	if withEncodings {
		if t.perEncoding == nil {
			t.perEncoding = make([]int64, len(rep.Encodings()))
		}
		for off := 0; off < len(chunk); off += f.line {
			var bits int
			var err error
			t.enc, bits, err = c.Compress(t.enc[:0], chunk[off:off+f.line])
			if err != nil {
				return err
			}
			k, err := rep.EncodingOf(t.enc)
			if err != nil {
				return fmt.Errorf("the encoding of a stream it made: %w", err)
			}
			if k < 0 || k >= len(t.perEncoding) {
				return fmt.Errorf("EncodingOf gave encoding %d of %d", k, len(t.perEncoding))
			}
			t.perEncoding[k]++
			t.sizes = append(t.sizes, bits)
		}
	} else {
		var err error
		if t.sizes, err = linecomp.Sizes(c, t.sizes, chunk); err != nil {
			return err
		}
	}
	stored := c.TagBits() + 8*f.line // a line stored raw
	for _, bits := range t.sizes {
		if bits < 0 {
			return fmt.Errorf("its Size gave %d bits", bits)
		}
		t.sizeBits += int64(bits)
		t.effBits += int64(linecomp.EffectiveBits(bits-c.TagBits(), f.mag))
		if bits < stored {
			t.compressed++
		}
	}
	return nil
}

func (t *tally) result(input, name string, c linecomp.Codec, lines int64, f ratioFlags) result {
	r := result{Input: input, Codec: name, LineSize: f.line, Lines: lines, MAG: f.mag,
		LineBits: lines * int64(8*f.line), SizeBits: t.sizeBits, EffBits: t.effBits, CompressedLines: t.compressed}
	if f.encodings {
		rep, ok := c.(linecomp.EncodingReporter)
		r.EncodingsReported = &ok
		if ok {
			for k, enc := range rep.Encodings() {
				var n int64
				if k < len(t.perEncoding) {
					n = t.perEncoding[k]
				}
				r.Encodings = append(r.Encodings, encodingCount{Name: enc.Name, Lines: n})
			}
		}
	}
	if f.patterns {
		pc, ok := c.(patternCounter)
		r.PatternsReported = &ok
		if ok {
			for k, name := range pc.Patterns() {
				var n int64
				if k < len(t.perPattern) {
					n = int64(t.perPattern[k])
				}
				r.Patterns = append(r.Patterns, patternCount{Name: name, Words: n})
			}
		}
	}
	return r
}

// finish derives the ratios, shares and labels from the sums.
func (r *result) finish() {
	r.Raw = ratioOf(r.LineBits, r.SizeBits)
	r.Effective = ratioOf(r.LineBits, r.EffBits)
	r.Compressed = float64(r.CompressedLines) / float64(r.Lines)
	for i := range r.Encodings {
		r.Encodings[i].Share = float64(r.Encodings[i].Lines) / float64(r.Lines)
	}
	var words int64
	for _, p := range r.Patterns {
		words += p.Words
	}
	for i := range r.Patterns {
		r.Patterns[i].Share = float64(r.Patterns[i].Words) / float64(max(words, 1))
	}
	switch {
	case r.looFiles > 0:
		r.TrainedOn = fmt.Sprintf("the other %d sample files (leave-one-out)", r.looFiles)
	case r.TrainedAll:
		r.TrainedOn = "all its lines (optimistic)"
	case r.Trained > 0:
		r.TrainedOn = "the first lines of the input"
	case r.trainable:
		r.TrainedOn = "nothing (-train 0)"
	}
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
			r.Encodings = append([]encodingCount(nil), r.Encodings...)
			r.Patterns = append([]patternCount(nil), r.Patterns...)
			out = append(out, r)
			continue
		}
		s := &out[i]
		s.Lines += r.Lines
		s.LineBits += r.LineBits
		s.SizeBits += r.SizeBits
		s.EffBits += r.EffBits
		s.CompressedLines += r.CompressedLines
		s.Trained += r.Trained
		s.TrainedAll = s.TrainedAll && r.TrainedAll
		for k := range s.Encodings {
			s.Encodings[k].Lines += r.Encodings[k].Lines
		}
		for k := range s.Patterns {
			s.Patterns[k].Words += r.Patterns[k].Words
		}
	}
	return out
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

// trainedLabel is the text report's training column.
func trainedLabel(r result) string {
	switch {
	case r.TrainedOn == "":
		return notApplicable
	case r.looFiles > 0: // a count summed over the files would mislead
		return r.TrainedOn
	}
	return fmt.Sprintf("%d lines: %s", r.Trained, r.TrainedOn)
}

func ratioReport(w io.Writer, rows []result, f ratioFlags) error {
	switch f.format {
	case "json":
		if rows == nil {
			rows = []result{}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	case "csv":
		cw := csv.NewWriter(w)
		header := []string{"input", "codec", "line_size", "lines", "ratio", "effective_ratio", "mag", "compressed_fraction", "trained_lines", "trained_on", "trained_on_all"}
		if f.encodings {
			header = append(header, "encodings")
		}
		if f.patterns {
			header = append(header, "patterns")
		}
		cw.Write(header)
		for _, r := range rows {
			rec := []string{r.Input, r.Codec, fmt.Sprint(r.LineSize), fmt.Sprint(r.Lines), fmtRatio(r.Raw), fmtRatio(r.Effective),
				fmt.Sprint(r.MAG), strconv.FormatFloat(r.Compressed, 'f', 4, 64), fmt.Sprint(r.Trained), r.TrainedOn, fmt.Sprint(r.TrainedAll)}
			if f.encodings {
				rec = append(rec, sharesLabel(encodingShares(r)))
			}
			if f.patterns {
				rec = append(rec, sharesLabel(patternShares(r)))
			}
			cw.Write(rec)
		}
		cw.Flush()
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "input\tcodec\tline\tlines\tratio\teff@%dB\tcompressed\ttrained\n", f.mag)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%.1f%%\t%s\n", r.Input, r.Codec, r.LineSize, r.Lines,
			fmtRatio(r.Raw), fmtRatio(r.Effective), 100*r.Compressed, trainedLabel(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if f.patterns {
		if err := writeShares(w, rows, "words per pattern", "pattern\twords", "does not count word patterns", patternShares); err != nil {
			return err
		}
	}
	if f.encodings {
		return writeShares(w, rows, "lines per encoding", "encoding\tlines", "does not report its encodings", encodingShares)
	}
	return nil
}

// share is one row of a breakdown of a codec's lines or words.
type share struct {
	name  string
	n     int64
	share float64
}

// encodingShares and patternShares give a row's breakdown and whether the
// codec reports it.
func encodingShares(r result) (bool, []share) {
	var s []share
	for _, e := range r.Encodings {
		s = append(s, share{e.Name, e.Lines, e.Share})
	}
	return r.EncodingsReported != nil && *r.EncodingsReported, s
}

func patternShares(r result) (bool, []share) {
	var s []share
	for _, p := range r.Patterns {
		s = append(s, share{p.Name, p.Words, p.Share})
	}
	return r.PatternsReported != nil && *r.PatternsReported, s
}

// writeShares writes the text report's section of one breakdown.
func writeShares(w io.Writer, rows []result, title, columns, none string, of func(result) (bool, []share)) error {
	fmt.Fprintf(w, "\nshare of %s\n", title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "input\tcodec\t%s\tshare\n", columns)
	for _, r := range rows {
		ok, shares := of(r)
		if !ok {
			fmt.Fprintf(tw, "%s\t%s\t(%s)\t\t\n", r.Input, r.Codec, none)
			continue
		}
		for _, s := range shares {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.1f%%\n", r.Input, r.Codec, s.name, s.n, 100*s.share)
		}
	}
	return tw.Flush()
}

// sharesLabel is the CSV column of a breakdown: name=count;… or "not
// reported".
func sharesLabel(ok bool, shares []share) string {
	if !ok {
		return "not reported"
	}
	s := make([]string, len(shares))
	for i, e := range shares {
		s[i] = fmt.Sprintf("%s=%d", e.name, e.n)
	}
	return strings.Join(s, ";")
}
