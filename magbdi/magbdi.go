package magbdi

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
	"github.com/linecomp/linecomp/internal/cpu"
)

const baseBits = 32 // the paper's 4-byte base

// Option configures a Codec at New. Options act on New's configuration,
// not on a Codec, so nothing can change a Codec once made.
type Option func(*config)

// config is what New's options set.
type config struct {
	signed  bool
	latency linecomp.Latency
}

// WithSignedDeltas makes deltas two's-complement: a word uses the zero base
// when, read as int32, it fits in w signed bits, and a later word fits the
// explicit base when (value − base) mod 2^32, read as signed, does. It
// exists because the paper evaluates leading-zero (unsigned) deltas only,
// while BDI proper and other implementations use signed ones; the option
// measures what signed deltas would add.
func WithSignedDeltas() Option { return func(c *config) { c.signed = true } }

// WithLatency replaces the default latency (the paper's 1/1 cycles). A
// field may be linecomp.LatencyUnknown; other negative values are an error.
func WithLatency(l linecomp.Latency) Option { return func(c *config) { c.latency = l } }

// Codec is a MAG-aware BDI compressor for one line size and one memory
// access granularity. It is immutable and safe for concurrent use.
type Codec struct {
	name     string
	lineSize int
	mag      int
	signed   bool
	latency  linecomp.Latency
	tagBits  uint // the encoding field, which hardware keeps in the tag
	words    int
	levels   []level // the compressed sizes, ascending; code i = levels[i]
	// encodings is what Encodings returns: the levels, then the raw line.
	encodings []linecomp.Encoding
	// kernelOffs and kernelShifts give the kernels each level's test: a
	// value x fits a delta when (x + off) >> shift == 0 in 32-bit
	// arithmetic (off = 2^(w−1) for signed deltas, 0 for unsigned).
	kernelOffs   []uint32
	kernelShifts []uint64
	// oneCall64 or oneCall128 is set when the one-call kernels
	// (magCompress, magDecompress) take this codec: the CPU has them and
	// the line is 64 or 128 bytes. params is their parameter block
	// (kernelParams), which they take as paramsAt, its first byte.
	oneCall64, oneCall128 bool
	params                []byte
	paramsAt              *byte
	// codeBytes is the stream length in bytes of each code, and padMask
	// the padding bits of the last byte, the same for every code (each
	// stream is the code bits and whole bytes).
	codeBytes [8]int
	padMask   byte
}

// level is one compressed size and the delta width that fills it.
type level struct {
	bytes int
	width uint
}

// mags are the memory access granularities in bytes that New takes: the
// powers of two below the line sizes that the paper evaluates, each
// registered as "magbdi-<MAG>" and "magbdi-<MAG>-signed".
var mags = []int{16, 32, 64}

