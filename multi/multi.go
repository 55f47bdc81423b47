package multi

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"github.com/linecomp/linecomp"
)

// MaxFieldBits is the widest algorithm field New takes: 8 bits, up to 256
// members. Tavana et al.'s message header has a 4-bit field and uses 2.
const MaxFieldBits = 8

// A Chooser returns the index of the member that stores line, which has
// the codec's line size. It usually compares the members' Size(line), e.g.
// by Tavana et al.'s penalty Size + λ·(compress + decompress latency). It
// must be safe for concurrent use and give the same answer for the same
// line; an index out of range makes Compress fail with an error wrapping
// linecomp.ErrConfig (and Size return -1).
type Chooser func(line []byte) int

// Option configures a Codec.
type Option func(*config)

type config struct {
	fieldBits  int // -1: ceil(log2 n)
	chooser    Chooser
	latency    linecomp.Latency
	latencySet bool
	name       string
}

// WithFieldBits sets the width k of the algorithm field, from the default
// ceil(log2 n) up to MaxFieldBits, e.g. 4 to match the 4-bit Comp Alg field
// of Tavana et al.'s message headers.
func WithFieldBits(k int) Option { return func(c *config) { c.fieldBits = k } }

// WithChooser replaces the default choice (least Size, ties to the lower
// decompression latency, then to the lower index), e.g. by a penalty that
// also charges latency. It exists for policies that trade size for speed.
func WithChooser(f Chooser) Option { return func(c *config) { c.chooser = f } }

// WithLatency replaces the default latency (the slowest member's, see
// Codec.Latency), e.g. for hardware that runs the members one after
// another.
func WithLatency(l linecomp.Latency) Option {
	return func(c *config) { c.latency, c.latencySet = l, true }
}

// WithName sets the name the codec reports, so that a configuration
// registered with linecomp.Register under that name names itself as
// Register requires. Without it, a configuration that matches a
// registered one (such as "tavana-best") takes its registry name, and any
// other is named "multi(member,…)", which linecomp.New does not know.
func WithName(name string) Option { return func(c *config) { c.name = name } }

// Codec stores each line with one of its members, chosen per line, behind
// a k-bit algorithm field naming the member (see the package doc for the
// stream). It is immutable and safe for concurrent use when its members
// and chooser are.
type Codec struct {
	name      string
	lineSize  int
	k         int
	members   []linecomp.Codec
	reporters []linecomp.EncodingReporter // members[i] as a reporter, or nil
	decLat    []int                       // each member's decompression latency; unknown sorts last
	chooser   Chooser
	latency   linecomp.Latency
	encodings []linecomp.Encoding
	// scratch holds *scratch buffers for Decompress.
	scratch sync.Pool
}

// scratch is Decompress's room for the member's stream, rebuilt from the
// shifted bits, and for the line, which goes to dst only once it is known
// to be right.
type scratch struct{ inner, line []byte }

