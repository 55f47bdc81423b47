package cpack

import (
	"encoding/binary"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

// wordKind is the way one 32-bit word is coded. The kinds are numbered in
// order of increasing code length in both code tables (see TestKindOrder in the
// tests), which is the order the encoder tries them in: the first kind that
// applies is the shortest.
type wordKind uint8

const (
	zeroWord   wordKind = iota // zzzz: the word is zero
	fullMatch                  // mmmm: the word equals a dictionary entry
	narrowWord                 // zzzx: the upper three bytes are zero
	threeMatch                 // mmmx: the upper three bytes match an entry
	halfMatch                  // mmxx: the upper two bytes match an entry
	newWord                    // xxxx: the word itself
	numKinds

	// zeroBlockKind is C-Pack+Z's code for a whole all-zero line; it is the
	// only code of such a line and is not a word kind.
	zeroBlockKind wordKind = numKinds
)

const (
	dictSlots = 16 // dictionary entries; the index field is 4 bits
	indexBits = 4
	tagBits   = 1 // the flag: 1 = word codes follow, 0 = the raw line
	rawFlag   = 0
	maxWords  = 128 / 4
)

// code is one code table entry: the prefix and its length in bits.
type code struct {
	prefix uint64
	bits   uint
}

// Chen et al., Table I.
var cpackCodes = [numKinds]code{
	zeroWord:   {0b00, 2},
	newWord:    {0b01, 2},
	fullMatch:  {0b10, 2},
	halfMatch:  {0b1100, 4},
	narrowWord: {0b1101, 4},
	threeMatch: {0b1110, 4},
}

// Tavana et al., Table II (C-Pack+Z); 00 is the zero block.
var cpackZCodes = [numKinds]code{
	zeroWord:   {0b01, 2},
	newWord:    {0b10, 2},
	fullMatch:  {0b1100, 4},
	halfMatch:  {0b1101, 4},
	narrowWord: {0b1110, 4},
	threeMatch: {0b1111, 4},
}

// zeroBlockCode is C-Pack+Z's 2-bit zero-block code.
const zeroBlockCode, zeroBlockBits = 0b00, 2

// payloadBits is what follows each code: dictionary index and/or the bytes
// that did not match.
var payloadBits = [numKinds]uint{
	zeroWord:   0,
	fullMatch:  indexBits,
	narrowWord: 8,
	threeMatch: indexBits + 8,
	halfMatch:  indexBits + 16,
	newWord:    32,
}

// Option configures a Codec at New. Options act on New's configuration,
// not on a Codec, so nothing can change a Codec once made.
type Option func(*config)

// config is what New's options set.
type config struct {
	zeroBlock  bool
	gem5Push   bool
	latency    linecomp.Latency
	latencySet bool // the default depends on the code table, which an option after WithLatency may choose
}

// WithCPackZ selects C-Pack+Z: the code table of Tavana et al.'s Table II,
// which adds a 2-bit code for an all-zero line. Its default latency is
// Tavana's 16/9 cycles.
func WithCPackZ() Option { return func(c *config) { c.zeroBlock = true } }

// WithGem5PushRule pushes every word into the dictionary that is not coded
// as a zero or narrow word (also full and partial matches), as gem5's CPack
// does, instead of only the words coded as new. It exists to reproduce
// gem5's compressed sizes.
func WithGem5PushRule() Option { return func(c *config) { c.gem5Push = true } }

// WithLatency replaces the default latency (12/13 cycles for C-Pack, from
// MAG-aware BDI §V; 16/9 for C-Pack+Z, from Tavana's Table III), e.g. with
// linecomp.PresetLatency(linecomp.SourceGem5, "cpack"). A field may be
// linecomp.LatencyUnknown; other negative values are an error.
func WithLatency(l linecomp.Latency) Option {
	return func(c *config) { c.latency, c.latencySet = l, true }
}

// Codec is a C-Pack or C-Pack+Z compressor for one line size. It is
// immutable and safe for concurrent use.
type Codec struct {
	name      string
	lineSize  int
	zeroBlock bool
	gem5Push  bool
	latency   linecomp.Latency
	encodings []linecomp.Encoding // what Encodings returns

	codes    [numKinds]code
	size     [numKinds]int // code + payload bits of each kind
	pushMask uint8         // bit k set: a word of kind k is pushed
	short    [4]int8       // kind of each 2-bit prefix; -1: read 2 more bits
	long     [4]int8       // kind of 11xx by its low 2 bits; -1: undefined

	// Tables of the fast paths (see stream.go).
	field  [8]uint64 // code prefix of each kind shifted above its payload
	sizes8 [8]uint8  // size of each kind
	// planTab is the plan kernels' table: the size of each kind in 16
	// bytes, then a 32-bit mask, all ones if a match stops a word from
	// being pushed (the default rule) and zero if not (gem5's).
	planTab [24]uint8
	peek    [16]peekEntry // decoding of the next 4 stream bits
	// decTab is the decode kernels' form of peek: a 32-byte row for each
	// value of the next 4 bits (layout in _asm/cpack.go, cpackDec*).
	decTab  [512]byte
	emitTab [8]emitEntry // coding of each kind
	// vecEmit is the emit kernel's table: rows of 8 by kind of the field,
	// low mask, low bits and size of emitTab.
	vecEmit [32]uint64
}

// New returns a C-Pack codec for lines of 32, 64 or 128 bytes: by default
// "cpack", Chen et al.'s code table, pushing only new words. Its Name is
// the registry name of the configuration: "cpack-z" with WithCPackZ,
// "cpack-gem5" with WithGem5PushRule, "cpack-z-gem5" with both. A latency
// with a negative field other than linecomp.LatencyUnknown gives an error
// wrapping linecomp.ErrConfig; a line size it does not take gives
// linecomp.ErrLineSize.
func New(lineSize int, opts ...Option) (*Codec, error) {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	c := &Codec{lineSize: lineSize, zeroBlock: cfg.zeroBlock, gem5Push: cfg.gem5Push, latency: cfg.latency}
	c.name, c.codes = "cpack", cpackCodes
	if c.zeroBlock {
		c.name, c.codes = "cpack-z", cpackZCodes
	}
	if c.gem5Push {
		c.name += "-gem5"
	}
	if err := c.latency.Check(c.name); err != nil {
		return nil, err
	}
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError(c.name, lineSize, "32, 64 or 128 bytes")
	}
	if !cfg.latencySet {
		if c.zeroBlock {
			c.latency, _ = linecomp.DefaultLatency(linecomp.SourceTavana, "cpack-z")
		} else {
			c.latency, _ = linecomp.DefaultLatency("", "cpack")
		}
	}

	c.pushMask = 1 << newWord
	if c.gem5Push {
		c.pushMask |= 1<<fullMatch | 1<<threeMatch | 1<<halfMatch
	}
	c.short, c.long = [4]int8{-1, -1, -1, -1}, [4]int8{-1, -1, -1, -1}
	if c.zeroBlock {
		c.short[zeroBlockCode] = int8(zeroBlockKind)
	}
	for k := range numKinds {
		cd := c.codes[k]
		c.size[k] = int(cd.bits + payloadBits[k])
		if cd.bits == 2 {
			c.short[cd.prefix] = int8(k)
		} else {
			c.long[cd.prefix&3] = int8(k)
		}
	}
	c.buildFastTables()
	c.encodings = []linecomp.Encoding{
		encCompressed: {Name: "compressed", Bits: -1},
		encRaw:        {Name: "raw", Bits: tagBits + 8*lineSize},
	}
	if c.zeroBlock {
		c.encodings = append(c.encodings, linecomp.Encoding{Name: "zeros", Bits: tagBits + zeroBlockBits})
	}
	return c, nil
}

