package fpc

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
)

// classify returns the cheapest pattern of a word, ties to the lower
// prefix, written as the switch that the patterns' definitions suggest: it
// is the oracle that classifyWord and the kernels are checked against. The
// order below is that of increasing code length, and both tables put the
// equal-length patterns SE16 < low-zero < two-halves in that prefix order.
// SE8 and repeated bytes are equally long and the tables order them
// differently, but the only words matching both (0 and 0xFFFFFFFF) are
// taken earlier, by zero and SE4.
func classify(w uint32) kind {
	switch {
	case w == 0:
		return kZero
	case w+8 < 16:
		return kSE4
	case w+0x80 < 0x100:
		return kSE8
	case w == w&0xFF*0x01010101:
		return kRep
	case w+0x8000 < 0x10000:
		return kSE16
	case w&0xFFFF == 0:
		return kLowZero
	case (w+0x80)&0xFF00 == 0 && (w+0x80_0000)&0xFF00_0000 == 0:
		// Each half + 0x80, taken mod 2^16, is below 0x100. A carry out
		// of the low half into bit 16 only happens when the low half
		// fails the test itself.
		return kTwo
	}
	return kRaw
}

// lineClass is what the classification kernels give for one line: the
// kind of each word (zero past the line's words) and the summary.
type lineClass struct {
	kinds [maxWords]uint8
	sum   summary
}

// lineClassByHand classifies line with classify and builds the summary
// field by field.
func lineClassByHand(line []byte) lineClass {
	var out lineClass
	var zeros uint32
	codeBits, raw := 0, 0
	for i := range len(line) / 4 {
		k := classify(binary.LittleEndian.Uint32(line[4*i:]))
		out.kinds[i] = uint8(k)
		switch k {
		case kZero:
			zeros |= 1 << i
			continue
		case kRaw:
			raw++
		}
		codeBits += prefixBits + int(tableTR.dataBits[k])
	}
	out.sum = makeSummary(zeros, codeBits, raw)
	return out
}

// poolLines returns random lines built from words at and around every
// pattern's boundaries, and some random words; at 128 bytes, also
// halfRawLines.
func poolLines(n int) [][]byte {
	pool := []uint32{0, 1, 7, 8, 0xFFFFFFF8, 0xFFFFFFF7, 0x7F, 0x80, 0xFFFFFF80, 0xFFFFFF7F,
		0x7FFF, 0x8000, 0xFFFF8000, 0xFFFF7FFF, 0x12340000, 0xFFFF0000, 0x00010000,
		0x007F0080, 0x007FFF80, 0xFF80007F, 0x00800080, 0xFF7FFF80, 0x5A5A5A5A, 0x80808080,
		0x12345678, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	var out [][]byte
	for range 2000 {
		line := make([]byte, n)
		for i := 0; i < n/4; i++ {
			w := pool[rng.IntN(len(pool))]
			if rng.IntN(4) == 0 {
				w = rng.Uint32()
			}
			binary.LittleEndian.PutUint32(line[4*i:], w)
		}
		out = append(out, line)
	}
	if n == 128 {
		out = append(out, halfRawLines(rng)...)
	}
	return out
}

// halfRawLines returns 128-byte lines whose one half is 12 to 16 raw
// words and small words, and the other small words and zeros, so that the
// line is coded and that half's codes pass 512 bits, or come near, from
// every bit offset: the 128-byte kernels pack such a half into two
// vectors, and the corpora may be absent.
func halfRawLines(rng *rand.Rand) [][]byte {
	small := []uint32{0, 0, 0, 1, 0xFFFFFFF8, 0x7F, 0xFFFF8000, 0x00010000, 0x5A5A5A5A, 0x007F0080}
	var out [][]byte
	for half := range 2 {
		for raw := 12; raw <= 16; raw++ {
			for range 64 {
				line := make([]byte, 128)
				for i := range 32 {
					w := small[rng.IntN(len(small))]
					if i/16 == half && i%16 < raw {
						w = rng.Uint32()&0x3FFFFFFF | 0x40000000 // raw but for a 1-in-65536 low zero half
					}
					binary.LittleEndian.PutUint32(line[4*i:], w)
				}
				out = append(out, line)
			}
		}
	}
	return out
}

// TestClassifyLevels: the kinds and summary of every line, from every
// kernel level, in batches and one line at a time, equal classify applied
// word by word.
func TestClassifyLevels(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		words := n / 4
		kernel := func(data []byte, out []lineClass) {
			kinds := make([]uint8, len(out)*words)
			sums := make([]uint64, len(out))
			c.classifyLines(data, kinds, sums)
			for i := range out {
				out[i] = lineClass{sum: summary(sums[i])}
				copy(out[i].kinds[:], kinds[i*words:(i+1)*words])
			}
		}
		codectest.CrossCheck(t, n, poolLines(n), kernel, lineClassByHand)
	}
}

