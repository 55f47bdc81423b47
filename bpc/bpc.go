package bpc

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

const (
	tagBits    = 1  // the flag, which hardware keeps in the tag: 1 = bit-plane stream, 0 = raw line
	runBits    = 5  // length − 2 of a run of zero DBX planes
	planeCount = 33 // DBP/DBX planes of 33-bit deltas: bits 0…32
)

// Option configures a Codec at New. Options act on New's configuration,
// not on a Codec, so nothing can change a Codec once made.
type Option func(*config)

// config is what New's options set.
type config struct {
	unsigned bool
	latency  linecomp.Latency
}

// WithUnsignedPlane makes the 33rd bit plane the borrow of an unsigned
// subtraction (w_i < w_{i−1} as unsigned), as the bit-exact C
// implementation of Liu (NAP64/Memory-Compression-Measurements-Open,
// include/bpc.h) computes it, instead of the sign of the signed 33-bit
// delta of the BPC authors' code. It exists to cross-check sizes against
// that implementation; the two differ only on lines whose words cross the
// signed/unsigned boundary (e.g. 0, −1, …, −31: 15 bits signed, 52
// unsigned). The decoder is the same for both: it reconstructs words
// modulo 2^32 and never needs plane 32 beyond the XOR chain.
func WithUnsignedPlane() Option { return func(c *config) { c.unsigned = true } }

// WithLatency replaces the default latency (LATTE-CC's decompression
// latency of 11 cycles; compression unknown), e.g. with a number from a
// simulator configuration. A field may be linecomp.LatencyUnknown; other
// negative values are an error.
func WithLatency(l linecomp.Latency) Option { return func(c *config) { c.latency = l } }

// Codec is a BPC compressor for one line size. It is immutable and safe for
// concurrent use.
type Codec struct {
	name       string
	lineSize   int
	planeBits  int    // n − 1: one bit per delta
	planeMask  uint32 // the low planeBits bits
	posBits    uint   // ceil(log2(planeBits))
	rawPerWord int    // raw symbols (LineSize/4 bits each) in 64 bits
	unsigned   bool
	latency    linecomp.Latency
	encodings  [2]linecomp.Encoding // what Encodings returns
	symbols    [symbolTable]uint64  // the parse kernels' symbol table, by the first ten bits
}

// The decoder's table of symbols by their first ten bits, which hold the
// kind, a run's length and a position (5 + posBits ≤ 10). An entry is the
// symbol's DBX plane (its top plane for a run) in bits 0…31, the planes it
// covers from bit symPlanesShift, its length from bit symLenShift and the
// flag symDBPZero. A "DBP zero" symbol's plane is 1<<31 (no plane has
// that bit), a position out of range covers 64 planes, more than a line
// has, and a raw symbol's entry is zero: the decoder takes raw symbols
// before the table.
const (
	symbolTable    = 1024
	symPlanesShift = 32
	symDBPZero     = uint64(1) << 40
	symLenShift    = 48
)

// decodeTables fills the parse kernels' symbol table for the codec's
// plane width.
func (c *Codec) decodeTables() {
	m := uint(c.planeBits)
	for t := range c.symbols {
		var plane, flags uint64
		planes, n := uint64(1), uint64(5)
		p := uint(t) >> (5 - c.posBits) & (1<<c.posBits - 1)
		switch {
		case t>>9 == 1: // 1 + raw DBX
			continue
		case t>>8 == 1: // 01 + run of 2…33 zero planes
			planes, n = uint64(t>>(8-runBits)&(1<<runBits-1))+2, 2+runBits
		case t>>7 == 1: // 001: one zero plane
			n = 3
		case t>>5 == 0b00000: // 00000: all ones
			plane = uint64(c.planeMask)
		case t>>5 == 0b00001: // 00001: DBP zero
			plane, flags = 1<<31, symDBPZero
		case t>>5 == 0b00010: // 00010 + p: ones at p and p+1
			plane, n = 3<<p, uint64(5+c.posBits)
			if p+1 >= m {
				planes = 64
			}
		case t>>5 == 0b00011: // 00011 + p: a single one at p
			plane, n = 1<<p, uint64(5+c.posBits)
			if p >= m {
				planes = 64
			}
		}
		c.symbols[t] = uint64(uint32(plane)) | planes<<symPlanesShift | flags | n<<symLenShift
	}
}

