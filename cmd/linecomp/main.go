// Command linecomp measures cache-line compression codecs on memory images.
//
// Usage:
//
//	linecomp                          every codec on the embedded sample
//	linecomp ratio [flags] [FILE|DIR …] compression ratios of real files
//	linecomp bench [flags] [FILE|DIR …] MB/s of every operation and kernel
//	                                  level, against memcpy of the same data
//	linecomp codecs                   the registered codecs
//
// ratio flags:
//
//	-codecs a,b   codecs to run (default: all registered)
//	-line N       line size in bytes (default 128)
//	-mag N        memory access granularity in bytes for the effective
//	              ratio (default 32)
//	-format F     text, csv or json (default text)
//	-train N|all  lines that train a trainable codec (SC²): the first N of
//	              each input; default the first tenth, at least 256; "all"
//	              trains on everything (an optimistic upper bound)
//
// Every input is cut into lines of -line bytes; a trailing partial line is
// reported on standard error and ignored. The raw ratio is line bits / Size;
// the effective ratio is line bits / EffectiveBits(Size − TagBits, mag),
// since tag bits do not travel with the data.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "linecomp:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return ratio(nil, stdout, stderr)
	}
	switch args[0] {
	case "ratio":
		return ratio(args[1:], stdout, stderr)
	case "bench":
		return bench(args[1:], stdout, stderr)
	case "codecs":
		return codecs(stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q (commands: ratio, bench, codecs, help)", args[0])
}

const usage = `linecomp measures cache-line compression codecs on memory images.

  linecomp                            every codec on the embedded sample
  linecomp ratio [flags] [FILE|DIR …] compression ratios of real files
  linecomp bench [flags] [FILE|DIR …] speed of each codec and kernel level vs memcpy
  linecomp codecs                     the registered codecs

Run 'linecomp ratio -h' or 'linecomp bench -h' for their flags.
`

// codecs lists every registered codec with its line sizes, tag bits and
// default latency.
func codecs(stdout io.Writer) error {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "codec\tline sizes\ttag bits\tcompress\tdecompress")
	for _, name := range linecomp.Names() {
		var sizes []string
		var tag int
		var lat linecomp.Latency
		for _, n := range []int{32, 64, 128} {
			c, err := linecomp.New(name, n)
			if err != nil {
				continue
			}
			sizes = append(sizes, fmt.Sprint(n))
			tag, lat = c.TagBits(), c.Latency() // as at the largest size
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", name, strings.Join(sizes, ","), tag, cycles(lat.Compress), cycles(lat.Decompress))
	}
	return tw.Flush()
}

func cycles(n int) string {
	if n == linecomp.LatencyUnknown {
		return "–"
	}
	return fmt.Sprint(n)
}
