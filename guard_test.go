package linecomp_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/guard"
	"github.com/linecomp/linecomp/internal/race"
)

// guardRegions are the two guarded regions (see package guard) of
// TestGuardedBuffers: one for a call's input, one for its output.
type guardRegions struct{ in, out *guard.Region }

// newGuardRegions maps the regions of TestGuardedBuffers, or skips the
// test where guarded memory is not available.
func newGuardRegions(t *testing.T, size int) guardRegions {
	t.Helper()
	var g guardRegions
	for _, r := range []**guard.Region{&g.in, &g.out} {
		var err error
		*r, err = guard.New(size)
		if errors.Is(err, guard.ErrUnsupported) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := (*r).Free(); err != nil {
				t.Error(err)
			}
		})
	}
	return g
}

// guardedLines is the number of lines of each sample and corpus file that
// TestGuardedBuffers compresses and decodes (with the edge lines); it also
// decodes the streams of the first guardedCuts lines, and of every 16th,
// cut at every length and mangled.
const (
	guardedLines = 8
	guardedCuts  = 2
)

// TestGuardedBuffers: no codec, at any kernel level, reads or writes a
// byte outside the slices it is given, in any of its operations. Each
// input is placed so that the byte after its capacity, or the one before
// its first byte, is in an inaccessible page, and so is each output's; a
// kernel that touched either would fault (and the fault is reported as a
// failure naming the call). Streams are decoded whole, cut at every
// length, with junk after them and with room after them up to the
// inaccessible page, which a decoder may read (it is the slice's
// capacity) but must not decode. Each result must equal that of the same
// call on ordinary memory.
func TestGuardedBuffers(t *testing.T) {
	if race.Enabled {
		t.Skip("bounds, not races: the run without -race checks them; the race detector slows this test about 20-fold")
	}
	corpora := codectest.Files(t)[len(codectest.Sample()):]
	g := newGuardRegions(t, 1<<20)
	for _, in := range allInstances(t) {
		c := in.c
		t.Run(fmt.Sprintf("%s/%d", c.Name(), c.LineSize()), func(t *testing.T) {
			n := c.LineSize()
			lines := codectest.SampleLines(n, guardedLines)
			for _, f := range corpora {
				// guardedLines lines spread over each corpus file.
				count := len(f.Data) / n
				for i := range min(count, guardedLines) {
					off := i * (count / guardedLines) * n
					lines = append(lines, f.Data[off:off+n])
				}
			}
			codectest.ForEachLevel(t, func(t *testing.T) {
				for i, line := range lines {
					enc := checkGuardedLine(t, g, c, line)
					if enc == nil {
						return
					}
					if i < guardedCuts || i%16 == 0 {
						for _, bad := range guardMangles(enc) {
							checkGuardedStream(t, g, c, bad)
						}
					}
				}
				checkGuardedBatch(t, g, c, slices.Concat(lines...))
			})
		})
	}
}

// guarded runs f, failing the test with what if f faulted.
func guarded(t *testing.T, what string, f func()) bool {
	t.Helper()
	if err := guard.Catch(f); err != nil {
		t.Errorf("%s: %v", what, err)
		return false
	}
	return true
}

// placement puts a copy of an input somewhere in a guarded region and
// returns it.
type placement struct {
	where string
	place func() []byte
}

// placements returns the placements of b at the end of r (nothing after
// its capacity) and at its start (nothing before it), each with room
// extra bytes of capacity after it filled with junk. Each placement
// overwrites the region, the other placement's copy included.
func placements(r *guard.Region, b []byte, room int) []placement {
	at := func(s []byte) []byte {
		for i := range s {
			s[i] = 0xA5
		}
		return s[:copy(s, b)]
	}
	return []placement{
		{fmt.Sprintf("at the end, %d bytes of room", room), func() []byte { return at(r.Tail(len(b) + room)) }},
		{fmt.Sprintf("at the start, %d bytes of room", room), func() []byte { return at(r.Head(len(b) + room)) }},
	}
}

