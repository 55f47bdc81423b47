package bpc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
)

// TestPlanesLevels checks the planes kernel of every level (each line size
// has its own, which reads the line where it is) against
// planesGeneric, the pure-Go definition, on every line of every corpus
// file and on random lines, at every line size and for both plane-32
// variants.
func TestPlanesLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	random := make([]byte, 1<<16)
	for i := range random {
		// Mostly small values, so that every symbol kind turns up.
		random[i] = byte(rng.Uint32() >> (rng.Uint32() % 32))
	}
	for _, n := range codectest.LineSizes {
		var extra [][]byte
		for off := 0; off+n <= len(random); off += n {
			extra = append(extra, random[off:off+n])
		}
		for _, opts := range [][]Option{nil, {WithUnsignedPlane()}} {
			c, _ := New(n, opts...)
			kernel := func(data []byte, out []planeSet) {
				for i := range out {
					c.transform(data[i*n:(i+1)*n], &out[i])
				}
			}
			generic := func(line []byte) (ps planeSet) {
				var buf [128]byte
				copy(buf[:], line)
				planesGeneric(&buf, c.flip(), c.planeMask, &ps)
				return ps
			}
			t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
				codectest.CrossCheck(t, n, extra, kernel, generic)
			})
		}
	}
}

// TestTransposeLevels checks the decoder's transpose at every level against
// transpose32 on random and sparse matrices.
func TestTransposeLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	codectest.ForEachLevel(t, func(t *testing.T) {
		c, _ := New(128)
		for range 10000 {
			var a [32]uint32
			for i := range a {
				// The AND of three random words: one bit in eight set.
				x, y, z := rng.Uint32(), rng.Uint32(), rng.Uint32()
				a[i] = x & y & z
			}
			got, want := a, a
			c.untranspose(&got)
			transpose32(&want)
			if got != want {
				t.Fatalf("%08X: kernel %08X, pure Go %08X", a, got, want)
			}
		}
	})
}

// TestRebuildLevels checks the decoder's rebuild of a line from its DBX
// planes at every level: on every corpus line, random and edge line, the
// planes of the line (from the pure-Go transform) must give the line back,
// for both plane-32 variants (the rebuild ignores the variant: plane 32
// only enters the XOR chain).
func TestRebuildLevels(t *testing.T) {
	for _, n := range codectest.LineSizes {
		for _, opts := range [][]Option{nil, {WithUnsignedPlane()}} {
			c, _ := New(n, opts...)
			kernel := func(data []byte, out [][128]byte) {
				for i := range out {
					line := data[i*n : (i+1)*n]
					var ps planeSet
					c.transformPadded(line, &ps)
					var buf [128]byte
					c.rebuild(&ps.dbx, 0, binary.LittleEndian.Uint32(line), &buf)
					out[i] = [128]byte{}
					copy(out[i][:], buf[:n])
				}
			}
			generic := func(line []byte) (want [128]byte) {
				copy(want[:], line)
				return want
			}
			t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
				codectest.CrossCheck(t, n, nil, kernel, generic)
			})
		}
	}
}

// TestRebuildZeroPlanes checks the rebuild at every level against the
// pure-Go level on random planes, with and without planes whose DBP a
// "DBP zero" symbol sets to zero (which the AVX-512 kernel leaves to the
// scalar rebuild).
func TestRebuildZeroPlanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		for range 2000 {
			var dbx [planeCount]uint32
			for j := range dbx {
				dbx[j] = rng.Uint32() & rng.Uint32() & c.planeMask
			}
			dbpZero := rng.Uint64() & rng.Uint64() & (1<<planeCount - 1)
			if rng.IntN(2) == 0 {
				dbpZero = 0
			}
			base := rng.Uint32()
			var want [128]byte
			restore := cpu.Set(cpu.Generic)
			c.rebuild(&dbx, dbpZero, base, &want)
			restore()
			if t.Failed() {
				return
			}
			codectest.ForEachLevel(t, func(t *testing.T) {
				var got [128]byte
				c.rebuild(&dbx, dbpZero, base, &got)
				if string(got[:n]) != string(want[:n]) {
					t.Fatalf("%d-byte line, planes %08X, DBP zero %X, base %08X: got % X, pure Go % X", n, dbx, dbpZero, base, got[:n], want[:n])
				}
			})
		}
	}
}

