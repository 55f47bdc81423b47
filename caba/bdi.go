package caba

import (
	"encoding/binary"
	"slices"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

// Encoding ids of caba-bdi, the 4-bit tag that opens every stream. They
// are those of package bdi.
const (
	BDIZeros        = 0b0000 // all-zero line, no payload
	BDIRepeated     = 0b0001 // all 8-byte words equal: one 64-bit value
	BDIBase8Delta1  = 0b0010
	BDIBase8Delta2  = 0b0011
	BDIBase8Delta4  = 0b0100
	BDIBase4Delta1  = 0b0101
	BDIBase4Delta2  = 0b0110
	BDIBase2Delta1  = 0b0111
	BDIUncompressed = 0b1111 // the raw line
)

// bdiTagBits is the length of the encoding id.
const bdiTagBits = 4

// bdiIDs are the ids in the order Encodings lists them, bdiNames their
// names: an encoding's number is its id, except the raw line's, which is 8.
var (
	bdiIDs   = [...]int{BDIZeros, BDIRepeated, BDIBase8Delta1, BDIBase8Delta2, BDIBase8Delta4, BDIBase4Delta1, BDIBase4Delta2, BDIBase2Delta1, BDIUncompressed}
	bdiNames = [...]string{"zeros", "repeated", "b8d1", "b8d2", "b8d4", "b4d1", "b4d2", "b2d1", "raw"}
)

// bdiRaw is the number of the raw encoding.
const bdiRaw = len(bdiIDs) - 1

// bdiShape gives the element size k and delta size d of the base-delta
// encoding numbered e (2 … 7).
var bdiShape = [len(bdiIDs)]struct{ k, d int }{
	2: {8, 1}, 3: {8, 2}, 4: {8, 4}, 5: {4, 1}, 6: {4, 2}, 7: {2, 1},
}

// BDI is the caba-bdi codec for one line size: BDI's encodings with every
// field of the payload on a byte boundary (see the package doc). It is
// immutable and safe for concurrent use.
type BDI struct {
	lineSize  int
	latency   linecomp.Latency
	encodings [len(bdiIDs)]linecomp.Encoding
	payload   [len(bdiIDs)]int // payload bytes after the id, per encoding
	// order lists the encodings from the shortest, ties to the lower id:
	// the order in which the compressor tries them (Algorithm 2). The
	// first that fits is the smallest.
	order [len(bdiIDs)]uint8
}

// NewBDI returns the caba-bdi codec for lines of 32, 64 or 128 bytes. Its
// default latency is the 5 cycles to compress and 1 to decompress that
// CABA gives hardware BDI (see the package doc). It takes WithLatency only.
func NewBDI(lineSize int, opts ...Option) (*BDI, error) {
	const name = "caba-bdi"
	def, _ := linecomp.PresetLatency(linecomp.SourceCABA, "bdi")
	cfg, err := build(name, def, opts)
	if err != nil {
		return nil, err
	}
	if cfg.segWords != 0 {
		return nil, linecomp.ConfigError(name, "WithSegmentWords applies to caba-fpc only")
	}
	if err := checkLineSize(name, lineSize); err != nil {
		return nil, err
	}
	c := &BDI{lineSize: lineSize, latency: cfg.latency}
	for e := range bdiIDs {
		switch e {
		case 0:
		case 1:
			c.payload[e] = 8
		case bdiRaw:
			c.payload[e] = lineSize
		default:
			k, d := bdiShape[e].k, bdiShape[e].d
			n := lineSize / k
			c.payload[e] = (n+7)/8 + k + n*d
		}
		c.encodings[e] = linecomp.Encoding{Name: bdiNames[e], Bits: bdiTagBits + 8*c.payload[e]}
		c.order[e] = uint8(e)
	}
	slices.SortStableFunc(c.order[:], func(a, b uint8) int { return c.payload[a] - c.payload[b] })
	return c, nil
}

func init() {
	linecomp.RegisterNew(linecomp.Info{Name: "caba-bdi", Algorithm: "caba-bdi", Paper: paper, LineSizes: lineSizes},
		func(n int) (*BDI, error) { return NewBDI(n) })
}

func (c *BDI) Name() string              { return "caba-bdi" }
func (c *BDI) LineSize() int             { return c.lineSize }
func (c *BDI) TagBits() int              { return bdiTagBits }
func (c *BDI) Latency() linecomp.Latency { return c.latency }

// Encodings lists the nine encodings, "zeros", "repeated", "b8d1", "b8d2",
// "b8d4", "b4d1", "b4d2", "b2d1" and "raw"; an encoding's number is its id,
// except the raw line's (id 1111), which is 8. Each has one size at the
// codec's line size, so the id tells a stream's length.
func (c *BDI) Encodings() []linecomp.Encoding { return c.encodings[:] }

// EncodingOf returns the number of the encoding of enc, from its id. An
// empty stream or an unassigned id (1000 to 1110) gives a
// *linecomp.CorruptError.
func (c *BDI) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, corrupt(c.Name(), 0, "stream ends inside a field")
	}
	switch id := int(enc[0] >> 4); {
	case id <= BDIBase2Delta1:
		return id, nil
	case id == BDIUncompressed:
		return bdiRaw, nil
	}
	return 0, corrupt(c.Name(), 0, "unknown encoding id")
}

