package warp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/internal/tracefile"
)

// kernelTrace is one kernel and its instructions as written.
type kernelTrace struct {
	K     Kernel
	Insts []Inst
}

func line(addr uint64, data ...byte) Line { return Line{Addr: addr, Data: data} }

var (
	p18   = []byte{1, 2, 3, 4, 5, 6, 7, 8}
	zero8 = make([]byte, 8)
)

// workedExample is the doc's worked example, byte by byte.
var workedExample = []byte{
	0x4C, 0x43, 0x54, 0x52, 0x41, 0x43, 0x45, 'W', 0x02,
	// header 'H', 7 bytes: flags 0, LineSize 8, DictEntries 4, Source "ex", WarpSize 4
	0x48, 0x07, 0x00, 0x08, 0x04, 0x02, 0x65, 0x78, 0x04,
	0x1A, 0xEE, 0x40, 0xEF,
	// data 'D', 50 bytes, 7 items
	0x44, 0x32, 0x07,
	0x00, 0x01, 0x6B, 0x06, 0x01, 0x01, 0x04, 0x01, 0x01, // kernel "k" {6,1,1} {4,1,1}
	0x01, 0x02, // Compute 2 (1 + 1), warp (0,0) as at the kernel's start
	// Load, warp (1,0): ΔBlock +1 → 2, Index 0; ΔPC 256 → zigzag 512 = 4·128 + 0
	0x0A, 0x02, 0x00, 0x80, 0x04, 0x02,
	0x10, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, // Δline +8 → 16, literal
	0x02, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, // Δline +1 → 2, literal
	// Store, warp (0,0): ΔBlock −1 → 1; ΔPC +8 → 16; 1 line: Δline −1 → 1,
	// code 2 = distance 1 + 1 (the zero line is the newest entry)
	0x0B, 0x01, 0x00, 0x10, 0x01, 0x01, 0x02,
	0x04,             // Barrier (0,0)
	0x05,             // Exit (0,0)
	0x0D, 0x02, 0x00, // Exit (1,0)
	0xC4, 0x1F, 0x6B, 0x8C, // continued from the header block's CRC
	0x45, 0x02, 0x07, 0x01, 0xA2, 0xAD, 0x32, 0xDA, // continued from the data block's
}

var workedHeader = Header{LineSize: 8, WarpSize: 4, Source: "ex"}

var workedKernel = Kernel{Name: "k", Grid: [3]uint32{6, 1, 1}, Block: [3]uint32{4, 1, 1}}

// workedWritten is what the example writes; workedRead what it reads back.
var workedWritten = []Inst{
	{Warp: Warp{0, 0}, Kind: Compute, Count: 1},
	{Warp: Warp{0, 0}, Kind: Compute, Count: 1},
	{Warp: Warp{1, 0}, Kind: Load, PC: 0x100, Lines: []Line{line(0x40, p18...), line(0x48, zero8...)}},
	{Warp: Warp{0, 0}, Kind: Store, PC: 0x108, Lines: []Line{line(0x40, p18...)}},
	{Warp: Warp{0, 0}, Kind: Barrier},
	{Warp: Warp{0, 0}, Kind: Exit},
	{Warp: Warp{1, 0}, Kind: Exit},
}

func workedRead() []Inst {
	return append([]Inst{{Warp: Warp{0, 0}, Kind: Compute, Count: 2}}, workedWritten[2:]...)
}

