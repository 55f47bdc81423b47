package fpc

import (
	"encoding/binary"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
	"github.com/linecomp/linecomp/internal/cpu"
)

// Prefixes of the default ("fpc") table, the TR's.
const (
	ZeroRun      = 0b000 // 1–8 zero words; 3-bit field = count − 1
	SignExt4     = 0b001 // 4-bit sign-extended
	SignExt8     = 0b010 // 1-byte sign-extended
	SignExt16    = 0b011 // halfword sign-extended
	ZeroLowHalf  = 0b100 // halfword padded with a zero low halfword
	TwoHalves    = 0b101 // two halfwords, each a sign-extended byte
	RepBytes     = 0b110 // four equal bytes
	Uncompressed = 0b111 // the word itself
)

// Prefixes of the "fpc-tavana" table (Tavana et al., Table II).
const (
	TavanaZeroBlock   = 0b000 // the whole line is zero; only as the sole code
	TavanaZeroWord    = 0b001
	TavanaRepBytes    = 0b010
	TavanaSignExt4    = 0b011
	TavanaSignExt8    = 0b100
	TavanaSignExt16   = 0b101
	TavanaZeroLowHalf = 0b110
	TavanaTwoHalves   = 0b111
)

const (
	tagBits    = 1 // the flag: 1 = word codes follow, 0 = raw line follows
	rawFlag    = 0
	prefixBits = 3
	runBits    = 3            // the ZeroRun data field, count − 1
	maxRun     = 1 << runBits // longest zero run one ZeroRun code holds
	maxWords   = 128 / 4
)

// kind is a word pattern, independent of the prefix a table gives it.
type kind uint8

const (
	kZero kind = iota // the zero word (fpc: part of a run)
	kSE4
	kSE8
	kRep
	kSE16
	kLowZero
	kTwo
	kRaw
	nKinds
	kNone kind = 0xFF // the prefix has no per-word meaning in this table
)

// word rebuilds the word that data field v of kind k encodes.
func word(k kind, v uint64) uint32 {
	switch k {
	case kSE4:
		return uint32(int32(v<<28) >> 28)
	case kSE8:
		return uint32(int32(int8(v)))
	case kRep:
		return uint32(v) * 0x01010101
	case kSE16:
		return uint32(int32(int16(v)))
	case kLowZero:
		return uint32(v) << 16
	case kTwo:
		return uint32(uint16(int8(v>>8)))<<16 | uint32(uint16(int8(v)))
	case kRaw:
		return uint32(v)
	}
	return 0
}

// table is the prefix assignment of one variant.
type table struct {
	prefix   [nKinds]uint8 // code of each kind
	dataBits [nKinds]uint8 // length of its data field
	kindOf   [8]kind       // inverse of prefix; kNone for Tavana's zero block
	// tavana selects Tavana's rules: a code per zero word instead of zero
	// runs, a line-wide zero block, and no code for a word that fits no
	// pattern (kRaw), which makes the line raw.
	tavana bool
	enc    [nKinds]encStep // how Compress codes each kind
	dec    [8]decStep      // how Decompress decodes each prefix
	// vecEnc is enc for the pack kernel: rows of 8 by kind of pre, shift,
	// maskShifted, maskLow, maskRun and bits.
	vecEnc [48]uint64
	// decTab is dec for the unpack kernel: a 16-byte row per prefix
	// (layout in _asm/fpc.go, fpcDec*).
	decTab [128]byte
}

func newTable(prefix [nKinds]uint8, tavana bool) *table {
	t := &table{prefix: prefix, tavana: tavana}
	t.dataBits = [nKinds]uint8{kZero: runBits, kSE4: 4, kSE8: 8, kRep: 8, kSE16: 16, kLowZero: 16, kTwo: 16, kRaw: 32}
	if tavana {
		t.dataBits[kZero] = 0 // a zero word, not a run
	}
	for p := range t.kindOf {
		t.kindOf[p] = kNone
	}
	for k := range nKinds {
		if k != kRaw || !tavana {
			t.kindOf[prefix[k]] = k
		}
	}
	t.buildSteps()
	return t
}

var (
	tableTR = newTable([nKinds]uint8{
		kZero: ZeroRun, kSE4: SignExt4, kSE8: SignExt8, kRep: RepBytes, kSE16: SignExt16,
		kLowZero: ZeroLowHalf, kTwo: TwoHalves, kRaw: Uncompressed,
	}, false)
	tableTavana = newTable([nKinds]uint8{
		kZero: TavanaZeroWord, kSE4: TavanaSignExt4, kSE8: TavanaSignExt8, kRep: TavanaRepBytes,
		kSE16: TavanaSignExt16, kLowZero: TavanaZeroLowHalf, kTwo: TavanaTwoHalves,
	}, true)
)

