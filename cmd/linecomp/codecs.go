package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/linecomp/linecomp"
)

var codecsCommand = &command{
	name:    "codecs",
	args:    "[-format text|csv|json]",
	summary: "the registered codecs: algorithm, paper, line sizes, tag bits, latency, encodings",
	run:     runCodecs,
}

const codecsHelp = `
Prints linecomp.Infos(): for every registered codec its name, the
algorithm (the key of the latency and energy presets), the paper, what its
variant changes, the line sizes it takes with its tag bits at each, its
default compress/decompress latency in cycles ("unknown" where no paper
gives it; null in JSON, empty in CSV), whether it is trainable, and the
names of its line-level encodings (none listed if it does not report them).`

// codecJSON is one codec in the JSON report; tag_bits[i] is the tag bits
// at line_sizes[i].
type codecJSON struct {
	Name       string   `json:"name"`
	Algorithm  string   `json:"algorithm"`
	Paper      string   `json:"paper"`
	Variant    string   `json:"variant"`
	LineSizes  []int    `json:"line_sizes"`
	TagBits    []int    `json:"tag_bits"`
	Compress   *int     `json:"compress_cycles"`   // null: unknown
	Decompress *int     `json:"decompress_cycles"` // null: unknown
	Trainable  bool     `json:"trainable"`
	Encodings  []string `json:"encodings"`
}

func runCodecs(e *env, c *command, args []string) error {
	fs := newFlags(e, c, codecsHelp)
	format := fs.String("format", "text", "output format: text, csv or json")
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := noArgs("codecs", rest); err != nil {
		return err
	}
	if err := parseFormat(*format); err != nil {
		return err
	}
	infos := linecomp.Infos()
	switch *format {
	case "json":
		out := make([]codecJSON, 0, len(infos))
		for _, in := range infos {
			out = append(out, codecJSON{Name: in.Name, Algorithm: in.Algorithm, Paper: in.Paper, Variant: in.Variant,
				LineSizes: in.LineSizes, TagBits: in.TagBits,
				Compress:   knownCycles(in.Latency.CompressCycles()),
				Decompress: knownCycles(in.Latency.DecompressCycles()),
				Trainable:  in.Trainable, Encodings: append([]string{}, in.Encodings...)})
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "csv":
		cw := csv.NewWriter(e.stdout)
		cw.Write([]string{"name", "algorithm", "paper", "variant", "line_sizes", "tag_bits", "compress_cycles", "decompress_cycles", "trainable", "encodings"})
		for _, in := range infos {
			c, d := in.Latency.CompressCycles, in.Latency.DecompressCycles
			cw.Write([]string{in.Name, in.Algorithm, in.Paper, in.Variant, joinInts(in.LineSizes, " "), joinInts(in.TagBits, " "),
				cyclesText(c, ""), cyclesText(d, ""), strconv.FormatBool(in.Trainable), strings.Join(in.Encodings, " ")})
		}
		cw.Flush()
		return cw.Error()
	}
	return codecsText(e.stdout, infos)
}

func codecsText(w io.Writer, infos []linecomp.Info) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "codec\talgorithm\tline sizes\ttag bits\tlatency c/d\ttrainable\tencodings")
	for _, in := range infos {
		trainable := "no"
		if in.Trainable {
			trainable = "yes"
		}
		encodings := strings.Join(in.Encodings, " ")
		if encodings == "" {
			encodings = "(not reported)"
		}
		c, d := in.Latency.CompressCycles, in.Latency.DecompressCycles
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s/%s\t%s\t%s\n", in.Name, in.Algorithm, joinInts(in.LineSizes, ","), tagBitsText(in),
			cyclesText(c, "unknown"), cyclesText(d, "unknown"), trainable, encodings)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Papers once per algorithm, and what each variant changes: too long
	// for table columns.
	fmt.Fprint(w, "\npapers (by algorithm):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	seen := map[string]bool{}
	for _, in := range infos {
		if !seen[in.Algorithm] {
			seen[in.Algorithm] = true
			fmt.Fprintf(tw, "  %s\t%s\n", in.Algorithm, in.Paper)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprint(w, "\nvariants:\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, in := range infos {
		if in.Variant != "" {
			fmt.Fprintf(tw, "  %s\t%s\n", in.Name, in.Variant)
		}
	}
	return tw.Flush()
}

// tagBitsText is one number when the tag bits are the same at every line
// size, and size:bits pairs when they differ (magbdi-16: 32:1 64:2 128:3).
func tagBitsText(in linecomp.Info) string {
	same := true
	for _, b := range in.TagBits {
		same = same && b == in.TagBits[0]
	}
	if same && len(in.TagBits) > 0 {
		return fmt.Sprint(in.TagBits[0])
	}
	s := make([]string, len(in.TagBits))
	for i, b := range in.TagBits {
		s[i] = fmt.Sprintf("%d:%d", in.LineSizes[i], b)
	}
	return strings.Join(s, " ")
}

// knownCycles is a latency for JSON: nil when it is unknown.
func knownCycles(n int, known bool) *int {
	if !known {
		return nil
	}
	return &n
}

// cyclesText writes a latency, or unknown for one that no paper gives.
func cyclesText(cycles func() (int, bool), unknown string) string {
	n, ok := cycles()
	if !ok {
		return unknown
	}
	return strconv.Itoa(n)
}

func joinInts(ns []int, sep string) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, sep)
}
