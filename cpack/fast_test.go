package cpack

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/internal/cpu"
)

// poolLines returns lines whose words come from a small pool of values
// that share upper bytes, so that every match kind, ties between slots,
// duplicate entries (gem5 rule) and the dictionary's wrap to slot 0 occur.
func poolLines(n, count int) [][]byte {
	rng := rand.New(rand.NewPCG(7, 9))
	var out [][]byte
	for range count {
		pool := make([]uint32, 1+rng.IntN(40))
		for i := range pool {
			switch rng.IntN(5) {
			case 0:
				pool[i] = 0
			case 1:
				pool[i] = rng.Uint32() & 0xFF
			default:
				pool[i] = 0x12340000 | rng.Uint32()&0x0103 | uint32(rng.IntN(3))<<20
			}
		}
		l := make([]byte, n)
		for i := 0; i < n; i += 4 {
			binary.LittleEndian.PutUint32(l[i:], pool[rng.IntN(len(pool))])
		}
		out = append(out, l)
	}
	return out
}

// planned is what the plan kernels give for one line: the op of each word
// (zero past the line's words) and the length of the word codes.
type planned struct {
	ops  [maxWords]op
	bits int
}

// TestPlanLevels checks the plan kernels against planGeneric, op for op
// and in the total, on every corpus line, the edge lines and pool lines,
// for every variant and line size, at every kernel level.
func TestPlanLevels(t *testing.T) {
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			kernel := func(data []byte, out []planned) {
				for i := range out {
					out[i] = planned{}
					out[i].bits = c.planOps(data[i*n:(i+1)*n], &out[i].ops)
				}
			}
			generic := func(line []byte) (p planned) {
				p.bits = c.planGeneric(line, &p.ops)
				return p
			}
			codectest.CrossCheck(t, n, poolLines(n, 3000), kernel, generic)
		}
	}
}

// TestPlanLinesLevels checks the batch plan (planLines, behind AppendSizes
// and CompressLines) against planGeneric the same way: the ops of each
// line's words and the total.
func TestPlanLinesLevels(t *testing.T) {
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			words := n / 4
			kernel := func(data []byte, out []planned) {
				ops := make([]op, len(out)*words)
				bits := make([]uint16, len(out))
				c.planLines(data, ops, bits)
				for i := range out {
					out[i] = planned{bits: int(bits[i])}
					copy(out[i].ops[:], ops[i*words:(i+1)*words])
				}
			}
			generic := func(line []byte) (p planned) {
				p.bits = c.planGeneric(line, &p.ops)
				return p
			}
			codectest.CrossCheck(t, n, poolLines(n, 3000), kernel, generic)
		}
	}
}

// TestEmitLevels checks emit (the kernel where there is one) against
// emitGeneric byte for byte, on the ops planGeneric gives for every corpus
// line, the edge lines and pool lines, at every kernel level.
func TestEmitLevels(t *testing.T) {
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			kernel := func(data []byte, out []streamBuf) {
				for i := range out {
					line := data[i*n : (i+1)*n]
					var ops [maxWords]op
					c.planGeneric(line, &ops)
					out[i] = streamBuf{}
					c.emit(&out[i], line, &ops)
				}
			}
			generic := func(line []byte) (buf streamBuf) {
				var ops [maxWords]op
				c.planGeneric(line, &ops)
				c.emitGeneric(&buf, line, &ops)
				return buf
			}
			codectest.CrossCheck(t, n, poolLines(n, 3000), kernel, generic)
		}
	}
}

// wordCoded is what wordCodes gives for one line: the length of the word
// codes and the stream's bytes in the buffer (zero past them).
type wordCoded struct {
	bits int
	buf  streamBuf
}

// TestWordCodesLevels checks wordCodes (the fused Compress kernel where
// there is one) against wordCodesGeneric on every corpus line, the edge
// lines and pool lines, for every variant and line size, at every kernel
// level: the length and the stream's bytes (all zero when the codes are
// not shorter than the line and the buffer is not written).
func TestWordCodesLevels(t *testing.T) {
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			clearPastStream := func(w *wordCoded) {
				clear(w.buf[min((tagBits+w.bits+7)/8, len(w.buf)):])
			}
			kernel := func(data []byte, out []wordCoded) {
				for i := range out {
					out[i] = wordCoded{}
					out[i].bits = c.wordCodes(&out[i].buf, data[i*n:(i+1)*n])
					clearPastStream(&out[i])
				}
			}
			generic := func(line []byte) (w wordCoded) {
				w.bits = c.wordCodesGeneric(&w.buf, line)
				clearPastStream(&w)
				return w
			}
			codectest.CrossCheck(t, n, poolLines(n, 3000), kernel, generic)
		}
	}
}