// New returns a BPC codec for lines of 32, 64 or 128 bytes (8, 16 or 32
// words). Its Name is the registry name of the configuration: "bpc", or
// "bpc-unsigned" with WithUnsignedPlane. A latency with a negative field
// other than linecomp.LatencyUnknown gives an error wrapping
// linecomp.ErrConfig; a line size it does not take, linecomp.ErrLineSize.
func New(lineSize int, opts ...Option) (*Codec, error) {
	lat, _ := linecomp.DefaultLatency("", "bpc")
	cfg := config{latency: lat}
	for _, o := range opts {
		o(&cfg)
	}
	c := &Codec{name: "bpc", lineSize: lineSize, unsigned: cfg.unsigned, latency: cfg.latency}
	if c.unsigned {
		c.name = "bpc-unsigned"
	}
	if err := c.latency.Check(c.name); err != nil {
		return nil, err
	}
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError(c.name, lineSize, "32, 64 or 128 bytes")
	}
	c.planeBits = lineSize/4 - 1
	c.planeMask = 1<<uint(c.planeBits) - 1
	c.posBits = uint(bits.Len(uint(c.planeBits - 1))) // ceil(log2(planeBits))
	c.rawPerWord = 64 / (c.planeBits + 1)
	c.encodings = [2]linecomp.Encoding{{Name: "compressed", Bits: -1}, {Name: "raw", Bits: tagBits + 8*lineSize}}
	c.decodeTables()
	return c, nil
}

func init() {
	const paper = "Kim et al., Bit-Plane Compression: Transforming Data for Better Compression in Many-core Architectures, ISCA 2016"
	for _, v := range []struct {
		name, variant string
		opts          []Option
	}{
		{"bpc", "", nil},
		{"bpc-unsigned", "unsigned delta plane, as the BPC authors' code variant", []Option{WithUnsignedPlane()}},
	} {
		linecomp.RegisterNew(linecomp.Info{Name: v.name, Algorithm: "bpc", Paper: paper, Variant: v.variant, LineSizes: []int{32, 64, 128}},
			func(n int) (*Codec, error) { return New(n, v.opts...) })
	}
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return tagBits }
func (c *Codec) Latency() linecomp.Latency { return c.latency }

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

// runSymbol is the code of a run of zero DBX planes and its length.
type runSymbol struct{ code, bits uint8 }

// runSymbols[n] is the symbol of a run of n zero planes: 001 for one,
// 01 + (n − 2) for 2 … 33.
var runSymbols = func() (t [planeCount + 1]runSymbol) {
	t[1] = runSymbol{0b001, 3}
	for n := 2; n <= planeCount; n++ {
		t[n] = runSymbol{uint8(0b01<<runBits | (n - 2)), 2 + runBits}
	}
	return t
}()

func boolBit64(b bool) uint64 { return uint64(boolBit(b)) }

// rawPayload reports whether a bit-plane stream of the given length loses
// to the raw line: it must be strictly shorter to be used.
func (c *Codec) rawPayload(bits int) bool { return bits >= 8*c.lineSize }

// flip is the value XORed into both words before the unsigned borrow test
// that gives plane 32: the sign bit for the signed delta, nothing for the
// unsigned variant.
func (c *Codec) flip() uint32 {
	if c.unsigned {
		return 0
	}
	return 1 << 31
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	var ps planeSet
	c.transform(line, &ps)
	return c.sizeOf(line, &ps)
}

// sizeOf is the encoded length of line, whose planes are ps.
func (c *Codec) sizeOf(line []byte, ps *planeSet) int {
	size := c.payloadBits(binary.LittleEndian.Uint32(line), c.masks(ps))
	if c.rawPayload(size) {
		size = 8 * c.lineSize
	}
	return tagBits + size
}

