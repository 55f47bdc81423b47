package main

// linecomp trace: look inside the traces of package trace (line traffic)
// and package trace/warp (warp instruction streams), print their records,
// and turn their payloads into the flat files of whole lines that ratio and
// bench read. Every trace is read as a stream, in memory bounded by the
// readers' own limits plus, where distinct payloads are counted, 16 bytes of
// digest per distinct payload.

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/warp"
)

var traceCommand = &command{
	name:    "trace",
	args:    "info|cat|lines [flags] FILE|DIR|-…",
	summary: "look inside line-traffic and warp traces; their payloads as lines for ratio",
	sub:     []*command{traceInfoCommand, traceCatCommand, traceLinesCommand},
}

var traceInfoCommand = &command{
	name:    "info",
	args:    "[-format text|csv|json] FILE|DIR|-…",
	summary: "a trace's header, record counts, distinct payloads and bytes per record",
	run:     runTraceInfo,
}

var traceCatCommand = &command{
	name:    "cat",
	args:    "[-format text|csv] FILE|DIR|-…",
	summary: "every record (or instruction) of a trace, with its payload in hex",
	run:     runTraceCat,
}

var traceLinesCommand = &command{
	name:    "lines",
	args:    "[-o FILE] [-dedup] FILE|DIR|-…",
	summary: "the payloads of traces as a flat file of whole lines, which ratio and bench read",
	run:     runTraceLines,
}

// traceInputsHelp is said by every trace subcommand.
const traceInputsHelp = `
A trace is either kind, told apart by its first bytes: a line-traffic
trace (package trace: records of lines moving between components) or a
warp trace (package trace/warp: kernels and their warps' instructions).
Inputs are read as streams, like ratio's: files, directories (their
entries), FIFOs, pipes and "-" (standard input). A malformed or truncated
trace is reported in one line naming it and the byte offset at fault, and
the other inputs are still read; the exit status is then 1.`

const traceInfoHelp = `
Prints, for each trace: its kind, line size (and warp size), the source
text its writer recorded, and the file's size; then

  line traffic: the records by op, and by sender and receiver (src → dst,
  the first 4096 pairs seen; any others summed as one row), and the time
  span (first and last Time, and the smallest and largest, since streams
  of several components interleave);

  warp: the kernel launches, grouped by name, grid and block sizes (the
  first 4096 groups; any others summed as one row), the warps that ran
  (their Exit instructions) and those the grids hold, the instructions by
  kind (compute counts non-memory instructions) and the line accesses of
  loads and stores;

and for both the payloads (records, or line accesses), how many distinct
payload contents there are, and the file's bytes per payload. Distinct
payloads are counted exactly up to the digest: each payload is reduced to
SHA-256 cut to 128 bits, so the count needs 16 bytes (about 40 with the
map) per distinct payload rather than the payloads themselves, and two
different payloads are taken for one only if their digests collide (odds
about n²/2¹²⁹ for n distinct payloads).

CSV has one row per trace; src_dst is "src>dst:read=N,write=N;…" and
kernels "name grid=X,Y,Z block=X,Y,Z launches=N;…".` + "\n" + traceInputsHelp

const traceCatHelp = `
Prints every record of a line-traffic trace, in file order:

  text: time_ps src dst op addr data, one record a line
  CSV:  input,time_ps,src,dst,op,addr,data

and every instruction of a warp trace, kernel by kernel:

  text: a line for each kernel launch (its index, name, grid and block
        sizes), then one line per instruction (block, warp index, kind, and
        the count of a compute, or the PC and number of lines of a load or
        store), each line access of a load or store on its own indented
        line (addr data)
  CSV:  input,kernel,kernel_name,block,warp,kind,count,pc,lines,line,addr,data
        one row per instruction, or per line access of a load or store
        (line is its index in the instruction); kernel is the launch index

Addresses and PCs are hexadecimal with 0x, payloads hexadecimal bytes in
memory order, times in picoseconds. Text starts each trace with comment
lines (#) giving its name and header. One CSV holds one kind of trace: an
input of the other kind is refused (cat them separately). Output is
streamed.` + "\n" + traceInputsHelp

const traceLinesHelp = `
Writes the payloads of the traces as one flat file of whole lines: by
default every record's payload (for a warp trace every line access of its
loads and stores), in trace order, inputs one after another, so the file is
the traffic itself and a payload appears as often as it travelled; with
-dedup each distinct payload once, at its first appearance in the output
(distinct by the 128-bit digest of trace info, over all the inputs). The file is what 'linecomp ratio -line
SIZE FILE' and bench read, SIZE being the traces' line size; every input
must have the same line size.

With -o the output goes to FILE and a summary (payloads per input, and the
ratio command to run) to standard output; an input that fails adds nothing
to FILE (what it had added is cut off again). Without -o the lines go to
standard output, which must not be a terminal, and an input that fails
part-way leaves the payloads it already gave there; its error says how
many.` + "\n" + traceInputsHelp