// TestDecodeFast checks that Decompress's fast path for word codes accepts
// exactly the word-code streams the field-by-field reader accepts, with the
// same line: every such stream Compress makes of the sample and of pool
// lines, and random and bit-flipped streams. (A raw stream, flag 0, has one
// decoder, bitstream.ReadRaw.)
func TestDecodeFast(t *testing.T) {
	defer cpu.Set(cpu.Active())()
	for _, level := range cpu.Levels() {
		cpu.Set(level)
		t.Run(level.String(), testDecodeFast)
	}
}

func testDecodeFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 23))
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			lines := poolLines(n, 500)
			for _, f := range codectest.Sample() {
				for off := 0; off+n <= len(f.Data); off += n {
					lines = append(lines, f.Data[off:off+n])
				}
			}
			check := func(enc []byte) bool {
				if len(enc) > 0 && enc[0]>>7 == rawFlag {
					return true
				}
				var line [128]byte
				ok := c.decodeFast(&line, enc)
				want, err := c.decompressSlow(nil, enc)
				if ok != (err == nil) || ok && !bytes.Equal(line[:n], want) {
					t.Fatalf("%s %d: stream % X: fast ok=%v %X, field reader %v %X", name, n, enc, ok, line[:n], err, want)
				}
				return ok
			}
			for _, l := range lines {
				enc, _, _ := c.Compress(nil, l)
				if !check(enc) {
					t.Fatalf("%s %d: fast path rejects its own stream % X", name, n, enc)
				}
				for range 4 {
					bad := bytes.Clone(enc)
					switch rng.IntN(3) {
					case 0:
						bad[rng.IntN(len(bad))] ^= 1 << rng.IntN(8)
					case 1:
						bad = bad[:rng.IntN(len(bad))]
					default:
						bad = append(bad, byte(rng.IntN(2)))
					}
					check(bad)
				}
			}
			for range 3000 {
				enc := make([]byte, rng.IntN(2*n+2))
				for i := range enc {
					enc[i] = byte(rng.Uint32())
				}
				if len(enc) > 0 && rng.IntN(2) == 0 {
					enc[0] |= 0x80 // a word-coded stream
				}
				check(enc)
			}
		}
	}
}

// decoded is what decodeWords gives for one stream.
type decoded struct {
	line [128]byte
	pos  uint
	ok   bool
}

// TestDecodeWordsLevels checks decodeWords (the decode kernel where there
// is one) against decodeWordsGeneric on the word codes of every corpus
// line, the edge lines and pool lines, for every variant and line size, at
// every kernel level, and on the same streams with one bit flipped (the
// flip chosen by the line, so both sides see the same stream).
func TestDecodeWordsLevels(t *testing.T) {
	for _, name := range names {
		for _, n := range codectest.LineSizes {
			c := mustNew(t, name, n).(*Codec)
			for _, flip := range []bool{false, true} {
				stream := func(line []byte) *decodeBuf {
					var sb streamBuf
					bits := c.wordCodesGeneric(&sb, line)
					var buf decodeBuf
					m := (tagBits + bits + 7) / 8
					if bits >= 8*n {
						// Raw lines: their word codes anyway.
						var ops [maxWords]op
						c.planGeneric(line, &ops)
						sb = streamBuf{}
						c.emitGeneric(&sb, line, &ops)
						m = min(m, 128)
					}
					copy(buf[:], sb[:m])
					if flip {
						i := int(binary.LittleEndian.Uint32(line) % uint32(8*m))
						buf[i/8] ^= 0x80 >> (i % 8)
					}
					return &buf
				}
				kernel := func(data []byte, out []decoded) {
					for i := range out {
						out[i] = decoded{}
						out[i].pos, out[i].ok = c.decodeWords(&out[i].line, stream(data[i*n:(i+1)*n]))
					}
				}
				generic := func(line []byte) (d decoded) {
					d.pos, d.ok = c.decodeWordsGeneric(&d.line, stream(line))
					if !d.ok {
						d = decoded{} // after a bad code the kernel's line and offset mean nothing
					}
					return d
				}
				codectest.CrossCheck(t, n, poolLines(n, 3000), func(data []byte, out []decoded) {
					kernel(data, out)
					for i := range out {
						if !out[i].ok {
							out[i] = decoded{}
						}
					}
				}, generic)
			}
		}
	}
}
