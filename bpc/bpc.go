package bpc

import (
	"encoding/binary"
	"math/bits"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

const (
	flagBits   = 1  // 1 = bit-plane stream, 0 = raw line
	runBits    = 5  // length − 2 of a run of zero DBX planes
	planeCount = 33 // DBP/DBX planes of 33-bit deltas: bits 0…32
)

// Symbol kinds of one DBX plane, in the order the encoder tries them after
// the zero-run check.
const (
	symZeroDBP = iota // 00001: DBP[j] = 0, so DBX[j] = DBP[j+1]
	symAllOnes        // 00000: every bit of DBX[j] set
	symTwoOnes        // 00010 + position of the lower of two adjacent ones
	symOneOne         // 00011 + position of the single one
	symRaw            // 1 + DBX[j], highest delta index first
)

// Option configures a Codec.
type Option func(*Codec)

// WithUnsignedPlane makes the 33rd bit plane the borrow of an unsigned
// subtraction (w_i < w_{i−1} as unsigned), as the bit-exact C
// implementation of Liu (NAP64/Memory-Compression-Measurements-Open,
// include/bpc.h) computes it, instead of the sign of the signed 33-bit
// delta of the BPC authors' code. It exists to cross-check sizes against
// that implementation; the two differ only on lines whose words cross the
// signed/unsigned boundary (e.g. 0, −1, …, −31: 15 bits signed, 52
// unsigned). The decoder is the same for both: it reconstructs words
// modulo 2^32 and never needs plane 32 beyond the XOR chain.
func WithUnsignedPlane() Option { return func(c *Codec) { c.unsigned = true } }

// WithLatency replaces the default latency (LATTE-CC's decompression
// latency of 11 cycles; compression unknown), e.g. with a number from a
// simulator configuration.
func WithLatency(l linecomp.Latency) Option { return func(c *Codec) { c.latency = l } }

// Codec is a BPC compressor for one line size. It is immutable and safe for
// concurrent use.
type Codec struct {
	name      string
	lineSize  int
	planeBits int    // n − 1: one bit per delta
	planeMask uint32 // the low planeBits bits
	posBits   uint   // ceil(log2(planeBits))
	unsigned  bool
	latency   linecomp.Latency
}

// New returns a BPC codec for lines of 32, 64 or 128 bytes (8, 16 or 32
// words).
func New(lineSize int, opts ...Option) (*Codec, error) {
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError("bpc", lineSize, "32, 64 or 128 bytes")
	}
	lat, _ := linecomp.DefaultLatency("", "bpc")
	m := lineSize/4 - 1
	var pos uint
	for 1<<pos < m {
		pos++
	}
	c := &Codec{
		name:      "bpc",
		lineSize:  lineSize,
		planeBits: m,
		planeMask: 1<<uint(m) - 1,
		posBits:   pos,
		latency:   lat,
	}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

func init() {
	reg := func(name string, opts ...Option) {
		linecomp.Register(name, func(n int) (linecomp.Codec, error) {
			c, err := New(n, opts...)
			if err != nil {
				return nil, err
			}
			c.name = name
			return c, nil
		})
	}
	reg("bpc")
	reg("bpc-unsigned", WithUnsignedPlane())
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return flagBits }
func (c *Codec) Latency() linecomp.Latency { return c.latency }

// planes holds the transform of one line.
type planes struct {
	base uint32             // w_0
	dbp  [planeCount]uint32 // DBP[j]: bit i−1 is bit j of Δ_i
	dbx  [planeCount]uint32 // DBX[32] = DBP[32], DBX[j] = DBP[j] ^ DBP[j+1]
}

// transform computes the delta bit planes of line.
func (c *Codec) transform(line []byte, p *planes) {
	// Bit 32 of a 33-bit delta is the borrow of the subtraction done on
	// 33-bit extensions of the words. Flipping the sign bit of both words
	// turns the signed comparison into an unsigned one, so the borrow of
	// the zero-extended subtraction serves both variants without a branch.
	flip := uint32(1 << 31)
	if c.unsigned {
		flip = 0
	}
	var rows [32]uint32 // rows[k] = low 32 bits of Δ_{k+1}
	var top uint32      // bit k = bit 32 of Δ_{k+1}
	prev := binary.LittleEndian.Uint32(line)
	p.base = prev
	for k := 0; k < c.planeBits; k++ {
		w := binary.LittleEndian.Uint32(line[4*k+4:])
		d := uint64(w^flip) - uint64(prev^flip)
		rows[k] = uint32(d)
		top |= uint32(d>>63) << uint(k)
		prev = w
	}
	transpose32(&rows)
	copy(p.dbp[:32], rows[:])
	p.dbp[32] = top
	p.dbx[32] = top
	for j := 31; j >= 0; j-- {
		p.dbx[j] = p.dbp[j] ^ p.dbp[j+1]
	}
}

// transpose32 transposes a 32×32 bit matrix in place: afterwards bit c of
// a[r] is what bit r of a[c] was. It swaps the off-diagonal blocks of
// 16×16, then 8×8, … 1×1 sub-matrices, five rounds of 16 masked swaps
// instead of 1024 single-bit moves.
func transpose32(a *[32]uint32) {
	m := uint32(0x0000FFFF) // the low half of every 2s-bit column group
	for s := uint(16); s != 0; s, m = s>>1, m^(m<<(s>>1)) {
		// Rows r with bit s clear pair with rows r+s.
		for r := uint(0); r < 32; r = (r + s + 1) &^ s {
			t := (a[r]>>s ^ a[r+s]) & m
			a[r+s] ^= t
			a[r] ^= t << s
		}
	}
}

// baseCode returns the code and code length of the base word w_0 and the
// width of its sign-extended field.
func baseCode(w uint32) (code uint64, codeBits, fieldBits uint) {
	v := int32(w)
	switch {
	case v == 0:
		return 0b000, 3, 0
	case v >= -8 && v < 8:
		return 0b001, 3, 4
	case v >= -128 && v < 128:
		return 0b010, 3, 8
	case v >= -32768 && v < 32768:
		return 0b011, 3, 16
	}
	return 0b1, 1, 32
}

// runCost is the length of the symbol for a run of n zero DBX planes.
func runCost(n int) int {
	switch n {
	case 0:
		return 0
	case 1:
		return 3 // 001
	}
	return 2 + runBits // 01 + (n − 2)
}

// symbol classifies a non-zero DBX plane x whose DBP plane is dbp, in the
// priority of the BPC authors' code.
func (c *Codec) symbol(x, dbp uint32) int {
	switch {
	case dbp == 0:
		return symZeroDBP
	case x == c.planeMask:
		return symAllOnes
	case x&(x-1) == 0:
		return symOneOne
	case (x&-x)*3 == x: // exactly two adjacent ones: lowest one times 0b11
		return symTwoOnes
	}
	return symRaw
}

// symbolCost is the length of a symbol of the given kind.
func (c *Codec) symbolCost(kind int) int {
	switch kind {
	case symZeroDBP, symAllOnes:
		return 5
	case symTwoOnes, symOneOne:
		return 5 + int(c.posBits)
	}
	return 1 + c.planeBits
}

// payloadBits is the length of the bit-plane stream after the flag.
func (c *Codec) payloadBits(p *planes) int {
	_, codeBits, fieldBits := baseCode(p.base)
	size := int(codeBits + fieldBits)
	run := 0
	for j := planeCount - 1; j >= 0; j-- {
		x := p.dbx[j]
		if x == 0 {
			run++
			continue
		}
		size += runCost(run) + c.symbolCost(c.symbol(x, p.dbp[j]))
		run = 0
	}
	return size + runCost(run)
}

// rawPayload reports whether a bit-plane stream of the given length loses
// to the raw line: it must be strictly shorter to be used.
func (c *Codec) rawPayload(bits int) bool { return bits >= 8*c.lineSize }

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	var p planes
	c.transform(line, &p)
	size := c.payloadBits(&p)
	if c.rawPayload(size) {
		size = 8 * c.lineSize
	}
	return flagBits + size
}

