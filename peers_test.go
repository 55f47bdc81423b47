package linecomp_test

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// peerRow is one comparison of issue 13: an operation of a linecomp codec
// and the fastest public implementation of the same algorithm, timed by
// the harness (g++ -O2 and -O3 -march=native, called directly, on
// 30 MB of held-out memory images, the median of 5 rounds).
type peerRow struct {
	name  string // the algorithm, line size and operation
	codec string // the registered linecomp codec
	line  int
	op    string // "size" (linecomp.Sizes), "encode" (Compress, line by line) or "lines" (linecomp.CompressLines)
	peer  string
	mbps  float64 // the peer's MB/s on the harness's machine
}

var peerRows = []peerRow{
	{"BDI-64-encode", "bdi", 64, "encode", "2DOC AVX2 encoder", 3352},
	// The row is Compress line by line; this one is the same
	// encoding of the same buffer by the batch entry point, which calls
	// into assembly once rather than once per line.
	{"BDI-64-encode-batch", "bdi", 64, "lines", "2DOC AVX2 encoder", 3352},
	{"B+Δ-64-size", "bdi-single", 64, "size", "Kim BDCompressorQW", 11375},
	{"B+Δ-128-size", "bdi-single", 128, "size", "Kim BDCompressorQW", 13909},
	{"BDI-64-size", "bdi", 64, "size", "Kim BDI", 6369},
	{"BDI-128-size", "bdi", 128, "size", "Kim BDI", 7663},
	{"FPC-64-encode", "fpc", 64, "encode", "2DOC scalar", 780},
	{"C-Pack-64-size", "cpack", 64, "size", "2DOC scalar", 631},
	{"C-Pack-64-encode", "cpack", 64, "encode", "2DOC scalar", 457},
}

// BenchmarkPeers times each row of issue 13 on one buffer (every corpus
// file, or the embedded sample without corpora, cut to whole 128-byte
// lines) next to memcpy of the same buffer. Besides MB/s it reports the
// peer's figure, the ratio to it (the issue asks for 2×) and the ratio to
// memcpy (0.9× stands in for 2× where 2× the peer is beyond memcpy):
//
//	go test -run '^$' -bench Peers -benchtime 1s -linecomp.rounds 5 .
//
// With -linecomp.rounds N every row, memcpy first, is timed once per
// round, as the harness does, and a table of the rows' medians is
// printed at the end. The peer figures come from the harness on its
// machine; the ratios mean most when this runs on the same machine.
func BenchmarkPeers(b *testing.B) {
	data, caveat := peersBuffer(b)
	rows := []roundRow{memcpyRow(data, caveat)}
	for _, row := range peerRows {
		rows = append(rows, roundRow{row.name, func(b *testing.B, memcpy float64) float64 {
			if caveat != "" {
				b.Log(caveat)
			}
			c, err := linecomp.New(row.codec, row.line)
			if err != nil {
				b.Fatal(err)
			}
			got := timeOp(b, c, row.op, data, nil)
			b.ReportMetric(row.mbps, "peer-MB/s")
			b.ReportMetric(got/row.mbps, "x-peer")
			if memcpy > 0 {
				b.ReportMetric(got/memcpy, "x-memcpy")
			}
			return got
		}})
	}
	got := timeRounds(b, rows)
	if *benchRounds < 2 {
		return
	}
	var t strings.Builder
	t.WriteString(roundsHeader(got[0]))
	fmt.Fprintf(&t, "| row | peer, MB/s | MB/s, median (min–max) | × peer | × memcpy |\n|---|---|---|---|---|\n")
	for i, row := range peerRows {
		g := got[i+1]
		if slices.Contains(g, 0) {
			continue // filtered out by -bench
		}
		fmt.Fprintf(&t, "| %s | %.0f | %s | %.2f | %s |\n", row.name, row.mbps, spread(g), median(g)/row.mbps, medianRatio(g, got[0]))
	}
	printTable(b, t.String())
}