func encode(t testing.TB, h Header, o Options, kernels []kernelTrace) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriterOptions(&buf, h, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range kernels {
		if err := w.BeginKernel(k.K); err != nil {
			t.Fatal(err)
		}
		for i, in := range k.Insts {
			if err := w.Write(in); err != nil {
				t.Fatalf("kernel %q instruction %d: %v", k.K.Name, i, err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decodeAll reads a whole trace, copying every payload; it returns the
// first error other than io.EOF.
func decodeAll(in io.Reader) (Header, []kernelTrace, error) {
	r, err := NewReader(in)
	if err != nil {
		return Header{}, nil, err
	}
	var ks []kernelTrace
	for {
		k, err := r.NextKernel()
		if err == io.EOF {
			return r.Header(), ks, nil
		}
		if err != nil {
			return r.Header(), ks, err
		}
		kt := kernelTrace{K: k}
		for {
			in, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return r.Header(), ks, err
			}
			kt.Insts = append(kt.Insts, cloneInst(in))
		}
		ks = append(ks, kt)
	}
}

func cloneInst(in Inst) Inst {
	if in.Lines == nil {
		return in
	}
	ls := make([]Line, len(in.Lines))
	for i, l := range in.Lines {
		ls[i] = Line{Addr: l.Addr, Data: bytes.Clone(l.Data)}
	}
	in.Lines = ls
	return in
}

// merged is what a reader returns for instructions written as insts:
// adjacent Compute of one warp summed while the sum fits 32 bits.
func merged(insts []Inst) []Inst {
	var out []Inst
	for _, in := range insts {
		if n := len(out); n > 0 && in.Kind == Compute && out[n-1].Kind == Compute && out[n-1].Warp == in.Warp &&
			uint64(out[n-1].Count)+uint64(in.Count) <= math.MaxUint32 {
			out[n-1].Count += in.Count
			continue
		}
		out = append(out, in)
	}
	return out
}

func sameInsts(t *testing.T, got, want []Inst) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d instructions, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		same := g.Warp == w.Warp && g.Kind == w.Kind && g.Count == w.Count && g.PC == w.PC && len(g.Lines) == len(w.Lines)
		for j := 0; same && j < len(w.Lines); j++ {
			same = g.Lines[j].Addr == w.Lines[j].Addr && bytes.Equal(g.Lines[j].Data, w.Lines[j].Data)
		}
		if !same {
			t.Fatalf("instruction %d: got %+v, want %+v", i, g, w)
		}
	}
}

func sameKernels(t *testing.T, got, want []kernelTrace) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d kernels, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].K != want[i].K {
			t.Fatalf("kernel %d: %+v, want %+v", i, got[i].K, want[i].K)
		}
		sameInsts(t, got[i].Insts, merged(want[i].Insts))
	}
}

func TestWorkedExampleBytes(t *testing.T) {
	// The example's checksums over their spans, each continuing the one
	// before (tracefile.Checksum is checked against the bit-by-bit
	// definition in package trace's tests).
	var prev uint32
	for _, span := range []struct{ from, to int }{{9, 18}, {22, 74}, {78, 82}} {
		got, want := tracefile.Checksum(prev, workedExample[span.from:span.to]), binary.LittleEndian.Uint32(workedExample[span.to:])
		if got != want {
			t.Errorf("CRC over %d…%d: %08x, example has %08x", span.from, span.to, got, want)
		}
		prev = want
	}
	if len(workedExample) != 86 {
		t.Fatalf("%d bytes", len(workedExample))
	}
	got := encode(t, workedHeader, Options{DictEntries: 4}, []kernelTrace{{workedKernel, workedWritten}})
	if !bytes.Equal(got, workedExample) {
		t.Fatalf("encoding\n got % X\nwant % X", got, workedExample)
	}
	h, ks, err := decodeAll(bytes.NewReader(workedExample))
	if err != nil {
		t.Fatal(err)
	}
	if h != workedHeader || len(ks) != 1 || ks[0].K != workedKernel {
		t.Fatalf("header %+v, kernels %+v", h, ks)
	}
	sameInsts(t, ks[0].Insts, workedRead())
}