// TestRunCodeStarts checks the bit tricks against counting run positions.
func TestRunCodeStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		// The or of three random words: long zero runs.
		z := rng.Uint32()
		z |= rng.Uint32()
		z |= rng.Uint32()
		if rng.IntN(8) == 0 {
			z = ^uint32(0) >> rng.IntN(32) << rng.IntN(32)
		}
		var want uint32
		run := 0
		for i := range 32 {
			if z>>i&1 == 0 {
				run = 0
				continue
			}
			if run%maxRun == 0 {
				want |= 1 << i
			}
			run++
		}
		if got := runCodeStarts(z); got != want {
			t.Fatalf("runCodeStarts(%032b) = %032b, want %032b (%d codes)", z, got, want, bits.OnesCount32(want))
		}
	}
}

// TestBatch: Sizes and CompressLines through the batch kernels give, line
// for line, what Size and Compress give, at every kernel level.
func TestBatch(t *testing.T) {
	testBatch(t, codectest.LineSizes)
	if cpu.VectorPopcount {
		// The fused kernels' other variant, for CPUs without VPOPCNTDQ.
		restore := cpu.SetVectorPopcount(false)
		defer restore()
		testBatch(t, []int{64, 128})
	}
}

// testBatch is TestBatch at the line sizes sizes.
func testBatch(t *testing.T, sizes []int) {
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, name := range []string{"fpc", "fpc-tavana"} {
			for _, n := range sizes {
				c := mustNew(t, name, n)
				sets := []codectest.File{{Name: "pool", Data: batchLines(t, c)}}
				for _, f := range append(sets, codectest.Sample()...) {
					data := f.Data[:len(f.Data)/n*n]
					sizes, err := linecomp.Sizes(c, nil, data)
					if err != nil {
						t.Fatal(err)
					}
					var lines linecomp.Lines
					if err := linecomp.CompressLines(c, &lines, data); err != nil {
						t.Fatal(err)
					}
					for i := range sizes {
						line := data[i*n : (i+1)*n]
						enc, bits, _ := c.Compress(nil, line)
						if sizes[i] != bits || lines.Bits[i] != bits || !slices.Equal(lines.Line(i), enc) {
							t.Fatalf("%s/%d %s line %d: Sizes %d, CompressLines %d bits %X, Compress %d bits %X",
								name, n, f.Name, i, sizes[i], lines.Bits[i], lines.Line(i), bits, enc)
						}
					}
				}
			}
		}
	})
}

// batchLines returns lines for TestBatch beyond the sample's: poolLines,
// then, so that the 64-byte pair kernel gets each kind of line at each
// place of a pair, every ordered pair of a coded line, a raw line and a
// line raw only once its zero run is counted (the codes of its non-zero
// words alone are shorter than the line), and one line more so that the
// count is odd.
func batchLines(t *testing.T, c linecomp.Codec) []byte {
	n := c.LineSize()
	var data []byte
	for _, l := range poolLines(n) {
		data = append(data, l...)
	}
	words := n / 4
	coded := fill(n, func(i int) uint32 { return uint32(i % 5) })
	raw := fill(n, func(i int) uint32 { return 0x9E3779B9 * uint32(i+1) })
	// words−2 raw words (35 bits each), one 16-bit one (19) and a zero
	// run (6): at 64 bytes 1+490+19 = 510 bits without the run, 516 with.
	lateRaw := fill(n, func(i int) uint32 {
		switch i {
		case words - 2:
			return 0x1234
		case words - 1:
			return 0
		}
		return 0x9E3779B9 * uint32(i+1)
	})
	if n == 64 && c.Name() == "fpc" && c.Size(lateRaw) != 1+8*n {
		t.Fatalf("the late-raw line codes in %d bits, not raw", c.Size(lateRaw))
	}
	kinds := [][]byte{coded, raw, lateRaw}
	for _, a := range kinds {
		for _, b := range kinds {
			data = append(append(data, a...), b...)
		}
	}
	return append(data, lateRaw...)
}