func init() {
	// New names each variant from its options; Register checks that the
	// names agree, and TestNames that the streams do.
	const paper = "Chen et al., C-Pack: A High-Performance Microprocessor Cache Compression Algorithm, IEEE TVLSI 2010"
	const gem5 = "gem5's dictionary push rule, to reproduce gem5's compressed sizes"
	for _, v := range []struct {
		name, algorithm, variant string
		opts                     []Option
	}{
		{"cpack", "cpack", "", nil},
		{"cpack-gem5", "cpack", gem5, []Option{WithGem5PushRule()}},
		{"cpack-z", "cpack-z", "", []Option{WithCPackZ()}},
		{"cpack-z-gem5", "cpack-z", gem5, []Option{WithCPackZ(), WithGem5PushRule()}},
	} {
		p := paper
		if v.algorithm == "cpack-z" {
			p += "; C-Pack+Z as Tavana et al. Table II"
		}
		linecomp.RegisterNew(linecomp.Info{Name: v.name, Algorithm: v.algorithm, Paper: p, Variant: v.variant, LineSizes: []int{32, 64, 128}},
			func(n int) (*Codec, error) { return New(n, v.opts...) })
	}
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return tagBits }
func (c *Codec) Latency() linecomp.Latency { return c.latency }

// op is one word's coding: its wordKind in the low 3 bits, the dictionary
// index above them.
type op uint8

