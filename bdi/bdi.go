package bdi

import (
	"encoding/binary"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

// Encoding ids, the 4-bit field that opens every stream.
const (
	Zeros        = 0b0000 // all-zero line, no payload
	Repeated     = 0b0001 // all 8-byte words equal: one 64-bit value
	Base8Delta1  = 0b0010
	Base8Delta2  = 0b0011
	Base8Delta4  = 0b0100
	Base4Delta1  = 0b0101
	Base4Delta2  = 0b0110
	Base2Delta1  = 0b0111
	Uncompressed = 0b1111 // the raw line
)

const idBits = 4

// baseDelta lists the base-delta encodings in id order.
var baseDelta = [...]struct{ id, k, d int }{
	{Base8Delta1, 8, 1}, {Base8Delta2, 8, 2}, {Base8Delta4, 8, 4},
	{Base4Delta1, 4, 1}, {Base4Delta2, 4, 2}, {Base2Delta1, 2, 1},
}

// Option configures a Codec.
type Option func(*Codec)

// WithSymmetricDeltas makes a d-byte delta cover −(2^(8d−1)−1) … 2^(8d−1)−1,
// excluding −2^(8d−1), as gem5's BaseDelta compressors check it. It exists
// to reproduce gem5's compressed sizes.
func WithSymmetricDeltas() Option { return func(c *Codec) { c.symmetric = true } }

// WithSingleBase makes the base-delta encodings B+Δ: element 0 is the only
// base, there is no implicit zero base and no bitmask. It exists to
// reproduce the BDI paper's size table and tools built on it (e.g. the
// Safecracker test patterns).
func WithSingleBase() Option { return func(c *Codec) { c.singleBase = true } }

// WithLatency replaces the default latency (the BDI paper's 5/1 cycles),
// e.g. with linecomp.PresetLatency(linecomp.SourceLatteCC, "bdi").
func WithLatency(l linecomp.Latency) Option { return func(c *Codec) { c.latency = l } }

// Codec is a BDI compressor for one line size. It is immutable and safe for
// concurrent use.
type Codec struct {
	name       string
	lineSize   int
	symmetric  bool
	singleBase bool
	latency    linecomp.Latency
}

// New returns a BDI codec for lines of 32, 64 or 128 bytes.
func New(lineSize int, opts ...Option) (*Codec, error) {
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError("bdi", lineSize, "32, 64 or 128 bytes")
	}
	lat, _ := linecomp.DefaultLatency(linecomp.SourceBDIPaper, "bdi")
	c := &Codec{name: "bdi", lineSize: lineSize, latency: lat}
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
	reg("bdi")
	reg("bdi-symmetric", WithSymmetricDeltas())
	reg("bdi-single", WithSingleBase())
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return idBits }
func (c *Codec) Latency() linecomp.Latency { return c.latency }

// encodedBits is the stream length of encoding id, including the id.
func (c *Codec) encodedBits(id int) int {
	switch id {
	case Zeros:
		return idBits
	case Repeated:
		return idBits + 64
	case Uncompressed:
		return idBits + 8*c.lineSize
	}
	e := baseDelta[id-Base8Delta1]
	n := c.lineSize / e.k
	mask := n
	if c.singleBase {
		mask = 0
	}
	return idBits + mask + 8*e.k + 8*e.d*n
}

// element reads little-endian element i of k bytes.
func element(line []byte, k, i int) uint64 {
	switch k {
	case 8:
		return binary.LittleEndian.Uint64(line[8*i:])
	case 4:
		return uint64(binary.LittleEndian.Uint32(line[4*i:]))
	default:
		return uint64(binary.LittleEndian.Uint16(line[2*i:]))
	}
}

// fits reports whether x, a k-byte value held in a uint64, read as signed,
// lies in the range of a d-byte delta.
func (c *Codec) fits(x uint64, k, d int) bool {
	shift := uint(64 - 8*k)
	v := int64(x<<shift) >> shift
	lim := int64(1) << (8*d - 1)
	lo := -lim
	if c.symmetric {
		lo++
	}
	return v >= lo && v < lim
}

