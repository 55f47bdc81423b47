package sc

import (
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

// Defaults of the VFT, as LATTE-CC (§IV-A2) configures SC².
const (
	DefaultVFTEntries  = 1024
	DefaultCounterBits = 12
)

// tagBits is the flag that opens every stream: 1 = Huffman-coded words,
// 0 = the raw line.
const tagBits = 1

// Option configures a Codec.
type Option func(*Codec)

// WithVFTEntries sets E, the number of values the VFT holds (default 1024).
// E+1 symbols must fit a code of the maximum code length: E < 2^L.
func WithVFTEntries(n int) Option { return func(c *Codec) { c.entries = n } }

// WithCounterBits sets c, the width of the VFT's saturating counters
// (default 12, 1..32).
func WithCounterBits(n int) Option { return func(c *Codec) { c.counterBits = n } }

// WithMaxCodeLen sets L, the longest codeword that Rebuild may assign
// (default DefaultMaxCodeLen, 1..MaxCodeLen).
func WithMaxCodeLen(n int) Option { return func(c *Codec) { c.maxLen = n } }

// WithTable makes the codec start with code book t instead of the empty
// one (in which every word escapes). t is shared, not copied.
func WithTable(t *Table) Option { return func(c *Codec) { c.table = t } }

// WithLatency replaces the default latency (LATTE-CC's 6/14 cycles).
func WithLatency(l linecomp.Latency) Option { return func(c *Codec) { c.latency = l } }

// Codec is an SC² compressor for one line size: a current code book, which
// Compress, Size and Decompress use, and a VFT that Observe feeds and
// Rebuild turns into the next code book.
//
// Compress, Size and Decompress may run concurrently with each other, but
// not with Observe, Rebuild or SetTable.
type Codec struct {
	name        string
	lineSize    int
	entries     int
	counterBits int
	maxLen      int
	latency     linecomp.Latency
	table       *Table
	vft         *VFT
}

// New returns an SC² codec for lines of 32, 64 or 128 bytes. Unless
// WithTable is given it starts with the empty code book: only the escape
// symbol, codeword "0", so every line is stored raw until a Rebuild.
func New(lineSize int, opts ...Option) (*Codec, error) {
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError("sc2", lineSize, "32, 64 or 128 bytes")
	}
	lat, _ := linecomp.DefaultLatency("", "sc2")
	c := &Codec{
		name:        "sc2",
		lineSize:    lineSize,
		entries:     DefaultVFTEntries,
		counterBits: DefaultCounterBits,
		maxLen:      DefaultMaxCodeLen,
		latency:     lat,
	}
	for _, o := range opts {
		o(c)
	}
	if c.maxLen < 1 || c.maxLen > MaxCodeLen {
		return nil, fmt.Errorf("sc2: maximum code length must be 1..%d, got %d", MaxCodeLen, c.maxLen)
	}
	if c.entries < 1 || uint64(c.entries) >= uint64(1)<<uint(c.maxLen) {
		return nil, fmt.Errorf("sc2: %d VFT entries plus the escape do not fit codes of at most %d bits", c.entries, c.maxLen)
	}
	vft, err := NewVFT(c.entries, c.counterBits)
	if err != nil {
		return nil, err
	}
	c.vft = vft
	if c.table == nil {
		c.table, err = BuildTable(nil, 0, c.maxLen)
		if err != nil {
			return nil, err
		}
	} else if len(c.table.keys) == 0 {
		return nil, fmt.Errorf("sc2: WithTable given an empty Table")
	}
	return c, nil
}

func init() {
	linecomp.RegisterNew(linecomp.Info{Name: "sc2", Paper: "Arelakis & Stenström, SC²: A Statistical Compression Cache Scheme, ISCA 2014", LineSizes: []int{32, 64, 128}},
		func(n int) (*Codec, error) { return New(n) })
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return tagBits }
func (c *Codec) Latency() linecomp.Latency { return c.latency }

// Table returns the current code book.
func (c *Codec) Table() *Table { return c.table }

// SetTable replaces the current code book with t.
func (c *Codec) SetTable(t *Table) error {
	if t == nil || len(t.keys) == 0 {
		return fmt.Errorf("sc2: SetTable given an empty Table")
	}
	c.table = t
	return nil
}

// VFT returns the value-frequency table that Observe feeds. It is the
// codec's own: reading it is fine, changing it changes the next Rebuild.
func (c *Codec) VFT() *VFT { return c.vft }

// Observe counts every whole 32-bit word of line in the VFT (a line of any
// length is accepted). It implements linecomp.Trainer.
func (c *Codec) Observe(line []byte) { c.vft.Observe(line) }