// Option configures a Codec at New. Options act on New's configuration,
// not on a Codec, so nothing can change a Codec once made.
type Option func(*config)

// config is what New's options set.
type config struct {
	tab     *table
	latency linecomp.Latency
}

// WithTavanaTable selects the prefix table of Table II of Tavana et al.: a
// line-wide zero-block code, one code per zero word and no per-word
// uncompressed code, so a line with any word that fits no pattern is stored
// raw. It exists to reproduce that paper's link-compression study. The
// codec is "fpc-tavana".
func WithTavanaTable() Option { return func(c *config) { c.tab = tableTavana } }

// WithLatency replaces the default latency (3/5 cycles, which the FPC
// report and Tavana's Table III both give), e.g. with
// linecomp.PresetLatency(linecomp.SourceLatteCC, "fpc"). A field may be
// linecomp.LatencyUnknown; other negative values are an error.
func WithLatency(l linecomp.Latency) Option { return func(c *config) { c.latency = l } }

// Codec is an FPC compressor for one line size. It is immutable and safe for
// concurrent use.
type Codec struct {
	name     string
	lineSize int
	tab      *table
	latency  linecomp.Latency
	allWords uint32 // the zero mask of an all-zero line: one bit per word
	// fusedLine is the line size where a fused kernel codes a line in one
	// call (fusedLineSize), else −1: Compress's first test, one field
	// rather than fused's three. fused still checks the active level.
	fusedLine int
	// encodings is what Encodings returns.
	encodings []linecomp.Encoding
}

// New returns an FPC codec for lines of 32, 64 or 128 bytes. Its Name is
// the registry name of the configuration: "fpc", or "fpc-tavana" with
// WithTavanaTable. A latency with a negative field other than
// linecomp.LatencyUnknown gives an error wrapping linecomp.ErrConfig; a
// line size it does not take gives linecomp.ErrLineSize.
func New(lineSize int, opts ...Option) (*Codec, error) {
	// One default serves both tables: TestRegistryAndLatency checks that
	// Tavana's Table III gives the report's numbers.
	lat, _ := linecomp.DefaultLatency(linecomp.SourceFPCReport, "fpc")
	cfg := config{tab: tableTR, latency: lat}
	for _, o := range opts {
		o(&cfg)
	}
	c := &Codec{name: "fpc", lineSize: lineSize, tab: cfg.tab, latency: cfg.latency}
	c.fusedLine = fusedLineSize(lineSize, c.tab.tavana)
	if c.tab.tavana {
		c.name = "fpc-tavana"
	}
	if err := c.latency.Check(c.name); err != nil {
		return nil, err
	}
	if lineSize != 32 && lineSize != 64 && lineSize != 128 {
		return nil, linecomp.LineSizeError(c.name, lineSize, "32, 64 or 128 bytes")
	}
	// Only now is the shift known to be in range.
	c.allWords = uint32(1<<(lineSize/4) - 1)
	c.encodings = []linecomp.Encoding{
		encCompressed: {Name: "compressed", Bits: -1},
		encRaw:        {Name: "raw", Bits: tagBits + 8*lineSize},
	}
	if c.tab.tavana {
		c.encodings = append(c.encodings, linecomp.Encoding{Name: "zeros", Bits: tagBits + prefixBits})
	}
	return c, nil
}

func init() {
	// New names the variant from its options; Register checks that the
	// names agree, and TestNames that the streams do.
	const paper = "Alameldeen & Wood, Frequent Pattern Compression: A Significance-Based Compression Scheme for L2 Caches, UW-CS TR-1500, 2004"
	linecomp.RegisterNew(linecomp.Info{Name: "fpc", Paper: paper, LineSizes: []int{32, 64, 128}},
		func(n int) (*Codec, error) { return New(n) })
	linecomp.RegisterNew(linecomp.Info{Name: "fpc-tavana", Algorithm: "fpc", Paper: paper,
		Variant: "the prefix table of Tavana et al. Table II, for the inter-GPU link study", LineSizes: []int{32, 64, 128}},
		func(n int) (*Codec, error) { return New(n, WithTavanaTable()) })
}

func (c *Codec) Name() string              { return c.name }
func (c *Codec) LineSize() int             { return c.lineSize }
func (c *Codec) TagBits() int              { return tagBits }
func (c *Codec) Latency() linecomp.Latency { return c.latency }