// fit checks base-delta encoding (k, d). It returns the base-select mask
// (element 0 in the most significant of the n bits) and the explicit base.
func (c *Codec) fit(line []byte, k, d int) (mask, base uint64, ok bool) {
	n := c.lineSize / k
	haveBase := false
	if c.singleBase {
		base, haveBase = element(line, k, 0), true
	}
	for i := 0; i < n; i++ {
		v := element(line, k, i)
		if !c.singleBase && c.fits(v, k, d) {
			continue
		}
		if !haveBase {
			base, haveBase = v, true
		}
		if !c.fits(v-base, k, d) {
			return 0, 0, false
		}
		mask |= 1 << uint(n-1-i)
	}
	return mask, base, true
}

// choose returns the smallest encoding of line, ties to the lower id.
func (c *Codec) choose(line []byte) (id int, mask, base uint64) {
	zero, rep := true, true
	first := binary.LittleEndian.Uint64(line)
	for i := 0; i < len(line); i += 8 {
		w := binary.LittleEndian.Uint64(line[i:])
		zero = zero && w == 0
		rep = rep && w == first
	}
	if zero {
		return Zeros, 0, 0
	}
	if rep {
		return Repeated, 0, 0
	}
	id = Uncompressed
	best := c.encodedBits(Uncompressed)
	for _, e := range baseDelta {
		size := c.encodedBits(e.id)
		if size >= best {
			continue
		}
		if m, b, ok := c.fit(line, e.k, e.d); ok {
			id, best, mask, base = e.id, size, m, b
		}
	}
	return id, mask, base
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	id, _, _ := c.choose(line)
	return c.encodedBits(id)
}

// Compress appends the encoding of line to dst.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	id, mask, base := c.choose(line)
	var w bitstream.Writer
	w.Reset(dst)
	w.Write(uint64(id), idBits)
	switch id {
	case Zeros:
	case Repeated:
		w.Write64(binary.LittleEndian.Uint64(line), 64)
	case Uncompressed:
		w.Bytes(line)
	default:
		e := baseDelta[id-Base8Delta1]
		n := c.lineSize / e.k
		if !c.singleBase {
			w.Write64(mask, uint(n))
		}
		w.Write64(base, uint(8*e.k))
		for i := 0; i < n; i++ {
			v := element(line, e.k, i)
			if mask>>uint(n-1-i)&1 == 1 || c.singleBase {
				v -= base
			}
			w.Write64(v, uint(8*e.d))
		}
	}
	enc, bits := w.Finish()
	return enc, bits, nil
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout, including ones Compress would not
// choose.
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	var line [128]byte
	out := line[:c.lineSize]
	var r bitstream.Reader
	r.Reset(enc)
	id := int(r.Read(idBits))
	switch id {
	case Zeros:
	case Repeated:
		v := r.Read64(64)
		for i := 0; i < c.lineSize; i += 8 {
			binary.LittleEndian.PutUint64(out[i:], v)
		}
	case Uncompressed:
		for i := range out {
			out[i] = byte(r.Read(8))
		}
	case Base8Delta1, Base8Delta2, Base8Delta4, Base4Delta1, Base4Delta2, Base2Delta1:
		e := baseDelta[id-Base8Delta1]
		n := c.lineSize / e.k
		var mask uint64
		if !c.singleBase {
			mask = r.Read64(uint(n))
		}
		base := r.Read64(uint(8 * e.k))
		shift := uint(64 - 8*e.d)
		for i := 0; i < n; i++ {
			v := uint64(int64(r.Read64(uint(8*e.d))<<shift) >> shift)
			if c.singleBase || mask>>uint(n-1-i)&1 == 1 {
				v += base
			}
			switch e.k {
			case 8:
				binary.LittleEndian.PutUint64(out[8*i:], v)
			case 4:
				binary.LittleEndian.PutUint32(out[4*i:], uint32(v))
			case 2:
				binary.LittleEndian.PutUint16(out[2*i:], uint16(v))
			}
		}
	default:
		return dst, &linecomp.CorruptError{Codec: c.name, Offset: 0, Reason: "unknown encoding id"}
	}
	if off, why, ok := r.Problem(); !ok {
		return dst, &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: why}
	}
	return append(dst, out...), nil
}
