package link

import (
	"errors"
	"fmt"

	"github.com/linecomp/linecomp"
)

// ErrTransfer means a transfer that cannot be replayed: an unknown op, an
// endpoint out of range or equal at both ends, a line of the wrong length,
// a time beyond MaxCycle, or a chooser that answered with no candidate.
var ErrTransfer = errors.New("link: invalid transfer")

// Op is the direction of a data-carrying transfer. Its values are those of
// trace.Op, so a trace record converts with Op(rec.Op).
type Op uint8

const (
	// Read: data answering a read, sent by Src (the owner) to Dst (the
	// requester) as a DataReady after Dst's ReadReq.
	Read Op = 1
	// Write: data written by Src to Dst as a WriteReq, which Dst
	// acknowledges with a WriteAck.
	Write Op = 2
)

func (o Op) String() string {
	switch o {
	case Read:
		return "read"
	case Write:
		return "write"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Transfer is one data-carrying record of an inter-GPU trace: the fields of
// a trace.Record that the replay uses.
type Transfer struct {
	Time     uint64 // picoseconds; 0 when untimed
	Src, Dst uint32 // Src sends the data
	Op       Op
	Data     []byte // the line, exactly the candidates' line size
}

// Chooser picks the candidate that carries each line a sender sends;
// *vote.Selector is one. Choose returns an index into the candidates.
type Chooser interface {
	Choose(line []byte) int
}

// ChooserFactory makes the chooser of one sender, for the link's
// candidates.
type ChooserFactory func(candidates []linecomp.Codec) (Chooser, error)

// static always chooses the same candidate.
type static int

func (s static) Choose([]byte) int { return int(s) }

// Static returns a factory of choosers that always choose candidate index:
// the replay of a link with one fixed codec.
func Static(index int) ChooserFactory {
	return func(candidates []linecomp.Codec) (Chooser, error) {
		if index < 0 || index >= len(candidates) {
			return nil, linecomp.ConfigError("link", "static candidate %d of %d", index, len(candidates))
		}
		return static(index), nil
	}
}

// DefaultPicosecondsPerCycle is a 1 GHz clock, the bus's in §VI-B.
const DefaultPicosecondsPerCycle = 1000

// ReplayConfig configures a Replay.
type ReplayConfig struct {
	Link Config
	// NewChooser makes each sender's chooser the first time that sender
	// sends data (model-spec §6: every sending GPU has its own selector).
	NewChooser ChooserFactory
	// PicosecondsPerCycle converts Transfer.Time to cycles (1000).
	PicosecondsPerCycle uint64
}

// Result is what a replay reports. The JSON names are those of the
// `linecomp sim link` command (model-spec §6 "Replay counters").
type Result struct {
	Transfers               uint64            `json:"transfers"`                 // data-carrying records
	PayloadBits             uint64            `json:"payload_bits"`              // Σ Size of the carrying candidate, exact bits
	UncompressedPayloadBits uint64            `json:"uncompressed_payload_bits"` // 8 × LineSize per transfer
	WireBytes               uint64            `json:"wire_bytes"`                // all four kinds, header and payload byte-aligned
	BusCycles               uint64            `json:"bus_cycles"`                // Σ ceil(wire bytes / BytesPerCycle), all four kinds
	Uses                    map[string]uint64 `json:"uses"`                      // transfers per candidate name, every candidate listed

	Messages              map[string]uint64 `json:"messages"`                // per kind: read_req, data_ready, write_req, write_ack
	HeaderBits            uint64            `json:"header_bits"`             // Σ header bits, all four kinds
	UncompressedWireBytes uint64            `json:"uncompressed_wire_bytes"` // wire bytes with every payload uncompressed
	UncompressedBusCycles uint64            `json:"uncompressed_bus_cycles"` // bus cycles with every payload uncompressed

	LastRecordCycle uint64 `json:"last_record_cycle"` // the latest record time, in cycles
	CompletionCycle uint64 `json:"completion_cycle"`  // the cycle the last message was delivered
	DelayCycles     uint64 `json:"delay_cycles"`      // Σ over records of (first message sent − record time)
	WaitCycles      uint64 `json:"wait_cycles"`       // Σ over messages of (start on the bus − ready)

	WireEnergyPJ      float64           `json:"wire_energy_pj"`
	WireEnergySource  string            `json:"wire_energy_source"`
	CodecEnergyPJ     float64           `json:"codec_energy_pj"`
	CodecEnergyNotes  map[string]string `json:"codec_energy_sources"` // per candidate name: the figure's source, or why there is none
	UnpricedTransfers uint64            `json:"unpriced_transfers"`   // transfers whose candidate has no energy figure
}

// Replay replays data-carrying records through choosers and a Link. It is
// not safe for concurrent use.
type Replay struct {
	link       *Link
	candidates []linecomp.Codec
	lineSize   int
	newChooser ChooserFactory
	psPerCycle uint64

	choosers []Chooser       // per sender, made on first use
	queues   []ring[Message] // per endpoint: messages waiting for room in its output buffer
	uses     []uint64        // per candidate
	res      Result          // counters kept as the records come
	header   [NumKinds]int   // bits
	perCycle uint64          // bus bytes per cycle
	lineBits int
}

// NewReplay returns a replay at cycle 0.
func NewReplay(cfg ReplayConfig) (*Replay, error) {
	l, err := New(cfg.Link)
	if err != nil {
		return nil, err
	}
	if cfg.NewChooser == nil {
		return nil, linecomp.ConfigError("link", "NewChooser is nil (use Static for a fixed codec)")
	}
	if cfg.PicosecondsPerCycle == 0 {
		cfg.PicosecondsPerCycle = DefaultPicosecondsPerCycle
	}
	lc := l.Config()
	seen := make(map[string]int)
	for i, c := range lc.Candidates {
		if j, dup := seen[c.Name()]; dup {
			return nil, linecomp.ConfigError("link", "Candidates[%d] and Candidates[%d] are both %s; uses are reported by name", j, i, c.Name())
		}
		seen[c.Name()] = i
	}
	r := &Replay{
		link:       l,
		candidates: lc.Candidates,
		lineSize:   lc.Candidates[0].LineSize(),
		newChooser: cfg.NewChooser,
		psPerCycle: cfg.PicosecondsPerCycle,
		uses:       make([]uint64, len(lc.Candidates)),
		header:     l.header,
		perCycle:   uint64(lc.BytesPerCycle),
	}
	r.lineBits = 8 * r.lineSize
	return r, nil
}

// Link returns the replay's link, for its statistics.
func (r *Replay) Link() *Link { return r.link }

// The payload of a DataReady travels in its ReadReq's ID until the request
// is delivered: the candidate in the high half, the bits in the low half.
func packPayload(alg, bits int) uint64        { return uint64(alg)<<32 | uint64(uint32(bits)) }
func unpackPayload(id uint64) (alg, bits int) { return int(id >> 32), int(uint32(id)) }

// Add replays one transfer. Its sender's chooser picks the candidate now,
// in record order, whatever the timing. Then the transfer's first message
// (the ReadReq of a Read, from Dst; the WriteReq of a Write, from Src) is
// sent at the record's time in cycles, or later: not before the previous
// record's first message, and only once the sending endpoint has room in
// its output buffer and nothing older waiting for it. Meanwhile the link
// runs: a delivered ReadReq makes its owner send the DataReady, a delivered
// WriteReq makes its target send the WriteAck.
func (r *Replay) Add(t Transfer) error {
	if t.Op != Read && t.Op != Write {
		return fmt.Errorf("%w: %v", ErrTransfer, t.Op)
	}
	nodes := r.link.cfg.Nodes
	if t.Src >= uint32(nodes) || t.Dst >= uint32(nodes) || t.Src == t.Dst {
		return fmt.Errorf("%w: %v %d→%d: endpoints must differ and be below %d", ErrTransfer, t.Op, t.Src, t.Dst, nodes)
	}
	if len(t.Data) != r.lineSize {
		return fmt.Errorf("%w: %w", ErrTransfer, linecomp.LineSizeError("link replay", len(t.Data), fmt.Sprintf("%d-byte lines", r.lineSize)))
	}
	if at := t.Time / r.psPerCycle; at > MaxCycle {
		return fmt.Errorf("%w: %v %d→%d at %d ps: cycle %d is beyond the link's MaxCycle (%d)", ErrTransfer, t.Op, t.Src, t.Dst, t.Time, at, uint64(MaxCycle))
	}
	src, dst := int(t.Src), int(t.Dst)
	ch, err := r.chooser(src)
	if err != nil {
		return err
	}
	alg := ch.Choose(t.Data)
	if alg < 0 || alg >= len(r.candidates) {
		return fmt.Errorf("%w: the chooser of endpoint %d chose %d of %d candidates", ErrTransfer, src, alg, len(r.candidates))
	}
	bits := r.candidates[alg].Size(t.Data)
	var first, data Message
	if t.Op == Read {
		data = Message{Kind: DataReady, Src: src, Dst: dst, Alg: alg, PayloadBits: bits}
		first = Message{Kind: ReadReq, Src: dst, Dst: src, ID: packPayload(alg, bits)}
	} else {
		data = Message{Kind: WriteReq, Src: src, Dst: dst, Alg: alg, PayloadBits: bits}
		first = data
	}
	if _, err := r.link.Check(data); err != nil {
		return fmt.Errorf("%w: %w", ErrTransfer, err)
	}
	r.count(t, data, alg)

	at := t.Time / r.psPerCycle
	r.res.LastRecordCycle = max(r.res.LastRecordCycle, at)
	at = max(at, r.link.Now())
	if err := r.runUntil(at); err != nil {
		return err
	}
	r.grow(first.Src)
	ticket := r.queues[first.Src].popped + uint64(r.queues[first.Src].len())
	r.queues[first.Src].push(first)
	if err := r.flush(first.Src); err != nil {
		return err
	}
	// The record stream waits until its first message is sent. (step may
	// grow r.queues, so no pointer into it is kept.)
	for r.queues[first.Src].popped <= ticket {
		next, ok := r.link.Next()
		if !ok {
			return errors.New("link replay: a message waits for room in an empty link") // not reached
		}
		if err := r.step(next); err != nil {
			return err
		}
	}
	r.res.DelayCycles += r.link.Now() - t.Time/r.psPerCycle
	return nil
}

// count adds a transfer's four messages to the counters that do not depend
// on time.
func (r *Replay) count(t Transfer, data Message, alg int) {
	res := &r.res
	res.Transfers++
	res.PayloadBits += uint64(data.PayloadBits)
	res.UncompressedPayloadBits += uint64(r.lineBits)
	r.uses[alg]++
	other := WriteAck
	if t.Op == Read {
		other = ReadReq
	}
	r.countMessage(data.Kind, data.PayloadBits, r.lineBits)
	r.countMessage(other, 0, 0)
}

// countMessage counts one message with its payload, and as it would be
// with an uncompressed payload of rawBits.
func (r *Replay) countMessage(k Kind, bits, rawBits int) {
	res := &r.res
	b := uint64(WireBytes(r.header[k], bits))
	raw := uint64(WireBytes(r.header[k], rawBits))
	res.HeaderBits += uint64(r.header[k])
	res.WireBytes += b
	res.BusCycles += (b + r.perCycle - 1) / r.perCycle
	res.UncompressedWireBytes += raw
	res.UncompressedBusCycles += (raw + r.perCycle - 1) / r.perCycle
}

func (r *Replay) chooser(src int) (Chooser, error) {
	r.grow(src)
	if r.choosers[src] == nil {
		c, err := r.newChooser(r.candidates)
		if err != nil {
			return nil, fmt.Errorf("link replay: the chooser of endpoint %d: %w", src, err)
		}
		if c == nil {
			return nil, linecomp.ConfigError("link", "NewChooser returned a nil Chooser for endpoint %d", src)
		}
		r.choosers[src] = c
	}
	return r.choosers[src], nil
}

func (r *Replay) grow(id int) {
	for len(r.queues) <= id {
		r.queues = append(r.queues, ring[Message]{})
		r.choosers = append(r.choosers, nil)
	}
}

// runUntil runs the link's events up to cycle at and leaves it there.
func (r *Replay) runUntil(at uint64) error {
	for {
		next, ok := r.link.Next()
		if !ok || next > at {
			break
		}
		if err := r.step(next); err != nil {
			return err
		}
	}
	return r.link.Advance(at)
}

// step moves the link to cycle c, takes every delivery due (endpoint by
// endpoint), answers the requests among them, and offers every endpoint's
// waiting messages again.
func (r *Replay) step(c uint64) error {
	if err := r.link.Advance(c); err != nil {
		return err
	}
	for node := range r.link.nodes {
		for r.link.due(node) {
			d := r.link.receive(node)
			r.res.CompletionCycle = max(r.res.CompletionCycle, d.Delivered)
			switch d.Kind {
			case ReadReq:
				alg, bits := unpackPayload(d.ID)
				r.grow(node)
				r.queues[node].push(Message{Kind: DataReady, Src: node, Dst: d.Src, Alg: alg, PayloadBits: bits})
			case WriteReq:
				r.grow(node)
				r.queues[node].push(Message{Kind: WriteAck, Src: node, Dst: d.Src})
			}
		}
	}
	for node := range r.queues {
		if r.queues[node].len() == 0 {
			continue
		}
		if err := r.flush(node); err != nil {
			return err
		}
	}
	return nil
}

// flush sends node's waiting messages in order while its output buffer
// has room. (Asking Room first rather than being refused keeps a blocked
// sender cheap: it is retried at every event.)
func (r *Replay) flush(node int) error {
	q := &r.queues[node]
	for q.len() > 0 {
		m := q.peek()
		if WireBytes(r.header[m.Kind], m.PayloadBits) > r.link.Room(node) {
			return nil
		}
		if err := r.link.Send(*m); err != nil {
			return err
		}
		q.pop()
	}
	return nil
}

// Finish runs the link until every message has been delivered and returns
// the totals. Add may continue afterwards; Finish then reports the totals
// of everything added.
func (r *Replay) Finish() (Result, error) {
	for {
		next, ok := r.link.Next()
		if !ok {
			break
		}
		if err := r.step(next); err != nil {
			return Result{}, err
		}
	}
	res := r.res
	res.Uses = make(map[string]uint64, len(r.candidates))
	res.CodecEnergyNotes = make(map[string]string, len(r.candidates))
	for i, c := range r.candidates {
		res.Uses[c.Name()] = r.uses[i]
		e := r.link.energy[i]
		res.CodecEnergyPJ += float64(r.uses[i]) * e.PicoJoule
		res.CodecEnergyNotes[c.Name()] = e.Note
		if !e.Priced {
			res.UnpricedTransfers += r.uses[i]
		}
	}
	st := r.link.Stats()
	res.Messages = make(map[string]uint64, NumKinds)
	for k := range NumKinds {
		res.Messages[Kind(k).String()] = st.Messages[k]
	}
	res.WaitCycles = st.WaitCycles
	res.WireEnergyPJ = float64(res.WireBytes) * 8 * r.link.cfg.Wire.PicoJoulePerBit
	res.WireEnergySource = r.link.cfg.Wire.Source
	return res, nil
}
