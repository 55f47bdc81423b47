package bdi

import (
	"encoding/binary"
	"slices"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/cpu"
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

// tagBits is the length of the id: the leading stream bits that hardware
// keeps in the tag.
const tagBits = 4

// encodingIDs are the ids of the encodings in the order Encodings lists
// them, and encodingNames their names: an encoding's number is its id,
// except the raw line's, which is 8.
var (
	encodingIDs   = [...]int{Zeros, Repeated, Base8Delta1, Base8Delta2, Base8Delta4, Base4Delta1, Base4Delta2, Base2Delta1, Uncompressed}
	encodingNames = [...]string{"zeros", "repeated", "b8d1", "b8d2", "b8d4", "b4d1", "b4d2", "b2d1", "raw"}
)

// baseDelta lists the base-delta encodings in id order.
var baseDelta = [...]struct{ id, k, d int }{
	{Base8Delta1, 8, 1}, {Base8Delta2, 8, 2}, {Base8Delta4, 8, 4},
	{Base4Delta1, 4, 1}, {Base4Delta2, 4, 2}, {Base2Delta1, 2, 1},
}

// Option configures a Codec at New. Options act on New's configuration,
// not on a Codec, so nothing can change a Codec once made.
type Option func(*config)

// config is what New's options set.
type config struct {
	symmetric  bool
	singleBase bool
	latency    linecomp.Latency
}

// WithSymmetricDeltas makes a d-byte delta cover −(2^(8d−1)−1) … 2^(8d−1)−1,
// excluding −2^(8d−1), as gem5's BaseDelta compressors check it. It exists
// to reproduce gem5's compressed sizes.
func WithSymmetricDeltas() Option { return func(c *config) { c.symmetric = true } }

// WithSingleBase makes the base-delta encodings B+Δ: element 0 is the only
// base, there is no implicit zero base and no bitmask. It exists to
// reproduce the BDI paper's size table and tools built on it (e.g. the
// Safecracker test patterns).
func WithSingleBase() Option { return func(c *config) { c.singleBase = true } }

// WithLatency replaces the default latency (the BDI paper's 5/1 cycles),
// e.g. with linecomp.PresetLatency(linecomp.SourceLatteCC, "bdi"). A field
// may be linecomp.LatencyUnknown; other negative values are an error.
func WithLatency(l linecomp.Latency) Option { return func(c *config) { c.latency = l } }

// Codec is a BDI compressor for one line size. It is immutable and safe for
// concurrent use.
type Codec struct {
	name       string
	lineSize   int
	symmetric  bool
	singleBase bool
	latency    linecomp.Latency
	// tables holds best, which maps a fit mask (see fit.go) to the
	// smallest encoding it allows, and the encode kernels' parameter
	// blocks.
	tables    encodeTables
	idBits    [16]uint16                          // the length of encoding id, by id
	encodings [len(encodingIDs)]linecomp.Encoding // what Encodings returns
	// kernel is set when the fit-mask kernels apply: they implement the
	// default delta rules only (B+Δ has kernels of its own, singleIDs).
	kernel bool
	// oneCallLine is the line size when a one-call compress kernel
	// (bdiCompress64AVX512, bdiCompress128AVX512) may apply, else −1: the
	// fit-mask kernels' rules, 64- or 128-byte lines and a CPU with the
	// byte kernels. Compress still checks the active level.
	oneCallLine int
	// oneCallDecode is set when the one-call decompress kernels
	// (bdiDecompress64AVX512, bdiDecompress128AVX512) may apply: 64- or
	// 128-byte lines, any delta rules (they decode by the parameter blocks
	// and idBits) and a CPU with the byte kernels. Decompress still checks
	// the active level.
	oneCallDecode bool
	// deltaOffset and deltaSpan[d] define the d-byte delta range as
	// x + deltaOffset[d] < deltaSpan[d] in unsigned arithmetic.
	deltaOffset, deltaSpan [5]uint64
	// dec describes each base-delta encoding to the decode kernels (and
	// tables.enc to the encode kernels).
	dec [len(baseDelta)]decodeParams
}

// New returns a BDI codec for lines of 32, 64 or 128 bytes. Its Name is
// the registry name of the configuration: "bdi", "bdi-symmetric" with
// WithSymmetricDeltas or "bdi-single" with WithSingleBase. Both options
// together have no registry name and give an error wrapping
// linecomp.ErrConfig, as does a latency with a negative field other than
// linecomp.LatencyUnknown; a line size it does not take gives
// linecomp.ErrLineSize.
func New(lineSize int, opts ...Option) (*Codec, error) {
	lat, _ := linecomp.DefaultLatency(linecomp.SourceBDIPaper, "bdi")
	cfg := config{latency: lat}
	for _, o := range opts {
		o(&cfg)
	}
	c := &Codec{lineSize: lineSize, symmetric: cfg.symmetric, singleBase: cfg.singleBase, latency: cfg.latency}
	switch {
	case c.symmetric && c.singleBase:
		return nil, linecomp.ConfigError("bdi", "WithSymmetricDeltas and WithSingleBase together are no registered variant")
	case c.symmetric:
		c.name = "bdi-symmetric"
	case c.singleBase:
		c.name = "bdi-single"
	default:
		c.name = "bdi"
	}
	if err := c.latency.Check(c.name); err != nil {
		return nil, err
	}
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError(c.name, lineSize, "32, 64 or 128 bytes")
	}
	for _, d := range []int{1, 2, 4} {
		half := uint64(1) << (8*d - 1)
		c.deltaOffset[d], c.deltaSpan[d] = half, 2*half // −2^(8d−1) … 2^(8d−1)−1
		if c.symmetric {
			c.deltaOffset[d], c.deltaSpan[d] = half-1, 2*half-1 // without −2^(8d−1)
		}
	}
	c.kernel = !c.symmetric && !c.singleBase
	c.oneCallLine = -1
	if c.kernel && lineSize != 32 && oneCallKernels {
		c.oneCallLine = lineSize
	}
	c.oneCallDecode = lineSize != 32 && oneCallKernels
	c.buildTables()
	c.buildEncodings()
	c.buildEncodeParams()
	c.buildDecodeParams()
	return c, nil
}