// New returns a codec for lines of lineSize bytes (32, 64 or 128) and a
// memory access granularity of mag bytes: 16, 32 or 64. The compressed
// sizes are the multiples of mag below lineSize. Its Name is the registry
// name of the configuration, "magbdi-<mag>" or, with WithSignedDeltas,
// "magbdi-<mag>-signed".
//
// Another mag, or a latency with a negative field other than
// linecomp.LatencyUnknown, gives an error wrapping linecomp.ErrConfig. A
// line size that leaves no compressed size (a MAG of 64 bytes on 64- or
// 32-byte lines, of 32 bytes on 32-byte lines) gives an error wrapping
// linecomp.ErrLineSize, as linecomp.New does for that name and size.
func New(lineSize, mag int, opts ...Option) (*Codec, error) {
	lat, _ := linecomp.DefaultLatency(linecomp.SourceMAG, "magbdi")
	cfg := config{latency: lat}
	for _, o := range opts {
		o(&cfg)
	}
	c := &Codec{lineSize: lineSize, mag: mag, signed: cfg.signed, latency: cfg.latency, words: lineSize / 4}
	c.name = fmt.Sprintf("magbdi-%d", mag)
	if c.signed {
		c.name += "-signed"
	}
	if !slices.Contains(mags, mag) {
		return nil, linecomp.ConfigError("magbdi", "memory access granularity of %d bytes: it must be a power of two smaller than the line, one of %v bytes", mag, mags)
	}
	if err := c.latency.Check(c.name); err != nil {
		return nil, err
	}
	if sizes := lineSizes(mag); !slices.Contains(sizes, lineSize) {
		want := map[int]string{16: "32, 64 or 128 bytes", 32: "64 or 128 bytes", 64: "128 bytes"}[mag]
		return nil, linecomp.LineSizeError(c.name, lineSize, want)
	}
	// Every MAG multiple below a line leaves room for deltas of at least
	// two bits (2 for 16 bytes of a 128-byte line), and the header and
	// deltas fill it exactly: with words = lineSize/4, 8·size/words =
	// 32·mag·k/lineSize and header/words = 128/lineSize + 1 are whole
	// numbers for every MAG and line size New takes.
	header := baseBits + c.words
	for size := mag; size < lineSize; size += mag {
		w := (8*size - header) / c.words // Eq. (1)
		c.levels = append(c.levels, level{size, uint(w)})
		c.encodings = append(c.encodings, linecomp.Encoding{Name: fmt.Sprintf("%dB", size)})
	}
	c.encodings = append(c.encodings, linecomp.Encoding{Name: "raw"})
	c.tagBits = uint(bits.Len(uint(len(c.levels))))
	for i := range c.levels {
		c.encodings[i].Bits = c.encodedBits(i)
	}
	c.encodings[len(c.levels)].Bits = c.encodedBits(int(c.uncompressedCode()))
	for _, l := range c.levels {
		off := uint32(0)
		if c.signed {
			off = 1 << (l.width - 1)
		}
		c.kernelOffs = append(c.kernelOffs, off)
		c.kernelShifts = append(c.kernelShifts, uint64(l.width))
	}
	for code := range 1 << c.tagBits {
		c.codeBytes[code] = (c.encodedBits(code) + 7) / 8
	}
	c.padMask = 0xFF >> c.tagBits
	if oneCallKernels && lineSize != 32 {
		c.oneCall64, c.oneCall128 = lineSize == 64, lineSize == 128
		c.params = c.kernelParams()
		c.paramsAt = &c.params[0]
	}
	return c, nil
}

// lineSizes returns the line sizes that leave a MAG of mag bytes a
// compressed size: 32, 64 and 128 bytes above the MAG.
func lineSizes(mag int) []int {
	var sizes []int
	for _, n := range []int{32, 64, 128} {
		if mag < n {
			sizes = append(sizes, n)
		}
	}
	return sizes
}

func init() {
	const paper = "Lal et al., Memory Access Granularity Aware Lossless Compression for GPUs (MAG-aware BDI)"
	for _, mag := range mags {
		for _, opts := range [][]Option{nil, {WithSignedDeltas()}} {
			c, err := New(128, mag, opts...) // every MAG takes 128-byte lines
			if err != nil {
				panic(err)
			}
			variant := ""
			if c.signed {
				variant = "signed deltas, the conventional BDI delta range"
			}
			info := linecomp.Info{Name: c.Name(), Algorithm: "magbdi", Paper: paper, Variant: variant, LineSizes: lineSizes(mag)}
			linecomp.RegisterNew(info, func(n int) (*Codec, error) { return New(n, mag, opts...) })
		}
	}
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return int(c.tagBits) }
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

func (c *Codec) uncompressedCode() uint64 { return 1<<c.tagBits - 1 }

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
		return int(c.tagBits) + 8*c.lineSize
	}
	return int(c.tagBits) + 8*c.levels[code].bytes
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	return c.encodedBits(c.choose(line))
}

// Compress appends the encoding of line to dst. It reads all of line
// before it writes to dst, so the two may overlap.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	// The one-call kernel writes up to a raw stream's length, so it runs
	// straight into dst only when dst has room for that: appending must
	// not move dst when it has room for the stream actually written. These
	// tests are on the path of every call, hence one per line size.
	n := len(dst)
	if c.oneCall64 && len(line) == 64 && cap(dst)-n > 64 && cpu.Active() >= cpu.AVX512 {
		if bits, ok := c.compress64((*[65]byte)(dst[n:n+65]), (*[64]byte)(line)); ok {
			return dst[:n+int((bits+7)/8)], int(bits), nil
		}
	}
	if c.oneCall128 && len(line) == 128 && cap(dst)-n > 128 && cpu.Active() >= cpu.AVX512 {
		if bits, ok := c.compress128((*[129]byte)(dst[n:n+129]), (*[128]byte)(line)); ok {
			return dst[:n+int((bits+7)/8)], int(bits), nil
		}
	}
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	if (c.oneCall64 || c.oneCall128) && cpu.Active() >= cpu.AVX512 {
		// Without that room, the kernel writes into a buffer, and append
		// grows dst by the stream only.
		var buf [129]byte
		var bits uint64
		var ok bool
		if c.lineSize == 64 {
			bits, ok = c.compress64((*[65]byte)(buf[:65]), (*[64]byte)(line))
		} else {
			bits, ok = c.compress128(&buf, (*[128]byte)(line))
		}
		if ok {
			return append(dst, buf[:(bits+7)/8]...), int(bits), nil
		}
	}
	code := c.choose(line)
	return c.encode(dst, line, code), c.encodedBits(code), nil
}