// Rebuild replaces the code book with the one built from the VFT, with
// codewords of at most the codec's maximum code length, and then empties
// the VFT, so that each sampling phase starts afresh as LATTE-CC rebuilds
// the code every period. It implements linecomp.Trainer.
func (c *Codec) Rebuild() (linecomp.Trainer, error) {
	t, err := c.vft.Table(c.maxLen)
	if err != nil {
		return nil, err
	}
	next := *c
	next.table = t
	next.vft, err = NewVFT(c.entries, c.counterBits)
	if err != nil {
		return nil, err
	}
	return &next, nil
}

// codes looks up the codeword of every word of line into out and returns
// the payload length in bits: codewords plus 32 bits for every escaped word.
func (c *Codec) codes(line []byte, out *[32]uint64) int {
	t := c.table
	n := 0
	for i := range c.lineSize / 4 {
		e := t.lookup(binary.LittleEndian.Uint32(line[4*i:]))
		out[i] = e
		n += int(e & 0xFF)
		if e == t.escape {
			n += 32
		}
	}
	return n
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	var n int
	if t := c.table; t.enc != nil {
		n = c.sizeFast(t, line)
	} else {
		var e [32]uint64
		n = c.codes(line, &e)
	}
	if n < 8*c.lineSize {
		return tagBits + n
	}
	return tagBits + 8*c.lineSize
}

// Compress appends the encoding of line to dst.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	var enc []byte
	var bits int
	if t := c.table; t.enc != nil {
		enc, bits = c.compressFast(t, dst, line)
	} else {
		enc, bits = c.compressRef(dst, line)
	}
	return enc, bits, nil
}

// compressRef is the reference encoder: the generic hash lookup and a
// bitstream.Writer.
func (c *Codec) compressRef(dst, line []byte) ([]byte, int) {
	var e [32]uint64
	n := c.codes(line, &e)
	var w bitstream.Writer
	w.Reset(dst)
	if n >= 8*c.lineSize {
		w.Write(0, tagBits)
		w.Bytes(line)
		return w.Finish()
	}
	w.Write(1, tagBits)
	esc := c.table.escape
	for i := range c.lineSize / 4 {
		w.Write(e[i]>>8, uint(e[i]&0xFF))
		if e[i] == esc {
			w.Write(uint64(binary.LittleEndian.Uint32(line[4*i:])), 32)
		}
	}
	return w.Finish()
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout under the current code book, including
// ones Compress would not choose (an escaped word that has a codeword, a
// coded line no shorter than the raw one).
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	if t := c.table; t.lut != nil {
		var line [128]byte
		if c.decompressFast(t, line[:c.lineSize], enc) {
			return append(dst, line[:c.lineSize]...), nil
		}
	}
	return c.decompressRef(dst, enc)
}

// decompressRef is the reference decoder: a bitstream.Reader and the
// DeLUT's per-length scan. It gives the exact error for a malformed stream.
func (c *Codec) decompressRef(dst, enc []byte) ([]byte, error) {
	var line [128]byte
	out := line[:c.lineSize]
	t := c.table
	L := uint(t.maxLen)
	end := 8 * len(enc)
	var r bitstream.Reader
	r.Reset(enc)
	if r.Read(tagBits) == 0 {
		for i := range out {
			out[i] = byte(r.Read(8))
		}
	} else {
		for i := range c.lineSize / 4 {
			// Peek at the next L bits on a copy of the reader; near the
			// end of the stream the window is zero-filled.
			pos := r.Pos()
			peek := r
			avail := uint(min(int(L), end-pos))
			window := peek.Read(avail) << (L - avail)
			idx, n, ok := t.decode(window)
			if !ok {
				if avail < L {
					return dst, &linecomp.CorruptError{Codec: c.name, Offset: end, Reason: "stream ends inside a codeword"}
				}
				return dst, &linecomp.CorruptError{Codec: c.name, Offset: pos, Reason: "no codeword starts here"}
			}
			r.Read(n)
			var w uint32
			if k := t.keys[idx]; k == escapeKey {
				w = uint32(r.Read(32))
			} else {
				w = uint32(k)
			}
			binary.LittleEndian.PutUint32(out[4*i:], w)
		}
	}
	if off, why, ok := r.Problem(); !ok {
		return dst, &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: why}
	}
	return append(dst, out...), nil
}

var (
	_ linecomp.Codec   = (*Codec)(nil)
	_ linecomp.Trainer = (*Codec)(nil)
)
