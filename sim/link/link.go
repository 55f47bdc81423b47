package link

import (
	"errors"
	"fmt"
	"math"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bound"
)

// Defaults of Tavana et al. §VI-B that a zero Config field takes.
const (
	DefaultBytesPerCycle = 20   // "20 bytes per cycle running at 1 GHz" (160 Gb/s)
	DefaultBuffer        = 4096 // "a 4KB input buffer and a 4KB output buffer"
	DefaultNodes         = 64   // endpoints a link accepts; storage grows with the ids used
)

var (
	// ErrFull means the sender's output buffer has no room for the
	// message: the sender must hold it and offer it again once the buffer
	// has drained (after the next transfer of that sender ends; see
	// [Link.Next]).
	ErrFull = errors.New("link: output buffer full")
	// ErrTime means a time earlier than the link's current time, or later
	// than MaxCycle.
	ErrTime = errors.New("link: time out of order or range")
	// ErrMessage means a message the link cannot carry: an unknown kind, an
	// endpoint out of range or equal at both ends, an algorithm value that
	// names no candidate, a payload on a kind that has none, or a message
	// larger than a buffer.
	ErrMessage = errors.New("link: invalid message")
)

// Config configures a Link. See the package doc for what each field means
// and the values New rejects.
type Config struct {
	// Candidates are the codecs the Comp Alg field can name: value i is
	// Candidates[i]. Their latencies delay readiness (compression) and
	// delivery (decompression) of the payloads they carry.
	Candidates    []linecomp.Codec
	Nodes         int             // endpoints; ids 0..Nodes-1 (64)
	BytesPerCycle int             // bus width (20)
	InputBuffer   int             // bytes per endpoint (4096)
	OutputBuffer  int             // bytes per endpoint (4096)
	AlgFieldBits  int             // Comp Alg width: AlgField4 (default) or AlgField2
	Wire          WireEnergy      // per-bit wire energy (WireInPackage())
	CodecEnergy   linecomp.Source // source of the per-line codec energies (linecomp.SourceTavana)
}

// Stats counts what a link has done since New, Reset or ResetStats. The
// first group counts messages accepted by Send, whatever has become of them
// since; the second their progress.
type Stats struct {
	Messages    [NumKinds]uint64      // accepted, per kind
	HeaderBits  uint64                // Σ header bits
	PayloadBits uint64                // Σ exact payload bits
	WireBytes   uint64                // Σ ceil(header/8) + ceil(payload/8)
	BusCycles   uint64                // Σ ceil(wire bytes / BytesPerCycle)
	Uses        [MaxCandidates]uint64 // payload messages per Comp Alg value
	Unpriced    uint64                // payload messages whose candidate has no energy figure
	Refused     uint64                // Sends refused with ErrFull

	Granted      [NumKinds]uint64 // messages that have started crossing the bus
	BusyCycles   uint64           // cycles granted on the bus so far
	WaitCycles   uint64           // Σ (Start − Ready) of granted messages
	Delivered    [NumKinds]uint64 // messages handed out by Receive
	LastDelivery uint64           // the latest Delivered cycle handed out

	WireEnergyPJ  float64 // WireBytes × 8 × Config.Wire.PicoJoulePerBit
	CodecEnergyPJ float64 // Σ over candidates of Uses × its CodecEnergy
}

// queued is a message in an output buffer.
type queued struct {
	msg    Message
	bytes  int
	cycles int
	sent   uint64
	ready  uint64
}

// inbound is a message granted the bus: on it, or in the destination's
// input buffer until Receive takes it.
type inbound struct {
	d     Delivery
	bytes int
	seq   uint64 // grant order, to break ties in delivery time
}

// endpoint is one GPU's (or CPU's) pair of buffers.
type endpoint struct {
	out     ring[queued]
	outUsed int // bytes queued or on the bus, until the transfer ends
	in      []inbound
	inUsed  int // bytes reserved from the grant until Receive
}

// Link is the shared inter-GPU bus. It is not safe for concurrent use.
type Link struct {
	cfg        Config
	header     [NumKinds]int
	compress   []uint64 // cycles per candidate
	decompress []uint64
	energy     []CodecEnergy

	nodes   []endpoint // grown to the largest id used
	now     uint64
	busFree uint64 // first cycle the bus is not granted
	onBus   struct {
		src, bytes int
		end        uint64
		busy       bool
	}
	last  int // the last sender granted, for round robin
	seq   uint64
	stats Stats

	// next caches nextGrant's answer until a Send, Receive or grant
	// changes what it depends on (Advance's move of now cannot: it only
	// moves now up to a cycle no grant is left before).
	next struct {
		cycle      uint64
		src        int
		ok, cached bool
	}
}