// encoded is one line's stream and its length in bits, comparable.
type encoded struct {
	bits   int
	stream [encodeBuf]byte
}

// TestCompressLevels checks Compress at every level (the one-call encode
// kernels at 64 and 128 bytes) against the pure-Go transform and encoder
// on every corpus, edge and random line, for both plane-32 variants:
// stream, length and the raw fallback.
func TestCompressLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	random := make([]byte, 1<<16)
	for i := range random {
		// Mostly small values, so that every symbol kind turns up.
		random[i] = byte(rng.Uint32() >> (rng.Uint32() % 32))
	}
	for _, n := range codectest.LineSizes {
		var extra [][]byte
		for off := 0; off+n <= len(random); off += n {
			extra = append(extra, random[off:off+n])
		}
		extra = append(extra, rawEdgeLines(t, n, rng)...)
		for _, opts := range [][]Option{nil, {WithUnsignedPlane()}} {
			c, _ := New(n, opts...)
			// Every other line goes after a prefix into a dst with spare
			// capacity (which the 64-byte kernel writes into): the prefix
			// must stay and nothing past the stream may be written.
			const prefix, sentinel = 3, 0xA5
			buf := make([]byte, prefix+2*n+64)
			kernel := func(data []byte, out []encoded) {
				for i := range out {
					var dst []byte
					if i%2 == 1 {
						for j := range buf {
							buf[j] = sentinel
						}
						dst = buf[:prefix]
					}
					enc, bits, err := c.Compress(dst, data[i*n:(i+1)*n])
					if err != nil {
						t.Fatal(err)
					}
					if dst != nil {
						if len(enc) < prefix || &enc[0] != &buf[0] || string(enc[:prefix]) != string(buf[len(buf)-prefix:]) {
							t.Fatalf("line %d: Compress did not append to dst in place", i)
						}
						for j, b := range buf[len(enc):] {
							if b != sentinel {
								t.Fatalf("line %d: Compress wrote byte %d past its stream", i, len(enc)+j)
							}
						}
						enc = enc[prefix:]
					}
					out[i] = encoded{bits: bits}
					copy(out[i].stream[:], enc)
				}
			}
			generic := func(line []byte) (e encoded) {
				var ps planeSet
				c.transformPadded(line, &ps)
				enc, bits := c.encode(nil, line, &ps)
				e.bits = bits
				copy(e.stream[:], enc)
				return e
			}
			t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
				codectest.CrossCheck(t, n, extra, kernel, generic)
			})
		}
	}
}