// checkGuardedLine compresses line from guarded memory into guarded
// outputs, and decodes the stream from guarded memory into guarded
// outputs, and returns the stream (nil after a failure).
func checkGuardedLine(t *testing.T, g guardRegions, c linecomp.Codec, line []byte) []byte {
	t.Helper()
	n := c.LineSize()
	want, bits, err := c.Compress(nil, line)
	if err != nil {
		t.Errorf("%X: Compress: %v", line, err)
		return nil
	}
	for _, p := range placements(g.in, line, 0) {
		where, l := p.where, p.place()
		// dst: no room, the stream's room exactly, a line's room less
		// one, a line's, a raw stream's and one more, and a prefix
		// before the room.
		for _, d := range []struct{ prefix, room int }{{0, 0}, {0, len(want)}, {0, n - 1}, {0, n}, {0, n + 1}, {0, n + 2}, {3, len(want)}, {5, 2*n + 16}} {
			dst := g.out.Tail(d.prefix + d.room)[:d.prefix]
			for i := range dst {
				dst[i] = byte(i + 1)
			}
			var got []byte
			var gotBits int
			var gotErr error
			if !guarded(t, fmt.Sprintf("Compress of %X %s into %d+%d bytes", line, where, d.prefix, d.room), func() {
				got, gotBits, gotErr = c.Compress(dst, l)
			}) {
				return nil
			}
			if gotErr != nil || gotBits != bits || !bytes.Equal(got[d.prefix:], want) || !bytes.Equal(got[:d.prefix], dst) {
				t.Errorf("Compress of %X %s into %d+%d bytes: %X, %d bits, %v; want %X, %d bits", line, where, d.prefix, d.room, got, gotBits, gotErr, want, bits)
				return nil
			}
		}
	}
	checkGuardedStream(t, g, c, want)
	return want
}

// checkGuardedStream decodes enc from guarded memory, with no room after
// it and with room, into guarded outputs, and checks the result against
// Decompress on ordinary memory.
func checkGuardedStream(t *testing.T, g guardRegions, c linecomp.Codec, enc []byte) {
	t.Helper()
	n := c.LineSize()
	want, wantErr := c.Decompress(nil, enc)
	for _, room := range []int{0, 1, 7, 8, 63, 64, 65, 200} {
		for _, p := range placements(g.in, enc, room) {
			where, e := p.where, p.place()
			for _, d := range []struct{ prefix, room int }{{0, 0}, {0, n}, {0, n + 1}, {5, n}} {
				dst := g.out.Tail(d.prefix + d.room)[:d.prefix]
				var got []byte
				var err error
				if !guarded(t, fmt.Sprintf("Decompress of %X %s into %d+%d bytes", enc, where, d.prefix, d.room), func() {
					got, err = c.Decompress(dst, e)
				}) {
					return
				}
				if (err == nil) != (wantErr == nil) || err == nil && !bytes.Equal(got[d.prefix:], want) {
					t.Errorf("Decompress of %X %s into %d+%d bytes: %X, %v; on ordinary memory %X, %v", enc, where, d.prefix, d.room, got, err, want, wantErr)
					return
				}
			}
		}
	}
}

// guardMangles returns enc cut at every length, with a byte of junk
// after it, and with each of its first bytes inverted. Unlike
// codectest.Mangle, which picks one mangle of a line for the kernels'
// cross-checks, it cuts at every length: each cut moves the stream's end
// against the inaccessible page.
func guardMangles(enc []byte) [][]byte {
	var out [][]byte
	for k := range len(enc) {
		out = append(out, enc[:k])
	}
	out = append(out, append(slices.Clone(enc), 0xFF))
	for i := range min(len(enc), 8) {
		bad := slices.Clone(enc)
		bad[i] ^= 0xFF
		out = append(out, bad)
	}
	return out
}

// guardJunk returns streams of every length up to 2n+2 bytes, all ones:
// for most codecs a stream of the longest codes, which a decoder that
// reads a stream in place follows furthest.
func guardJunk(n int) [][]byte {
	var out [][]byte
	for k := 1; k <= 2*n+2; k++ {
		out = append(out, bytes.Repeat([]byte{0xFF}, k))
	}
	return out
}