// New returns a codec that chooses per line among members, which must all
// take the same line size. The algorithm field value i names members[i].
func New(members []linecomp.Codec, opts ...Option) (*Codec, error) {
	cfg := config{fieldBits: -1}
	for _, o := range opts {
		o(&cfg)
	}
	if len(members) == 0 {
		return nil, linecomp.ConfigError("multi", "no members")
	}
	for i, m := range members {
		if m == nil {
			return nil, linecomp.ConfigError("multi", "member %d is nil", i)
		}
		if m.LineSize() != members[0].LineSize() {
			return nil, linecomp.ConfigError("multi", "member %d (%s) takes %d-byte lines, member 0 (%s) %d-byte lines",
				i, m.Name(), m.LineSize(), members[0].Name(), members[0].LineSize())
		}
	}
	need := bits.Len(uint(len(members) - 1)) // ceil(log2 n)
	if len(members) > 1<<MaxFieldBits {
		return nil, linecomp.ConfigError("multi", "%d members, at most %d", len(members), 1<<MaxFieldBits)
	}
	k := cfg.fieldBits
	if k == -1 {
		k = need
	}
	if k < need || k > MaxFieldBits {
		return nil, linecomp.ConfigError("multi", "field bits %d: %d members need %d to %d", cfg.fieldBits, len(members), need, MaxFieldBits)
	}
	if cfg.latencySet && (cfg.latency.Compress < linecomp.LatencyUnknown || cfg.latency.Decompress < linecomp.LatencyUnknown) {
		return nil, linecomp.ConfigError("multi", "latency %v: a field is below LatencyUnknown", cfg.latency)
	}
	c := &Codec{
		lineSize: members[0].LineSize(),
		k:        k,
		members:  append([]linecomp.Codec(nil), members...),
		chooser:  cfg.chooser,
		latency:  cfg.latency,
	}
	if !cfg.latencySet {
		c.latency = slowest(members)
	}
	for _, m := range members {
		rep, _ := m.(linecomp.EncodingReporter)
		c.reporters = append(c.reporters, rep)
		d, ok := m.Latency().DecompressCycles()
		if !ok {
			d = math.MaxInt
		}
		c.decLat = append(c.decLat, d)
	}
	c.name = cfg.name
	if c.name == "" {
		c.name = c.derivedName(cfg)
	}
	c.encodings = c.memberEncodings()
	c.scratch.New = func() any {
		return &scratch{make([]byte, 0, 2*c.lineSize+16), make([]byte, 0, c.lineSize)}
	}
	return c, nil
}

// slowest is the default latency: every member compresses the line so that
// the smallest can be chosen (Tavana et al. §V: running them concurrently
// "adds to the maximum latency"), and a receiver must be ready for the
// slowest decoder. A field is unknown if any member's is.
func slowest(members []linecomp.Codec) linecomp.Latency {
	var l linecomp.Latency
	for _, m := range members {
		ml := m.Latency()
		if cc, ok := ml.CompressCycles(); !ok || l.Compress == linecomp.LatencyUnknown {
			l.Compress = linecomp.LatencyUnknown
		} else {
			l.Compress = max(l.Compress, cc)
		}
		if dc, ok := ml.DecompressCycles(); !ok || l.Decompress == linecomp.LatencyUnknown {
			l.Decompress = linecomp.LatencyUnknown
		} else {
			l.Decompress = max(l.Decompress, dc)
		}
	}
	return l
}

// derivedName is the registry name of a configuration that matches a
// registered one, else a description "multi(a,b,…)" with the field width
// when it is not the default and "custom" when a chooser is given.
func (c *Codec) derivedName(cfg config) string {
	if cfg.chooser == nil && !cfg.latencySet {
		for _, p := range registered {
			if p.matches(c) {
				return p.name
			}
		}
	}
	var b strings.Builder
	b.WriteString("multi(")
	for i, m := range c.members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(m.Name())
	}
	if cfg.fieldBits != -1 {
		b.WriteString(";k=" + strconv.Itoa(c.k))
	}
	if cfg.chooser != nil {
		b.WriteString(";custom")
	}
	b.WriteByte(')')
	return b.String()
}

// memberEncodings names one encoding per member: the member's name (with
// "#i" appended to a repeated one), of fixed size when every encoding the
// member reports has the same fixed size.
func (c *Codec) memberEncodings() []linecomp.Encoding {
	out := make([]linecomp.Encoding, len(c.members))
	seen := map[string]bool{}
	for i, m := range c.members {
		name := m.Name()
		if seen[name] {
			name += "#" + strconv.Itoa(i)
		}
		seen[name] = true
		out[i] = linecomp.Encoding{Name: name, Bits: -1}
		if b := fixedBits(m); b >= 0 {
			out[i].Bits = c.k + b
		}
	}
	return out
}

// fixedBits returns the one stream length of every line m stores, or -1
// when it varies or m does not say.
func fixedBits(m linecomp.Codec) int {
	r, ok := m.(linecomp.EncodingReporter)
	if !ok || len(r.Encodings()) == 0 {
		return -1
	}
	b := r.Encodings()[0].Bits
	for _, e := range r.Encodings() {
		if e.Bits != b {
			return -1
		}
	}
	return b
}

// Name returns the registry name ("tavana-best"), the name given with
// WithName, or "multi(member,…)" for a configuration that is not
// registered.
func (c *Codec) Name() string { return c.name }