// fits reports whether word codes of the given length are used.
func (c *Codec) fits(codeBits int) bool {
	return codeBits >= 0 && codeBits < 8*c.lineSize
}

// streamBits returns the length of the stream of a line whose word codes
// are codeBits long: flag and codes, or flag and raw line where they do
// not fit.
func (c *Codec) streamBits(codeBits int) int {
	if c.fits(codeBits) {
		return tagBits + codeBits
	}
	return tagBits + 8*c.lineSize
}

// Size returns the length in bits of the encoding of line, or -1 if line is
// not LineSize() bytes long.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	var kinds [maxWords]uint8
	var sum [1]uint64
	c.classifyLines(line, kinds[:], sum[:])
	return c.sizeOf(summary(sum[0]))
}

// Compress appends the encoding of line to dst.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	// Where one kernel call codes a line (fused: the report's table,
	// where every word has a code, so the codes are the encoding unless
	// they are not shorter than the line, and then the kernel has written
	// the raw stream), and dst has room for the raw stream, the kernel
	// writes the stream straight into dst: a
	// scratch buffer and the copy out of it cost about a quarter of a
	// 64-byte Compress (runtime.memmove and memclr in a profile of
	// BenchmarkTargets). This path comes first and calls nothing else:
	// a call to a function of its own cost 1.5 ns of a raw 64-byte line's
	// 13.5 (BenchmarkEncodeKinds). The level is a test of its own, so
	// that the condition is not made into a bool first.
	if n := len(dst); len(line) == c.fusedLine && cap(dst)-n > len(line) {
		if cpu.Active() >= cpu.AVX512 {
			var bits int
			var ok bool
			if len(line) == 64 {
				out, line := (*[tagBits + 64]byte)(dst[n:cap(dst)]), (*[64]byte)(line)
				if cpu.VectorPopcount {
					bits, ok = c.wordCodes64Popcnt(out, line)
				} else {
					bits, ok = c.wordCodes64(out, line)
				}
			} else {
				out, line := (*[tagBits + 128]byte)(dst[n:cap(dst)]), (*[128]byte)(line)
				if cpu.VectorPopcount {
					bits, ok = c.wordCodes128Popcnt(out, line)
				} else {
					bits, ok = c.wordCodes128(out, line)
				}
			}
			if ok {
				bits = c.streamBits(bits - tagBits)
				return dst[:n+int(uint(bits+7)/8)], bits, nil
			}
		}
	}
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	if c.fused() {
		dst, bits := c.compressFusedScratch(dst, line)
		return dst, bits, nil
	}
	var kinds [maxWords]uint8
	var sum [1]uint64
	c.classifyLines(line, kinds[:], sum[:])
	dst, bits := c.encode(dst, line, kinds[:], summary(sum[0]))
	return dst, bits, nil
}

// compressFusedScratch is Compress's fused path for a dst without room for
// the raw stream: the kernel writes to a scratch buffer, appended to dst.
// It is a function of its own so that Compress's frame has no buffer.
func (c *Codec) compressFusedScratch(dst, line []byte) ([]byte, int) {
	var buf [scratchBytes]byte
	_, bits := c.wordCodes(&buf, line)
	bits = c.streamBits(bits - tagBits)
	return append(dst, buf[:(bits+7)/8]...), bits
}

// encode appends the encoding of line, classified as kinds and s, to dst
// and returns it with its length in bits.
func (c *Codec) encode(dst, line []byte, kinds []uint8, s summary) ([]byte, int) {
	codeBits := c.codeBits(s)
	switch {
	case !c.fits(codeBits):
		return bitstream.AppendRaw(dst, rawFlag, tagBits, line)
	case c.tab.tavana && codeBits == prefixBits:
		return appendZeroBlock(dst), tagBits + prefixBits
	}
	return c.appendCodes(dst, line, kinds, s.zeros(), codeBits), tagBits + codeBits
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout, including ones Compress would not
// choose (a zero run split in two, a word coded by a longer pattern, word
// codes not shorter than the line).
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	// One kernel call decodes a well-formed line straight into dst when
	// it has room; anything else goes on to decompress, which reports what
	// is wrong. The kernel is called from here, not through decodeLine:
	// that call cost a raw 64-byte line about 1.8 ns of its 11
	// (BenchmarkDecodeKinds). The other decoders are in a function of
	// their own, so that this one has a small frame, and the CPU level is
	// a test of its own, so that the condition is not made into a bool
	// (64 bytes about 1% faster, 128 bytes 2.5%, within this VM's noise).
	if n := len(dst); c.fusedLine > 0 && cap(dst)-n >= c.fusedLine {
		if cpu.Active() >= cpu.AVX512 {
			var ok bool
			if c.fusedLine == 64 {
				ok = c.decodeLine64((*[64]byte)(dst[n:n+64]), enc)
			} else {
				ok = c.decodeLine128((*[128]byte)(dst[n:n+128]), enc)
			}
			if ok {
				return dst[:n+c.fusedLine], nil
			}
		}
	}
	return c.decompress(dst, enc)
}