func TestBatchZeroAllocs(t *testing.T) {
	c := mustNew(t, "fpc", 128).(*Codec)
	data := codectest.Sample()[0].Data[:128*200]
	sizes := make([]int, 0, 200)
	var lines linecomp.Lines
	if err := c.CompressLines(&lines, data); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() { sizes, _ = c.AppendSizes(sizes[:0], data) }); a != 0 {
		t.Errorf("AppendSizes: %v allocs", a)
	}
	if a := testing.AllocsPerRun(20, func() { lines.Reset(); c.CompressLines(&lines, data) }); a != 0 {
		t.Errorf("CompressLines: %v allocs", a)
	}
}

// TestPackLevels checks pack (the kernel where there is one) against
// packGeneric byte for byte on every corpus line, the edge lines and pool
// lines, for both tables and every line size, at every kernel level: the
// kinds and emitted words are those appendCodes gives pack.
func TestPackLevels(t *testing.T) {
	for _, name := range []string{"fpc", "fpc-tavana"} {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			// args returns what appendCodes passes pack for line.
			args := func(line []byte) (kinds [maxWords]uint8, zeros, emit uint32) {
				zeros = classifyLineGeneric(line, kinds[:]).zeros()
				emit = c.allWords
				if !c.tab.tavana {
					emit = ^zeros&c.allWords | runCodeStarts(zeros)
				}
				return kinds, zeros, emit
			}
			kernel := func(data []byte, out [][scratchBytes]byte) {
				for i := range out {
					line := data[i*n : (i+1)*n]
					kinds, zeros, emit := args(line)
					out[i] = [scratchBytes]byte{}
					c.pack(&out[i], line, kinds[:], zeros, emit)
				}
			}
			generic := func(line []byte) (buf [scratchBytes]byte) {
				kinds, zeros, emit := args(line)
				c.tab.packGeneric(&buf, line, kinds[:], zeros, emit)
				return buf
			}
			codectest.CrossCheck(t, n, poolLines(n), kernel, generic)
		}
	}
}

// wordCoded is what wordCodes gives for one line.
type wordCoded struct {
	sum  summary
	bits int
	buf  [scratchBytes]byte
}

// clearPastStream zeroes the buffer past the stream's bytes, which are
// scratch.
func (w *wordCoded) clearPastStream() {
	clear(w.buf[min((w.bits+7)/8, len(w.buf)):])
}

// TestWordCodesLevels checks wordCodes (the fused Compress kernel where
// there is one) against wordCodesGeneric on every corpus line, the edge
// lines and pool lines, at every line size and kernel level: the summary,
// the length and the stream's bytes in the buffer (all of them zero when
// the codes are not shorter than the line and the buffer is not written).
// Where the codes are not shorter, the length only has to say so: the
// fused kernels return a lower bound of it then, the codes of the
// non-zero words without the zero runs', when that is enough to tell.
// The fused kernels have a variant with VPOPCNTDQ and one without; where
// the CPU has it, their line sizes are checked once more without it.
func TestWordCodesLevels(t *testing.T) {
	testWordCodesLevels(t, codectest.LineSizes)
	if cpu.VectorPopcount {
		restore := cpu.SetVectorPopcount(false)
		defer restore()
		testWordCodesLevels(t, []int{64, 128})
	}
}

func testWordCodesLevels(t *testing.T, sizes []int) {
	for _, n := range sizes {
		c := mustNew(t, "fpc", n).(*Codec)
		// The stream's length: the raw line's where the codes are
		// not shorter.
		streamBits := func(bits int) int { return c.streamBits(bits - tagBits) }
		kernel := func(data []byte, out []wordCoded) {
			for i := range out {
				out[i] = wordCoded{}
				if c.fused() {
					// The fused kernels write nothing past the stream
					// (Compress stores into dst's spare room): a
					// pattern there must survive; then it is
					// cleared, as the generic side never wrote there.
					for j := range out[i].buf {
						out[i].buf[j] = 0xA5
					}
				}
				out[i].sum, out[i].bits = c.wordCodes(&out[i].buf, data[i*n:(i+1)*n])
				out[i].bits = streamBits(out[i].bits)
				if c.fused() {
					end := (out[i].bits + 7) / 8
					for j, b := range out[i].buf[end:] {
						if b != 0xA5 {
							t.Fatalf("%d-byte line %X: the kernel wrote byte %d past the %d of its stream", n, data[i*n:(i+1)*n], j, end)
						}
					}
					clear(out[i].buf[end:])
				}
				out[i].clearPastStream()
			}
		}
		generic := func(line []byte) (w wordCoded) {
			w.sum, w.bits = c.wordCodesGeneric(&w.buf, line)
			w.bits = streamBits(w.bits)
			w.clearPastStream()
			return w
		}
		codectest.CrossCheck(t, n, poolLines(n), kernel, generic)
	}
}