// bdiElement reads little-endian element i of k bytes.
func bdiElement(line []byte, k, i int) uint64 {
	switch k {
	case 8:
		return binary.LittleEndian.Uint64(line[8*i:])
	case 4:
		return uint64(binary.LittleEndian.Uint32(line[4*i:]))
	}
	return uint64(binary.LittleEndian.Uint16(line[2*i:]))
}

// fits reports whether encoding e (2 … 7) fits line, with the base-select
// mask (bit i = element i uses the explicit base) and the explicit base.
// A k-byte value x fits a d-byte delta when x + 2^(8d−1) < 2^(8d) in k-byte
// unsigned arithmetic: the signed range shifted onto 0 … 2^(8d)−1.
func (c *BDI) fits(line []byte, e int) (mask, base uint64, ok bool) {
	k, d := bdiShape[e].k, bdiShape[e].d
	off, span := uint64(1)<<(8*d-1), uint64(1)<<(8*d)
	keep := ^uint64(0) >> (64 - 8*k)
	haveBase := false
	for i := range c.lineSize / k {
		v := bdiElement(line, k, i)
		if (v+off)&keep < span {
			continue // implicit zero base
		}
		if !haveBase {
			base, haveBase = v, true
		}
		if (v-base+off)&keep >= span {
			return 0, 0, false
		}
		mask |= 1 << i
	}
	return mask, base, true
}

// choose returns the number of the smallest encoding that fits line.
func (c *BDI) choose(line []byte) int {
	for _, e := range c.order {
		switch e := int(e); e {
		case 0:
			if allZero(line) {
				return e
			}
		case 1:
			if repeated8(line) {
				return e
			}
		case bdiRaw:
			return e
		default:
			if _, _, ok := c.fits(line, e); ok {
				return e
			}
		}
	}
	return bdiRaw // not reached: raw is in the order
}

func allZero(line []byte) bool {
	var or uint64
	for i := 0; i < len(line); i += 8 {
		or |= binary.LittleEndian.Uint64(line[i:])
	}
	return or == 0
}

func repeated8(line []byte) bool {
	first := binary.LittleEndian.Uint64(line)
	for i := 8; i < len(line); i += 8 {
		if binary.LittleEndian.Uint64(line[i:]) != first {
			return false
		}
	}
	return true
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *BDI) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	return c.encodings[c.choose(line)].Bits
}