// LineSize returns the members' line size.
func (c *Codec) LineSize() int { return c.lineSize }

// TagBits returns k, the width of the algorithm field. The chosen member's
// own tag bits follow it in the stream but are not counted: they differ
// from member to member (0 for none, 4 for bdi), and on Tavana et al.'s
// link they travel in the payload while the field travels in the header.
func (c *Codec) TagBits() int { return c.k }

// Latency returns the latency given with WithLatency, else the slowest
// member's compression and decompression latency, each unknown if any
// member's is. A stream's own decompression latency is that of its member:
// c.Member(i).Latency() for i = c.MemberOf(enc).
func (c *Codec) Latency() linecomp.Latency { return c.latency }

// Members returns the members in field order (a copy).
func (c *Codec) Members() []linecomp.Codec { return append([]linecomp.Codec(nil), c.members...) }

// Member returns the member that field value i names, or nil if i names
// none (MemberOf never returns such an i).
func (c *Codec) Member(i int) linecomp.Codec {
	if i < 0 || i >= len(c.members) {
		return nil
	}
	return c.members[i]
}

// Choose returns the index of the member that stores line, or -1 if the
// line has the wrong length or a custom chooser returns an index out of
// range.
func (c *Codec) Choose(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	i, _ := c.choose(line)
	return i
}

// choose returns the member that stores line and the size of its stream,
// or -1 and -1 when a custom chooser names no member.
func (c *Codec) choose(line []byte) (member, size int) {
	if c.chooser != nil {
		i := c.chooser(line)
		if i < 0 || i >= len(c.members) {
			return -1, -1
		}
		return i, c.members[i].Size(line)
	}
	best, bestSize := 0, c.members[0].Size(line)
	for i := 1; i < len(c.members); i++ {
		s := c.members[i].Size(line)
		if s < bestSize || s == bestSize && c.decLat[i] < c.decLat[best] {
			best, bestSize = i, s
		}
	}
	return best, bestSize
}

// Size returns k plus the chosen member's size, or -1 if the line has the
// wrong length or a custom chooser names no member.
func (c *Codec) Size(line []byte) int {
	if len(line) != c.lineSize {
		return -1
	}
	i, s := c.choose(line)
	if i < 0 {
		return -1
	}
	return c.k + s
}

// Compress appends the algorithm field and the chosen member's stream,
// which follows the field bit for bit.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its members' size, "+strconv.Itoa(c.lineSize)+" bytes")
	}
	i, _ := c.choose(line)
	if i < 0 {
		return dst, 0, linecomp.ConfigError(c.name, "the chooser named no member of %d", len(c.members))
	}
	// The member reads all of line before it writes, so dst may overlap
	// line; from here on only dst is touched.
	start := len(dst)
	out, n, err := c.members[i].Compress(dst, line)
	if err != nil {
		return dst, 0, err
	}
	return c.prefixField(out, start, uint8(i), n), c.k + n, nil
}

// prefixField shifts the member's stream out[start:], of n bits, right by
// k bits in place and writes the field value i into the k bits it frees.
func (c *Codec) prefixField(out []byte, start int, i uint8, n int) []byte {
	m := len(out) - start
	total := (c.k + n + 7) / 8
	if total > m {
		out = append(out, 0)
	}
	body := out[start:]
	switch c.k {
	case 0:
	case 8:
		copy(body[1:], body[:m])
		body[0] = i
	default:
		s := uint(c.k)
		// From the end back, so each byte is read before it is written.
		for j := total - 1; j >= 1; j-- {
			var cur byte
			if j < m {
				cur = body[j]
			}
			body[j] = body[j-1]<<(8-s) | cur>>s
		}
		body[0] = i<<(8-s) | body[0]>>s
	}
	return out
}

// MemberOf returns the field value of stream enc: the index of the member
// that stores it. A stream shorter than the field, or whose field names no
// member, gives an error wrapping linecomp.ErrCorrupt.
func (c *Codec) MemberOf(enc []byte) (int, error) {
	if 8*len(enc) < c.k {
		return 0, &linecomp.CorruptError{Codec: c.name, Offset: 8 * len(enc), Reason: "stream ends inside the algorithm field"}
	}
	var i int
	switch c.k {
	case 0:
	case 8:
		i = int(enc[0])
	default:
		i = int(enc[0] >> (8 - c.k))
	}
	if i >= len(c.members) {
		return 0, &linecomp.CorruptError{Codec: c.name, Offset: 0, Reason: "the algorithm field names no member"}
	}
	return i, nil
}