// TestDecodeFast checks the fast decoder against the checked one, the
// field-by-field reading of the layout, at every level: on the stream of
// every corpus line it must decode (so Decompress takes the fast path) to
// the same line, and on those streams with a flipped bit, cut short or
// with a byte more, and on random streams, it may give up but never
// accept a stream the checked decoder rejects or give another line. Into
// a dst with room to spare, it writes the line's bytes only.
func TestDecodeFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, n := range codectest.LineSizes {
			c, _ := New(n)
			check := func(enc []byte, mustDecode bool) {
				t.Helper()
				fast, ok := c.decodeFast(nil, enc)
				want, err := c.decodeChecked(nil, enc)
				switch {
				case !ok && mustDecode:
					t.Fatalf("%d B: fast decoder gave up on % X (checked: %v)", n, enc, err)
				case ok && err != nil:
					t.Fatalf("%d B: fast decoder accepted % X, checked: %v", n, enc, err)
				case ok && string(fast) != string(want):
					t.Fatalf("%d B: % X: fast % X, checked % X", n, enc, fast, want)
				}
				// Into a dst with room to spare: its bytes before and
				// after the line stay as they were.
				room := make([]byte, 3+n+16)
				for i := range room {
					room[i] = 0xA5
				}
				got, ok2 := c.decodeFast(room[:3], enc)
				if ok2 != ok || ok && (string(got[3:]) != string(fast) || len(got) != 3+n) {
					t.Fatalf("%d B: % X: decoded into a dst with room % X, %v; without % X, %v", n, enc, got, ok2, fast, ok)
				}
				for i, b := range room {
					if (i < 3 || i >= 3+n || !ok) && b != 0xA5 {
						t.Fatalf("%d B: % X: byte %d of dst's room changed: % X", n, enc, i, room)
					}
				}
			}
			mutated := make([]byte, 0, 2*n+8)
			for _, line := range codectest.SampleLines(n, 4000) {
				enc, _, _ := c.Compress(nil, line)
				if enc[0]>>7 == 0 {
					continue // a raw line
				}
				check(enc, true)
				mutated = append(mutated[:0], enc...)
				mutated[rng.IntN(len(mutated))] ^= 1 << rng.IntN(8)
				mutated[0] |= 0x80
				check(mutated, false)
				check(enc[:rng.IntN(len(enc))+1], false)
				check(append(append(mutated[:0], enc...), byte(rng.Uint32())), false)
			}
			for range 20000 {
				enc := mutated[:1+rng.IntN(n)]
				for i := range enc {
					// Mostly zero bits, so that short symbols turn up.
					enc[i] = byte(rng.Uint32() & rng.Uint32() & rng.Uint32())
				}
				enc[0] |= 0x80
				check(enc, false)
			}
		}
	})
}

// TestDecodeKernel checks that the one-call decode kernel, where the
// level has one, decodes the stream of every corpus line itself (streams
// with "DBP zero" symbols among them) rather than leaving it to
// decodeFast's general path, which would hide a kernel that gives up
// too often behind a right answer.
func TestDecodeKernel(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		kernel := func(data []byte, got []decoded) {
			for i := range got {
				line := data[i*n : (i+1)*n]
				enc, _, _ := c.Compress(nil, line)
				got[i] = decoded{}
				if enc[0]>>7 == 0 || !c.hasDecodeKernel() {
					// A raw line, or no kernel at this level: Decompress.
					out, err := c.Decompress(nil, enc)
					copy(got[i].line[:], out)
					got[i].ok = err == nil
					continue
				}
				got[i].ok = c.decodeInto(got[i].line[:n], enc)
			}
		}
		want := func(line []byte) (d decoded) {
			copy(d.line[:], line)
			d.ok = true
			return d
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			codectest.CrossCheck(t, n, nil, kernel, want)
		})
	}
}

// TestDecodeKernelRaw checks the one-call decode kernel on raw streams
// (flag 0), where the level has it: on the raw stream of sample lines, it
// must give the line; on such a stream with a padding bit set, a byte
// short or a byte more, it must refuse, as bitstream.ReadRaw does, and
// write nothing.
func TestDecodeKernelRaw(t *testing.T) {
	c, _ := New(64)
	if !c.hasDecodeKernel() {
		t.Skip("no decode kernel at this level")
	}
	rng := rand.New(rand.NewPCG(17, 18))
	for _, line := range codectest.SampleLines(64, 500) {
		enc, _ := bitstream.AppendRaw(nil, 0, tagBits, line)
		bad := [][]byte{
			append(append([]byte(nil), enc[:64]...), enc[64]|1<<rng.IntN(7)),
			enc[:64],
			append(append([]byte(nil), enc...), 0),
		}
		for i, e := range append([][]byte{enc}, bad...) {
			var out [64]byte
			for j := range out {
				out[j] = 0xA5
			}
			var want [64]byte
			_, _, wantOK := bitstream.ReadRaw(want[:], e, tagBits)
			ok := c.decode64(&out, e)
			switch {
			case ok != wantOK || ok != (i == 0):
				t.Fatalf("% X: kernel %v, ReadRaw %v", e, ok, wantOK)
			case ok && out != want:
				t.Fatalf("% X: kernel % X, ReadRaw % X", e, out, want)
			case !ok && out != [64]byte(bytes.Repeat([]byte{0xA5}, 64)):
				t.Fatalf("% X: refused, but wrote % X", e, out)
			}
		}
	}
}