// Compress appends the encoding of line to dst. It builds the payload
// before it writes to dst, so the two may overlap.
func (c *BDI) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.Name(), len(line), "lines of its configured size")
	}
	e := c.choose(line)
	var p [bitstream.MaxRawBytes]byte
	switch e {
	case 0:
	case 1:
		binary.BigEndian.PutUint64(p[:], binary.LittleEndian.Uint64(line))
	case bdiRaw:
		copy(p[:], line)
	default:
		c.packBaseDelta(p[:], line, e)
	}
	out, bits := bitstream.AppendRaw(dst, uint64(bdiIDs[e]), bdiTagBits, p[:c.payload[e]])
	return out, bits, nil
}

// packBaseDelta writes the payload of base-delta encoding e, which fits
// line, to p: the mask (element 0 in the most significant bit, zero bits
// to a whole byte), the base and the deltas, big-endian.
func (c *BDI) packBaseDelta(p, line []byte, e int) {
	k, d := bdiShape[e].k, bdiShape[e].d
	n := c.lineSize / k
	mask, base, _ := c.fits(line, e)
	mb := (n + 7) / 8
	var field uint64 // the mask field, element 0 first
	for i := range n {
		field |= mask >> i & 1 << (8*mb - 1 - i)
	}
	putBE(p, field, mb)
	putBE(p[mb:], base, k)
	q := p[mb+k:]
	for i := range n {
		delta := bdiElement(line, k, i) - base&-(mask>>i&1)
		putBE(q[d*i:], delta, d)
	}
}

// putBE writes the low n bytes of v big-endian.
func putBE(p []byte, v uint64, n int) {
	for j := n - 1; j >= 0; j-- {
		p[j] = byte(v)
		v >>= 8
	}
}

// getBE reads n bytes big-endian.
func getBE(p []byte, n int) uint64 {
	var v uint64
	for _, b := range p[:n] {
		v = v<<8 | uint64(b)
	}
	return v
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout (a base that no element uses need not
// be zero) and rejects non-zero mask padding, a wrong length and
// unassigned ids. It reads all of enc before it writes to dst, so the two
// may overlap.
func (c *BDI) Decompress(dst, enc []byte) ([]byte, error) {
	var out [128]byte
	if _, err := c.decode(&out, enc); err != nil {
		return dst, err
	}
	return append(dst, out[:c.lineSize]...), nil
}

// decode decodes enc into out and returns its encoding number.
func (c *BDI) decode(out *[128]byte, enc []byte) (int, error) {
	e, err := c.EncodingOf(enc)
	if err != nil {
		return 0, err
	}
	var p [bitstream.MaxRawBytes]byte
	if off, reason, ok := bitstream.ReadRaw(p[:c.payload[e]], enc, bdiTagBits); !ok {
		return 0, corrupt(c.Name(), off, reason)
	}
	line := out[:c.lineSize]
	switch e {
	case 0:
		clear(line)
	case 1:
		v := binary.BigEndian.Uint64(p[:])
		for i := 0; i < c.lineSize; i += 8 {
			binary.LittleEndian.PutUint64(line[i:], v)
		}
	case bdiRaw:
		copy(line, p[:c.lineSize])
	default:
		k, d := bdiShape[e].k, bdiShape[e].d
		n := c.lineSize / k
		mb := (n + 7) / 8
		field := getBE(p[:], mb)
		if pad := 8*mb - n; field&(1<<pad-1) != 0 {
			return 0, corrupt(c.Name(), bdiTagBits+n, "non-zero mask padding bits")
		}
		base := getBE(p[mb:], k)
		q := p[mb+k:]
		for i := range n {
			delta := getBE(q[d*i:], d)
			delta = uint64(int64(delta<<(64-8*d)) >> (64 - 8*d)) // sign-extend
			if field>>(8*mb-1-i)&1 == 1 {
				delta += base
			}
			putLE(line[k*i:], delta, k)
		}
	}
	return e, nil
}

// putLE writes the low n bytes of v little-endian.
func putLE(p []byte, v uint64, n int) {
	for j := range n {
		p[j] = byte(v)
		v >>= 8
	}
}