// Compress appends the encoding of line to dst. It reads all of line
// before it writes to dst, so the two may overlap.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	// At 64 bytes the kernel writes the stream's bytes only, the raw
	// stream for a line that does not compress, straight into dst when it
	// has room for a raw stream.
	// The kernel is called from here, not through encodeKernel: that call
	// cost about 1.5 ns of a 64-byte line's 40 (BenchmarkOps/64/encode).
	if free := dst[len(dst):cap(dst)]; c.lineSize == 64 && len(free) >= 65 && c.hasEncodeKernel() {
		if n, ok := c.encode64((*[64]byte)(line), (*[65]byte)(free)); ok {
			return dst[:len(dst)+(n+7)/8], n, nil
		}
	}
	var out [encodeBuf]byte
	if n, ok := c.encodeKernel(line, out[:]); ok {
		if c.rawPayload(n - tagBits) {
			enc, n := bitstream.AppendRaw(dst, 0, tagBits, line)
			return enc, n, nil
		}
		return append(dst, out[:(n+7)/8]...), n, nil
	}
	var ps planeSet
	c.transform(line, &ps)
	enc, n := c.encode(dst, line, &ps)
	return enc, n, nil
}

// encodeBuf is the length of the encode kernels' output buffer: their
// longest stream (a 34-bit base code and 33 raw planes of 32 bits at 128
// bytes, 1,090 bits in 137 bytes) and the 8 bytes of their last store.
const encodeBuf = 160

// encode appends the encoding of line, whose planes are ps, to dst. It
// builds the stream in a stack buffer from whole 32-bit words of an
// MSB-first accumulator and appends it with one copy.
func (c *Codec) encode(dst, line []byte, ps *planeSet) ([]byte, int) {
	// A bit-plane stream Compress emits is shorter than the line (at most
	// 128 bytes); the stores of the raw block reach up to 8 bytes past
	// its last whole word and 8 bytes further.
	var out [128 + 24]byte
	base := binary.LittleEndian.Uint32(line)
	m := c.masks(ps)
	size := c.payloadBits(base, m)
	if c.rawPayload(size) {
		return bitstream.AppendRaw(dst, 0, tagBits, line)
	}

	var acc uint64 // pending bits, left-aligned
	var nacc uint  // < 32 between puts
	o := 0
	put := func(v uint64, n uint) { // n ≤ 32, v < 1<<n
		acc |= v << (64 - n) >> nacc
		nacc += n
		// Store the top word whether or not it is full: a partial one is
		// stored again by the next put. Branch-free, as the fields'
		// lengths follow the data.
		binary.BigEndian.PutUint32(out[o:], uint32(acc>>32))
		full := nacc >> 5 // 1 if the word is complete
		o += int(4 * full)
		acc <<= 32 * full
		nacc &= 31
	}
	code, codeBits, fieldBits := baseCode(base)
	put(1<<codeBits|code, tagBits+codeBits)
	if fieldBits > 0 {
		put(uint64(base)&(1<<fieldBits-1), fieldBits)
	}
	// One symbol per non-zero plane and per run of zero planes, from
	// plane 32 down: the zero planes below the top of their run have
	// none. Raw planes, most symbols of a compressible line (15.5 of 20.7
	// on the corpora at 64 bytes), come in stretches, which are written a
	// 64-bit word at a time; the rarer kinds are chosen without branches
	// from the masks.
	posBits := c.posBits
	rawHead := uint64(1) << uint(c.planeBits)
	rawLen := 1 + uint(c.planeBits)
	dbpZero := uint64(ps.cls[clsDBPZero])
	emit := (^m.zero | m.zero&^(m.zero>>1)) & (1<<planeCount - 1)
	for emit != 0 {
		j := uint(63 - bits.LeadingZeros64(emit))
		x := uint64(ps.dbx[j%planeCount])
		if m.raw>>j&1 != 0 {
			// Planes j down to low are raw.
			low := j + 1 - uint(bits.LeadingZeros64(^(m.raw << (63 - j))))
			emit &^= 1<<(j+1) - 1<<low
			o, acc = c.putRaw(out[:], o, acc, nacc, ps, int(j), int(low))
			// Fewer symbols than fill a word, one at a time.
			words := (int(j) + 1 - int(low)) / c.rawPerWord
			for k := int(j) - words*c.rawPerWord; k >= int(low); k-- {
				put(rawHead|uint64(ps.dbx[k%planeCount]), rawLen)
			}
			continue
		}
		emit &^= 1 << j
		short := -(m.short >> j & 1)
		pos := -(m.pos >> j & 1)
		top := -(m.zero >> j & 1)
		// The run starting at plane j goes down to the first non-zero
		// plane below it.
		run := runSymbols[bits.LeadingZeros64(^(m.zero<<(63-j)))%(planeCount+1)]
		kind := 0b10 | boolBit64(x&(x-1) == 0) // 00011 one one, 00010 two
		code := short&(dbpZero>>j&1) |
			pos&(kind<<posBits|uint64(bits.TrailingZeros64(x))) |
			top&uint64(run.code)
		n := short&5 | pos&uint64(5+posBits) | top&uint64(run.bits)
		put(code, uint(n))
	}
	binary.BigEndian.PutUint64(out[o:], acc)
	o += int(nacc+7) / 8
	return append(dst, out[:o]...), tagBits + size
}