var benchRounds = flag.Int("linecomp.rounds", 1, "BenchmarkPeers and BenchmarkTargets: time every row once per round, this many rounds, and print a table of the medians")

// roundRow is one row of an interleaved benchmark: time runs it in a
// (sub-)benchmark, given the MB/s of memcpy in the same round (0 when it
// was filtered out), and returns its MB/s.
type roundRow struct {
	name string
	time func(b *testing.B, memcpy float64) float64
}

// timeRounds runs rows[0] (memcpy) and then every other row as
// sub-benchmarks, and again for each of -linecomp.rounds rounds (named
// "round<r>/<row>" when there are several), so this VM's swings from one
// minute to the next fall on all rows alike rather than on whichever row
// -count happened to be repeating. It returns each row's MB/s by round, 0
// for a row that -bench filtered out.
func timeRounds(b *testing.B, rows []roundRow) [][]float64 {
	rounds := *benchRounds
	if rounds < 1 {
		b.Fatalf("-linecomp.rounds %d: there must be at least one round", rounds)
	}
	got := make([][]float64, len(rows))
	for i := range got {
		got[i] = make([]float64, rounds)
	}
	for r := range rounds {
		for i, row := range rows {
			name := row.name
			if rounds > 1 {
				name = fmt.Sprintf("round%d/%s", r+1, row.name)
			}
			b.Run(name, func(b *testing.B) {
				// A function timed with b.Loop runs once; the last call
				// is the measurement in any case.
				got[i][r] = row.time(b, got[0][r])
			})
		}
	}
	return got
}

// memcpyRow times copying data, the yardstick of the fractional floors.
func memcpyRow(data []byte, caveat string) roundRow {
	return roundRow{"memcpy", func(b *testing.B, _ float64) float64 {
		if caveat != "" {
			b.Log(caveat)
		}
		dst := make([]byte, len(data))
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, data)
		}
		return mbps(b, len(data))
	}}
}

// printTable prints a table of medians to standard output, where the
// benchmark lines go: a parent benchmark's b.Log shows only with -v.
func printTable(b *testing.B, table string) {
	fmt.Printf("--- %s\n%s\n", b.Name(), table)
}

// median returns the median of xs (the mean of the middle two for an even
// count), not changing xs.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s) == 0 {
		return 0
	}
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}

// roundsHeader is the first line of a table of medians, with memcpy's
// MB/s over the rounds.
func roundsHeader(memcpy []float64) string {
	if slices.Contains(memcpy, 0) {
		return fmt.Sprintf("medians of %d rounds; memcpy not timed (filtered out by -bench)\n", len(memcpy))
	}
	return fmt.Sprintf("medians of %d rounds; memcpy %s MB/s\n", len(memcpy), spread(memcpy))
}

// medianRatio formats the median over rounds r of xs[r]/ys[r], or "—"
// when some ys[r] is 0 (memcpy, or the floor made from it, filtered out
// by -bench).
func medianRatio(xs, ys []float64) string {
	q := make([]float64, len(xs))
	for r := range xs {
		if ys[r] == 0 {
			return "—"
		}
		q[r] = xs[r] / ys[r]
	}
	return fmt.Sprintf("%.2f", median(q))
}

// spread formats the median of xs and their range.
func spread(xs []float64) string {
	return fmt.Sprintf("%.0f (%.0f–%.0f)", median(xs), slices.Min(xs), slices.Max(xs))
}