func init() {
	const paper = "Pekhimenko et al., Base-Delta-Immediate Compression: Practical Data Compression for On-Chip Caches, PACT 2012 (encodings as Tavana et al. Table II)"
	for _, v := range []struct {
		name, variant string
		opts          []Option
	}{
		{"bdi", "", nil},
		{"bdi-symmetric", "gem5's symmetric delta range, to reproduce gem5's compressed sizes", []Option{WithSymmetricDeltas()}},
		{"bdi-single", "B+Δ: one base and no zero base, as the BDI paper's size table", []Option{WithSingleBase()}},
	} {
		linecomp.RegisterNew(linecomp.Info{Name: v.name, Algorithm: "bdi", Paper: paper, Variant: v.variant, LineSizes: []int{32, 64, 128}},
			func(n int) (*Codec, error) { return New(n, v.opts...) })
	}
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return tagBits }
func (c *Codec) Latency() linecomp.Latency { return c.latency }

// maskBits is the length of the base-select mask of an encoding with
// k-byte elements.
func (c *Codec) maskBits(k int) int {
	if c.singleBase {
		return 0
	}
	return c.lineSize / k
}

// encodedBits is the stream length of encoding id, including the id.
func (c *Codec) encodedBits(id int) int {
	switch id {
	case Zeros:
		return tagBits
	case Repeated:
		return tagBits + 64
	case Uncompressed:
		return tagBits + 8*c.lineSize
	}
	e := baseDelta[id-Base8Delta1]
	n := c.lineSize / e.k
	return tagBits + c.maskBits(e.k) + 8*e.k + 8*e.d*n
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

// fit checks base-delta encoding (k, d). It returns the base-select mask
// (element 0 in the most significant of the n bits) and the explicit base.
// A k-byte value x fits a d-byte delta when x + off < span in k-byte
// unsigned arithmetic: the signed range shifted onto 0 … span−1.
func (c *Codec) fit(line []byte, k, d int) (mask, base uint64, ok bool) {
	n := c.lineSize / k
	off, span := c.deltaOffset[d], c.deltaSpan[d]
	keep := ^uint64(0) >> uint(64-8*k) // k-byte arithmetic
	haveBase := false
	if c.singleBase {
		base, haveBase = element(line, k, 0), true
	}
	for i := 0; i < n; i++ {
		v := element(line, k, i)
		if !c.singleBase && (v+off)&keep < span {
			continue // implicit zero base
		}
		if !haveBase {
			base, haveBase = v, true
		}
		if (v-base+off)&keep >= span {
			return 0, 0, false
		}
		mask |= 1 << uint(n-1-i)
	}
	return mask, base, true
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	return int(c.idBits[c.chooseID(line)&0xF])
}

// maxPayload is the longest payload after the id: the raw 128-byte line.
const maxPayload = 128

// Compress appends the encoding of line to dst. It reads all of line
// before it writes to dst, so the two may overlap.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	// The one-call kernels write up to a raw stream's length, so they run
	// only when dst has room for that: appending must not move dst when
	// it has room for the stream actually written. This is the path of
	// every call, so it checks one field set by New, and the kernels take
	// array pointers, half the words of slices.
	if n := len(dst); len(line) == c.oneCallLine && cap(dst)-n > len(line) && cpu.Active() >= cpu.AVX512 {
		var bits int
		var ok bool
		if len(line) == 64 {
			bits, ok = c.compress64((*[65]byte)(dst[n:n+65]), (*[64]byte)(line))
		} else {
			bits, ok = c.compress128((*[129]byte)(dst[n:n+129]), (*[128]byte)(line))
		}
		if ok {
			// bits is positive; dividing it unsigned saves the signed
			// division's three instructions of rounding toward zero.
			return dst[:n+int(uint(bits+7)/8)], bits, nil
		}
	}
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	id := c.chooseID(line)
	return c.encode(dst, line, id), int(c.idBits[id&0xF]), nil
}