// Compress appends the encoding of line to dst.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	var p planes
	c.transform(line, &p)
	var w bitstream.Writer
	w.Reset(dst)
	if c.rawPayload(c.payloadBits(&p)) {
		w.Write(0, flagBits)
		w.Bytes(line)
		enc, n := w.Finish()
		return enc, n, nil
	}
	w.Write(1, flagBits)
	code, codeBits, fieldBits := baseCode(p.base)
	w.Write(code, codeBits)
	w.Write(uint64(p.base), fieldBits)
	run := 0
	flush := func() {
		switch run {
		case 0:
		case 1:
			w.Write(0b001, 3)
		default:
			w.Write(0b01<<runBits|uint64(run-2), 2+runBits)
		}
		run = 0
	}
	for j := planeCount - 1; j >= 0; j-- {
		x := p.dbx[j]
		if x == 0 {
			run++
			continue
		}
		flush()
		switch c.symbol(x, p.dbp[j]) {
		case symZeroDBP:
			w.Write(0b00001, 5)
		case symAllOnes:
			w.Write(0b00000, 5)
		case symTwoOnes:
			w.Write(0b00010, 5)
			w.Write(uint64(bits.TrailingZeros32(x)), c.posBits)
		case symOneOne:
			w.Write(0b00011, 5)
			w.Write(uint64(bits.TrailingZeros32(x)), c.posBits)
		default:
			w.Write(1<<uint(c.planeBits)|uint64(x), 1+uint(c.planeBits))
		}
	}
	flush()
	enc, n := w.Finish()
	return enc, n, nil
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout, including ones Compress would not
// choose (a raw line that would have compressed, a raw DBX symbol where a
// shorter one applies, a zero DBP plane coded as 00001).
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	var buf [128]byte
	out := buf[:c.lineSize]
	var r bitstream.Reader
	r.Reset(enc)
	if r.Read(flagBits) == 0 {
		for i := range out {
			out[i] = byte(r.Read(8))
		}
		return c.finish(dst, out, &r)
	}

	var base uint32
	switch {
	case r.Read(1) == 1:
		base = uint32(r.Read(32))
	default:
		width := [4]uint{0, 4, 8, 16}[r.Read(2)]
		if width > 0 {
			shift := 32 - width
			base = uint32(int32(uint32(r.Read(width))<<shift) >> shift)
		}
	}

	// Rebuild DBP[j] from the top: DBP[32] = DBX[32], DBP[j] = DBX[j] ^
	// DBP[j+1]. rows receives DBP[0…31] for the inverse transpose.
	var rows [32]uint32
	var above uint32 // DBP[j+1]; DBP[33] is taken as zero
	m := uint(c.planeBits)
	for j := planeCount - 1; j >= 0; {
		start := r.Pos()
		var dbp uint32
		switch {
		case r.Read(1) == 1: // 1 + raw DBX
			dbp = uint32(r.Read(m)) ^ above
		case r.Read(1) == 1: // 01 + run of 2…33 zero DBX planes
			n := int(r.Read(runBits)) + 2
			if n > j+1 {
				return dst, c.corrupt(&r, start, "run of zero planes longer than the planes left")
			}
			for ; n > 0; n-- {
				if j < 32 {
					rows[j] = above
				}
				j--
			}
			continue
		case r.Read(1) == 1: // 001: one zero DBX plane
			dbp = above
		default:
			switch r.Read(2) {
			case 0b00: // 00000: DBX all ones
				dbp = c.planeMask ^ above
			case 0b01: // 00001: DBP zero
				dbp = 0
			case 0b10: // 00010 + p: ones at p and p+1
				p := uint(r.Read(c.posBits))
				if p+1 >= m {
					return dst, c.corrupt(&r, start, "position of two adjacent ones out of range")
				}
				dbp = 3<<p ^ above
			case 0b11: // 00011 + p: a single one at p
				p := uint(r.Read(c.posBits))
				if p >= m {
					return dst, c.corrupt(&r, start, "position of a single one out of range")
				}
				dbp = 1<<p ^ above
			}
		}
		if j < 32 {
			rows[j] = dbp
		}
		above = dbp
		j--
	}

	// After the transpose rows[k] holds Δ_{k+1} mod 2^32; the words are
	// its prefix sums from w_0.
	transpose32(&rows)
	w := base
	binary.LittleEndian.PutUint32(out, w)
	for k := 0; k < c.planeBits; k++ {
		w += rows[k]
		binary.LittleEndian.PutUint32(out[4*k+4:], w)
	}
	return c.finish(dst, out, &r)
}

// corrupt reports a bad field at bit offset at, unless the stream had
// already run out, which is the real cause then.
func (c *Codec) corrupt(r *bitstream.Reader, at int, reason string) error {
	if off, over := r.Overrun(); over {
		return &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: "stream ends inside a field"}
	}
	return &linecomp.CorruptError{Codec: c.name, Offset: at, Reason: reason}
}

// finish checks that the stream ended exactly where decoding did and
// appends the decoded line.
func (c *Codec) finish(dst, out []byte, r *bitstream.Reader) ([]byte, error) {
	if off, why, ok := r.Problem(); !ok {
		return dst, &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: why}
	}
	return append(dst, out...), nil
}