// unpacked is what unpack gives for one stream.
type unpacked struct {
	out   [128]byte
	pos   uint
	words int
}

// TestUnpackLevels checks unpack (the kernel where there is one) against
// unpackGeneric on the codes packGeneric makes of every corpus line, the
// edge lines and pool lines (of every word, even where the line is stored
// raw), for both tables and every line size, at every kernel level, and on
// the same streams with one bit flipped and with random bytes after the
// flag (chosen by the line, so both sides see the same stream).
func TestUnpackLevels(t *testing.T) {
	for _, name := range []string{"fpc", "fpc-tavana"} {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			for _, mangle := range []string{"", "flip", "random"} {
				stream := func(line []byte) *[scratchBytes]byte {
					var kinds [maxWords]uint8
					zeros := classifyLineGeneric(line, kinds[:]).zeros()
					var buf [scratchBytes]byte
					c.tab.packGeneric(&buf, line, kinds[:], zeros, ^zeros&c.allWords|runCodeStarts(zeros))
					h := binary.LittleEndian.Uint64(line) * 0x9E3779B97F4A7C15
					switch mangle {
					case "flip":
						i := 1 + int(h>>32%uint64(8*n))
						buf[i/8] ^= 0x80 >> (i % 8)
					case "random":
						rng := rand.New(rand.NewPCG(h, uint64(len(line))))
						for i := range buf[:maxCodeBytes] {
							buf[i] = byte(rng.Uint32())
						}
						buf[0] |= 0x80
					}
					return &buf
				}
				kernel := func(data []byte, out []unpacked) {
					for i := range out {
						out[i] = unpacked{}
						out[i].pos, out[i].words = c.tab.unpack(&out[i].out, stream(data[i*n:(i+1)*n]), n/4)
					}
				}
				generic := func(line []byte) (u unpacked) {
					u.pos, u.words = c.tab.unpackGeneric(&u.out, stream(line), n/4)
					return u
				}
				codectest.CrossCheck(t, n, poolLines(n), kernel, generic)
			}
		}
	}
}

// decoded is what decodeLine gives for one stream.
type decoded struct {
	out [128]byte
	ok  bool
}

// TestDecodeLineLevels checks decodeLine (the one-call decode kernel where
// there is one) against decodeLineGeneric on the stream Compress makes of
// every corpus line, the edge lines and pool lines, and on that stream
// mangled: one bit flipped, the last byte dropped, a zero byte added,
// random bytes after a 1 flag, and the codes of every line even where the
// line is stored raw; for both tables and every line size, at every kernel
// level. A rejected stream must leave out untouched: the kernel's out
// starts as 0xA5 bytes and is compared whole. Each stream is given to the
// kernel twice: with no capacity past its length, and in a larger buffer
// whose bytes past the stream are not zero, which the kernel may read
// (but must not decode) when the capacity covers its walk.
func TestDecodeLineLevels(t *testing.T) {
	for _, name := range []string{"fpc", "fpc-tavana"} {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			for _, place := range []string{"exact", "roomy"} {
				for _, mangle := range decodeMangles {
					stream := func(line []byte) []byte { return mangledStream(c, line, mangle) }
					kernel := func(data []byte, out []decoded) {
						for i := range out {
							for j := range out[i].out {
								out[i].out[j] = 0xA5
							}
							enc := stream(data[i*n : (i+1)*n])
							if place == "roomy" {
								var room [256]byte
								for j := range room {
									room[j] = byte(0x5A + 3*j)
								}
								enc = room[:copy(room[:], enc)]
							} else {
								enc = enc[:len(enc):len(enc)]
							}
							out[i].ok = c.decodeLine(out[i].out[:n], enc)
						}
					}
					generic := func(line []byte) (d decoded) {
						for j := range d.out {
							d.out[j] = 0xA5
						}
						if d.ok = c.decodeLineGeneric(d.out[:n], stream(line)); !d.ok {
							for j := range d.out {
								d.out[j] = 0xA5
							}
						}
						return d
					}
					codectest.CrossCheck(t, n, poolLines(n), kernel, generic)
				}
			}
		}
	}
}