// putRaw writes the raw symbols of planes top, top−1, … down to low in
// whole 64-bit words (rawPerWord symbols each) after the stream in out:
// o whole bytes, then the top nacc (< 32) bits of acc. It returns the new
// o and acc; nacc is unchanged, as a word is 64 bits. The symbols that do
// not fill a word, of the lowest planes, are left to the caller.
//
// A raw symbol is 1 + planeBits = LineSize/4 bits, which divides 64, so a
// word is gathered in a register without any bit arithmetic and shifted
// into place by nacc bits: no chain from symbol to symbol.
func (c *Codec) putRaw(out []byte, o int, acc uint64, nacc uint, ps *planeSet, top, low int) (int, uint64) {
	symBits := uint(c.planeBits) + 1
	head := uint64(1) << uint(c.planeBits)
	for k := top; k+1-c.rawPerWord >= low; k -= c.rawPerWord {
		var word uint64
		for i := k; i > k-c.rawPerWord; i-- {
			word = word<<symBits | head | uint64(ps.dbx[i%planeCount])
		}
		binary.BigEndian.PutUint64(out[o:], acc|word>>nacc)
		acc = word << (64 - nacc)
		o += 8
	}
	return o, acc
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout, including ones Compress would not
// choose (a raw line that would have compressed, a raw DBX symbol where a
// shorter one applies, a zero DBP plane coded as 00001). It reads all of
// enc before it writes to dst, so the two may overlap.
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	// The one-call kernel straight into dst's spare room first, raw
	// streams included, with no call between: through decodeFast (a large
	// frame) and decodeInto, a 64-byte line took about 57 ns instead of
	// 52 (BenchmarkOps/64/decode), and through ReadRaw's Go path a raw one
	// about 17 ns instead of 6.4. A stream the kernel refuses goes on to
	// ReadRaw or decodeFast, which find the same.
	if l, n := len(dst), c.lineSize; len(enc) > 0 && cap(dst)-l >= n && c.hasDecodeKernel() && c.decode64((*[64]byte)(dst[l:l+64]), enc) {
		return dst[:l+n], nil
	}
	if len(enc) == 0 || enc[0]>>7 == 0 {
		// ReadRaw reads all of enc before it writes and writes nothing
		// on error, so the line can go straight to dst's spare room.
		n := c.lineSize
		grown := slices.Grow(dst, n)
		if off, why, ok := bitstream.ReadRaw(grown[len(dst):len(dst)+n], enc, tagBits); !ok {
			return dst, &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: why}
		}
		return grown[:len(dst)+n], nil
	}
	if out, ok := c.decodeFast(dst, enc); ok {
		return out, nil
	}
	return c.decodeChecked(dst, enc)
}

// decodeChecked is the field-by-field decoder of a bit-plane stream (flag
// 1): it finds and reports the first problem of a malformed one. Decompress runs it only when the
// fast decoder gives up.
func (c *Codec) decodeChecked(dst, enc []byte) ([]byte, error) {
	var buf [128]byte
	out := buf[:c.lineSize]
	var r bitstream.Reader
	r.Reset(enc)
	r.Read(tagBits)

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

// Encodings lists the bit-plane stream ("compressed"), whose length varies
// with the line, and the flag with the raw line ("raw"): the flag alone
// does not tell a stream's length (linecomp.TagGivesSize is false).
func (c *Codec) Encodings() []linecomp.Encoding { return c.encodings[:] }

// EncodingOf returns the number of the encoding of enc, from its flag: 0
// for a bit-plane stream, 1 for a raw line. An empty stream gives a
// *linecomp.CorruptError.
func (c *Codec) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, &linecomp.CorruptError{Codec: c.name, Offset: 0, Reason: "stream ends inside a field"}
	}
	return int(1 - enc[0]>>7), nil
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
