package sc

import (
	"encoding/binary"
	"slices"
	"sync"

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

// Option configures a Codec at New. Options act on New's configuration,
// not on a Codec, so nothing can change a Codec once made.
type Option func(*config)

// config is what New's options set.
type config struct {
	entries     int
	counterBits int
	maxLen      int
	latency     linecomp.Latency
	table       *Table // WithTable's code book; New stores it in Codec.table
}

// WithVFTEntries sets E, the number of values the VFT holds (default 1024,
// at most MaxVFTEntries). E+1 symbols must fit a code of the maximum code
// length: E < 2^L.
func WithVFTEntries(n int) Option { return func(c *config) { c.entries = n } }

// WithCounterBits sets c, the width of the VFT's saturating counters
// (default 12, 1..32).
func WithCounterBits(n int) Option { return func(c *config) { c.counterBits = n } }

// WithMaxCodeLen sets L, the longest codeword that Rebuild may assign
// (default DefaultMaxCodeLen, 1..MaxCodeLen).
func WithMaxCodeLen(n int) Option { return func(c *config) { c.maxLen = n } }

// WithTable makes the codec start with code book t instead of the empty
// one (in which every word escapes): a simulator that stored a code book
// (Table.MarshalBinary, ParseTable) makes a codec that decodes what was
// compressed under it. t is shared, not copied; Tables never change. The
// table's own maximum code length governs its codewords; WithMaxCodeLen
// only limits the code books that Rebuild makes.
func WithTable(t *Table) Option { return func(c *config) { c.table = t } }

// WithLatency replaces the default latency (LATTE-CC's 6/14 cycles). A
// field may be linecomp.LatencyUnknown; other negative values are an error.
func WithLatency(l linecomp.Latency) Option { return func(c *config) { c.latency = l } }

// name is the registry name of every SC² codec; see Codec.Name.
const name = "sc2"

// Codec is an SC² compressor for one line size with a code book, which
// Compress, Size and Decompress use and which never changes. Its
// NewTrainer makes a Trainer, whose VFT the lines of a sampling phase feed
// and which builds the code book of a new codec.
//
// A Codec is safe for concurrent use: it only reads the immutable code book
// (taking no lock and allocating nothing).
type Codec struct {
	lineSize  int
	cfg       config
	table     *Table // the code book: set when the codec is made, never changed
	encodings []linecomp.Encoding
}

// New returns an SC² codec for lines of 32, 64 or 128 bytes. Unless
// WithTable is given it starts with the empty code book: only the escape
// symbol, codeword "0", so every line is stored raw until a Rebuild. A bad
// option gives an error wrapping linecomp.ErrConfig.
func New(lineSize int, opts ...Option) (*Codec, error) {
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError(name, lineSize, "32, 64 or 128 bytes")
	}
	lat, _ := linecomp.DefaultLatency("", name)
	cfg := config{
		entries:     DefaultVFTEntries,
		counterBits: DefaultCounterBits,
		maxLen:      DefaultMaxCodeLen,
		latency:     lat,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.maxLen < 1 || cfg.maxLen > MaxCodeLen {
		return nil, linecomp.ConfigError(name, "maximum code length must be 1..%d, got %d", MaxCodeLen, cfg.maxLen)
	}
	if cfg.entries >= 1 && uint64(cfg.entries) >= uint64(1)<<uint(cfg.maxLen) {
		return nil, linecomp.ConfigError(name, "%d VFT entries plus the escape do not fit codes of at most %d bits", cfg.entries, cfg.maxLen)
	}
	if err := cfg.latency.Check(name); err != nil {
		return nil, err
	}
	table := cfg.table
	if table == nil {
		var err error
		if table, err = BuildTable(nil, 0, cfg.maxLen); err != nil {
			return nil, err
		}
	} else if len(table.keys) == 0 {
		return nil, linecomp.ConfigError(name, "WithTable given the zero Table, which has no symbols")
	}
	return newCodec(lineSize, cfg, table, []linecomp.Encoding{
		encCompressed: {Name: "compressed", Bits: -1},
		encRaw:        {Name: "raw", Bits: tagBits + 8*lineSize},
	})
}

// newCodec makes a codec of a checked configuration with code book table.
// The VFT's configuration is checked here too, so that NewTrainer cannot
// fail.
func newCodec(lineSize int, cfg config, table *Table, encodings []linecomp.Encoding) (*Codec, error) {
	if _, err := NewVFT(cfg.entries, cfg.counterBits); err != nil {
		return nil, err
	}
	return &Codec{lineSize: lineSize, cfg: cfg, table: table, encodings: encodings}, nil
}

// The numbers of the encodings, as Encodings lists them.
const (
	encCompressed = iota // flag 1: a codeword (and raw word) per word
	encRaw               // flag 0: the line as it is
)

func init() {
	linecomp.RegisterNew(linecomp.Info{Name: name, Paper: "Arelakis & Stenström, SC²: A Statistical Compression Cache Scheme, ISCA 2014", LineSizes: []int{32, 64, 128}},
		func(n int) (*Codec, error) { return New(n) })
}

// Name returns "sc2" whatever the options. The options that New takes
// besides the line size and the latency change only how the next code
// book is learned, and a code book is data, not configuration: New("sc2",
// LineSize()) makes the untrained codec, and New(LineSize(),
// WithTable(Table())) one that produces the same bits as this codec on
// every line.
func (c *Codec) Name() string              { return name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return tagBits }
func (c *Codec) Latency() linecomp.Latency { return c.cfg.latency }

// Table returns the codec's code book, which never changes.
func (c *Codec) Table() *Table { return c.table }

// Trainer learns SC²'s next code book: a VFT that Observe feeds and from
// which Build makes a new codec. It is safe for concurrent use.
type Trainer struct {
	codec *Codec // whose configuration Build keeps
	mu    sync.Mutex
	vft   *VFT
}

// NewTrainer returns a trainer with an empty VFT that builds codecs
// configured as c. It implements linecomp.Trainable.
func (c *Codec) NewTrainer() linecomp.Trainer {
	vft, err := NewVFT(c.cfg.entries, c.cfg.counterBits)
	if err != nil {
		panic("sc: a codec's VFT configuration was checked when it was made: " + err.Error())
	}
	return &Trainer{codec: c, vft: vft}
}

// VFT returns a copy of the value-frequency table that Observe feeds: what
// the next Build would build its code book from. Changing the copy does
// not change the trainer.
func (t *Trainer) VFT() *VFT {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.vft.clone()
}

// Observe counts every whole 32-bit word of line in the VFT (a line of any
// length is accepted). It implements linecomp.Trainer.
func (t *Trainer) Observe(line []byte) {
	t.mu.Lock()
	t.vft.Observe(line)
	t.mu.Unlock()
}

// Build returns a new codec, configured as the trainer's, whose code book
// is built from the VFT with codewords of at most the maximum code length.
// The trainer keeps its VFT; LATTE-CC starts each sampling phase afresh
// with the new codec's NewTrainer. It implements linecomp.Trainer.
func (t *Trainer) Build() (linecomp.Trainable, error) {
	t.mu.Lock()
	freqs, escapes := t.vft.Freqs(), t.vft.Escapes()
	t.mu.Unlock()
	c := t.codec
	table, err := BuildTable(freqs, escapes, c.cfg.maxLen)
	if err != nil {
		return nil, err
	}
	return newCodec(c.lineSize, c.cfg, table, c.encodings)
}

// Encodings lists SC²'s two encodings: "compressed" (flag 1; its length
// depends on the words) and "raw" (flag 0; 1 + 8·LineSize bits). It
// implements linecomp.EncodingReporter.
func (c *Codec) Encodings() []linecomp.Encoding { return c.encodings }

// EncodingOf returns the encoding that the flag of enc selects. An empty
// enc gives a *linecomp.CorruptError. It implements
// linecomp.EncodingReporter.
func (c *Codec) EncodingOf(enc []byte) (int, error) {
	if len(enc) == 0 {
		return 0, &linecomp.CorruptError{Codec: name, Offset: 0, Reason: "stream ends inside a field"}
	}
	if enc[0]>>7 == 1 {
		return encCompressed, nil
	}
	return encRaw, nil
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

// Compress appends the encoding of line to dst. It reads all of line
// before it writes to dst, so the two may overlap.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(name, len(line), "lines of its configured size")
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
	if n >= 8*c.lineSize {
		return bitstream.AppendRaw(dst, 0, tagBits, line)
	}
	// The escaped words are read from a copy: dst may overlap line.
	var words [32]uint32
	for i := range c.lineSize / 4 {
		words[i] = binary.LittleEndian.Uint32(line[4*i:])
	}
	var w bitstream.Writer
	w.Reset(dst)
	w.Write(1, tagBits)
	esc := c.table.escape
	for i := range c.lineSize / 4 {
		w.Write(e[i]>>8, uint(e[i]&0xFF))
		if e[i] == esc {
			w.Write(uint64(words[i]), 32)
		}
	}
	return w.Finish()
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout under the codec's code book, including
// ones Compress would not choose (an escaped word that has a codeword, a
// coded line no shorter than the raw one). It reads all of enc before it
// writes to dst, so the two may overlap.
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	n := c.lineSize
	if len(enc) == 0 || enc[0]>>7 == 0 {
		// ReadRaw reads all of enc before it writes and writes nothing
		// on error, so the line can go straight to dst's spare room.
		grown := slices.Grow(dst, n)
		if off, why, ok := bitstream.ReadRaw(grown[len(dst):len(dst)+n], enc, tagBits); !ok {
			return dst, &linecomp.CorruptError{Codec: name, Offset: off, Reason: why}
		}
		return grown[:len(dst)+n], nil
	}
	var line [128]byte
	out := line[:n]
	if t := c.table; t.lut == nil || !c.decompressFast(t, out, enc) {
		if err := c.decodeRef(out, enc); err != nil {
			return dst, err
		}
	}
	return append(dst, out...), nil
}

// decompressRef is Decompress on the reference path alone.
func (c *Codec) decompressRef(dst, enc []byte) ([]byte, error) {
	var line [128]byte
	out := line[:c.lineSize]
	if err := c.decodeRef(out, enc); err != nil {
		return dst, err
	}
	return append(dst, out...), nil
}

// decodeRef is the reference decoder: bitstream.ReadRaw for a raw line,
// else a bitstream.Reader and the DeLUT's per-length scan. It decodes enc
// into out and gives the exact error for a malformed stream.
func (c *Codec) decodeRef(out, enc []byte) error {
	if len(enc) == 0 || enc[0]>>7 == 0 {
		if off, why, ok := bitstream.ReadRaw(out, enc, tagBits); !ok {
			return &linecomp.CorruptError{Codec: name, Offset: off, Reason: why}
		}
		return nil
	}
	t := c.table
	L := uint(t.maxLen)
	end := 8 * len(enc)
	var r bitstream.Reader
	r.Reset(enc)
	r.Read(tagBits)
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
				return &linecomp.CorruptError{Codec: name, Offset: end, Reason: "stream ends inside a codeword"}
			}
			return &linecomp.CorruptError{Codec: name, Offset: pos, Reason: "no codeword starts here"}
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
	if off, why, ok := r.Problem(); !ok {
		return &linecomp.CorruptError{Codec: name, Offset: off, Reason: why}
	}
	return nil
}

var (
	_ linecomp.Codec            = (*Codec)(nil)
	_ linecomp.Trainable        = (*Codec)(nil)
	_ linecomp.Trainer          = (*Trainer)(nil)
	_ linecomp.EncodingReporter = (*Codec)(nil)
)