// decompress is Decompress without its first kernel call.
func (c *Codec) decompress(dst, enc []byte) ([]byte, error) {
	if c.decodesLines() && cap(dst)-len(dst) < c.lineSize {
		var line [128]byte
		if c.decodeLine(line[:c.lineSize], enc) {
			return append(dst, line[:c.lineSize]...), nil
		}
	}
	switch {
	case len(enc) == 0:
	case enc[0]>>7 == rawFlag:
		return c.decodeRaw(dst, enc)
	case c.tab.tavana && len(enc) == 1 && enc[0] == 1<<7|TavanaZeroBlock<<4:
		var zero [128]byte
		return append(dst, zero[:c.lineSize]...), nil
	default:
		var line [128]byte
		if c.decodeCodes(&line, enc) {
			return append(dst, line[:c.lineSize]...), nil
		}
	}
	return c.decompressSlow(dst, enc)
}

// decodeRaw decodes a raw stream (flag 0), which must be exactly the flag,
// the line and zero padding. bitstream.ReadRaw defines the decoding and
// reports what is wrong with a malformed stream; the loop here is the same
// decoding of a well-formed one without the call: ReadRaw reads enc in
// place too, but Decompress through it measured 21.1 ns per raw 128-byte
// line against 19.5 with the loop (best of 20 alternating rounds; see
// BenchmarkRawLine). It decodes into a local array so that dst may overlap
// enc.
func (c *Codec) decodeRaw(dst, enc []byte) ([]byte, error) {
	n := c.lineSize
	if len(enc) == n+1 && enc[n]&0x7F == 0 {
		var line [128]byte
		for i := 0; i < n; i += 8 {
			x := binary.BigEndian.Uint64(enc[i : i+8])
			binary.BigEndian.PutUint64(line[i:i+8], x<<tagBits|uint64(enc[i+8]>>(8-tagBits)))
		}
		return append(dst, line[:n]...), nil
	}
	var line [128]byte
	if off, why, ok := bitstream.ReadRaw(line[:n], enc, tagBits); !ok {
		return dst, &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: why}
	}
	return append(dst, line[:n]...), nil
}

// decompressSlow decodes a stream of word codes (flag 1) or an empty
// stream field by field with the bit reader. It is the decoder of record
// for malformed streams: the fast path hands it every stream it does not
// accept, and it says what is wrong and where.
func (c *Codec) decompressSlow(dst, enc []byte) ([]byte, error) {
	var line [128]byte
	out := line[:c.lineSize]
	var r bitstream.Reader
	r.Reset(enc)
	if r.Read(tagBits) == 0 {
		// Only an empty stream gets here with a 0 flag: the reader has
		// run past its end, which Problem reports.
	} else if err := c.decodeWords(&r, out); err != nil {
		return dst, err
	}
	if off, why, ok := r.Problem(); !ok {
		return dst, &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: why}
	}
	return append(dst, out...), nil
}

// decodeWords decodes the word codes into out, which is zero on entry. It
// stops early when the stream runs out; the caller's r.Problem reports that.
func (c *Codec) decodeWords(r *bitstream.Reader, out []byte) error {
	t := c.tab
	n := len(out) / 4
	for i := 0; i < n; {
		at := r.Pos()
		k := t.kindOf[r.Read(prefixBits)]
		if _, over := r.Overrun(); over {
			return nil
		}
		if k == kNone { // Tavana's zero block
			if i != 0 {
				return &linecomp.CorruptError{Codec: c.name, Offset: at, Reason: "zero-block code after other word codes"}
			}
			return nil // the whole line is zero
		}
		v := r.Read(uint(t.dataBits[k]))
		if _, over := r.Overrun(); over {
			return nil
		}
		if k == kZero && !t.tavana {
			run := int(v) + 1
			if i+run > n {
				return &linecomp.CorruptError{Codec: c.name, Offset: at, Reason: "zero run extends past the end of the line"}
			}
			i += run
			continue
		}
		binary.LittleEndian.PutUint32(out[4*i:], word(k, v))
		i++
	}
	return nil
}