// kernelName returns a kernel name from a trace as a report prints it:
// as it is when it is a plain identifier-like word, else quoted with Go
// escapes, so that a name from an untrusted trace cannot carry a newline,
// a NUL or a terminal escape to the screen, nor split a table's columns or
// the ";"-separated kernels field of the CSV.
func kernelName(name string) string {
	if name == "" {
		return `""`
	}
	for _, r := range name {
		if !unicode.IsGraphic(r) || unicode.IsSpace(r) || strings.ContainsRune(`;"=\`, r) {
			return strconv.Quote(name)
		}
	}
	return name
}

// Kind names, as the trace readers' errors spell them.
const (
	kindLine = "line-traffic"
	kindWarp = "warp"
)

// Caps on the breakdowns of trace info, so that a trace with very many
// components or kernels still takes bounded memory; past a cap the rest
// is summed into one row.
const (
	maxPairs        = 4096
	maxKernelGroups = 4096
)

// A traceFile is an opened trace of either kind: exactly one of line and
// warp is set.
type traceFile struct {
	line  *trace.Reader
	warp  *warp.Reader
	count *countingReader // the trace's bytes read so far
}

// openTrace reads the header of a trace of either kind. The kind byte of
// the magic chooses the reader; anything that is not a warp trace goes to
// the line-traffic reader, which names what is wrong with it.
func openTrace(r io.Reader) (*traceFile, error) {
	tf := &traceFile{count: &countingReader{r: r}}
	var magic [8]byte // "LCTRACE" and the kind byte
	n, err := io.ReadFull(tf.count, magic[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	whole := io.MultiReader(bytes.NewReader(magic[:n]), tf.count)
	if n == len(magic) && string(magic[:7]) == "LCTRACE" {
		switch magic[7] {
		case 'L':
		case 'W':
			tf.warp, err = warp.NewReader(whole)
			return tf, err
		default:
			return nil, &trace.FormatError{Offset: 7, Reason: fmt.Sprintf("unknown trace kind %q (want 'L' for line traffic or 'W' for warp)", magic[7])}
		}
	}
	tf.line, err = trace.NewReader(whole)
	return tf, err
}

func (tf *traceFile) kind() string {
	if tf.warp != nil {
		return kindWarp
	}
	return kindLine
}

func (tf *traceFile) lineSize() int {
	if tf.warp != nil {
		return tf.warp.Header().LineSize
	}
	return tf.line.Header().LineSize
}

func (tf *traceFile) source() string {
	if tf.warp != nil {
		return tf.warp.Header().Source
	}
	return tf.line.Header().Source
}

// describe is the one-line description of a trace's header.
func (tf *traceFile) describe() string {
	if tf.warp != nil {
		h := tf.warp.Header()
		return fmt.Sprintf("warp trace, %d-byte lines, %d-thread warps", h.LineSize, h.WarpSize)
	}
	return fmt.Sprintf("line-traffic trace, %d-byte lines", tf.lineSize())
}

// eachPayload calls fn with the payload of every record of a line-traffic
// trace, or of every line access of a warp trace, in order. The payload is
// valid only during the call.
func (tf *traceFile) eachPayload(fn func(p []byte) error) error {
	if tf.line != nil {
		for {
			r, err := tf.line.Read()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := fn(r.Data); err != nil {
				return err
			}
		}
	}
	return tf.eachInst(func(_ int, _ warp.Kernel, in warp.Inst) error {
		for _, l := range in.Lines {
			if err := fn(l.Data); err != nil {
				return err
			}
		}
		return nil
	})
}

// eachInst calls fn with every instruction of a warp trace, with the index
// of its kernel launch and the kernel, and once per kernel with a zero Inst
// (Kind 0) before the kernel's instructions.
func (tf *traceFile) eachInst(fn func(launch int, k warp.Kernel, in warp.Inst) error) error {
	for launch := 0; ; launch++ {
		k, err := tf.warp.NextKernel()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(launch, k, warp.Inst{}); err != nil {
			return err
		}
		for {
			in, err := tf.warp.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			if err := fn(launch, k, in); err != nil {
				return err
			}
		}
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A digest stands for a payload's contents when counting distinct
// payloads: SHA-256 cut to 128 bits, so that a set of them takes a fixed
// 16 bytes per entry whatever the line size, and a collision between
// different payloads is out of reach at any trace size.
type digest [16]byte

func payloadDigest(p []byte) digest {
	sum := sha256.Sum256(p)
	return digest(sum[:16])
}

// distinctBy says in reports how distinct payloads are counted.
const distinctBy = "SHA-256 of the payload cut to 128 bits"

// traceSources checks that a trace subcommand was given inputs, and
// expands them.
func traceSources(e *env, c *command, inputs []string) ([]source, error) {
	if len(inputs) == 0 {
		return nil, usagef("%s: which trace? Give FILE, DIR or - for standard input (run '%s -h')", strings.TrimPrefix(c.path, "linecomp "), c.path)
	}
	return expandArgs(inputs, e.stdin), nil
}

// errOutputFailed is what the inputs after a failed write are told.
var errOutputFailed = errors.New("not read: writing the output failed")

// ---- trace info ----

// traceInfo is the report of trace info on one trace.
type traceInfo struct {
	Input            string     `json:"input"`
	Kind             string     `json:"kind"` // "line-traffic" or "warp"
	LineSize         int        `json:"line_size"`
	WarpSize         int        `json:"warp_size,omitempty"` // warp traces
	Source           string     `json:"source"`
	FileBytes        int64      `json:"file_bytes"`
	Payloads         int64      `json:"payloads"` // records, or line accesses of loads and stores
	DistinctPayloads int64      `json:"distinct_payloads"`
	DistinctBy       string     `json:"distinct_by"`
	BytesPerPayload  *float64   `json:"bytes_per_payload"` // file bytes / payloads; null without payloads
	Line             *lineStats `json:"line_traffic,omitempty"`
	Warp             *warpStats `json:"warp,omitempty"`
	pairIndex        map[[2]uint32]int
	kernelIndex      map[kernelKey]int
	seen             map[digest]struct{}
}

// lineStats are the counts of a line-traffic trace.
type lineStats struct {
	Records    int64       `json:"records"`
	Reads      int64       `json:"reads"`
	Writes     int64       `json:"writes"`
	Pairs      []pairCount `json:"src_dst"`                 // sorted by src, then dst
	OtherPairs *pairCount  `json:"other_src_dst,omitempty"` // the records of pairs past the first maxPairs
	Time       *timeSpan   `json:"time_ps"`                 // null without records
}

type pairCount struct {
	Src    uint32 `json:"src"`
	Dst    uint32 `json:"dst"`
	Reads  int64  `json:"reads"`
	Writes int64  `json:"writes"`
}

func (p *pairCount) add(op trace.Op) {
	if op == trace.Write {
		p.Writes++
	} else {
		p.Reads++
	}
}

type timeSpan struct {
	First uint64 `json:"first"`
	Last  uint64 `json:"last"`
	Min   uint64 `json:"min"`
	Max   uint64 `json:"max"`
}

// warpStats are the counts of a warp trace.
type warpStats struct {
	Launches     int64         `json:"kernel_launches"`
	Kernels      []kernelStats `json:"kernels"`                 // grouped by name, grid and block, in order of first launch
	OtherKernels *kernelStats  `json:"other_kernels,omitempty"` // the launches past the first maxKernelGroups groups
	WarpsRun     int64         `json:"warps_run"`               // Exit instructions
	GridWarps    int64         `json:"grid_warps"`              // warps the launches' grids hold
	Insts        instCounts    `json:"instructions"`
}

type kernelKey struct {
	name        string
	grid, block [3]uint32
}

type kernelStats struct {
	Name      string     `json:"name"`
	Grid      [3]uint32  `json:"grid"`
	Block     [3]uint32  `json:"block"`
	Launches  int64      `json:"launches"`
	Blocks    int64      `json:"blocks"`     // per launch; 0 in other_kernels
	GridWarps int64      `json:"grid_warps"` // over all launches
	WarpsRun  int64      `json:"warps_run"`  // over all launches
	Insts     instCounts `json:"instructions"`
}

type instCounts struct {
	Compute    int64 `json:"compute"` // non-memory instructions: the sum of the Compute counts
	Loads      int64 `json:"loads"`
	Stores     int64 `json:"stores"`
	Barriers   int64 `json:"barriers"`
	Exits      int64 `json:"exits"`
	LoadLines  int64 `json:"load_lines"`
	StoreLines int64 `json:"store_lines"`
}

func (c *instCounts) add(in warp.Inst) {
	switch in.Kind {
	case warp.Compute:
		c.Compute += int64(in.Count)
	case warp.Load:
		c.Loads++
		c.LoadLines += int64(len(in.Lines))
	case warp.Store:
		c.Stores++
		c.StoreLines += int64(len(in.Lines))
	case warp.Barrier:
		c.Barriers++
	case warp.Exit:
		c.Exits++
	}
}

func runTraceInfo(e *env, c *command, args []string) error {
	fs := newFlags(e, c, traceInfoHelp)
	format := fs.String("format", "text", "output format: text, csv or json")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := parseFormat(*format); err != nil {
		return err
	}
	srcs, err := traceSources(e, c, inputs)
	if err != nil {
		return err
	}
	var infos []*traceInfo
	failed := e.eachInput(srcs, func(in *input) error {
		info, err := e.traceInfo(in)
		if err != nil {
			return err
		}
		infos = append(infos, info)
		return nil
	})
	var werr error
	switch *format {
	case "json":
		werr = traceInfoJSON(e.stdout, infos)
	case "csv":
		werr = traceInfoCSV(e.stdout, infos)
	default:
		werr = traceInfoText(e.stdout, infos)
	}
	if werr != nil {
		return werr
	}
	return failed
}

// traceInfo reads a whole trace and counts what it holds.
func (e *env) traceInfo(in *input) (*traceInfo, error) {
	tf, err := openTrace(in)
	if err != nil {
		return nil, err
	}
	info := &traceInfo{Input: in.name, Kind: tf.kind(), LineSize: tf.lineSize(), Source: tf.source(),
		DistinctBy: distinctBy, seen: map[digest]struct{}{}}
	addPayload := func(p []byte) {
		info.Payloads++
		info.seen[payloadDigest(p)] = struct{}{}
		if info.Payloads%4096 == 0 {
			e.progress.show("trace info: %s: %s", in.name, progressBytes(tf.count.n, in.size))
		}
	}
	if tf.line != nil {
		err = info.readLine(tf.line, addPayload)
	} else {
		err = info.readWarp(tf, addPayload)
	}
	if err != nil {
		return nil, err
	}
	info.FileBytes = tf.count.n
	info.DistinctPayloads = int64(len(info.seen))
	info.seen, info.pairIndex, info.kernelIndex = nil, nil, nil
	if info.Payloads > 0 {
		v := float64(info.FileBytes) / float64(info.Payloads)
		info.BytesPerPayload = &v
	}
	return info, nil
}

func (info *traceInfo) readLine(r *trace.Reader, addPayload func([]byte)) error {
	s := &lineStats{}
	info.Line = s
	info.pairIndex = map[[2]uint32]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		addPayload(rec.Data)
		if s.Records == 0 {
			s.Time = &timeSpan{First: rec.Time, Min: rec.Time, Max: rec.Time}
		}
		s.Records++
		s.Time.Last = rec.Time
		s.Time.Min = min(s.Time.Min, rec.Time)
		s.Time.Max = max(s.Time.Max, rec.Time)
		if rec.Op == trace.Write {
			s.Writes++
		} else {
			s.Reads++
		}
		key := [2]uint32{rec.Src, rec.Dst}
		i, ok := info.pairIndex[key]
		switch {
		case ok:
			s.Pairs[i].add(rec.Op)
		case len(s.Pairs) < maxPairs:
			info.pairIndex[key] = len(s.Pairs)
			s.Pairs = append(s.Pairs, pairCount{Src: rec.Src, Dst: rec.Dst})
			s.Pairs[len(s.Pairs)-1].add(rec.Op)
		default:
			if s.OtherPairs == nil {
				s.OtherPairs = &pairCount{}
			}
			s.OtherPairs.add(rec.Op)
		}
	}
	slices.SortFunc(s.Pairs, func(a, b pairCount) int {
		return cmp.Or(cmp.Compare(a.Src, b.Src), cmp.Compare(a.Dst, b.Dst))
	})
	return nil
}

func (info *traceInfo) readWarp(tf *traceFile, addPayload func([]byte)) error {
	warpSize := tf.warp.Header().WarpSize
	info.WarpSize = warpSize
	s := &warpStats{}
	info.Warp = s
	info.kernelIndex = map[kernelKey]int{}
	var cur *kernelStats
	return tf.eachInst(func(_ int, k warp.Kernel, in warp.Inst) error {
		if in.Kind == 0 { // a new launch
			s.Launches++
			warps := gridWarps(k, warpSize)
			s.GridWarps += warps
			key := kernelKey{k.Name, k.Grid, k.Block}
			i, ok := info.kernelIndex[key]
			switch {
			case ok:
				cur = &s.Kernels[i]
			case len(s.Kernels) < maxKernelGroups:
				info.kernelIndex[key] = len(s.Kernels)
				s.Kernels = append(s.Kernels, kernelStats{Name: k.Name, Grid: k.Grid, Block: k.Block, Blocks: int64(k.Blocks())})
				cur = &s.Kernels[len(s.Kernels)-1]
			default:
				if s.OtherKernels == nil {
					s.OtherKernels = &kernelStats{Name: "(other kernels)"}
				}
				cur = s.OtherKernels
			}
			cur.Launches++
			cur.GridWarps += warps
			return nil
		}
		s.Insts.add(in)
		cur.Insts.add(in)
		if in.Kind == warp.Exit {
			s.WarpsRun++
			cur.WarpsRun++
		}
		for _, l := range in.Lines {
			addPayload(l.Data)
		}
		return nil
	})
}

// gridWarps is the number of warps in a kernel's grid. Blocks differ only
// at the grid's far edges, so each of the (at most eight) kinds of block —
// full or partial along each dimension — is counted once, through one
// block of that kind, rather than block by block.
func gridWarps(k warp.Kernel, warpSize int) int64 {
	var along, full [3]int64
	for d := range 3 {
		g, b := int64(k.Grid[d]), int64(k.Block[d])
		along[d], full[d] = (g+b-1)/b, g/b
	}
	var total int64
	for kind := range 8 { // bit d set: the partial block along dimension d
		count := int64(1)
		var at [3]int64 // the block's coordinates
		for d := range 3 {
			if kind>>d&1 == 0 {
				count *= full[d]
			} else if along[d] == full[d] {
				count = 0 // no partial block along d
			} else {
				at[d] = along[d] - 1
			}
		}
		if count > 0 {
			id := at[0] + along[0]*(at[1]+along[1]*at[2])
			total += count * int64(k.Warps(int(id), warpSize))
		}
	}
	return total
}

func traceInfoJSON(w io.Writer, infos []*traceInfo) error {
	if infos == nil {
		infos = []*traceInfo{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(infos)
}

func traceInfoCSV(w io.Writer, infos []*traceInfo) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"input", "kind", "line_size", "warp_size", "source", "file_bytes", "payloads", "distinct_payloads", "bytes_per_payload",
		"records", "reads", "writes", "time_first_ps", "time_last_ps", "time_min_ps", "time_max_ps", "src_dst",
		"kernel_launches", "warps_run", "grid_warps", "compute", "loads", "stores", "barriers", "exits", "load_lines", "store_lines", "kernels"})
	for _, in := range infos {
		rec := []string{in.Input, in.Kind, decimal(int64(in.LineSize)), "", in.Source, decimal(in.FileBytes), decimal(in.Payloads),
			decimal(in.DistinctPayloads), perPayload(in.BytesPerPayload)}
		if s := in.Line; s != nil {
			rec = append(rec, decimal(s.Records), decimal(s.Reads), decimal(s.Writes))
			if s.Time != nil {
				rec = append(rec, udecimal(s.Time.First), udecimal(s.Time.Last), udecimal(s.Time.Min), udecimal(s.Time.Max))
			} else {
				rec = append(rec, "", "", "", "")
			}
			pairs := make([]string, 0, len(s.Pairs)+1)
			for _, p := range s.Pairs {
				pairs = append(pairs, fmt.Sprintf("%d>%d:read=%d,write=%d", p.Src, p.Dst, p.Reads, p.Writes))
			}
			if o := s.OtherPairs; o != nil {
				pairs = append(pairs, fmt.Sprintf("other:read=%d,write=%d", o.Reads, o.Writes))
			}
			rec = append(rec, strings.Join(pairs, ";"))
			rec = append(rec, make([]string, 11)...) // the warp columns
		}
		if s := in.Warp; s != nil {
			rec[3] = decimal(int64(in.WarpSize))
			rec = append(rec, make([]string, 8)...) // the line-traffic columns
			n := s.Insts
			rec = append(rec, decimal(s.Launches), decimal(s.WarpsRun), decimal(s.GridWarps), decimal(n.Compute), decimal(n.Loads), decimal(n.Stores),
				decimal(n.Barriers), decimal(n.Exits), decimal(n.LoadLines), decimal(n.StoreLines))
			kernels := make([]string, 0, len(s.Kernels)+1)
			for _, k := range s.Kernels {
				kernels = append(kernels, fmt.Sprintf("%s grid=%s block=%s launches=%d", kernelName(k.Name), dims(k.Grid), dims(k.Block), k.Launches))
			}
			if o := s.OtherKernels; o != nil {
				kernels = append(kernels, fmt.Sprintf("%s launches=%d", o.Name, o.Launches))
			}
			rec = append(rec, strings.Join(kernels, ";"))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func traceInfoText(w io.Writer, infos []*traceInfo) error {
	bw := bufio.NewWriter(w)
	for i, in := range infos {
		if i > 0 {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "%s: %s trace, %d-byte lines", in.Input, in.Kind, in.LineSize)
		if in.Warp != nil {
			fmt.Fprintf(bw, ", %d-thread warps", in.WarpSize)
		}
		fmt.Fprintf(bw, ", %d bytes\n", in.FileBytes)
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  source\t%q\n", in.Source)
		if s := in.Line; s != nil {
			fmt.Fprintf(tw, "  records\t%d: %d read, %d write\n", s.Records, s.Reads, s.Writes)
			switch {
			case s.Time == nil:
			case s.Time.Max == 0:
				fmt.Fprintf(tw, "  time\tuntimed (every Time is 0)\n")
			default:
				fmt.Fprintf(tw, "  time\tfirst %d ps, last %d ps; min %d ps, max %d ps\n", s.Time.First, s.Time.Last, s.Time.Min, s.Time.Max)
			}
		}
		if s := in.Warp; s != nil {
			groups := int64(len(s.Kernels) + btoi(s.OtherKernels != nil))
			fmt.Fprintf(tw, "  kernels\t%s of %s (by name, grid and block)\n", plural(s.Launches, "launch", "launches"), plural(groups, "kernel", "kernels"))
			fmt.Fprintf(tw, "  warps\t%d ran; the grids hold %d\n", s.WarpsRun, s.GridWarps)
			n := s.Insts
			fmt.Fprintf(tw, "  instructions\tcompute %d, load %d, store %d, barrier %d, exit %d\n", n.Compute, n.Loads, n.Stores, n.Barriers, n.Exits)
			fmt.Fprintf(tw, "  line accesses\t%d: %d by loads, %d by stores\n", n.LoadLines+n.StoreLines, n.LoadLines, n.StoreLines)
		}
		fmt.Fprintf(tw, "  payloads\t%d, %d distinct (by %s)\n", in.Payloads, in.DistinctPayloads, distinctBy)
		per := "record"
		if in.Warp != nil {
			per = "line access"
		}
		fmt.Fprintf(tw, "  size\t%s bytes of file per %s\n", perPayload(in.BytesPerPayload), per)
		if err := tw.Flush(); err != nil {
			return err
		}
		if s := in.Line; s != nil && len(s.Pairs) > 0 {
			tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprint(tw, "\tsrc\tdst\tread\twrite\t\n")
			for _, p := range s.Pairs {
				fmt.Fprintf(tw, "\t%d\t%d\t%d\t%d\t\n", p.Src, p.Dst, p.Reads, p.Writes)
			}
			if o := s.OtherPairs; o != nil {
				fmt.Fprintf(tw, "\tother pairs\t\t%d\t%d\t\n", o.Reads, o.Writes)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		if s := in.Warp; s != nil && s.Launches > 0 {
			tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
			fmt.Fprint(tw, "  kernel\tgrid\tblock\tlaunches\tblocks\tgrid warps\tran\tcompute\tload\tstore\tbarrier\tload lines\tstore lines\n")
			rows := s.Kernels
			if s.OtherKernels != nil {
				rows = append(rows[:len(rows):len(rows)], *s.OtherKernels)
			}
			for _, k := range rows {
				name, grid, block, blocks := kernelName(k.Name), dims(k.Grid), dims(k.Block), decimal(k.Blocks)
				if k.Blocks == 0 {
					name, grid, block, blocks = k.Name, notApplicable, notApplicable, notApplicable
				}
				n := k.Insts
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", name, grid, block, k.Launches, blocks,
					k.GridWarps, k.WarpsRun, n.Compute, n.Loads, n.Stores, n.Barriers, n.LoadLines, n.StoreLines)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

func decimal(n int64) string   { return strconv.FormatInt(n, 10) }
func udecimal(n uint64) string { return strconv.FormatUint(n, 10) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// plural writes n and the noun, singular or plural.
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return decimal(n) + " " + many
}

// dims writes a grid or block size as x,y,z.
func dims(d [3]uint32) string { return fmt.Sprintf("%d,%d,%d", d[0], d[1], d[2]) }

// perPayload writes bytes per payload, or n/a without payloads.
func perPayload(v *float64) string {
	if v == nil {
		return notApplicable
	}
	return strconv.FormatFloat(*v, 'f', 2, 64)
}

// ---- trace cat ----

func runTraceCat(e *env, c *command, args []string) error {
	fs := newFlags(e, c, traceCatHelp)
	format := fs.String("format", "text", "output format: text or csv")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if *format != "text" && *format != "csv" {
		return usagef("-format %q: want text or csv", *format)
	}
	srcs, err := traceSources(e, c, inputs)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(e.stdout, 64<<10)
	cat := &traceCatter{csv: *format == "csv", out: bw}
	if cat.csv {
		cat.cw = csv.NewWriter(bw)
	}
	var outErr error
	failed := e.eachInput(srcs, func(in *input) error {
		if outErr != nil {
			return errOutputFailed
		}
		err := cat.cat(in)
		if ferr := cat.flush(); ferr != nil {
			outErr = ferr
			return ferr
		}
		return err
	})
	if outErr != nil {
		return fmt.Errorf("writing the output: %w", outErr)
	}
	return failed
}

// traceCatter prints traces, one after another, to one output.
type traceCatter struct {
	csv     bool
	out     *bufio.Writer
	cw      *csv.Writer // with csv, writing to out
	csvKind string      // the kind of the CSV's header, once written
	row     []string    // reused CSV record
	buf     []byte      // reused text line
}

func (t *traceCatter) flush() error {
	if t.cw != nil {
		t.cw.Flush()
		if err := t.cw.Error(); err != nil {
			return err
		}
	}
	return t.out.Flush()
}

func (t *traceCatter) cat(in *input) error {
	tf, err := openTrace(in)
	if err != nil {
		return err
	}
	if t.csv {
		switch t.csvKind {
		case "":
			t.csvKind = tf.kind()
			if tf.line != nil {
				t.cw.Write([]string{"input", "time_ps", "src", "dst", "op", "addr", "data"})
			} else {
				t.cw.Write([]string{"input", "kernel", "kernel_name", "block", "warp", "kind", "count", "pc", "lines", "line", "addr", "data"})
			}
		case tf.kind():
		default:
			return fmt.Errorf("a %s trace, and this CSV holds %s records: cat each kind of trace separately", tf.kind(), t.csvKind)
		}
	} else {
		fmt.Fprintf(t.out, "# %s: %s, source %q\n", in.name, tf.describe(), tf.source())
		if tf.line != nil {
			t.out.WriteString("# time_ps src dst op addr data\n")
		}
	}
	if tf.line != nil {
		return t.catLine(in.name, tf.line)
	}
	return tf.eachInst(func(launch int, k warp.Kernel, inst warp.Inst) error {
		t.catInst(in.name, launch, k, inst)
		return nil
	})
}

func (t *traceCatter) catLine(name string, r *trace.Reader) error {
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if t.csv {
			t.row = append(t.row[:0], name, udecimal(rec.Time), udecimal(uint64(rec.Src)), udecimal(uint64(rec.Dst)), rec.Op.String(),
				hexAddr(rec.Addr), hex.EncodeToString(rec.Data))
			t.cw.Write(t.row)
			continue
		}
		b := strconv.AppendUint(t.buf[:0], rec.Time, 10)
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(rec.Src), 10)
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(rec.Dst), 10)
		b = append(b, ' ')
		b = append(b, rec.Op.String()...)
		b = append(b, " 0x"...)
		b = strconv.AppendUint(b, rec.Addr, 16)
		b = append(b, ' ')
		b = hex.AppendEncode(b, rec.Data)
		b = append(b, '\n')
		t.buf = b
		t.out.Write(b)
	}
}

func (t *traceCatter) catInst(name string, launch int, k warp.Kernel, in warp.Inst) {
	if t.csv {
		if in.Kind == 0 { // a launch: its rows name it
			return
		}
		count, pc, lines := "", "", ""
		switch in.Kind {
		case warp.Compute:
			count = udecimal(uint64(in.Count))
		case warp.Load, warp.Store:
			pc, lines = hexAddr(in.PC), decimal(int64(len(in.Lines)))
		}
		t.row = append(t.row[:0], name, decimal(int64(launch)), k.Name, udecimal(uint64(in.Warp.Block)), udecimal(uint64(in.Warp.Index)),
			in.Kind.String(), count, pc, lines, "", "", "")
		if len(in.Lines) == 0 {
			t.cw.Write(t.row)
		}
		for i, l := range in.Lines {
			t.row[9], t.row[10], t.row[11] = decimal(int64(i)), hexAddr(l.Addr), hex.EncodeToString(l.Data)
			t.cw.Write(t.row)
		}
		return
	}
	if in.Kind == 0 {
		fmt.Fprintf(t.out, "kernel %d %q grid %s block %s\n", launch, k.Name, dims(k.Grid), dims(k.Block))
		return
	}
	b := append(t.buf[:0], "block "...)
	b = strconv.AppendUint(b, uint64(in.Warp.Block), 10)
	b = append(b, " warp "...)
	b = strconv.AppendUint(b, uint64(in.Warp.Index), 10)
	b = append(b, ' ')
	b = append(b, in.Kind.String()...)
	switch in.Kind {
	case warp.Compute:
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(in.Count), 10)
	case warp.Load, warp.Store:
		b = append(b, " pc 0x"...)
		b = strconv.AppendUint(b, in.PC, 16)
		b = append(b, " lines "...)
		b = strconv.AppendInt(b, int64(len(in.Lines)), 10)
	}
	b = append(b, '\n')
	for _, l := range in.Lines {
		b = append(b, "  0x"...)
		b = strconv.AppendUint(b, l.Addr, 16)
		b = append(b, ' ')
		b = hex.AppendEncode(b, l.Data)
		b = append(b, '\n')
	}
	t.buf = b
	t.out.Write(b)
}

func hexAddr(a uint64) string { return "0x" + strconv.FormatUint(a, 16) }

// ---- trace lines ----

func runTraceLines(e *env, c *command, args []string) error {
	fs := newFlags(e, c, traceLinesHelp)
	outPath := fs.String("o", "", `output file (default: standard output; "-" is standard output too)`)
	dedup := fs.Bool("dedup", false, "write each distinct payload once, at its first appearance (default: every payload, as traffic)")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	srcs, err := traceSources(e, c, inputs)
	if err != nil {
		return err
	}
	out := &linesOutput{name: "standard output", w: e.stdout}
	if *dedup {
		out.seen, out.pending = map[digest]struct{}{}, map[digest]struct{}{}
	}
	if *outPath == "" || *outPath == "-" {
		if f, ok := e.stdout.(*os.File); ok && isTerminal(f) {
			return usagef("trace lines: standard output is a terminal, and the lines are binary: give -o FILE or redirect it")
		}
	} else {
		if err := notAnInput(*outPath, srcs, e.stdin); err != nil {
			return err
		}
		f, err := os.OpenFile(*outPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return fmt.Errorf("-o %s: %w", *outPath, unwrapPathError(err))
		}
		defer f.Close()
		out.name, out.w = *outPath, f
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			out.file = f
		}
	}
	out.bw = bufio.NewWriterSize(out.w, 64<<10)
	var outErr error
	failed := e.eachInput(srcs, func(in *input) error {
		if outErr != nil {
			return errOutputFailed
		}
		n, err := out.copy(e, in)
		if err == nil {
			if *outPath != "" && *outPath != "-" {
				fmt.Fprintf(e.stdout, "%s: %d payloads", in.name, n.payloads)
				if *dedup {
					fmt.Fprintf(e.stdout, ", %d not seen before", n.written)
				}
				fmt.Fprintln(e.stdout)
			}
			return nil
		}
		var we writeError
		if errors.As(err, &we) {
			outErr = we.err
		}
		return err
	})
	if outErr == nil {
		if err := out.bw.Flush(); err != nil {
			outErr = err
		}
	}
	if outErr != nil {
		return fmt.Errorf("writing %s: %w", out.name, outErr)
	}
	if *outPath != "" && *outPath != "-" {
		if out.lines == 0 {
			fmt.Fprintf(e.stdout, "%s: no lines written\n", out.name)
		} else {
			fmt.Fprintf(e.stdout, "%s: %d lines of %d bytes; measure them with: linecomp ratio -line %d %s\n",
				out.name, out.lines, out.lineSize, out.lineSize, out.name)
		}
	}
	return failed
}

// notAnInput refuses an output file that is also one of the inputs, which
// opening it for writing would empty before it is read.
func notAnInput(path string, srcs []source, stdin io.Reader) error {
	st, err := os.Stat(path)
	if err != nil {
		return nil // it does not exist yet
	}
	for _, s := range srcs {
		var in os.FileInfo
		if s.name == "stdin" {
			if f, ok := stdin.(*os.File); ok {
				in, _ = f.Stat()
			}
		} else {
			in, _ = os.Stat(s.name)
		}
		if in != nil && os.SameFile(st, in) {
			return usagef("-o %s: it is also an input (%s), which writing would empty", path, s.name)
		}
	}
	return nil
}

// linesOutput is where trace lines writes, with what it has written.
type linesOutput struct {
	name     string
	w        io.Writer
	bw       *bufio.Writer
	file     *os.File // the output when it is a regular file, which a failed input's lines can be cut off
	size     int64    // bytes committed: written by inputs that succeeded (and by failed ones on a stream)
	lines    int64    // lines committed
	lineSize int      // of the lines committed; 0 before the first

	// With -dedup, the digests of the payloads committed, and of those
	// the current input has written so far.
	seen, pending map[digest]struct{}
}

// writeError marks a failure to write the output, as opposed to one of
// reading the input.
type writeError struct{ err error }

func (w writeError) Error() string { return "writing the output: " + w.err.Error() }
func (w writeError) Unwrap() error { return w.err }

type copied struct{ payloads, written int64 }

// copy writes the payloads of one trace. If the trace fails part-way, a
// regular output file is cut back to where it was before it; another
// output keeps what was written, and the error says how much.
func (o *linesOutput) copy(e *env, in *input) (copied, error) {
	var n copied
	tf, err := openTrace(in)
	if err != nil {
		return n, err
	}
	lineSize := tf.lineSize()
	if o.lineSize != 0 && lineSize != o.lineSize {
		return n, fmt.Errorf("its lines are %d bytes, and %s already holds %d-byte lines: ratio reads one line size", lineSize, o.name, o.lineSize)
	}
	// Everything before this input is on its way out, so that cutting
	// back cannot lose it.
	if err := o.bw.Flush(); err != nil {
		return n, writeError{err}
	}
	err = tf.eachPayload(func(p []byte) error {
		n.payloads++
		if o.seen != nil {
			d := payloadDigest(p)
			if _, ok := o.seen[d]; ok {
				return nil
			}
			if _, ok := o.pending[d]; ok {
				return nil
			}
			o.pending[d] = struct{}{}
		}
		if _, err := o.bw.Write(p); err != nil {
			return writeError{err}
		}
		n.written++
		if n.payloads%4096 == 0 {
			e.progress.show("trace lines: %s: %s", in.name, progressBytes(tf.count.n, in.size))
		}
		return nil
	})
	if err == nil || o.file == nil {
		// Committed: all of it, or what already went down a stream.
		o.size += n.written * int64(lineSize)
		o.lines += n.written
		if n.written > 0 {
			o.lineSize = lineSize
		}
		for d := range o.pending {
			o.seen[d] = struct{}{}
		}
		clear(o.pending)
		if err != nil && n.written > 0 {
			var we writeError
			if !errors.As(err, &we) {
				err = fmt.Errorf("%w (its first %d payloads were written to %s already)", err, n.written, o.name)
			}
		}
		return n, err
	}
	// Cut the regular file back to where this input started.
	clear(o.pending)
	o.bw.Reset(o.file)
	if terr := o.file.Truncate(o.size); terr != nil {
		return n, writeError{terr}
	}
	if _, serr := o.file.Seek(o.size, io.SeekStart); serr != nil {
		return n, writeError{serr}
	}
	return n, err
}