// New returns an idle link at cycle 0.
func New(cfg Config) (*Link, error) {
	cfg.Candidates = append([]linecomp.Codec(nil), cfg.Candidates...)
	if err := resolve(&cfg); err != nil {
		return nil, err
	}
	l := &Link{cfg: cfg, last: -1}
	for k := range NumKinds {
		l.header[k] = HeaderBits(Kind(k), cfg.AlgFieldBits)
	}
	for _, c := range cfg.Candidates {
		lc, _ := c.Latency().CompressCycles()
		ld, _ := c.Latency().DecompressCycles()
		l.compress = append(l.compress, uint64(lc))
		l.decompress = append(l.decompress, uint64(ld))
		l.energy = append(l.energy, codecEnergy(c, cfg.CodecEnergy))
	}
	return l, nil
}

// MaxCycle is the latest cycle a link runs to: 2^62, so that a message's
// latencies and transfer added to it cannot wrap a uint64.
const MaxCycle = 1 << 62

// Bounds of a Config: endpoints, and the other sizes (bytes, bits).
const (
	maxNodes = 1 << 16
	maxField = 1 << 30
)

func resolve(cfg *Config) error {
	bad := func(format string, args ...any) error { return linecomp.ConfigError("link", format, args...) }
	if len(cfg.Candidates) == 0 {
		return bad("Candidates is empty: payloads need at least one codec (e.g. none)")
	}
	for _, f := range []struct {
		name string
		v    *int
		def  int
	}{{"Nodes", &cfg.Nodes, DefaultNodes}, {"BytesPerCycle", &cfg.BytesPerCycle, DefaultBytesPerCycle},
		{"InputBuffer", &cfg.InputBuffer, DefaultBuffer}, {"OutputBuffer", &cfg.OutputBuffer, DefaultBuffer},
		{"AlgFieldBits", &cfg.AlgFieldBits, AlgField4}} {
		if *f.v < 0 || *f.v > maxField {
			return bad("%s is %d; it must be 0 to %d (0 takes the default %d)", f.name, *f.v, maxField, f.def)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if cfg.Nodes < 2 || cfg.Nodes > maxNodes {
		return bad("Nodes is %d; a link joins 2 to %d endpoints", cfg.Nodes, maxNodes)
	}
	if cfg.AlgFieldBits != AlgField4 && cfg.AlgFieldBits != AlgField2 {
		return bad("AlgFieldBits is %d; Fig. 4 has 4 and §V 2", cfg.AlgFieldBits)
	}
	if n := len(cfg.Candidates); n > 1<<cfg.AlgFieldBits {
		return bad("%d Candidates do not fit a %d-bit Comp Alg field", n, cfg.AlgFieldBits)
	}
	lineSize := 0
	for i, c := range cfg.Candidates {
		if c == nil {
			return bad("Candidates[%d] is nil", i)
		}
		if i == 0 {
			lineSize = c.LineSize()
		} else if c.LineSize() != lineSize {
			return bad("Candidates[%d] (%s) takes %d-byte lines, Candidates[0] (%s) %d-byte lines",
				i, c.Name(), c.LineSize(), cfg.Candidates[0].Name(), lineSize)
		}
		if lat := c.Latency(); !lat.Known() {
			return bad("Candidates[%d] (%s) has an unknown latency (%d/%d)", i, c.Name(), lat.Compress, lat.Decompress)
		} else if !bound.Cycles(lat.Compress) || !bound.Cycles(lat.Decompress) {
			return bad("Candidates[%d] (%s) has a latency (%d/%d) above %d cycles", i, c.Name(), lat.Compress, lat.Decompress, bound.MaxCycles)
		}
	}
	// The largest message must fit both buffers, or a sender could never
	// send it: a write of a line no candidate shrinks, which every
	// registered codec stores raw behind its tag bits. (A codec that sends
	// more is refused by Check as the message comes.)
	largest := 0
	for _, c := range cfg.Candidates {
		largest = max(largest, WireBytes(HeaderBits(WriteReq, cfg.AlgFieldBits), 8*lineSize+c.TagBits()))
	}
	if cfg.InputBuffer < largest || cfg.OutputBuffer < largest {
		return bad("buffers of %d and %d bytes cannot hold a %d-byte write of an incompressible %d-byte line with its tag bits",
			cfg.InputBuffer, cfg.OutputBuffer, largest, lineSize)
	}
	if cfg.Wire == (WireEnergy{}) {
		cfg.Wire = WireInPackage()
	}
	if !(cfg.Wire.PicoJoulePerBit >= 0) || math.IsInf(cfg.Wire.PicoJoulePerBit, 0) {
		return bad("Wire.PicoJoulePerBit is %v; it must be finite and ≥ 0", cfg.Wire.PicoJoulePerBit)
	}
	if cfg.CodecEnergy == "" {
		cfg.CodecEnergy = linecomp.SourceTavana
	}
	return nil
}

// Config returns the configuration with its defaults filled in.
func (l *Link) Config() Config {
	c := l.cfg
	c.Candidates = append([]linecomp.Codec(nil), c.Candidates...)
	return c
}

// CodecEnergy returns the per-line energy the link charges for candidate i.
func (l *Link) CodecEnergy(i int) (CodecEnergy, bool) {
	if i < 0 || i >= len(l.energy) {
		return CodecEnergy{}, false
	}
	return l.energy[i], true
}

// Now returns the link's current cycle.
func (l *Link) Now() uint64 { return l.now }

// Check returns the error Send would give m for its content (ErrMessage),
// without sending it, and otherwise its wire bytes.
func (l *Link) Check(m Message) (bytes int, err error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %v %d→%d: %s", ErrMessage, m.Kind, m.Src, m.Dst, fmt.Sprintf(format, args...))
	}
	if int(m.Kind) >= NumKinds {
		return 0, bad("unknown kind")
	}
	if m.Src < 0 || m.Src >= l.cfg.Nodes || m.Dst < 0 || m.Dst >= l.cfg.Nodes {
		return 0, bad("endpoints must be in [0, %d)", l.cfg.Nodes)
	}
	if m.Src == m.Dst {
		return 0, bad("source and destination are the same endpoint")
	}
	if m.Kind.CarriesPayload() {
		if m.Alg < 0 || m.Alg >= len(l.cfg.Candidates) {
			return 0, bad("Comp Alg %d names none of the %d candidates", m.Alg, len(l.cfg.Candidates))
		}
		if m.PayloadBits < 0 {
			return 0, bad("payload of %d bits", m.PayloadBits)
		}
	} else if m.Alg != 0 || m.PayloadBits != 0 {
		return 0, bad("Comp Alg %d and %d payload bits on a kind without a payload", m.Alg, m.PayloadBits)
	}
	bytes = WireBytes(l.header[m.Kind], m.PayloadBits)
	if bytes > l.cfg.OutputBuffer || bytes > l.cfg.InputBuffer {
		return 0, bad("%d bytes exceed a buffer (input %d, output %d)", bytes, l.cfg.InputBuffer, l.cfg.OutputBuffer)
	}
	return bytes, nil
}

// Advance moves the link to cycle now: the bus grants, in round-robin order,
// every transfer that starts before now.
func (l *Link) Advance(now uint64) error {
	if now < l.now {
		return fmt.Errorf("%w: %d after %d (time went backwards)", ErrTime, now, l.now)
	}
	if now > MaxCycle {
		return fmt.Errorf("%w: cycle %d is beyond MaxCycle (%d)", ErrTime, now, uint64(MaxCycle))
	}
	// The buffers have been as they are since l.now, so every grant until
	// now starts at l.now or later; l.now moves after them.
	for {
		c, src, ok := l.nextGrant()
		if !ok || c >= now {
			break
		}
		l.grant(c, src)
	}
	l.now = now
	if l.onBus.busy && l.onBus.end <= now {
		l.nodes[l.onBus.src].outUsed -= l.onBus.bytes
		l.onBus.busy = false
	}
	return nil
}

// Send puts m in its sender's output buffer at the current cycle. It is
// ready for the bus once its candidate's compression latency has passed
// (at once for kinds without a payload). A full output buffer refuses it
// with ErrFull and nothing changes but Stats.Refused: backpressure on the
// sender, which keeps the message and offers it again later.
func (l *Link) Send(m Message) error {
	bytes, err := l.Check(m)
	if err != nil {
		return err
	}
	l.grow(max(m.Src, m.Dst))
	src := &l.nodes[m.Src]
	if src.outUsed+bytes > l.cfg.OutputBuffer {
		l.stats.Refused++
		return ErrFull // bare: a sender retrying every cycle must not allocate
	}
	ready := l.now
	if m.Kind.CarriesPayload() {
		ready += l.compress[m.Alg]
		l.stats.Uses[m.Alg]++
		l.stats.PayloadBits += uint64(m.PayloadBits)
		if !l.energy[m.Alg].Priced {
			l.stats.Unpriced++
		}
	}
	cycles := (bytes + l.cfg.BytesPerCycle - 1) / l.cfg.BytesPerCycle
	src.out.push(queued{msg: m, bytes: bytes, cycles: cycles, sent: l.now, ready: ready})
	l.next.cached = false
	src.outUsed += bytes
	l.stats.Messages[m.Kind]++
	l.stats.HeaderBits += uint64(l.header[m.Kind])
	l.stats.WireBytes += uint64(bytes)
	l.stats.BusCycles += uint64(cycles)
	return nil
}

// Room returns the free bytes of node's output buffer at the current
// cycle: Send refuses a message of more wire bytes with ErrFull.
func (l *Link) Room(node int) int {
	if node < 0 || node >= l.cfg.Nodes {
		return 0
	}
	if node >= len(l.nodes) {
		return l.cfg.OutputBuffer
	}
	return l.cfg.OutputBuffer - l.nodes[node].outUsed
}

// Receive hands out the next message delivered at node by the current
// cycle (the earliest delivery first, then the earliest granted), and frees
// its room in node's input buffer. It reports false when there is none.
func (l *Link) Receive(node int) (Delivery, bool) {
	if !l.due(node) {
		return Delivery{}, false
	}
	return l.receive(node), true
}

// due reports whether node has a message to hand out.
func (l *Link) due(node int) bool {
	if node < 0 || node >= len(l.nodes) {
		return false
	}
	in := l.nodes[node].in
	return len(in) > 0 && in[0].d.Delivered <= l.now
}

// receive hands out node's next message, which is due.
func (l *Link) receive(node int) Delivery {
	e := &l.nodes[node]
	top := popInbound(&e.in)
	e.inUsed -= top.bytes
	l.next.cached = false
	l.stats.Delivered[top.d.Kind]++
	l.stats.LastDelivery = max(l.stats.LastDelivery, top.d.Delivered)
	return top.d
}

// Next returns the earliest cycle, not before the current one, at which
// something a sender or receiver can observe happens if nobody calls Send
// or Receive before it: a message becomes deliverable (the current cycle
// when one already is), or a transfer ends and frees room in its sender's
// output buffer. It reports false when the link is empty.
func (l *Link) Next() (uint64, bool) {
	t, ok := uint64(0), false
	for i := range l.nodes {
		if in := l.nodes[i].in; len(in) > 0 {
			if d := max(in[0].d.Delivered, l.now); !ok || d < t {
				t, ok = d, true
			}
		}
	}
	if l.onBus.busy && (!ok || l.onBus.end < t) {
		t, ok = l.onBus.end, true
	}
	if c, src, found := l.nextGrant(); found {
		if end := c + uint64(l.nodes[src].out.peek().cycles); !ok || end < t {
			t, ok = end, true
		}
	}
	return t, ok
}

// nextGrant returns the cycle and sender of the next transfer the bus would
// grant if nothing else happened: the earliest cycle not before busFree or
// the current cycle at which some sender's head message is ready and fits
// its destination's input buffer; among the senders eligible then, the
// first after the last one granted.
func (l *Link) nextGrant() (cycle uint64, src int, ok bool) {
	if l.next.cached {
		return l.next.cycle, l.next.src, l.next.ok
	}
	cycle, src, ok = l.findGrant()
	l.next.cycle, l.next.src, l.next.ok, l.next.cached = cycle, src, ok, true
	return cycle, src, ok
}

func (l *Link) findGrant() (cycle uint64, src int, ok bool) {
	for i := range l.nodes {
		if head, eligible := l.eligible(i); eligible && (!ok || head.ready < cycle) {
			cycle, src, ok = head.ready, i, true
		}
	}
	if !ok {
		return 0, 0, false
	}
	cycle = max(cycle, l.busFree, l.now)
	s := l.last
	for range l.nodes {
		if s++; s == len(l.nodes) {
			s = 0
		}
		if head, eligible := l.eligible(s); eligible && head.ready <= cycle {
			return cycle, s, true
		}
	}
	return cycle, src, true // not reached: src itself is eligible by cycle
}

// eligible returns the head of s's output buffer and whether it fits its
// destination's input buffer.
func (l *Link) eligible(s int) (*queued, bool) {
	e := &l.nodes[s]
	if e.out.len() == 0 {
		return nil, false
	}
	head := e.out.peek()
	return head, l.nodes[head.msg.Dst].inUsed+head.bytes <= l.cfg.InputBuffer
}

// grant starts the head message of src on the bus at cycle c.
func (l *Link) grant(c uint64, src int) {
	q := l.nodes[src].out.pop()
	l.next.cached = false
	if l.onBus.busy { // it ended at busFree ≤ c
		l.nodes[l.onBus.src].outUsed -= l.onBus.bytes
	}
	end := c + uint64(q.cycles)
	l.onBus.src, l.onBus.bytes, l.onBus.end, l.onBus.busy = src, q.bytes, end, true
	l.busFree = end
	l.last = src
	delivered := end
	if q.msg.Kind.CarriesPayload() {
		delivered += l.decompress[q.msg.Alg]
	}
	dst := &l.nodes[q.msg.Dst]
	dst.inUsed += q.bytes
	l.seq++
	pushInbound(&dst.in, inbound{
		d:     Delivery{Message: q.msg, Sent: q.sent, Ready: q.ready, Start: c, Arrived: end, Delivered: delivered},
		bytes: q.bytes,
		seq:   l.seq,
	})
	l.stats.Granted[q.msg.Kind]++
	l.stats.BusyCycles += uint64(q.cycles)
	l.stats.WaitCycles += c - q.ready
}

// grow makes room for endpoint ids up to id.
func (l *Link) grow(id int) {
	for len(l.nodes) <= id {
		l.nodes = append(l.nodes, endpoint{})
	}
}

// Stats returns the link's counters.
func (l *Link) Stats() Stats {
	s := l.stats
	s.WireEnergyPJ = float64(s.WireBytes) * 8 * l.cfg.Wire.PicoJoulePerBit
	for i, e := range l.energy {
		s.CodecEnergyPJ += float64(s.Uses[i]) * e.PicoJoule
	}
	return s
}

// ResetStats zeroes the counters and leaves the messages where they are.
func (l *Link) ResetStats() { l.stats = Stats{} }

// Reset empties the link and puts it back at cycle 0 with zero counters.
func (l *Link) Reset() {
	for i := range l.nodes {
		l.nodes[i].out.clear()
		l.nodes[i].in = l.nodes[i].in[:0]
		l.nodes[i].outUsed, l.nodes[i].inUsed = 0, 0
	}
	l.now, l.busFree, l.last, l.seq = 0, 0, -1, 0
	l.onBus.busy = false
	l.next.cached = false
	l.stats = Stats{}
}

// before orders deliveries: the earlier delivery, then the earlier grant.
func before(a, b *inbound) bool {
	if a.d.Delivered != b.d.Delivered {
		return a.d.Delivered < b.d.Delivered
	}
	return a.seq < b.seq
}

// pushInbound and popInbound keep h a binary min-heap under before, without
// container/heap's interface conversions (which allocate).
func pushInbound(h *[]inbound, x inbound) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !before(&s[i], &s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func popInbound(h *[]inbound) inbound {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && before(&s[c+1], &s[c]) {
			c++
		}
		if !before(&s[c], &s[i]) {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return top
}

// ring is a FIFO that reuses its storage.
type ring[T any] struct {
	buf        []T
	head, size int
	popped     uint64 // elements ever popped: an element pushed when popped+len() was k leaves when popped passes k
}

func (r *ring[T]) len() int { return r.size }

func (r *ring[T]) push(x T) {
	if r.size == len(r.buf) {
		grown := make([]T, max(8, 2*len(r.buf)))
		for i := range r.size {
			grown[i] = r.buf[(r.head+i)%len(r.buf)]
		}
		r.buf, r.head = grown, 0
	}
	r.buf[(r.head+r.size)%len(r.buf)] = x
	r.size++
}

func (r *ring[T]) peek() *T { return &r.buf[r.head] }

func (r *ring[T]) pop() T {
	x := r.buf[r.head]
	r.head = (r.head + 1) % len(r.buf)
	r.size--
	r.popped++
	return x
}

func (r *ring[T]) clear() { r.head, r.size, r.popped = 0, 0, 0 }
