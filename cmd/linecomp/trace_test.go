package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/warp"
)

// runTrace runs the command in-process with stdin and returns its status
// and output.
func runTrace(t *testing.T, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	e, out, errOut := testEnv(stdin)
	return run(e, args), out.String(), errOut.String()
}

// encodeLineTrace writes recs as a line-traffic trace.
func encodeLineTrace(t *testing.T, h trace.Header, o trace.Options, recs []trace.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := trace.NewWriterOptions(&buf, h, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var (
	bytes18 = []byte{1, 2, 3, 4, 5, 6, 7, 8}
	zeros8  = make([]byte, 8)
)

// exampleRecords are the records of package trace's worked example.
var exampleRecords = []trace.Record{
	{Time: 1000, Src: 1, Dst: 0, Op: trace.Read, Addr: 0x1000, Data: bytes18},
	{Time: 1000, Src: 1, Dst: 0, Op: trace.Read, Addr: 0x1008, Data: zeros8},
	{Time: 900, Src: 0, Dst: 1, Op: trace.Write, Addr: 0x1000, Data: bytes18},
}

// exampleLineTrace is package trace's worked example: 67 bytes.
func exampleLineTrace(t *testing.T) []byte {
	t.Helper()
	data := encodeLineTrace(t, trace.Header{LineSize: 8, Source: "ex"}, trace.Options{DictEntries: 4}, exampleRecords)
	if len(data) != 67 {
		t.Fatalf("the worked example is %d bytes, the doc says 67", len(data))
	}
	return data
}

type kernelInsts struct {
	k     warp.Kernel
	insts []warp.Inst
}

func encodeWarpTrace(t *testing.T, h warp.Header, kernels []kernelInsts) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := warp.NewWriterOptions(&buf, h, warp.Options{DictEntries: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kernels {
		if err := w.BeginKernel(k.k); err != nil {
			t.Fatal(err)
		}
		for _, in := range k.insts {
			if err := w.Write(in); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func wline(addr uint64, data []byte) warp.Line { return warp.Line{Addr: addr, Data: data} }

// exampleWarpKernels: package warp's worked example (kernel "k", grid 6,
// block 4, warps of 4: block 0 one warp of 4 threads, block 1 one warp of
// 2), launched twice, then a kernel "t" with partial blocks along x and y.
func exampleWarpKernels() []kernelInsts {
	k := warp.Kernel{Name: "k", Grid: [3]uint32{6, 1, 1}, Block: [3]uint32{4, 1, 1}}
	insts := []warp.Inst{
		{Warp: warp.Warp{Block: 0, Index: 0}, Kind: warp.Compute, Count: 2},
		{Warp: warp.Warp{Block: 1, Index: 0}, Kind: warp.Load, PC: 0x100, Lines: []warp.Line{wline(0x40, bytes18), wline(0x48, zeros8)}},
		{Warp: warp.Warp{Block: 0, Index: 0}, Kind: warp.Store, PC: 0x108, Lines: []warp.Line{wline(0x40, bytes18)}},
		{Warp: warp.Warp{Block: 0, Index: 0}, Kind: warp.Barrier},
		{Warp: warp.Warp{Block: 0, Index: 0}, Kind: warp.Exit},
		{Warp: warp.Warp{Block: 1, Index: 0}, Kind: warp.Exit},
	}
	other := warp.Kernel{Name: "t", Grid: [3]uint32{5, 3, 2}, Block: [3]uint32{2, 2, 1}}
	otherInsts := []warp.Inst{
		{Warp: warp.Warp{Block: 11, Index: 0}, Kind: warp.Load, PC: 0x20, Lines: []warp.Line{wline(0x8, []byte{9, 9, 9, 9, 9, 9, 9, 9})}},
		{Warp: warp.Warp{Block: 11, Index: 0}, Kind: warp.Exit},
	}
	return []kernelInsts{{k, insts}, {k, insts}, {other, otherInsts}}
}

var exampleWarpHeader = warp.Header{LineSize: 8, WarpSize: 4, Source: "wx"}

// TestTraceCatLine: every record of the worked example, as text and as CSV.
func TestTraceCatLine(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "ex.lct"), exampleLineTrace(t))
	code, out, errOut := runTrace(t, nil, "trace", "cat", path)
	want := "# " + path + `: line-traffic trace, 8-byte lines, source "ex"
# time_ps src dst op addr data
1000 1 0 read 0x1000 0102030405060708
1000 1 0 read 0x1008 0000000000000000
900 0 1 write 0x1000 0102030405060708
`
	if code != 0 || out != want || errOut != "" {
		t.Errorf("status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}
	code, out, _ = runTrace(t, nil, "trace", "cat", "-format", "csv", path)
	want = "input,time_ps,src,dst,op,addr,data\n" +
		path + ",1000,1,0,read,0x1000,0102030405060708\n" +
		path + ",1000,1,0,read,0x1008,0000000000000000\n" +
		path + ",900,0,1,write,0x1000,0102030405060708\n"
	if code != 0 || out != want {
		t.Errorf("csv: status %d, stdout:\n%s\nwant:\n%s", code, out, want)
	}
}

// TestTraceCatWarp: every instruction of a warp trace, as text and CSV.
func TestTraceCatWarp(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "w.lct"), encodeWarpTrace(t, exampleWarpHeader, exampleWarpKernels()[:1]))
	code, out, errOut := runTrace(t, nil, "trace", "cat", path)
	want := "# " + path + `: warp trace, 8-byte lines, 4-thread warps, source "wx"
kernel 0 "k" grid 6,1,1 block 4,1,1
block 0 warp 0 compute 2
block 1 warp 0 load pc 0x100 lines 2
  0x40 0102030405060708
  0x48 0000000000000000
block 0 warp 0 store pc 0x108 lines 1
  0x40 0102030405060708
block 0 warp 0 barrier
block 0 warp 0 exit
block 1 warp 0 exit
`
	if code != 0 || out != want || errOut != "" {
		t.Errorf("status %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
	}
	code, out, _ = runTrace(t, nil, "trace", "cat", "-format", "csv", path)
	want = "input,kernel,kernel_name,block,warp,kind,count,pc,lines,line,addr,data\n" +
		path + ",0,k,0,0,compute,2,,,,,\n" +
		path + ",0,k,1,0,load,,0x100,2,0,0x40,0102030405060708\n" +
		path + ",0,k,1,0,load,,0x100,2,1,0x48,0000000000000000\n" +
		path + ",0,k,0,0,store,,0x108,1,0,0x40,0102030405060708\n" +
		path + ",0,k,0,0,barrier,,,,,,\n" +
		path + ",0,k,0,0,exit,,,,,,\n" +
		path + ",0,k,1,0,exit,,,,,,\n"
	if code != 0 || out != want {
		t.Errorf("csv: status %d, stdout:\n%s\nwant:\n%s", code, out, want)
	}
}

// infoJSON runs trace info -format json and decodes it.
func infoJSON(t *testing.T, stdin io.Reader, args ...string) []traceInfo {
	t.Helper()
	code, out, errOut := runTrace(t, stdin, append([]string{"trace", "info", "-format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("status %d: %s", code, errOut)
	}
	var infos []traceInfo
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return infos
}

// TestTraceInfoLine: the counts of the worked example, by hand: 3 records
// (Read, Read, Write), two from 1 to 0 and one from 0 to 1, Times 1000,
// 1000, 900, payloads 01…08, zeros, 01…08 (2 distinct), in 67 bytes.
func TestTraceInfoLine(t *testing.T) {
	data := exampleLineTrace(t)
	path := writeFile(t, filepath.Join(t.TempDir(), "ex.lct"), data)
	per := 67.0 / 3
	want := traceInfo{Input: path, Kind: "line-traffic", LineSize: 8, Source: "ex", FileBytes: 67, Payloads: 3,
		DistinctPayloads: 2, DistinctBy: distinctBy, BytesPerPayload: &per,
		Line: &lineStats{Records: 3, Reads: 2, Writes: 1,
			Pairs: []pairCount{{Src: 0, Dst: 1, Writes: 1}, {Src: 1, Dst: 0, Reads: 2}},
			Time:  &timeSpan{First: 1000, Last: 900, Min: 900, Max: 1000}}}
	got := infoJSON(t, nil, path)
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("got %s\nwant %s", jsonText(got), jsonText([]traceInfo{want}))
	}
	// The same from standard input, named stdin.
	want.Input = "stdin"
	got = infoJSON(t, bytes.NewReader(data), "-")
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("stdin: got %s", jsonText(got))
	}

	code, out, _ := runTrace(t, nil, "trace", "info", path)
	wantText := path + `: line-traffic trace, 8-byte lines, 67 bytes
  source    "ex"
  records   3: 2 read, 1 write
  time      first 1000 ps, last 900 ps; min 900 ps, max 1000 ps
  payloads  3, 2 distinct (by SHA-256 of the payload cut to 128 bits)
  size      22.33 bytes of file per record
    src  dst  read  write
      0    1     0      1
      1    0     2      0
`
	if code != 0 || out != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", out, wantText)
	}
	code, out, _ = runTrace(t, nil, "trace", "info", "-format", "csv", path)
	wantCSV := "input,kind,line_size,warp_size,source,file_bytes,payloads,distinct_payloads,bytes_per_payload," +
		"records,reads,writes,time_first_ps,time_last_ps,time_min_ps,time_max_ps,src_dst," +
		"kernel_launches,warps_run,grid_warps,compute,loads,stores,barriers,exits,load_lines,store_lines,kernels\n" +
		path + ",line-traffic,8,,ex,67,3,2,22.33,3,2,1,1000,900,900,1000,\"0>1:read=0,write=1;1>0:read=2,write=0\",,,,,,,,,,,\n"
	if code != 0 || out != wantCSV {
		t.Errorf("csv:\n%s\nwant:\n%s", out, wantCSV)
	}
}

func jsonText(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

// TestTraceInfoWarp: the counts of a warp trace, by hand. Kernel "k"
// launched twice, each launch: compute 2, a load of 2 lines, a store of 1,
// a barrier, 2 exits; its grid (6 threads in blocks of 4, warps of 4)
// holds 2 warps. Kernel "t": grid 5×3×2 in blocks of 2×2×1 is 3×2×2 = 12
// blocks; full blocks of 4 threads (2×1×2 = 4 of them) have 1 warp, the
// partial ones (2, 2 or 1 thread) 1 warp too: 12 warps; one warp ran a
// load of 1 line and exited. Payloads: 01…08, zeros, 01…08 per launch of
// k, then 09…09: 7, of which 3 distinct.
func TestTraceInfoWarp(t *testing.T) {
	data := encodeWarpTrace(t, exampleWarpHeader, exampleWarpKernels())
	path := writeFile(t, filepath.Join(t.TempDir(), "w.lct"), data)
	per := float64(len(data)) / 7
	kInsts := instCounts{Compute: 4, Loads: 2, Stores: 2, Barriers: 2, Exits: 4, LoadLines: 4, StoreLines: 2}
	tInsts := instCounts{Loads: 1, Exits: 1, LoadLines: 1}
	want := traceInfo{Input: path, Kind: "warp", LineSize: 8, WarpSize: 4, Source: "wx", FileBytes: int64(len(data)), Payloads: 7,
		DistinctPayloads: 3, DistinctBy: distinctBy, BytesPerPayload: &per,
		Warp: &warpStats{Launches: 3, WarpsRun: 5, GridWarps: 2 + 2 + 12,
			Insts: instCounts{Compute: 4, Loads: 3, Stores: 2, Barriers: 2, Exits: 5, LoadLines: 5, StoreLines: 2},
			Kernels: []kernelStats{
				{Name: "k", Grid: [3]uint32{6, 1, 1}, Block: [3]uint32{4, 1, 1}, Launches: 2, Blocks: 2, GridWarps: 4, WarpsRun: 4, Insts: kInsts},
				{Name: "t", Grid: [3]uint32{5, 3, 2}, Block: [3]uint32{2, 2, 1}, Launches: 1, Blocks: 12, GridWarps: 12, WarpsRun: 1, Insts: tInsts},
			}}}
	got := infoJSON(t, nil, path)
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("got %s\nwant %s", jsonText(got), jsonText([]traceInfo{want}))
	}
	code, out, _ := runTrace(t, nil, "trace", "info", path)
	wantText := fmt.Sprintf(`%s: warp trace, 8-byte lines, 4-thread warps, %d bytes
  source         "wx"
  kernels        3 launches of 2 kernels (by name, grid and block)
  warps          5 ran; the grids hold 16
  instructions   compute 4, load 3, store 2, barrier 2, exit 5
  line accesses  7: 5 by loads, 2 by stores
  payloads       7, 3 distinct (by SHA-256 of the payload cut to 128 bits)
  size           %.2f bytes of file per line access
  kernel  grid   block  launches  blocks  grid warps  ran  compute  load  store  barrier  load lines  store lines
  k       6,1,1  4,1,1  2         2       4           4    4        2     2      2        4           2
  t       5,3,2  2,2,1  1         12      12          1    0        1     0      0        1           0
`, path, len(data), per)
	if code != 0 || out != wantText {
		t.Errorf("text:\n%s\nwant:\n%s", out, wantText)
	}
	code, out, _ = runTrace(t, nil, "trace", "info", "-format", "csv", path)
	wantRow := fmt.Sprintf("%s,warp,8,4,wx,%d,7,3,%.2f,,,,,,,,,3,5,16,4,3,2,2,5,5,2,\"k grid=6,1,1 block=4,1,1 launches=2;t grid=5,3,2 block=2,2,1 launches=1\"\n", path, len(data), per)
	if _, row, _ := strings.Cut(out, "\n"); code != 0 || row != wantRow {
		t.Errorf("csv row:\n%s\nwant:\n%s", row, wantRow)
	}
}

// TestTraceInfoCaps: past maxPairs sender-receiver pairs and
// maxKernelGroups kernels, the rest are summed into one row.
func TestTraceInfoCaps(t *testing.T) {
	dir := t.TempDir()
	recs := make([]trace.Record, maxPairs+5)
	for i := range recs {
		recs[i] = trace.Record{Src: uint32(len(recs) - i), Op: trace.Read, Data: zeros8} // pairs seen in descending src order
	}
	recs[len(recs)-1].Op = trace.Write
	lp := writeFile(t, filepath.Join(dir, "l.lct"), encodeLineTrace(t, trace.Header{LineSize: 8}, trace.Options{}, recs))
	var kernels []kernelInsts
	for i := range maxKernelGroups + 3 {
		kernels = append(kernels, kernelInsts{k: warp.Kernel{Name: fmt.Sprint("k", i), Grid: [3]uint32{8, 1, 1}, Block: [3]uint32{8, 1, 1}}})
	}
	wp := writeFile(t, filepath.Join(dir, "w.lct"), encodeWarpTrace(t, exampleWarpHeader, kernels))
	infos := infoJSON(t, nil, lp, wp)
	if len(infos) != 2 {
		t.Fatalf("%d reports", len(infos))
	}
	s := infos[0].Line
	// The first maxPairs records made the pairs maxPairs+5 … 6, sorted
	// ascending; the last five (srcs 5 … 1, the last a write) are other.
	if len(s.Pairs) != maxPairs || s.Pairs[0].Src != 6 || s.Pairs[maxPairs-1].Src != maxPairs+5 ||
		s.OtherPairs == nil || *s.OtherPairs != (pairCount{Reads: 4, Writes: 1}) {
		t.Errorf("pairs: %d, first %+v, last %+v, other %+v", len(s.Pairs), s.Pairs[0], s.Pairs[len(s.Pairs)-1], s.OtherPairs)
	}
	w := infos[1].Warp
	// Each launch: one block of 8 threads, two warps of 4.
	if w.Launches != maxKernelGroups+3 || len(w.Kernels) != maxKernelGroups || w.Kernels[maxKernelGroups-1].Name != fmt.Sprint("k", maxKernelGroups-1) ||
		w.OtherKernels == nil || w.OtherKernels.Launches != 3 || w.OtherKernels.GridWarps != 6 || w.GridWarps != 2*(maxKernelGroups+3) {
		t.Errorf("kernels: %d groups of %d launches, other %+v", len(w.Kernels), w.Launches, w.OtherKernels)
	}
}

// TestGridWarps: the count by kinds of block equals the sum over every
// block, on grids with and without partial blocks along each dimension.
func TestGridWarps(t *testing.T) {
	for _, k := range []warp.Kernel{
		{Grid: [3]uint32{6, 1, 1}, Block: [3]uint32{4, 1, 1}},
		{Grid: [3]uint32{5, 3, 2}, Block: [3]uint32{2, 2, 1}},
		{Grid: [3]uint32{64, 64, 1}, Block: [3]uint32{16, 16, 1}},
		{Grid: [3]uint32{100, 7, 9}, Block: [3]uint32{33, 3, 4}},
		{Grid: [3]uint32{3, 1, 1}, Block: [3]uint32{256, 1, 1}},
	} {
		for _, ws := range []int{1, 4, 32, 64} {
			var sum int64
			for b := range k.Blocks() {
				sum += int64(k.Warps(b, ws))
			}
			if got := gridWarps(k, ws); got != sum {
				t.Errorf("grid %v block %v warps of %d: %d, block by block %d", k.Grid, k.Block, ws, got, sum)
			}
		}
	}
}

// lineRecords makes n 64-byte records of sample data in which every third
// payload repeats an earlier one.
func lineRecords(t *testing.T, n int) []trace.Record {
	t.Helper()
	data := sampleData(t, 64*n)
	recs := make([]trace.Record, n)
	for i := range recs {
		src := i
		if i%3 == 2 {
			src = i / 2
		}
		recs[i] = trace.Record{Time: uint64(10 * i), Src: uint32(i % 2), Dst: 2, Op: trace.Op(1 + i%2), Addr: uint64(64 * i), Data: data[64*src : 64*src+64]}
	}
	return recs
}

// ratioJSONOf runs ratio on a file of 64-byte lines.
func ratioJSONOf(t *testing.T, path string) []ratioJSON {
	t.Helper()
	code, out, errOut := runTrace(t, nil, "ratio", "-line", "64", "-codecs", "bdi,fpc,sc2", "-format", "json", path)
	if code != 0 {
		t.Fatalf("ratio: status %d: %s", code, errOut)
	}
	var rows []ratioJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		rows[i].Input = ""
	}
	return rows
}

// TestTraceLinesRatio: the payloads written by trace lines are those of the
// records, in order (or each distinct one once with -dedup), and ratio
// measures them as it measures the same payloads written directly.
func TestTraceLinesRatio(t *testing.T) {
	dir := t.TempDir()
	recs := lineRecords(t, 600)
	path := writeFile(t, filepath.Join(dir, "t.lct"), encodeLineTrace(t, trace.Header{LineSize: 64, Source: "s"}, trace.Options{}, recs))
	var all, distinct []byte
	seen := map[string]bool{}
	for _, r := range recs {
		all = append(all, r.Data...)
		if !seen[string(r.Data)] {
			seen[string(r.Data)] = true
			distinct = append(distinct, r.Data...)
		}
	}
	if len(distinct) == len(all) {
		t.Fatal("the test records have no repeats")
	}
	for _, tc := range []struct {
		flag string
		want []byte
	}{{"", all}, {"-dedup", distinct}} {
		out := filepath.Join(dir, "lines"+tc.flag)
		args := []string{"trace", "lines", "-o", out, path}
		if tc.flag != "" {
			args = append(args, tc.flag)
		}
		code, stdout, errOut := runTrace(t, nil, args...)
		if code != 0 {
			t.Fatalf("%q: status %d: %s", args, code, errOut)
		}
		got, err := os.ReadFile(out)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Fatalf("%q: wrote %d bytes (%v), want %d", args, len(got), err, len(tc.want))
		}
		lines := len(tc.want) / 64
		wantSummary := fmt.Sprintf("%s: 600 payloads\n%s: %d lines of 64 bytes; measure them with: linecomp ratio -line 64 %s\n", path, out, lines, out)
		if tc.flag != "" {
			wantSummary = fmt.Sprintf("%s: 600 payloads, %d not seen before\n%s: %d lines of 64 bytes; measure them with: linecomp ratio -line 64 %s\n", path, lines, out, lines, out)
		}
		if stdout != wantSummary {
			t.Errorf("%q: stdout %q, want %q", args, stdout, wantSummary)
		}
		direct := ratioJSONOf(t, writeFile(t, filepath.Join(dir, "direct"+tc.flag), tc.want))
		viaTrace := ratioJSONOf(t, out)
		if len(viaTrace) != 3 || viaTrace[0].Lines != int64(lines) || !reflect.DeepEqual(direct, viaTrace) {
			t.Errorf("%q: ratio of the lines written:\n%+v\nof the same payloads written directly:\n%+v", args, viaTrace, direct)
		}
	}

	// To standard output, from standard input.
	data, _ := os.ReadFile(path)
	code, stdout, errOut := runTrace(t, bytes.NewReader(data), "trace", "lines", "-")
	if code != 0 || stdout != string(all) || errOut != "" {
		t.Errorf("stdin to stdout: status %d, %d bytes, stderr %q", code, len(stdout), errOut)
	}
}

// TestTraceLinesWarp: a warp trace's line accesses, loads and stores, in
// order.
func TestTraceLinesWarp(t *testing.T) {
	path := writeFile(t, filepath.Join(t.TempDir(), "w.lct"), encodeWarpTrace(t, exampleWarpHeader, exampleWarpKernels()))
	code, out, errOut := runTrace(t, nil, "trace", "lines", path)
	nines := []byte{9, 9, 9, 9, 9, 9, 9, 9}
	want := slicesConcat(bytes18, zeros8, bytes18, bytes18, zeros8, bytes18, nines)
	if code != 0 || out != string(want) {
		t.Errorf("status %d (%s), %x, want %x", code, errOut, out, want)
	}
	code, out, _ = runTrace(t, nil, "trace", "lines", "-dedup", path)
	if want := slicesConcat(bytes18, zeros8, nines); code != 0 || out != string(want) {
		t.Errorf("-dedup: status %d, %x, want %x", code, out, want)
	}
}

func slicesConcat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// formatErrorOf reads a damaged trace with the trace package itself, to the
// end, and returns the *FormatError it gives.
func formatErrorOf(t *testing.T, data []byte) string {
	t.Helper()
	r, err := trace.NewReader(bytes.NewReader(data))
	for err == nil {
		_, err = r.Read()
	}
	var fe *trace.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("reading the damaged trace directly: %v, want a FormatError", err)
	}
	return err.Error()
}

// TestTraceDamaged: a truncated trace, a flipped byte, an empty file and
// a file that is no trace are each one line naming the file (and for a
// trace, the offset), status 1, with the good input still reported.
func TestTraceDamaged(t *testing.T) {
	dir := t.TempDir()
	data := encodeLineTrace(t, trace.Header{LineSize: 64, Source: "s"}, trace.Options{}, lineRecords(t, 300))
	good := writeFile(t, filepath.Join(dir, "good.lct"), data)
	cut := data[:len(data)/2]
	flipped := bytes.Clone(data)
	flipped[len(data)/3] ^= 0x10
	wrongKind := bytes.Clone(data)
	wrongKind[7] = 'X'
	cases := []struct {
		name string
		data []byte
		want string // the message after "linecomp: PATH: "
	}{
		{"cut.lct", cut, formatErrorOf(t, cut)},
		{"flipped.lct", flipped, formatErrorOf(t, flipped)},
		{"empty.lct", nil, "trace: malformed trace at byte 0: empty input"},
		{"text.txt", []byte("hello, world\n"), `trace: malformed trace at byte 0: not a linecomp trace (magic "hello, ")`},
		{"kind.lct", wrongKind, `trace: malformed trace at byte 7: unknown trace kind 'X' (want 'L' for line traffic or 'W' for warp)`},
	}
	offset := regexp.MustCompile(`^trace: malformed trace at byte (\d+): `)
	for _, tc := range cases {
		path := writeFile(t, filepath.Join(dir, tc.name), tc.data)
		m := offset.FindStringSubmatch(tc.want)
		if m == nil {
			t.Fatalf("%s: %q names no offset", tc.name, tc.want)
		}
		if off, _ := strconv.Atoi(m[1]); off > len(tc.data) {
			t.Errorf("%s: offset %d past the %d bytes", tc.name, off, len(tc.data))
		}
		for _, sub := range [][]string{{"info"}, {"cat"}, {"lines", "-o", filepath.Join(dir, "out")}} {
			args := append(append([]string{"trace"}, sub...), path, good)
			code, out, errOut := runTrace(t, nil, args...)
			wantErr := fmt.Sprintf("linecomp: %s: %s\nlinecomp: 1 of 2 inputs failed\n", path, tc.want)
			if code != 1 || errOut != wantErr {
				t.Errorf("%q: status %d, stderr:\n%s\nwant status 1 and:\n%s", args, code, errOut, wantErr)
			}
			if !strings.Contains(out, good) {
				t.Errorf("%q: the good input is not reported:\n%s", args, out)
			}
		}
	}
}

// TestTraceLinesCutBack: a trace that fails after some of its payloads were
// written adds nothing to an -o file, and on standard output says how many
// it left there.
func TestTraceLinesCutBack(t *testing.T) {
	dir := t.TempDir()
	recs := lineRecords(t, 3000) // several 64 KiB blocks, uncompressed
	data := encodeLineTrace(t, trace.Header{LineSize: 64, Source: "s"}, trace.Options{Level: 0, DictEntries: -1}, recs)
	cut := data[:len(data)-100]
	// How many records the damaged trace gives before its error.
	r, err := trace.NewReader(bytes.NewReader(cut))
	readable := 0
	for err == nil {
		if _, err = r.Read(); err == nil {
			readable++
		}
	}
	if readable == 0 || readable == len(recs) {
		t.Fatalf("the cut trace gives %d records before its error; the test wants some but not all", readable)
	}
	first := lineRecords(t, 10)
	good := writeFile(t, filepath.Join(dir, "good.lct"), encodeLineTrace(t, trace.Header{LineSize: 64}, trace.Options{}, first))
	bad := writeFile(t, filepath.Join(dir, "cut.lct"), cut)
	other := writeFile(t, filepath.Join(dir, "other.lct"), encodeLineTrace(t, trace.Header{LineSize: 32}, trace.Options{}, []trace.Record{{Op: trace.Read, Data: make([]byte, 32)}}))
	var want []byte
	for _, r := range first {
		want = append(want, r.Data...)
	}
	out := filepath.Join(dir, "out")
	code, stdout, errOut := runTrace(t, nil, "trace", "lines", "-o", out, good, bad, other, good)
	got, _ := os.ReadFile(out)
	if code != 1 || !bytes.Equal(got, slicesConcat(want, want)) {
		t.Errorf("status %d, %d bytes written, want the good trace's %d twice; stderr:\n%s", code, len(got), len(want), errOut)
	}
	wantErr := fmt.Sprintf("linecomp: %s: %s\nlinecomp: %s: its lines are 32 bytes, and %s already holds 64-byte lines: ratio reads one line size\nlinecomp: 2 of 4 inputs failed\n",
		bad, formatErrorOf(t, cut), other, out)
	if errOut != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, wantErr)
	}
	if !strings.HasSuffix(stdout, fmt.Sprintf("%s: 20 lines of 64 bytes; measure them with: linecomp ratio -line 64 %s\n", out, out)) {
		t.Errorf("stdout:\n%s", stdout)
	}

	code, stdout, errOut = runTrace(t, nil, "trace", "lines", bad)
	wantErr = fmt.Sprintf("linecomp: %s: %s (its first %d payloads were written to standard output already)\n", bad, formatErrorOf(t, cut), readable)
	if code != 1 || errOut != wantErr || len(stdout) != 64*readable {
		t.Errorf("to stdout: status %d, %d bytes, stderr:\n%s\nwant:\n%s", code, len(stdout), errOut, wantErr)
	}
}

