// Command linecomp measures cache-line compression codecs on memory images,
// and replays real traces through linecomp's models and policies.
//
// Usage:
//
//	linecomp                               every codec on the embedded sample
//	linecomp ratio [flags] [FILE|DIR|-]…   compression ratios of memory images
//	linecomp bench [flags] [FILE|DIR|-]…   MB/s of each operation and kernel
//	                                       level, against memcpy of the same data
//	linecomp codecs [-format F]            the registered codecs
//	linecomp trace info [-format F] FILE…  a trace's header, counts and
//	                                       distinct payloads
//	linecomp trace cat [-format F] FILE…   a trace's records as text or CSV
//	linecomp trace lines [-o OUT] FILE…    a trace's payloads as a flat file
//	                                       of lines, which ratio reads
//	linecomp sim cache [flags] [TRACE…]    L1 traces through one compressed cache
//	linecomp sim mem [flags] [TRACE…]      DRAM traces (or -image memory images)
//	                                       through MAG-aware memory controllers
//	linecomp sim gpu [flags] [TRACE…]      warp traces through the GPU model under
//	                                       LATTE-CC and its baselines (-design:
//	                                       CABA's designs)
//	linecomp sim link [flags] [TRACE…]     rdma traces over the inter-GPU link
//	                                       under the penalty vote
//	linecomp study plan|run|collect|report|slurm
//	                                       the papers' experiments as resumable
//	                                       plans of jobs, locally or on Slurm
//	linecomp version                       build and platform
//	linecomp help [COMMAND]                these synopses, or a command's flags
//
// Inputs: a FILE is read in chunks of whole lines, never all at once and
// never memory-mapped, so it may be a regular file, a FIFO, a pipe or a
// device; "-" is standard input; a DIR stands for the entries directly
// inside it, in name order, of which those that are not regular files are
// reported as skipped. Without inputs, ratio and bench use the embedded
// sample. A failed input (unreadable, empty, shorter than a line, changed
// while being read) is reported on standard error in one line naming it,
// and the others are still measured. Flags may come before or after the
// inputs; "--" ends the flags.
//
// Exit status: 0 when every input was measured, 1 when some failed, 2 for a
// usage error (a bad flag, codec or line size), which is reported before any
// input is read.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	_ "github.com/linecomp/linecomp/all" // registers every codec
)

// A command is one subcommand of linecomp. A new subcommand is a file that
// defines its *command and run function, plus one entry in the commands
// table; a command with subcommands of its own (linecomp sim cache …) lists
// them in sub and leaves run nil. A run function typically:
//
//	fs := newFlags(e, c, helpText)            // -h prints c's usage and helpText
//	format := fs.String("format", "text", …)
//	inputs, err := fs.parse(args)             // flags may follow the inputs
//	if err != nil { return err }              // already a usage error (status 2)
//	if err := parseFormat(*format); err != nil { return err }
//	names, err := e.selectCodecs(list, line)  // a -codecs flag, checked
//	srcs := expandArgs(inputs, e.stdin)       // or its own sources without inputs
//	failed := e.eachInput(srcs, func(in *input) error {
//		// read in (an io.Reader), or e.newLineReader(in, line).next() …
//		return err // reported as "linecomp: NAME: err"; the run goes on
//	})
//	// print the report of the inputs that worked, then
//	return failed // errInputsFailed gives status 1
//
// Usage errors come from usagef; other errors end the run with status 1.
type command struct {
	name     string
	args     string // synopsis of the arguments, e.g. "[flags] [FILE|DIR|-]…"
	summary  string // one line for the overview
	run      func(e *env, c *command, args []string) error
	sub      []*command
	hideHelp bool   // not listed in the overview (help itself)
	path     string // the full command, e.g. "linecomp sim cache", set by init
}

// commands is the subcommand table, in the order the overview lists it.
// It is filled in init because help refers to it.
var commands []*command

func init() {
	commands = []*command{
		ratioCommand,
		benchCommand,
		codecsCommand,
		traceCommand,
		simCommand,
		studyCommand,
		versionCommand,
		{name: "help", args: "[COMMAND]", summary: "this overview, or a command's synopsis and flags", run: runHelp, hideHelp: true},
	}
	setPaths(commands, "linecomp")
}

// setPaths records the full command line of each command, for its help
// and its messages.
func setPaths(table []*command, parent string) {
	for _, c := range table {
		c.path = parent + " " + c.name
		setPaths(c.sub, c.path)
	}
}

// defaultArgs is what linecomp runs without arguments.
var defaultArgs = []string{"ratio"}

// env is what a command runs in: its standard streams, and the progress
// line on standard error when that is a terminal.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	progress       *progress // nil: no progress shown
}

// warnf reports a problem that does not stop the command (a skipped entry,
// a failed input, an ignored partial line) on standard error, prefixed once.
func (e *env) warnf(format string, args ...any) {
	e.progress.clear()
	fmt.Fprintln(e.stderr, "linecomp: "+stripPrefix(fmt.Sprintf(format, args...)))
}

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // some inputs failed, or the output could not be written
	exitUsage  = 2
)