// bpcMangles are the changes of mangledStream: none, a flipped bit, a
// byte short, a byte more, random bytes behind flag 1, the line's raw
// stream (one of its padding bits set for one line in two), and that raw
// stream a byte short.
var bpcMangles = []string{"", "flip", "short", "long", "random", "raw", "raw-short"}

// mangledStream returns c's stream of line, changed as mangle (one of
// bpcMangles) says; the changes are a function of the line.
func mangledStream(c *Codec, line []byte, mangle string) []byte {
	enc, _, _ := c.Compress(nil, line)
	if enc, ok := codectest.Mangle(enc, line, mangle, len(line)+4, true); ok {
		return enc // sparse random bytes, so that short symbols turn up
	}
	enc, _ = bitstream.AppendRaw(nil, 0, tagBits, line)
	enc[len(enc)-1] |= line[7] >> 3 & 1 // a padding bit set for one line in two
	if mangle == "raw-short" {
		enc = enc[:len(enc)-1]
	}
	return enc
}

// TestDecompressLinesLevels checks the batch decoder behind
// linecomp.DecompressLines against decoding line by line with
// Decompress, at every level, on codectest.MangledLines of each corpus
// line with bpcMangles (the kernel stops at the line being decoded or at
// the one whose table it makes ahead).
func TestDecompressLinesLevels(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		linesOf := func(line []byte) *linecomp.Lines {
			return codectest.MangledLines(line, bpcMangles, func(mangle string) []byte { return mangledStream(c, line, mangle) })
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			codectest.CrossCheckDecompressLines(t, c, nil, linesOf)
		})
	}
}

// TestDecompressLinesBadStart: called directly, the batch decoder passes
// codectest.CheckBadStarts, and where the kernel applies, it takes two
// well-formed streams, the second raw.
func TestDecompressLinesBadStart(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c, _ := New(n)
		line := make([]byte, n)
		for i := range line {
			line[i] = byte(i / 4 % 3)
		}
		stream, bits, _ := c.Compress(nil, line)
		codectest.CheckBadStarts(t, c, stream, bits)
		var l linecomp.Lines
		codectest.AppendStream(&l, stream)
		codectest.AppendStream(&l, mangledStream(c, append([]byte{1}, line[1:]...), "raw"))
		want := 0
		if c.hasDecodeKernel() {
			want = 2
		}
		out, got := c.DecompressLines([]byte{1}, &l, 0)
		if got != want || want == 2 && string(out) != "\x01"+string(line)+"\x01"+string(line[1:]) {
			t.Errorf("%d bytes, two streams: %d lines, want %d; % X", n, got, want, out)
		}
	}
}

// decoded is what TestDecodeKernel compares: the line and whether the
// kernel decoded it.
type decoded struct {
	line [128]byte
	ok   bool
}

// rawEdgeLines finds lines of n bytes whose bit-plane stream is one bit
// shorter than the raw line and as long (payloads of 8n − 1 and 8n bits),
// where Compress switches to the raw line, and one bit longer if it comes
// across one.
func rawEdgeLines(t *testing.T, n int, rng *rand.Rand) [][]byte {
	c, _ := New(n)
	var lines [][]byte
	found := map[int]bool{}
	for try := 0; try < 200_000 && len(found) < 3; try++ {
		line := make([]byte, n)
		shift := rng.Uint32() % 32
		for i := range line {
			line[i] = byte(rng.Uint32() >> (rng.Uint32()%32 | shift))
		}
		var ps planeSet
		c.transformPadded(line, &ps)
		d := c.payloadBits(binary.LittleEndian.Uint32(line), c.masks(&ps)) - 8*n
		if d >= -1 && d <= 1 && !found[d] {
			found[d] = true
			lines = append(lines, line)
		}
	}
	if !found[-1] || !found[0] {
		t.Fatalf("%d B: found streams %v bits longer than the line, want -1 and 0", n, found)
	}
	return lines
}
