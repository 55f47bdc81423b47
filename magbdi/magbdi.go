package magbdi

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

const baseBits = 32 // the paper's 4-byte base

// Option configures a Codec.
type Option func(*Codec)

// WithSignedDeltas makes deltas two's-complement: a word uses the zero base
// when, read as int32, it fits in w signed bits, and a later word fits the
// explicit base when (value − base) mod 2^32, read as signed, does. It
// exists because the paper evaluates leading-zero (unsigned) deltas only,
// while BDI proper and other implementations use signed ones; the option
// measures what signed deltas would add.
func WithSignedDeltas() Option { return func(c *Codec) { c.signed = true } }

// named sets the registry name a codec reports, for the registered variants.
func named(name string) Option { return func(c *Codec) { c.name = name } }

// WithLatency replaces the default latency (the paper's 1/1 cycles).
func WithLatency(l linecomp.Latency) Option { return func(c *Codec) { c.latency = l } }

// Codec is a MAG-aware BDI compressor for one line size and one memory
// access granularity. It is immutable and safe for concurrent use.
type Codec struct {
	name     string
	lineSize int
	mag      int
	signed   bool
	latency  linecomp.Latency
	codeBits uint
	words    int
	levels   []level // the compressed sizes, ascending; code i = levels[i]
	// kernelOffs and kernelShifts give the kernels each level's test: a
	// value x fits a delta when (x + off) >> shift == 0 in 32-bit
	// arithmetic (off = 2^(w−1) for signed deltas, 0 for unsigned).
	kernelOffs   []uint32
	kernelShifts []uint64
}

// level is one compressed size and the delta width that fills it.
type level struct {
	bytes int
	width uint
}

// New returns a codec for lines of lineSize bytes (32, 64 or 128) and a
// memory access granularity of mag bytes. The compressed sizes are the
// multiples of mag below lineSize; if there are none, or none leaves room
// for a one-bit delta, the error wraps linecomp.ErrLineSize.
func New(lineSize, mag int, opts ...Option) (*Codec, error) {
	lat, _ := linecomp.DefaultLatency(linecomp.SourceMAG, "magbdi")
	c := &Codec{name: fmt.Sprintf("magbdi-%d", mag), lineSize: lineSize, mag: mag, latency: lat, words: lineSize / 4}
	for _, o := range opts {
		o(c)
	}
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError(c.name, lineSize, "32, 64 or 128 bytes")
	}
	if mag <= 0 {
		return nil, fmt.Errorf("%s: memory access granularity must be positive, got %d", c.name, mag)
	}
	header := baseBits + c.words
	for size := mag; size < lineSize; size += mag {
		w := (8*size - header) / c.words // Eq. (1)
		if w < 1 {
			continue
		}
		c.levels = append(c.levels, level{size, uint(w)})
	}
	if len(c.levels) == 0 {
		return nil, linecomp.LineSizeError(c.name, lineSize, fmt.Sprintf("a line larger than one %d-byte MAG with room for deltas", mag))
	}
	c.codeBits = uint(bits.Len(uint(len(c.levels))))
	for _, l := range c.levels {
		off := uint32(0)
		if c.signed {
			off = 1 << (l.width - 1)
		}
		c.kernelOffs = append(c.kernelOffs, off)
		c.kernelShifts = append(c.kernelShifts, uint64(l.width))
	}
	return c, nil
}

func init() {
	const paper = "Lal et al., Memory Access Granularity Aware Lossless Compression for GPUs (MAG-aware BDI)"
	for _, mag := range []int{16, 32, 64} {
		for _, signed := range []bool{false, true} {
			name := fmt.Sprintf("magbdi-%d", mag)
			var opts []Option
			if signed {
				name += "-signed"
				opts = append(opts, WithSignedDeltas())
			}
			variant := ""
			if signed {
				variant = "signed deltas, the conventional BDI delta range"
			}
			sizes := []int{64, 128}
			if mag == 16 {
				sizes = []int{32, 64, 128}
			} else if mag == 64 {
				sizes = []int{128}
			}
			info := linecomp.Info{Name: name, Algorithm: "magbdi", Paper: paper, Variant: variant, LineSizes: sizes}
			linecomp.RegisterNew(info, func(n int) (*Codec, error) {
				return New(n, mag, append(opts, named(name))...)
			})
		}
	}
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return int(c.codeBits) }
func (c *Codec) Latency() linecomp.Latency { return c.latency }

// MAG returns the memory access granularity in bytes.
func (c *Codec) MAG() int { return c.mag }

// Levels returns the compressed sizes in bytes and their delta widths in
// bits, in the order of their codes (code 0 = the smallest size).
func (c *Codec) Levels() (sizes []int, widths []uint) {
	for _, l := range c.levels {
		sizes = append(sizes, l.bytes)
		widths = append(widths, l.width)
	}
	return sizes, widths
}

func (c *Codec) uncompressedCode() uint64 { return 1<<c.codeBits - 1 }