// usageError is a mistake in the command line: status 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// usagef returns a usage error.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// errInputsFailed says that some inputs failed; each was reported when it
// failed.
var errInputsFailed = errors.New("some inputs failed")

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	if isTerminal(os.Stderr) {
		e.progress = newProgress(os.Stderr)
	}
	os.Exit(run(e, os.Args[1:]))
}

// run runs the command line args and returns the exit status.
func run(e *env, args []string) int {
	if len(args) == 0 {
		args = defaultArgs
	}
	err := dispatch(e, commands, "linecomp", args)
	e.progress.clear()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errInputsFailed):
		return exitFailed
	}
	fmt.Fprintln(e.stderr, "linecomp: "+stripPrefix(err.Error()))
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitFailed
}

// stripPrefix removes the "linecomp: " that the library's errors carry, so
// that a message printed with the command's own prefix has it once.
func stripPrefix(msg string) string {
	return strings.ReplaceAll(msg, "linecomp: ", "")
}

// dispatch runs the command of table named by args[0]; path is the command
// line so far, for messages.
func dispatch(e *env, table []*command, path string, args []string) error {
	if len(args) == 0 {
		overview(e.stderr, table, path)
		return usagef("%s: which command? (see above)", path)
	}
	switch args[0] {
	case "-h", "-help", "--help":
		overview(e.stdout, table, path)
		return nil
	}
	for _, c := range table {
		if c.name != args[0] {
			continue
		}
		if c.sub != nil {
			return dispatch(e, c.sub, path+" "+c.name, args[1:])
		}
		return c.run(e, c, args[1:])
	}
	if strings.HasPrefix(args[0], "-") {
		return usagef("%s: flags go after the command, as in '%s %s %s'", args[0], path, table[0].name, args[0])
	}
	return usagef("unknown command %q (commands: %s; run '%s -h')", args[0], strings.Join(names(table), ", "), path)
}

func names(table []*command) []string {
	var out []string
	for _, c := range table {
		if !c.hideHelp {
			out = append(out, c.name)
		}
	}
	return out
}

// overview prints a synopsis line for each command of table.
func overview(w io.Writer, table []*command, path string) {
	if path == "linecomp" {
		fmt.Fprint(w, "linecomp measures cache-line compression codecs on memory images.\n\n")
		fmt.Fprint(w, "  linecomp                 every codec on the embedded sample (linecomp ratio)\n")
	}
	for _, c := range table {
		fmt.Fprintf(w, "  %s\n      %s\n", strings.TrimSpace(path+" "+c.name+" "+c.args), c.summary)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND -h' for a command's flags.\n", path)
	if path == "linecomp" {
		fmt.Fprint(w, `
Inputs are files, FIFOs, pipes, devices, directories (their entries) and "-"
(standard input), read in bounded memory; without inputs the embedded sample
is used. Exit status: 0 all inputs measured, 1 some failed, 2 usage error.
`)
	}
}

// runHelp prints the overview, or the synopsis of one command.
func runHelp(e *env, _ *command, args []string) error {
	table, path := commands, "linecomp"
	for _, a := range args {
		var found *command
		for _, c := range table {
			if c.name == a {
				found = c
			}
		}
		if found == nil {
			return usagef("help: unknown command %q (commands: %s)", a, strings.Join(names(table), ", "))
		}
		if found.sub == nil {
			return found.run(e, found, []string{"-h"})
		}
		table, path = found.sub, path+" "+found.name
	}
	overview(e.stdout, table, path)
	return nil
}

// flagSet is a command's flags and its help text.
type flagSet struct {
	*flag.FlagSet
	help func() // prints the synopsis, description and flags on standard output
}

// newFlags returns a flag set for command c whose errors go through the
// command's own error path (one line, status 2) and whose help, asked for
// with -h, goes to standard output.
func newFlags(e *env, c *command, description string) *flagSet {
	fs := flag.NewFlagSet(strings.TrimPrefix(c.path, "linecomp "), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // the flag package calls it on every error too
	help := func() {
		fmt.Fprintf(e.stdout, "usage: %s\n\n%s\n", strings.TrimSpace(c.path+" "+c.args), strings.TrimSpace(description))
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprint(e.stdout, "\nflags:\n")
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
	}
	return &flagSet{fs, help}
}

// parse parses args, allowing flags after the positional arguments (until
// "--"), and returns the positional arguments. A bad flag is a usage error;
// -h prints the command's help and returns flag.ErrHelp.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var positional []string
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
			return nil, err
		}
		if err != nil {
			return nil, usagef("%s: %v (run 'linecomp %s -h')", fs.Name(), err, fs.Name())
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if len(rest) == 0 || (consumed > 0 && args[consumed-1] == "--") {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// noArgs rejects positional arguments for commands that take none.
func noArgs(name string, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", name, args)
	}
	return nil
}

// parseFormat checks an output format flag.
func parseFormat(format string) error {
	switch format {
	case "text", "csv", "json":
		return nil
	}
	return usagef("-format %q: want text, csv or json", format)
}