// checkGuardedBatch runs Sizes, CompressLines and DecompressLines on data
// (whole lines) and its streams from guarded memory into guarded outputs.
func checkGuardedBatch(t *testing.T, g guardRegions, c linecomp.Codec, data []byte) {
	t.Helper()
	n := c.LineSize()
	count := len(data) / n
	wantSizes, err := linecomp.Sizes(c, nil, data)
	if err != nil {
		t.Errorf("Sizes: %v", err)
		return
	}
	var want linecomp.Lines
	if err := linecomp.CompressLines(c, &want, data); err != nil {
		t.Errorf("CompressLines: %v", err)
		return
	}
	for _, p := range placements(g.in, data, 0) {
		where, d := p.where, p.place()
		var sizes []int
		if !guarded(t, "Sizes of the lines "+where, func() { sizes, err = linecomp.Sizes(c, nil, d) }) {
			return
		}
		if err != nil || !slices.Equal(sizes, wantSizes) {
			t.Errorf("Sizes of the lines %s: %v, %v; on ordinary memory %v", where, sizes, err, wantSizes)
		}
		// Enc: the streams' room exactly, and every line raw's.
		for _, room := range []int{len(want.Enc), count * (n + 8)} {
			got := linecomp.Lines{Enc: g.out.Tail(room)[:0]}
			if !guarded(t, fmt.Sprintf("CompressLines of the lines %s into %d bytes", where, room), func() { err = linecomp.CompressLines(c, &got, d) }) {
				return
			}
			if err != nil || !bytes.Equal(got.Enc, want.Enc) || !slices.Equal(got.End, want.End) || !slices.Equal(got.Bits, want.Bits) {
				t.Errorf("CompressLines of the lines %s into %d bytes: %v, or not the streams of ordinary memory", where, room, err)
			}
		}
	}
	for _, p := range placements(g.in, want.Enc, 0) {
		where, e := p.where, p.place()
		src := linecomp.Lines{Enc: e, End: want.End, Bits: want.Bits}
		dst := g.out.Tail(count * n)[:0]
		var got []byte
		if !guarded(t, "DecompressLines of the streams "+where, func() { got, err = linecomp.DecompressLines(c, dst, &src) }) {
			return
		}
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("DecompressLines of the streams %s: %v, or not the lines", where, err)
		}
	}
	// The streams with the last one mangled, and that one alone: batch
	// kernels read streams in place, and the last one ends at the
	// inaccessible page.
	last := want.Line(count - 1)
	lastStart := len(want.Enc) - len(last)
	junk := guardJunk(n)
	for _, j := range junk {
		checkGuardedStream(t, g, c, j)
	}
	for _, bad := range append(guardMangles(last), junk...) {
		for _, first := range []int{count - 1, 0} {
			from := 0
			if first > 0 {
				from = want.End[first-1]
			}
			enc := append(slices.Clone(want.Enc[from:lastStart]), bad...)
			ends := make([]int, 0, count-first)
			for _, e := range want.End[first : count-1] {
				ends = append(ends, e-from)
			}
			ends = append(ends, len(enc))
			src := linecomp.Lines{Enc: enc, End: ends, Bits: make([]int, len(ends))}
			wantLines, wantErr := linecomp.DecompressLines(struct{ linecomp.Codec }{c}, nil, &src) // line by line
			for _, p := range placements(g.in, enc, 0) {
				where, e := p.where, p.place()
				src := linecomp.Lines{Enc: e, End: ends, Bits: src.Bits}
				dst := g.out.Tail(len(ends) * n)[:0]
				var got []byte
				what := fmt.Sprintf("DecompressLines of %d streams ending with %X %s", len(ends), bad, where)
				if !guarded(t, what, func() { got, err = linecomp.DecompressLines(c, dst, &src) }) {
					return
				}
				if !bytes.Equal(got, wantLines) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s: %X, %v; line by line on ordinary memory %X, %v", what, got, err, wantLines, wantErr)
					return
				}
			}
		}
	}
}