// encode appends the encoding id of line, which must fit it, to dst, with
// an encode kernel when one applies.
func (c *Codec) encode(dst, line []byte, id int) []byte {
	if id == Uncompressed || id >= Base8Delta1 && id <= Base2Delta1 {
		if enc, ok := c.encodeKernel(dst, line, id); ok {
			return enc
		}
	}
	if id == Uncompressed {
		return appendRaw(dst, line)
	}
	return c.encodeGeneric(dst, line, id)
}

// appendRaw appends the raw encoding of line (id 1111, the line, four zero
// bits) to dst, eight bytes at a time: encodeGeneric's stream without its
// copies.
func appendRaw(dst, line []byte) []byte {
	var w [maxPayload / 8]uint64 // read all of line before dst is written
	words := len(line) / 8
	for i := range words {
		w[i] = binary.BigEndian.Uint64(line[8*i:])
	}
	n := len(dst)
	dst = slices.Grow(dst, len(line)+1)[:n+len(line)+1]
	out := dst[n:]
	carry := uint64(Uncompressed)
	for i, v := range w[:words] {
		binary.BigEndian.PutUint64(out[8*i:], carry<<60|v>>4)
		carry = v & 0xF
	}
	out[len(line)] = byte(carry << 4)
	return dst
}

// appendUnshifted appends the line of a raw stream enc (the id, the line,
// four padding bits) to dst, eight bytes at a time.
func appendUnshifted(dst, enc []byte) []byte {
	var w [maxPayload / 8]uint64 // read all of enc before dst is written
	words := (len(enc) - 1) / 8
	for i := range words {
		w[i] = binary.BigEndian.Uint64(enc[8*i:])<<4 | uint64(enc[8*i+8]>>4)
	}
	n := len(dst)
	dst = slices.Grow(dst, 8*words)[:n+8*words]
	for i, v := range w[:words] {
		binary.BigEndian.PutUint64(dst[n+8*i:], v)
	}
	return dst
}

// encodeGeneric appends the encoding id of line, which must fit it, to
// dst: the pure-Go definition that the encode kernels must match.
//
// Every field after the 4-bit id is a whole number of bytes, except a 4-bit
// mask (8-byte elements in a 32-byte line) that completes the id's byte. So
// the stream is assembled as the bytes [id, payload…] and, unless that
// mask is there, shifted left by four bits as a whole, eight bytes at a
// time: the id moves into the high nibble of byte 0 and the low nibble of
// the last byte becomes the zero padding.
func (c *Codec) encodeGeneric(dst, line []byte, id int) []byte {
	var q [maxPayload + 16]byte // id byte, payload, zero slack for the shift
	q[0] = uint8(id)
	n := 1
	switch id {
	case Zeros:
	case Repeated:
		binary.BigEndian.PutUint64(q[1:], binary.LittleEndian.Uint64(line))
		n += 8
	case Uncompressed:
		n += copy(q[1:], line)
	default:
		e := baseDelta[id-Base8Delta1]
		mask, base, _ := c.fit(line, e.k, e.d)
		switch mb := c.maskBits(e.k); {
		case mb == 4:
			q[0] = uint8(id)<<4 | uint8(mask)
		case mb > 0:
			binary.BigEndian.PutUint64(q[n:], mask<<uint(64-mb))
			n += mb / 8
		}
		binary.BigEndian.PutUint64(q[n:], base<<uint(64-8*e.k))
		n += e.k
		if c.singleBase {
			mask = ^uint64(0)
		}
		n += packDeltas(q[n:], line, e.k, e.d, mask, base)
	}
	if c.encodedBits(id)%8 == 0 {
		return append(dst, q[:n]...)
	}
	var out [maxPayload + 16]byte
	for i := 0; i < n; i += 8 {
		w := binary.BigEndian.Uint64(q[i:])
		binary.BigEndian.PutUint64(out[i:], w<<4|uint64(q[i+8]>>4))
	}
	return append(dst, out[:n]...)
}