// decodeMangles are the ways mangledStream changes a line's stream: none,
// one bit flipped, a byte short, a zero byte long, random bytes with flag
// 1, and the stream of word codes (flag 1) even where Compress chose the raw one.
var decodeMangles = []string{"", "flip", "short", "long", "random", "codes"}

// mangledStream returns c's stream of line, changed as mangle (one of
// decodeMangles) says; the changes are a function of the line.
func mangledStream(c *Codec, line []byte, mangle string) []byte {
	enc, _, _ := c.Compress(nil, line)
	if enc, ok := codectest.Mangle(enc, line, mangle, maxCodeBytes+4, false); ok {
		return enc
	}
	// "codes"
	var kinds [maxWords]uint8
	s := classifyLineGeneric(line, kinds[:])
	zeros := s.zeros()
	bits := c.codeBits(s)
	if bits < 0 {
		return enc
	}
	var buf [scratchBytes]byte
	c.tab.packGeneric(&buf, line, kinds[:], zeros, ^zeros&c.allWords|runCodeStarts(zeros))
	return buf[:(tagBits+bits+7)/8]
}

// TestDecompressLinesLevels: at every kernel level, linecomp.DecompressLines
// (by way of the batch decoder where it applies) of Lines made from each
// line gives the same lines and the same error as decoding the same Lines
// one line at a time with Decompress. The Lines are
// codectest.MangledLines of the line with decodeMangles (so that the batch
// kernel's pair of streams of word codes fails in its first or its second
// line; in Enc's junk-filled room, it reads the last streams in place).
func TestDecompressLinesLevels(t *testing.T) {
	for _, name := range []string{"fpc", "fpc-tavana"} {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			linesOf := func(line []byte) *linecomp.Lines {
				return codectest.MangledLines(line, decodeMangles, func(mangle string) []byte { return mangledStream(c, line, mangle) })
			}
			codectest.CrossCheckDecompressLines(t, c, poolLines(n), linesOf)
		}
	}
}

// TestDecompressLinesBadStart: called directly, the batch decoder passes
// codectest.CheckBadStarts, and takes two well-formed streams where the
// kernel applies and Enc has the room for its loads past them.
func TestDecompressLinesBadStart(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c := mustNew(t, "fpc", n).(*Codec)
		stream, bits, _ := c.Compress(nil, fill(n, func(i int) uint32 { return uint32(i % 3) }))
		codectest.CheckBadStarts(t, c, stream, bits)
		// Where the kernel applies (the report's table at 64 or 128 bytes,
		// AVX-512), the batch decoder takes two well-formed streams of word
		// codes with the capacity for the walk's loads past them; elsewhere,
		// or without that capacity, none, and linecomp.DecompressLines
		// decodes them with Decompress.
		var l linecomp.Lines
		codectest.AppendStream(&l, stream)
		codectest.AppendStream(&l, stream)
		for _, roomy := range []bool{false, true} {
			l.Enc = l.Enc[:len(l.Enc):len(l.Enc)]
			want := 0
			if roomy {
				l.Enc = slices.Grow(l.Enc, 256)
				if c.decodesLines() && cpu.Active() >= cpu.AVX512 {
					want = 2
				}
			}
			if out, got := c.DecompressLines(nil, &l, 0); got != want || len(out) != want*n {
				t.Errorf("%d bytes, room past Enc %v: two well-formed lines: %d lines, %d bytes; want %d lines", n, roomy, got, len(out), want)
			}
			if out, err := linecomp.DecompressLines(c, nil, &l); err != nil || len(out) != 2*n {
				t.Errorf("%d bytes, room past Enc %v: linecomp.DecompressLines of two well-formed lines: %d bytes, %v", n, roomy, len(out), err)
			}
		}
	}
}