// timeOp times op of c over data, one pass per iteration, and returns its
// MB/s: "size" is linecomp.Sizes of data, "encode" Compress line by line
// into a reused buffer, "lines" linecomp.CompressLines of data into a
// reused Lines, "decode" Decompress of each line of encoded (data
// compressed by c) the same way, "decode-lines" linecomp.DecompressLines
// of encoded into a reused buffer.
func timeOp(b *testing.B, c linecomp.Codec, op string, data []byte, encoded *linecomp.Lines) float64 {
	n := c.LineSize()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	// Preparing a row (compressing the whole buffer for "decode") leaves
	// tens of MB of garbage, and the collection it sets off would still be
	// marking on the other core while the loop runs: finish it first.
	runtime.GC()
	switch {
	case op == "size":
		sizes := make([]int, 0, len(data)/n)
		var err error
		for b.Loop() {
			if sizes, err = linecomp.Sizes(c, sizes[:0], data); err != nil {
				b.Fatal(err)
			}
		}
	case op == "encode":
		buf := make([]byte, 0, 2*n+16)
		for b.Loop() {
			for off := 0; off < len(data); off += n {
				buf, _, _ = c.Compress(buf[:0], data[off:off+n])
			}
		}
	case op == "lines":
		var lines linecomp.Lines
		for b.Loop() {
			lines.Reset()
			if err := linecomp.CompressLines(c, &lines, data); err != nil {
				b.Fatal(err)
			}
		}
	case op == "decode" && encoded != nil:
		buf := make([]byte, 0, n)
		for b.Loop() {
			for i := range encoded.Len() {
				buf, _ = c.Decompress(buf[:0], encoded.Line(i))
			}
		}
	case op == "decode-lines" && encoded != nil:
		buf := make([]byte, 0, len(data))
		var err error
		for b.Loop() {
			if buf, err = linecomp.DecompressLines(c, buf[:0], encoded); err != nil {
				b.Fatal(err)
			}
		}
	default:
		b.Fatalf("operation %q: not one that can be timed here", op)
	}
	return mbps(b, len(data))
}

// peersBuffer returns one buffer of every benchmark file, cut to whole
// 128-byte lines. Without the corpora the buffer is the embedded sample,
// and caveat is a sentence saying so for every row to log: the peer
// figures are for tens of MB of corpora, and a buffer of a few hundred KB
// that stays in cache is another measurement. Run from outside the module,
// the corpora are not found unless LINECOMP_CORPORA names them.
func peersBuffer(b *testing.B) (data []byte, caveat string) {
	files, corpora := benchFilesAt(b, 128)
	for _, f := range files {
		data = append(data, f.Data...)
	}
	if !corpora {
		caveat = fmt.Sprintf("timed on the %d-byte embedded sample, not the corpora: set LINECOMP_CORPORA to time the corpora", len(data))
	}
	return data, caveat
}

// benchFilesAt is benchFiles at line size n: the corpora, or the sample
// when there are none (corpora false), each cut to whole n-byte lines.
func benchFilesAt(b *testing.B, n int) (files []codectest.File, corpora bool) {
	files = codectest.Files(b)
	if corpora = len(files) > len(codectest.Sample()); corpora {
		files = files[len(codectest.Sample()):] // the corpora contain the sample
	}
	for i := range files {
		files[i].Data = files[i].Data[:len(files[i].Data)/n*n]
	}
	return files, corpora
}

// mbps is the throughput of a finished benchmark loop over n bytes.
func mbps(b *testing.B, n int) float64 {
	return float64(n) * float64(b.N) / b.Elapsed().Seconds() / 1e6
}

// targetRow is one of issue 13's standing floors: an operation of a codec
// that must reach a fraction of memcpy (memcpyFrac) or a fixed MB/s.
type targetRow struct {
	codec      string
	line       int
	op         string // "size", "encode", "decode", "lines" or "decode-lines"
	memcpyFrac float64
	mbps       float64
}