// packDeltas writes the big-endian d-byte delta of each k-byte element of
// line to p and returns the bytes written. Element i (bit n−1−i of mask)
// is taken relative to base when its mask bit is set, else to zero.
func packDeltas(p, line []byte, k, d int, mask, base uint64) int {
	n := len(line) / k
	switch k<<4 | d {
	case 8<<4 | 1:
		for i := 0; i < n; i++ {
			p[i] = byte(binary.LittleEndian.Uint64(line[8*i:]) - base&-(mask>>uint(n-1-i)&1))
		}
	case 8<<4 | 2:
		for i := 0; i < n; i++ {
			binary.BigEndian.PutUint16(p[2*i:], uint16(binary.LittleEndian.Uint64(line[8*i:])-base&-(mask>>uint(n-1-i)&1)))
		}
	case 8<<4 | 4:
		for i := 0; i < n; i++ {
			binary.BigEndian.PutUint32(p[4*i:], uint32(binary.LittleEndian.Uint64(line[8*i:])-base&-(mask>>uint(n-1-i)&1)))
		}
	case 4<<4 | 1:
		b := uint32(base)
		for i := 0; i < n; i++ {
			p[i] = byte(binary.LittleEndian.Uint32(line[4*i:]) - b&-uint32(mask>>uint(n-1-i)&1))
		}
	case 4<<4 | 2:
		b := uint32(base)
		for i := 0; i < n; i++ {
			binary.BigEndian.PutUint16(p[2*i:], uint16(binary.LittleEndian.Uint32(line[4*i:])-b&-uint32(mask>>uint(n-1-i)&1)))
		}
	default: // 2-byte elements, 1-byte deltas
		b := uint16(base)
		for i := 0; i < n; i++ {
			p[i] = byte(binary.LittleEndian.Uint16(line[2*i:]) - b&-uint16(mask>>uint(n-1-i)&1))
		}
	}
	return n * d
}

// unpackDeltas is the inverse of packDeltas: it writes each element, the
// sign-extended delta plus base where its mask bit is set, to out.
func unpackDeltas(out, p []byte, k, d int, mask, base uint64) {
	n := len(out) / k
	switch k<<4 | d {
	case 8<<4 | 1:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(out[8*i:], uint64(int8(p[i]))+base&-(mask>>uint(n-1-i)&1))
		}
	case 8<<4 | 2:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(out[8*i:], uint64(int16(binary.BigEndian.Uint16(p[2*i:])))+base&-(mask>>uint(n-1-i)&1))
		}
	case 8<<4 | 4:
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint64(out[8*i:], uint64(int32(binary.BigEndian.Uint32(p[4*i:])))+base&-(mask>>uint(n-1-i)&1))
		}
	case 4<<4 | 1:
		b := uint32(base)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(out[4*i:], uint32(int8(p[i]))+b&-uint32(mask>>uint(n-1-i)&1))
		}
	case 4<<4 | 2:
		b := uint32(base)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(out[4*i:], uint32(int16(binary.BigEndian.Uint16(p[2*i:])))+b&-uint32(mask>>uint(n-1-i)&1))
		}
	default:
		b := uint16(base)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint16(out[2*i:], uint16(int8(p[i]))+b&-uint16(mask>>uint(n-1-i)&1))
		}
	}
}

// buildEncodings fills the list that Encodings returns.
func (c *Codec) buildEncodings() {
	for i, id := range encodingIDs {
		c.encodings[i] = linecomp.Encoding{Name: encodingNames[i], Bits: c.encodedBits(id)}
	}
}

// Encodings lists the nine encodings: "zeros", "repeated", "b8d1", "b8d2",
// "b8d4", "b4d1", "b4d2", "b2d1" (base k bytes, deltas d bytes) and "raw".
// Each has one size at the codec's line size, so the 4-bit id alone tells
// a stream's length (linecomp.TagGivesSize). An encoding's number is its
// id, except the raw line's (id 1111), which is 8.
func (c *Codec) Encodings() []linecomp.Encoding { return c.encodings[:] }