// encode appends the encoding code of line, which must fit it, to dst.
func (c *Codec) encode(dst, line []byte, code int) []byte {
	if code == int(c.uncompressedCode()) {
		if enc, ok := c.rawKernel(dst, line); ok {
			return enc
		}
		enc, _ := bitstream.AppendRaw(dst, uint64(code), c.tagBits, line)
		return enc
	}
	// The Writer appends to dst as it goes, so the words are read first.
	var words [32]uint32
	for i := range c.words {
		words[i] = binary.LittleEndian.Uint32(line[4*i:])
	}
	width := c.levels[code].width
	mask, base, _ := c.fit(line, width)
	var w bitstream.Writer
	w.Reset(dst)
	w.Write(uint64(code), c.tagBits)
	w.Write(uint64(base), baseBits)
	w.Write64(mask, uint(c.words))
	// The deltas fill the block exactly (see New): no padding follows.
	for i, v := range words[:c.words] {
		v -= base & -uint32(mask>>uint(c.words-1-i)&1)
		w.Write(uint64(v), width)
	}
	enc, _ := w.Finish()
	return enc
}

// Encodings lists the compressed sizes, named by their size in bytes
// ("32B", "64B", "96B" for a 32-byte MAG on 128-byte lines), then "raw".
// Encoding i < len(levels) has code i, the raw line the all-ones code. Each
// has one size, so the code alone tells a memory controller how many MAG
// bursts to fetch (linecomp.TagGivesSize).
func (c *Codec) Encodings() []linecomp.Encoding { return c.encodings }

// EncodingOf returns the number of the encoding of enc, which is its code
// except for the raw line's all-ones code. Every code is assigned: a line
// is a power-of-two number of MAGs, so there are 2^TagBits − 1 compressed
// sizes. Only an empty stream gives a *linecomp.CorruptError.
func (c *Codec) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, c.corrupt(0, "stream ends inside a field")
	}
	return min(int(enc[0]>>(8-c.tagBits)), len(c.levels)), nil
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout, including ones Compress would not
// choose. It reads all of enc before it writes to dst, so the two may
// overlap.
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	// The one-call kernel decodes every well-formed stream: the right
	// length for its code and zero padding. Anything else takes the path
	// below, which says what is wrong.
	if (c.oneCall64 || c.oneCall128) && len(enc) > 0 && cpu.Active() >= cpu.AVX512 {
		code := enc[0] >> (8 - c.tagBits) & 7
		if len(enc) == c.codeBytes[code] && enc[len(enc)-1]&c.padMask == 0 {
			n := len(dst)
			if cap(dst)-n < c.lineSize {
				dst = slices.Grow(dst, c.lineSize)
			}
			var ok bool
			if c.lineSize == 64 {
				ok = c.decompress64((*[64]byte)(dst[n:n+64]), enc, uint64(code))
			} else {
				ok = c.decompress128((*[128]byte)(dst[n:n+128]), enc, uint64(code))
			}
			if ok {
				return dst[:n+c.lineSize], nil
			}
		}
	}
	num, err := c.EncodingOf(enc)
	if err != nil {
		return dst, err
	}
	var buf [128]byte
	out := buf[:c.lineSize]
	if num == len(c.levels) {
		if off, why, ok := bitstream.ReadRaw(out, enc, c.tagBits); !ok {
			return dst, c.corrupt(off, why)
		}
		return append(dst, out...), nil
	}
	bits := c.encodings[num].Bits
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
	pos := c.tagBits
	width := c.levels[num].width
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
	return append(dst, out...), nil
}

func (c *Codec) corrupt(offset int, reason string) error {
	return &linecomp.CorruptError{Codec: c.name, Offset: offset, Reason: reason}
}