var targetRows = func() []targetRow {
	var rows []targetRow
	for _, line := range []int{64, 128} {
		sizeFrac := 0.35
		if line == 128 {
			sizeFrac = 0.5
		}
		for _, c := range []string{"bdi", "magbdi-16", "magbdi-32"} {
			rows = append(rows, targetRow{c, line, "size", sizeFrac, 0})
		}
		for _, c := range []string{"bdi", "magbdi-16", "magbdi-32", "fpc"} {
			rows = append(rows, targetRow{c, line, "encode", 0.18, 0}, targetRow{c, line, "decode", 0.18, 0})
		}
		// The floors are for Compress and Decompress, line by line; these
		// rows time the same coding by the batch entry points,
		// linecomp.CompressLines ("lines") and linecomp.DecompressLines,
		// for the codecs with batch kernels for both.
		for _, c := range []string{"bdi", "fpc"} {
			rows = append(rows, targetRow{c, line, "lines", 0.18, 0}, targetRow{c, line, "decode-lines", 0.18, 0})
		}
		for _, op := range []string{"size", "encode", "decode"} {
			rows = append(rows, targetRow{"bpc", line, op, 0, 1500}, targetRow{"cpack", line, op, 0, 1000})
		}
		if line == 64 {
			// BPC's batch decoder, at the line size it has a kernel for.
			rows = append(rows, targetRow{"bpc", line, "decode-lines", 0, 1500})
		}
		rows = append(rows, targetRow{"sc2", line, "encode", 0, 800}, targetRow{"sc2", line, "decode", 0, 1000})
	}
	return rows
}()

// BenchmarkTargets times the standing floors of issue 13 (Sizes, Compress
// and Decompress of every fast codec at 64 and 128 bytes) on the same
// buffer as BenchmarkPeers, next to memcpy, and reports each row's ratio
// to its floor ("x-floor" ≥ 1 meets it):
//
//	go test -run '^$' -bench Targets -benchtime 1s -linecomp.rounds 3 .
//
// -linecomp.rounds is BenchmarkPeers's.
func BenchmarkTargets(b *testing.B) {
	data, caveat := peersBuffer(b)
	rows := []roundRow{memcpyRow(data, caveat)}
	floor := func(row targetRow, memcpy float64) float64 {
		if row.memcpyFrac > 0 {
			return row.memcpyFrac * memcpy
		}
		return row.mbps
	}
	for _, row := range targetRows {
		// One codec for all rounds, and for a decode row one encoding of
		// the buffer; the other rows let theirs go, or the rows' encodings
		// of the buffer would all stay alive until the last round.
		w := &benchWork{name: row.codec, data: data, line: row.line}
		rows = append(rows, roundRow{row.name(), func(b *testing.B, memcpy float64) float64 {
			if caveat != "" {
				b.Log(caveat)
			}
			c := w.prepare(b)
			if row.op != "decode" && row.op != "decode-lines" {
				w.encoded = linecomp.Lines{}
			}
			got := timeOp(b, c, row.op, data, &w.encoded)
			if f := floor(row, memcpy); f > 0 {
				b.ReportMetric(got/f, "x-floor")
			}
			return got
		}})
	}
	got := timeRounds(b, rows)
	if *benchRounds < 2 {
		return
	}
	var t strings.Builder
	t.WriteString(roundsHeader(got[0]))
	fmt.Fprintf(&t, "| row | floor, MB/s | MB/s, median (min–max) | × floor |\n|---|---|---|---|\n")
	for i, row := range targetRows {
		g := got[i+1]
		if slices.Contains(g, 0) {
			continue // filtered out by -bench
		}
		floors := make([]float64, len(g))
		for r := range g {
			floors[r] = floor(row, got[0][r])
		}
		floorText := "—" // a fraction of memcpy, which -bench filtered out
		if !slices.Contains(floors, 0) {
			floorText = fmt.Sprintf("%.0f", median(floors))
		}
		fmt.Fprintf(&t, "| %s | %s | %s | %s |\n", row.name(), floorText, spread(g), medianRatio(g, floors))
	}
	printTable(b, t.String())
}

// name is the row's sub-benchmark name: codec/line/op.
func (row targetRow) name() string {
	return fmt.Sprintf("%s/%d/%s", row.codec, row.line, row.op)
}