// TestTraceBothKinds: one run reads a line-traffic and a warp trace, from a
// directory and from a pipe on standard input; a CSV refuses to mix them.
func TestTraceBothKinds(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.lct"), exampleLineTrace(t))
	warpData := encodeWarpTrace(t, exampleWarpHeader, exampleWarpKernels())
	writeFile(t, filepath.Join(dir, "b.lct"), warpData)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		pw.Write(warpData)
		pw.Close()
	}()
	infos := infoJSON(t, pr, dir, "-")
	pr.Close()
	if len(infos) != 3 || infos[0].Kind != "line-traffic" || infos[1].Kind != "warp" || infos[2].Input != "stdin" ||
		infos[2].Kind != "warp" || infos[2].Payloads != 7 || infos[2].FileBytes != int64(len(warpData)) {
		t.Errorf("infos %s", jsonText(infos))
	}
	code, out, errOut := runTrace(t, nil, "trace", "cat", "-format", "csv", dir)
	wantErr := fmt.Sprintf("linecomp: %s: a warp trace, and this CSV holds line-traffic records: cat each kind of trace separately\nlinecomp: 1 of 2 inputs failed\n", filepath.Join(dir, "b.lct"))
	if code != 1 || errOut != wantErr || strings.Count(out, "\n") != 4 {
		t.Errorf("status %d, stderr:\n%s\nwant:\n%s\nstdout:\n%s", code, errOut, wantErr, out)
	}
}