func TestKernelGeometry(t *testing.T) {
	// Grid 6×5 threads in blocks of 4×2: blocks along x = ⌈6/4⌉ = 2, along
	// y = ⌈5/2⌉ = 3. Block (1, 2) = id 1 + 2·2 = 5 holds (6−4)×(5−4) = 2
	// threads; block 0 holds 4×2 = 8. With warps of 4: 2 warps in a full
	// block, 1 in block 5.
	k := Kernel{Grid: [3]uint32{6, 5, 1}, Block: [3]uint32{4, 2, 1}}
	if k.Blocks() != 6 {
		t.Fatalf("Blocks %d", k.Blocks())
	}
	for block, want := range []int{8, 4, 8, 4, 4, 2} {
		if got := k.BlockThreads(block); got != want {
			t.Errorf("BlockThreads(%d) = %d, want %d", block, got, want)
		}
	}
	if k.Warps(0, 4) != 2 || k.Warps(5, 4) != 1 || k.Warps(1, 3) != 2 || k.MaxWarpsPerBlock(4) != 2 || k.BlockThreads(6) != 0 {
		t.Fatalf("warps %d %d %d %d", k.Warps(0, 4), k.Warps(5, 4), k.Warps(1, 3), k.MaxWarpsPerBlock(4))
	}
	// A block larger than the grid holds the grid: 10 threads, 1 warp of 64.
	small := Kernel{Grid: [3]uint32{10, 1, 1}, Block: [3]uint32{256, 1, 1}}
	if small.Blocks() != 1 || small.BlockThreads(0) != 10 || small.MaxWarpsPerBlock(64) != 1 {
		t.Fatalf("small kernel: %d blocks, %d threads", small.Blocks(), small.BlockThreads(0))
	}
}

// synthKernel makes a kernel whose warps each run a random program ending
// with Exit, interleaved at random as an emulator might run them.
func synthKernel(rng *rand.Rand, name string, lineSize, warpSize int, payloads [][]byte) kernelTrace {
	k := Kernel{Name: name, Grid: [3]uint32{uint32(1 + rng.IntN(300)), uint32(1 + rng.IntN(3)), 1},
		Block: [3]uint32{uint32(1 + rng.IntN(128)), 1, 1}}
	type prog struct {
		w     Warp
		insts []Inst
	}
	var progs []prog
	for b := range k.Blocks() {
		for i := range k.Warps(b, warpSize) {
			w := Warp{Block: uint32(b), Index: uint32(i)}
			var insts []Inst
			for range rng.IntN(12) {
				in := Inst{Warp: w}
				switch rng.IntN(5) {
				case 0, 1:
					in.Kind, in.Count = Compute, uint32(1+rng.IntN(20))
				case 2:
					in.Kind = Barrier
				default:
					in.Kind = Load + Kind(rng.IntN(2))
					in.PC = uint64(0x1000 + 8*rng.IntN(64))
					base := uint64(rng.IntN(1 << 16))
					for j := range rng.IntN(6) {
						in.Lines = append(in.Lines, Line{Addr: (base + uint64(j)) * uint64(lineSize), Data: payloads[rng.IntN(len(payloads))]})
					}
				}
				insts = append(insts, in)
			}
			progs = append(progs, prog{w, append(insts, Inst{Warp: w, Kind: Exit})})
		}
	}
	kt := kernelTrace{K: k}
	for len(progs) > 0 {
		i := rng.IntN(min(len(progs), 4)) // a few warps in flight at a time
		n := 1 + rng.IntN(len(progs[i].insts))
		kt.Insts = append(kt.Insts, progs[i].insts[:n]...)
		progs[i].insts = progs[i].insts[n:]
		if len(progs[i].insts) == 0 {
			progs = append(progs[:i], progs[i+1:]...)
		}
	}
	return kt
}

func synthTrace(seed uint64, kernels, lineSize, warpSize int) []kernelTrace {
	rng := rand.New(rand.NewPCG(seed, 2))
	payloads := make([][]byte, 50)
	for i := range payloads {
		payloads[i] = make([]byte, lineSize)
		for j := range payloads[i] {
			payloads[i][j] = byte(rng.UintN(3))
		}
	}
	var ks []kernelTrace
	for i := range kernels {
		ks = append(ks, synthKernel(rng, "kernel"+string(rune('A'+i)), lineSize, warpSize, payloads))
	}
	return ks
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name               string
		lineSize, warpSize int
		o                  Options
	}{
		{"default", 128, 64, Options{Level: trace.DefaultLevel}},
		{"raw", 64, 32, Options{}},
		{"nodict", 32, 64, Options{Level: 1, DictEntries: -1}},
		{"tinydict", 16, 7, Options{DictEntries: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ks := synthTrace(uint64(tc.lineSize), 4, tc.lineSize, tc.warpSize)
			h := Header{LineSize: tc.lineSize, WarpSize: tc.warpSize, Source: tc.name}
			f := encode(t, h, tc.o, ks)
			gotH, got, err := decodeAll(bytes.NewReader(f))
			if err != nil {
				t.Fatal(err)
			}
			if gotH != h {
				t.Fatalf("header %+v", gotH)
			}
			sameKernels(t, got, ks)
			n := 0
			for _, k := range ks {
				n += len(k.Insts)
			}
			t.Logf("%d instructions in %d bytes", n, len(f))
		})
	}
}