func (o op) kind() wordKind { return wordKind(o & 7) }
func (o op) index() uint    { return uint(o >> 3) }

// Stream layouts that plan chooses.
const (
	layoutWords = iota
	layoutRaw
	layoutZeroBlock
)

// decompressSlow is the field-by-field decoder of word codes (flag 1) and
// of the empty stream: Decompress falls back to it when its fast path
// finds the stream malformed, so that the error (its
// bit offset and reason) is exactly this reader's.
func (c *Codec) decompressSlow(dst, enc []byte) ([]byte, error) {
	var line [128]byte
	out := line[:c.lineSize]
	var r bitstream.Reader
	r.Reset(enc)
	if r.Read(tagBits) == 0 {
		// Only an empty stream gets here with a 0 flag: the reader has
		// run past its end, which Problem reports.
	} else {
		var dict [dictSlots]uint32
		pushes := 0
	words:
		for i := range c.lineSize / 4 {
			at := r.Pos()
			k := c.short[r.Read(2)]
			if k < 0 {
				k = c.long[r.Read(2)]
				if k < 0 {
					return dst, c.corrupt(&r, at, "undefined code 1111")
				}
			}
			var w uint32
			switch wordKind(k) {
			case zeroBlockKind:
				if i != 0 {
					return dst, c.corrupt(&r, at, "zero-block code after the first word")
				}
				break words // the whole line is zero
			case newWord:
				w = uint32(r.Read(32))
			case narrowWord:
				w = uint32(r.Read(8))
			case fullMatch, threeMatch, halfMatch:
				n := payloadBits[k] - indexBits
				idxAt := r.Pos()
				idx := int(r.Read(indexBits))
				low := uint32(r.Read(n))
				if idx >= pushes {
					return dst, c.corrupt(&r, idxAt, "dictionary index of an empty slot")
				}
				w = dict[idx]>>n<<n | low
			}
			binary.LittleEndian.PutUint32(out[4*i:], w)
			if c.pushMask>>k&1 != 0 {
				dict[pushes%dictSlots] = w
				pushes++
			}
		}
	}
	if off, why, ok := r.Problem(); !ok {
		return dst, &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: why}
	}
	return append(dst, out...), nil
}

// corrupt reports a stream that went wrong at bit off, unless it had
// already run out of bits: then the truncation is the real problem and the
// code was made of the zero bits the reader returns past the end.
func (c *Codec) corrupt(r *bitstream.Reader, off int, reason string) error {
	if o, over := r.Overrun(); over {
		return &linecomp.CorruptError{Codec: c.name, Offset: o, Reason: "stream ends inside a field"}
	}
	return &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: reason}
}