// TestTraceUsage: usage errors are status 2, before any input is read.
func TestTraceUsage(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, filepath.Join(dir, "ex.lct"), exampleLineTrace(t))
	for _, args := range [][]string{
		{"trace", "info"},
		{"trace", "info", "-format", "xml", path},
		{"trace", "cat", "-format", "json", path},
		{"trace", "lines", "-o", path, path},
		{"trace", "lines", "-x", path},
		{"trace", "nope"},
	} {
		code, out, errOut := runTrace(t, nil, args...)
		if code != 2 || out != "" || len(errorLines(errOut)) != 1 {
			t.Errorf("%q: status %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if data, err := os.ReadFile(path); err != nil || len(data) != 67 {
		t.Errorf("-o onto an input changed it: %d bytes, %v", len(data), err)
	}
}

// TestCommittedTraces: trace info reads every trace committed to the
// repository, and trace lines writes as many lines as info counts payloads.
func TestCommittedTraces(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../../sample/testdata/traces/*"} {
		m, _ := filepath.Glob(pattern)
		for _, p := range m {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, ".txt") && !strings.HasSuffix(p, ".sh") {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		t.Fatal("no committed traces under sample/testdata/traces")
	}
	for _, p := range paths {
		infos := infoJSON(t, nil, p)
		if len(infos) != 1 || infos[0].Payloads == 0 {
			t.Errorf("%s: %s", p, jsonText(infos))
			continue
		}
		out := filepath.Join(t.TempDir(), "lines")
		if code, _, errOut := runTrace(t, nil, "trace", "lines", "-o", out, p); code != 0 {
			t.Errorf("%s: trace lines: status %d: %s", p, code, errOut)
			continue
		}
		lines, err := os.ReadFile(out)
		if err != nil || int64(len(lines)) != infos[0].Payloads*int64(infos[0].LineSize) {
			t.Errorf("%s: trace lines wrote %d bytes (%v), want %d payloads of %d", p, len(lines), err, infos[0].Payloads, infos[0].LineSize)
		}
	}
}