// fit checks delta width w. It returns the base-select mask (word 0 in the
// most significant of the words bits) and the explicit base.
func (c *Codec) fit(line []byte, w uint) (mask uint64, base uint32, ok bool) {
	haveBase := false
	limit := uint32(1) << w // w < 32: the header alone takes more than n bits
	for i := 0; i < c.words; i++ {
		v := binary.LittleEndian.Uint32(line[4*i:])
		if c.fitsDelta(v, w, limit) {
			continue
		}
		if !haveBase {
			base, haveBase = v, true
		}
		if c.signed {
			if !c.fitsDelta(v-base, w, limit) {
				return 0, 0, false
			}
		} else if v < base || v-base >= limit {
			return 0, 0, false
		}
		mask |= 1 << uint(c.words-1-i)
	}
	return mask, base, true
}

// fitsDelta reports whether d is a w-bit delta: unsigned d < 2^w, or
// signed −2^(w−1) ≤ int32(d) < 2^(w−1).
func (c *Codec) fitsDelta(d uint32, w uint, limit uint32) bool {
	if c.signed {
		return d+limit/2 < limit // shifts the signed range onto [0, 2^w)
	}
	return d < limit
}

// choose returns the code of the smallest size that fits, or the
// uncompressed code.
func (c *Codec) choose(line []byte) int {
	var l [1]uint8
	c.fitLevels(line, l[:])
	return c.code(l[0])
}

func (c *Codec) encodedBits(code int) int {
	if code == int(c.uncompressedCode()) {
		return int(c.codeBits) + 8*c.lineSize
	}
	return int(c.codeBits) + 8*c.levels[code].bytes
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	return c.encodedBits(c.choose(line))
}

// Compress appends the encoding of line to dst.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	code := c.choose(line)
	return c.encode(dst, line, code), c.encodedBits(code), nil
}

// encode appends the encoding code of line, which must fit it, to dst.
func (c *Codec) encode(dst, line []byte, code int) []byte {
	var w bitstream.Writer
	w.Reset(dst)
	w.Write(uint64(code), c.codeBits)
	if code == int(c.uncompressedCode()) {
		w.Bytes(line)
	} else {
		width := c.levels[code].width
		mask, base, _ := c.fit(line, width)
		w.Write(uint64(base), baseBits)
		w.Write64(mask, uint(c.words))
		for i := 0; i < c.words; i++ {
			v := binary.LittleEndian.Uint32(line[4*i:])
			if mask>>uint(c.words-1-i)&1 == 1 {
				v -= base
			}
			w.Write(uint64(v), width)
		}
		w.Zeros(c.encodedBits(code) - w.Bits())
	}
	enc, _ := w.Finish()
	return enc
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout, including ones Compress would not
// choose, but rejects non-zero padding inside a compressed block.
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	if len(enc) == 0 {
		return dst, c.corrupt(0, "stream ends inside a field")
	}
	code := int(enc[0] >> (8 - c.codeBits))
	if code != int(c.uncompressedCode()) && code >= len(c.levels) {
		return dst, c.corrupt(0, fmt.Sprintf("encoding %d is not assigned", code))
	}
	bits := c.encodedBits(code)
	if want := (bits + 7) / 8; len(enc) != want {
		if len(enc) < want {
			return dst, c.corrupt(8*len(enc), "stream ends inside a field")
		}
		return dst, c.corrupt(bits, "stream has trailing bytes after the last field")
	}
	if pad := uint(8*len(enc) - bits); enc[len(enc)-1]&(1<<pad-1) != 0 {
		return dst, c.corrupt(bits, "non-zero padding bits")
	}
	// The length is right: read the fields from a zero-padded copy.
	var p [128 + 16]byte
	copy(p[:], enc)
	var buf [128]byte
	out := buf[:c.lineSize]
	pos := c.codeBits
	if code == int(c.uncompressedCode()) {
		for i := 0; i < c.lineSize; i += 4 {
			binary.BigEndian.PutUint32(out[i:], uint32(bitstream.Field(p[:], pos, 32)))
			pos += 32
		}
		return append(dst, out...), nil
	}
	width := c.levels[code].width
	shift := 32 - width
	base := uint32(bitstream.Field(p[:], pos, baseBits))
	pos += baseBits
	mask := bitstream.Field(p[:], pos, uint(c.words)) // words ≤ 32
	pos += uint(c.words)
	for i := 0; i < c.words; i++ {
		d := uint32(bitstream.Field(p[:], pos, width))
		pos += width
		if c.signed {
			d = uint32(int32(d<<shift) >> shift)
		}
		d += base & -uint32(mask>>uint(c.words-1-i)&1)
		binary.LittleEndian.PutUint32(out[4*i:], d)
	}
	// The block's own zero padding, up to its MAG multiple.
	for end := uint(bits); pos < end; {
		n := min(end-pos, 32)
		if bitstream.Field(p[:], pos, n) != 0 {
			return dst, c.corrupt(int(pos), "non-zero padding inside the compressed block")
		}
		pos += n
	}
	return append(dst, out...), nil
}

func (c *Codec) corrupt(offset int, reason string) error {
	return &linecomp.CorruptError{Codec: c.name, Offset: offset, Reason: reason}
}