// EncodingOf returns the number of the encoding of enc, from its id. An
// empty stream or an unassigned id (1000 to 1110) gives a
// *linecomp.CorruptError.
func (c *Codec) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, c.corrupt(0, "stream ends inside a field")
	}
	switch id := int(enc[0] >> 4); {
	case id <= Base2Delta1:
		return id, nil
	case id == Uncompressed:
		return len(encodingIDs) - 1, nil
	}
	return 0, c.corrupt(0, "unknown encoding id")
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout, including ones Compress would not
// choose. It reads all of enc before it writes to dst, so the two may
// overlap.
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	// A one-call kernel decodes a well-formed stream straight into dst's
	// spare room; it refuses anything else, which goes on to the decoding
	// below, the definition, which says what is wrong.
	if n := len(dst); c.oneCallDecode && cap(dst)-n >= c.lineSize && cpu.Active() >= cpu.AVX512 {
		var ok bool
		if c.lineSize == 64 {
			ok = c.decompress64((*[64]byte)(dst[n:n+64]), enc)
		} else {
			ok = c.decompress128((*[128]byte)(dst[n:n+128]), enc)
		}
		if ok {
			return dst[:n+c.lineSize], nil
		}
	}
	id, bits, err := c.checkStream(enc)
	if err != nil {
		return dst, err
	}
	return c.decode(dst, enc, id, bits), nil
}

// checkStream returns the encoding of enc and its length in bits, or the
// error that says what makes it malformed: an unknown encoding, a length
// that is not the encoding's, or padding bits that are not zero.
func (c *Codec) checkStream(enc []byte) (int, int, error) {
	num, err := c.EncodingOf(enc)
	if err != nil {
		return 0, 0, err
	}
	id, bits := encodingIDs[num], c.encodings[num].Bits
	if want := (bits + 7) / 8; len(enc) != want {
		if len(enc) < want {
			return 0, 0, c.corrupt(8*len(enc), "stream ends inside a field")
		}
		return 0, 0, c.corrupt(bits, "stream has trailing bytes after the last field")
	}
	if bits%8 != 0 && enc[len(enc)-1]&0xF != 0 {
		return 0, 0, c.corrupt(bits, "non-zero padding bits")
	}
	return id, bits, nil
}

// decode appends the line of a stream that checkStream accepted as
// encoding id of the given bits.
func (c *Codec) decode(dst, enc []byte, id, bits int) []byte {
	switch {
	case id == Zeros:
		n := len(dst)
		dst = slices.Grow(dst, c.lineSize)[:n+c.lineSize]
		clear(dst[n:])
		return dst
	case id == Repeated:
		v := binary.BigEndian.Uint64(enc)<<4 | uint64(enc[8]>>4)
		n := len(dst)
		dst = slices.Grow(dst, c.lineSize)[:n+c.lineSize]
		for i := n; i < len(dst); i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], v)
		}
		return dst
	case id == Uncompressed:
		if out, ok := c.unrawKernel(dst, enc); ok {
			return out
		}
		return appendUnshifted(dst, enc)
	case id >= Base8Delta1 && id <= Base2Delta1:
		if out, ok := c.decodeKernel(dst, enc, id); ok {
			return out
		}
	}
	// Undo the nibble shift: p is the aligned payload after the id.
	var p [maxPayload + 16]byte
	var lead uint64
	if bits%8 == 0 {
		lead = uint64(enc[0] & 0xF)
		copy(p[:], enc[1:])
	} else {
		var e [maxPayload + 16]byte
		copy(e[:], enc)
		for i := 0; i < len(enc)-1; i += 8 {
			w := binary.BigEndian.Uint64(e[i:])
			binary.BigEndian.PutUint64(p[i:], w<<4|uint64(e[i+8]>>4))
		}
	}
	var buf [128]byte
	out := buf[:c.lineSize]
	switch id {
	case Zeros:
	case Repeated:
		v := binary.BigEndian.Uint64(p[:])
		for i := 0; i < c.lineSize; i += 8 {
			binary.LittleEndian.PutUint64(out[i:], v)
		}
	case Uncompressed:
		copy(out, p[:c.lineSize])
	default:
		e := baseDelta[id-Base8Delta1]
		n := 0
		mask := lead
		if mb := c.maskBits(e.k); mb > 4 {
			mask = binary.BigEndian.Uint64(p[:]) >> uint(64-mb)
			n = mb / 8
		}
		base := binary.BigEndian.Uint64(p[n:]) >> uint(64-8*e.k)
		if c.singleBase {
			mask = ^uint64(0)
		}
		unpackDeltas(out, p[n+e.k:], e.k, e.d, mask, base)
	}
	return append(dst, out...)
}

func (c *Codec) corrupt(offset int, reason string) error {
	return &linecomp.CorruptError{Codec: c.name, Offset: offset, Reason: reason}
}