// TestSkipKernel: NextKernel in the middle of a kernel moves to the next.
func TestSkipKernel(t *testing.T) {
	ks := synthTrace(5, 3, 32, 16)
	r, err := NewReader(bytes.NewReader(encode(t, Header{LineSize: 32, WarpSize: 16}, Options{}, ks)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("Read before NextKernel: %v, want io.EOF", err)
	}
	for i, want := range ks {
		k, err := r.NextKernel()
		if err != nil || !reflect.DeepEqual(k, want.K) {
			t.Fatalf("kernel %d: %+v, %v", i, k, err)
		}
		if i == 1 {
			if _, err := r.Read(); err != nil { // read one, skip the rest
				t.Fatal(err)
			}
		}
	}
	for range 2 {
		if _, err := r.NextKernel(); err != io.EOF {
			t.Fatalf("after the last kernel: %v", err)
		}
		if _, err := r.Read(); err != io.EOF {
			t.Fatalf("Read after the end: %v", err)
		}
	}
}

func TestWriterRejects(t *testing.T) {
	for _, h := range []Header{
		{LineSize: 0, WarpSize: 64},
		{LineSize: MaxLineSize + 1, WarpSize: 64},
		{LineSize: 64, WarpSize: 0},
		{LineSize: 64, WarpSize: MaxWarpSize + 1},
	} {
		if _, err := NewWriter(io.Discard, h); !errors.Is(err, ErrHeader) {
			t.Errorf("%+v: %v, want ErrHeader", h, err)
		}
	}
	w, err := NewWriterOptions(io.Discard, Header{LineSize: 8, WarpSize: 4}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(Inst{Kind: Exit}); !errors.Is(err, ErrRecord) {
		t.Fatalf("instruction before a kernel: %v", err)
	}
	for _, k := range []Kernel{
		{Grid: [3]uint32{0, 1, 1}, Block: [3]uint32{1, 1, 1}},
		{Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{1, 0, 1}},
		{Name: strings.Repeat("k", MaxNameLen+1), Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{1, 1, 1}},
		{Grid: [3]uint32{1 << 31, 1 << 31, 1 << 31}, Block: [3]uint32{1, 1, 1}},                                                      // 2^93 blocks
		{Grid: [3]uint32{math.MaxUint32, math.MaxUint32, math.MaxUint32}, Block: [3]uint32{math.MaxUint32, math.MaxUint32, 1 << 20}}, // 2^84-thread blocks
		{Grid: [3]uint32{1 << 12, 1 << 12, 2}, Block: [3]uint32{1, 1, 1}},                                                            // 2^25 warps
	} {
		if err := w.BeginKernel(k); !errors.Is(err, ErrRecord) {
			t.Errorf("kernel %v %v: %v, want ErrRecord", k.Grid, k.Block, err)
		}
	}
	// Largest allowed: 2^24 warps.
	if err := w.BeginKernel(Kernel{Grid: [3]uint32{1 << 12, 1 << 12, 4}, Block: [3]uint32{1, 1, 4}}); err != nil {
		t.Fatal(err)
	}
	if err := w.BeginKernel(workedKernel); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Inst{
		{Warp: Warp{2, 0}, Kind: Exit},    // block 2 of 2
		{Warp: Warp{1, 1}, Kind: Exit},    // block 1 has 1 warp
		{Warp: Warp{0, 0}, Kind: 0},       // no kind
		{Warp: Warp{0, 0}, Kind: 6},       // unknown kind
		{Warp: Warp{0, 0}, Kind: Compute}, // count 0
		{Warp: Warp{0, 0}, Kind: Compute, Count: 1, PC: 4},
		{Warp: Warp{0, 0}, Kind: Barrier, Count: 1},
		{Warp: Warp{0, 0}, Kind: Exit, Lines: []Line{line(0, zero8...)}},
		{Warp: Warp{0, 0}, Kind: Load, Count: 1},
		{Warp: Warp{0, 0}, Kind: Load, Lines: []Line{line(4, zero8...)}},
		{Warp: Warp{0, 0}, Kind: Store, Lines: []Line{line(8, zero8[:7]...)}},
		{Warp: Warp{0, 0}, Kind: Load, Lines: make([]Line, MaxLines+1)},
	} {
		if err := w.Write(bad); !errors.Is(err, ErrRecord) {
			t.Errorf("%+v: %v, want ErrRecord", bad, err)
		}
	}
	if err := w.Write(Inst{Warp: Warp{0, 0}, Kind: Exit}); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(Inst{Warp: Warp{0, 0}, Kind: Compute, Count: 1}); !errors.Is(err, ErrRecord) {
		t.Fatalf("after Exit: %v, want ErrRecord", err)
	}
	if err := w.Write(Inst{Warp: Warp{1, 0}, Kind: Barrier}); err != nil {
		t.Fatal(err)
	}
	// Warp (1,0) is still running: neither a new kernel nor Close is allowed.
	if err := w.BeginKernel(workedKernel); !errors.Is(err, ErrRecord) {
		t.Fatalf("BeginKernel with a warp running: %v", err)
	}
	if err := w.Close(); !errors.Is(err, ErrRecord) {
		t.Fatalf("Close with a warp running: %v", err)
	}
	if err := w.Write(Inst{Warp: Warp{1, 0}, Kind: Exit}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(Inst{Warp: Warp{1, 0}, Kind: Exit}); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// TestTruncatedAndFlipped: a trace cut at any byte, or with any byte
// changed, is an ErrFormat error.
func TestTruncatedAndFlipped(t *testing.T) {
	files := [][]byte{workedExample, encode(t, Header{LineSize: 16, WarpSize: 8}, Options{Level: trace.DefaultLevel}, synthTrace(3, 2, 16, 8)[:1])}
	for fi, f := range files {
		for n := range len(f) {
			if _, _, err := decodeAll(bytes.NewReader(f[:n])); !errors.Is(err, ErrFormat) {
				t.Fatalf("file %d cut to %d of %d bytes: %v", fi, n, len(f), err)
			}
		}
		if _, _, err := decodeAll(bytes.NewReader(f)); err != nil {
			t.Fatal(err)
		}
		if len(f) > 2000 {
			continue
		}
		masks := []byte{1, 0x80, 0xFF}
		if fi == 0 { // every change of every byte of the worked example
			masks = masks[:0]
			for x := 1; x < 256; x++ {
				masks = append(masks, byte(x))
			}
		}
		for i := range f {
			for _, x := range masks {
				bad := bytes.Clone(f)
				bad[i] ^= x
				if _, _, err := decodeAll(bytes.NewReader(bad)); !errors.Is(err, ErrFormat) {
					t.Fatalf("file %d byte %d ^ %#x: %v", fi, i, x, err)
				}
			}
		}
	}
}

// block builds a block with a correct checksum in version 1, where each
// block's checksum stands alone.
func block(typ byte, body ...byte) []byte {
	b := []byte{typ}
	b = binary.AppendUvarint(b, uint64(len(body)))
	b = append(b, body...)
	return binary.LittleEndian.AppendUint32(b, tracefile.Checksum(0, b))
}

// file builds a version-1 trace of blocks: the hand-built malformed traces
// also check that version 1 is still read.
func file(blocks ...[]byte) []byte {
	f := []byte("LCTRACEW\x01")
	for _, b := range blocks {
		f = append(f, b...)
	}
	return f
}

// TestMalformed: semantic errors behind valid checksums. The header block
// is bytes 9…19, so the data block's body starts at 22 and its first item
// (the kernel, 8 bytes) at 23.
func TestMalformed(t *testing.T) {
	hdr := block('H', 0, 8, 4, 0, 4) // LineSize 8, 4 entries, no source, WarpSize 4
	kern := []byte{0x00, 0x00, 6, 1, 1, 4, 1, 1}
	data := func(items byte, b ...byte) []byte { return block('D', append([]byte{items}, b...)...) }
	end := func(items byte) []byte { return block('E', items, 1) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, tc := range []struct {
		name   string
		in     []byte
		offset int64
		reason string
	}{
		{"line kind", []byte("LCTRACEL\x01"), 7, "not a warp trace"},
		{"warp size 0", file(block('H', 0, 8, 4, 0, 0)), 15, "warp size 0"},
		{"warp size missing", file(block('H', 0, 8, 4, 0)), 15, "cut short"},
		{"line size 1025", file(block('H', 0, 0x81, 0x08, 4, 0, 4)), 12, "line size 1025 outside 1…1024"},
		{"header extra", file(block('H', 0, 8, 4, 0, 4, 0)), 16, "after the block's last item"},
		{"instruction first", file(hdr, data(1, 0x05), end(1)), 23, "before the first kernel"},
		{"kernel tag bits", file(hdr, data(1, 0x08, 0, 6, 1, 1, 4, 1, 1), end(1)), 23, "undefined bits"},
		{"kernel zero grid", file(hdr, data(1, 0x00, 0, 0, 1, 1, 4, 1, 1), end(1)), 23, "zero size"},
		{"kernel name too long", file(hdr, data(1, 0x00, 0x81, 0x20), end(1)), 24, "exceeds 4096"},
		{"unknown kind", file(hdr, data(2, cat(kern, []byte{0x06})...), end(2)), 31, "undefined"},
		{"reserved tag bit", file(hdr, data(2, cat(kern, []byte{0x15})...), end(2)), 31, "undefined"},
		{"warp out of range", file(hdr, data(2, cat(kern, []byte{0x0D, 0x04, 0x00})...), end(2)), 32, "block 2 outside"},
		{"warp index out of range", file(hdr, data(2, cat(kern, []byte{0x0D, 0x00, 0x01})...), end(2)), 32, "warp 1 outside block 0's 1 warps"},
		{"warp unchanged", file(hdr, data(2, cat(kern, []byte{0x0D, 0x00, 0x00})...), end(2)), 32, "flagged as changed"},
		{"negative block", file(hdr, data(2, cat(kern, []byte{0x0D, 0x01, 0x00})...), end(2)), 32, "outside 32 bits"},
		{"compute 0", file(hdr, data(2, cat(kern, []byte{0x01, 0x00})...), end(2)), 32, "count 0"},
		{"too many lines", file(hdr, data(2, cat(kern, []byte{0x02, 0x00, 0x81, 0x08})...), end(2)), 33, "exceeds 1024"},
		{"reference too old", file(hdr, data(2, cat(kern, []byte{0x02, 0x00, 0x01, 0x00, 0x01})...), end(2)), 35, "older than the dictionary"},
		{"run after exit", file(hdr, data(4, cat(kern, []byte{0x05, 0x0D, 0x02, 0x00, 0x0C, 0x01, 0x00})...), end(4)), 35, "exited already"},
		{"kernel ends with warps running", file(hdr, data(3, cat(kern, []byte{0x04}, kern)...), end(3)), 32, "still running"},
		{"trace ends with warps running", file(hdr, data(2, cat(kern, []byte{0x04})...), end(2)), 44, "still running"},
		{"items missing", file(hdr, data(3, cat(kern, []byte{0x05})...), end(3)), 32, "cut short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := decodeAll(bytes.NewReader(tc.in))
			var fe *trace.FormatError
			if !errors.As(err, &fe) || !errors.Is(err, ErrFormat) {
				t.Fatalf("%v, want a FormatError", err)
			}
			if fe.Offset != tc.offset || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("%v; want offset %d and %q", err, tc.offset, tc.reason)
			}
		})
	}
	// The same shapes, well formed.
	for _, good := range [][]byte{
		file(hdr, data(2, cat(kern, []byte{0x05})...), block('E', 2, 1)),
		file(hdr, data(4, cat(kern, []byte{0x05, 0x0C, 0x02, 0x00, 0x05})...), block('E', 4, 1)),
		file(hdr, data(4, cat(kern, []byte{0x02, 0x00, 0x01, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 0x05}, kern)...), block('E', 4, 1)),
	} {
		if _, _, err := decodeAll(bytes.NewReader(good)); err != nil {
			t.Fatalf("well-formed: %v", err)
		}
	}
}

func TestPipe(t *testing.T) {
	ks := synthTrace(11, 5, 128, 64)
	h := Header{LineSize: 128, WarpSize: 64, Source: "pipe"}
	pr, pw := io.Pipe()
	go func() {
		w, err := NewWriter(pw, h)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		for _, k := range ks {
			if err = w.BeginKernel(k.K); err != nil {
				break
			}
			for _, in := range k.Insts {
				if err = w.Write(in); err != nil {
					break
				}
			}
		}
		if err == nil {
			err = w.Close()
		}
		pw.CloseWithError(err)
	}()
	_, got, err := decodeAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	sameKernels(t, got, ks)
}

func FuzzReader(f *testing.F) {
	f.Add(workedExample)
	f.Add(encode(f, Header{LineSize: 16, WarpSize: 8}, Options{Level: trace.DefaultLevel}, synthTrace(3, 2, 16, 8)))
	f.Add(encode(f, Header{LineSize: 4, WarpSize: 3}, Options{DictEntries: 2}, synthTrace(4, 1, 4, 3)))
	f.Fuzz(func(t *testing.T, in []byte) {
		h, ks, err := decodeAll(bytes.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error not wrapping ErrFormat: %v", err)
			}
			return
		}
		// What reads cleanly writes again and reads back the same.
		again := encode(t, h, Options{}, ks)
		h2, ks2, err := decodeAll(bytes.NewReader(again))
		if err != nil || h2 != h {
			t.Fatalf("re-encoded: %v, %+v vs %+v", err, h2, h)
		}
		sameKernels(t, ks2, ks)
	})
}

// BenchmarkWriteRead writes and reads a synthetic interleaved trace (128-
// byte lines, 64-thread warps, payloads from a pool of 50).
func BenchmarkWriteRead(b *testing.B) {
	ks := synthTrace(21, 8, 128, 64)
	h := Header{LineSize: 128, WarpSize: 64}
	insts, lines := 0, 0
	for _, k := range ks {
		insts += len(k.Insts)
		for _, in := range k.Insts {
			lines += len(in.Lines)
		}
	}
	for _, o := range []struct {
		name string
		o    Options
	}{{"raw", Options{}}, {"deflate1", Options{Level: trace.DefaultLevel}}} {
		enc := encode(b, h, o.o, ks)
		b.Run("write/"+o.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				w, _ := NewWriterOptions(&buf, h, o.o)
				for _, k := range ks {
					w.BeginKernel(k.K)
					for _, in := range k.Insts {
						if err := w.Write(in); err != nil {
							b.Fatal(err)
						}
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(insts)*float64(b.N)/b.Elapsed().Seconds(), "insts/s")
			b.ReportMetric(float64(lines*128)*float64(b.N)/b.Elapsed().Seconds()/1e6, "payloadMB/s")
			b.ReportMetric(float64(len(enc))/float64(insts), "B/inst")
		})
		b.Run("read/"+o.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := NewReader(bytes.NewReader(enc))
				if err != nil {
					b.Fatal(err)
				}
				for {
					if _, err := r.NextKernel(); err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
					for {
						if _, err := r.Read(); err == io.EOF {
							break
						} else if err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			b.ReportMetric(float64(insts)*float64(b.N)/b.Elapsed().Seconds(), "insts/s")
			b.ReportMetric(float64(lines*128)*float64(b.N)/b.Elapsed().Seconds()/1e6, "payloadMB/s")
		})
	}
}