// Encodings lists one encoding per member, named after it (see the
// package doc).
func (c *Codec) Encodings() []linecomp.Encoding { return c.encodings }

// EncodingOf is MemberOf: a stream's encoding is its member.
func (c *Codec) EncodingOf(enc []byte) (int, error) { return c.MemberOf(enc) }

// Decompress reads the field and has the member it names decode the bits
// that follow. An error in those bits is the member's own: it names the
// member, and its offset counts from the member's first bit, bit k of enc.
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	i, err := c.MemberOf(enc)
	if err != nil {
		return dst, err
	}
	m := c.members[i]
	if c.k%8 == 0 {
		// The member's stream is whole bytes of enc, and its length is
		// the member's to check.
		return m.Decompress(dst, enc[c.k/8:])
	}
	sc := c.scratch.Get().(*scratch)
	defer c.scratch.Put(sc)
	// The member's stream starts k bits into enc: shift it to a byte
	// boundary. Reading all of enc here also lets dst overlap it.
	s := uint(c.k)
	sc.inner = sc.inner[:0]
	for j := range enc {
		var next byte
		if j+1 < len(enc) {
			next = enc[j+1]
		}
		sc.inner = append(sc.inner, enc[j]<<s|next>>(8-s))
	}
	// A member stream of b bits takes ceil(b/8) bytes: len(enc) or one
	// fewer, and only b tells which. One fewer is possible only when the
	// last shifted byte holds nothing but zeros.
	last := len(sc.inner) - 1
	shorter := sc.inner[last] == 0
	// A member that reports a fixed size for the stream's encoding tells b.
	// EncodingOf reads the leading bits, but none's also wants the exact
	// length: give it the shorter stream when that is possible and not
	// empty, as a raw line always is.
	if rep := c.reporters[i]; rep != nil {
		probe := sc.inner
		if shorter && last > 0 {
			probe = sc.inner[:last]
		}
		if e, err := rep.EncodingOf(probe); err == nil && rep.Encodings()[e].Bits >= 0 {
			b := rep.Encodings()[e].Bits
			if want := (c.k + b + 7) / 8; want != len(enc) {
				return dst, c.lengthError(want, len(enc))
			}
			return m.Decompress(dst, sc.inner[:(b+7)/8])
		}
	}
	// Otherwise try the full length, then the shorter one; a strict member
	// accepts at most one of the two. A failed try costs the member's
	// error, an allocation; the full length comes first because it is the
	// right one for every b whose last k bits do not spill into a new
	// byte, most of the streams in practice.
	sc.line, err = m.Decompress(sc.line[:0], sc.inner)
	sure := false
	if err != nil && shorter {
		var err2 error
		if sc.line, err2 = m.Decompress(sc.line[:0], sc.inner[:last]); err2 == nil {
			err = nil
			// enc's last byte has a one among its first k bits: that
			// bit is the member's, so enc is as long as k + b needs.
			sure = enc[last] != 0
		}
	}
	if err != nil {
		return dst, err
	}
	if !sure {
		// enc may be longer or shorter than Compress makes it (a trailing
		// zero byte, or a tail of zero bits cut off), which the member
		// cannot see: compare with the length of the stream Compress makes
		// for the line, before anything goes to dst.
		if want := (c.k + m.Size(sc.line) + 7) / 8; want != len(enc) {
			return dst, c.lengthError(want, len(enc))
		}
	}
	return append(dst, sc.line...), nil
}

// lengthError reports a stream of got bytes whose field and member's part
// make want bytes, at the bit where it ends early or its surplus starts.
func (c *Codec) lengthError(want, got int) error {
	return &linecomp.CorruptError{Codec: c.name, Offset: 8 * min(want, got), Reason: "stream is not as long as its member's part makes it"}
}
