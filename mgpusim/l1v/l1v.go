package l1v

import (
	"container/heap"

	"github.com/sarchlab/akita/v4/mem/cache"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
)

// MGPUSim's L1V timing (timingconfig/shaderarray buildL1VCaches and
// akita's writearound defaults): a 2-cycle directory pipeline, 20-cycle
// banks, 8 requests a cycle, 128 MSHR entries.
const (
	dirLatency     = 2
	bankLatency    = 20
	reqsPerCycle   = 8
	mshrEntries    = 128
	topPortBuffer  = reqsPerCycle // writearound's port capacity
	ctrlPortBuffer = reqsPerCycle
)

// Comp is the compressed L1 vector cache of one compute unit (see the
// package doc).
type Comp struct {
	*sim.TickingComponent
	pl      *Plugin
	top     sim.Port // ours, named as the replaced cache's Top port
	ctrl    sim.Port // ours, named as its Control port
	bottom  sim.Port // the replaced cache's Bottom port, borrowed to reach the L2
	lowMods mem.AddressToPortMapper
	cache   *l1Cache
	machine *machine

	data     map[uint64][]byte // the bytes of every line in the cache
	mshr     map[uint64]*mshrEntry
	mshrByID map[string]uint64  // the L2 read's ID → its line
	writes   map[string]sim.Msg // L2 write ID → the CU's write
	fromL2   []sim.Msg          // relayed from the borrowed port
	toL2     []timedMsg         // FIFO (all wait dirLatency)
	toCU     msgHeap
	seq      uint64
	flush    *cache.FlushReq
	paused   bool
	stats    compStats
	lineBuf  []byte
}

type mshrEntry struct {
	start   uint64
	readers []*mem.ReadReq
	writes  []*mem.WriteReq // stores to the line while its fill is on the way
}

type timedMsg struct {
	ready uint64
	seq   uint64
	msg   sim.Msg
}

// msgHeap orders responses by the cycle they are ready, then by creation.
type msgHeap []timedMsg

func (h msgHeap) Len() int { return len(h) }
func (h msgHeap) Less(i, j int) bool {
	if h[i].ready != h[j].ready {
		return h[i].ready < h[j].ready
	}
	return h[i].seq < h[j].seq
}
func (h msgHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *msgHeap) Push(x any)   { *h = append(*h, x.(timedMsg)) }
func (h *msgHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

type compStats struct {
	readReqs, writeReqs, l2Reads, l2Writes uint64
	missCycles, misses                     uint64
	hitCycles                              uint64
}

func (c *Comp) cycle() uint64 { return c.pl.freq.Cycle(c.pl.engine.CurrentTime()) }

// Tick does one cycle's work.
func (c *Comp) Tick() bool {
	now := c.cycle()
	progress := c.takeFromL2(now)
	progress = c.control(now) || progress
	progress = c.takeFromCU(now) || progress
	progress = c.sendToL2(now) || progress
	progress = c.respond(now) || progress
	return progress || len(c.toL2) > 0 || c.toCU.Len() > 0 || len(c.fromL2) > 0 || c.flush != nil
}

// relay is the hook on the borrowed Bottom port: the L2's responses are
// addressed to it, so they are delivered there; the replaced cache, which
// has sent nothing, drops them, and we take them here.
type relay struct{ c *Comp }

func (r relay) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosPortMsgRecvd {
		return
	}
	if m, ok := ctx.Item.(sim.Msg); ok {
		r.c.fromL2 = append(r.c.fromL2, m)
		r.c.TickLater()
	}
}

// takeFromL2 handles the L2's responses: a fill enters the cache and
// answers the loads waiting for it a bank access later; a write's
// completion is passed on.
func (c *Comp) takeFromL2(now uint64) bool {
	if len(c.fromL2) == 0 {
		return false
	}
	for _, msg := range c.fromL2 {
		switch m := msg.(type) {
		case *mem.DataReadyRsp:
			c.fill(now, m)
		case *mem.WriteDoneRsp:
			w, ok := c.writes[m.RespondTo]
			if !ok {
				c.pl.fail("%s: the L2 answered unknown write %s", c.Name(), m.RespondTo)
				continue
			}
			delete(c.writes, m.RespondTo)
			req := w.(*mem.WriteReq)
			c.answer(now, mem.WriteDoneRspBuilder{}.WithSrc(c.top.AsRemote()).WithDst(req.Src).
				WithRspTo(req.ID).Build())
		default:
			c.pl.fail("%s: unexpected %T from the L2", c.Name(), msg)
		}
	}
	clear(c.fromL2)
	c.fromL2 = c.fromL2[:0]
	return true
}

func (c *Comp) fill(now uint64, m *mem.DataReadyRsp) {
	line, ok := c.mshrByID[m.RespondTo]
	if !ok {
		c.pl.fail("%s: the L2 answered unknown read %s", c.Name(), m.RespondTo)
		return
	}
	e := c.mshr[line]
	delete(c.mshr, line)
	delete(c.mshrByID, m.RespondTo)
	if len(m.Data) != lineSize {
		c.pl.fail("%s: a fill of %d bytes", c.Name(), len(m.Data))
		return
	}
	data := append([]byte(nil), m.Data...)
	for _, w := range e.writes {
		overlay(data, line, w)
	}
	if err := c.cache.fill(now, line, data); err != nil {
		c.pl.fail("%s: %v", c.Name(), err)
		return
	}
	c.data[line] = data
	c.stats.misses++
	c.stats.missCycles += now - e.start
	if c.machine != nil {
		c.machine.missed(now - e.start)
	}
	c.pl.observe(Event{Cycle: now, CU: c.Name(), Kind: EventFill, Addr: line, Line: data})
	for _, r := range e.readers {
		off := r.Address - line
		c.answer(now+bankLatency, mem.DataReadyRspBuilder{}.WithSrc(c.top.AsRemote()).WithDst(r.Src).
			WithRspTo(r.ID).WithData(append([]byte(nil), data[off:off+r.AccessByteSize]...)).Build())
	}
}

// overlay lays the bytes a write marks dirty over line (at lineAddr).
func overlay(line []byte, lineAddr uint64, w *mem.WriteReq) {
	for i, b := range w.Data {
		if w.DirtyMask != nil && !w.DirtyMask[i] {
			continue
		}
		if a := w.Address + uint64(i); a >= lineAddr && a < lineAddr+uint64(len(line)) {
			line[a-lineAddr] = b
		}
	}
}

// takeFromCU takes up to reqsPerCycle requests.
func (c *Comp) takeFromCU(now uint64) bool {
	if c.paused || c.flush != nil {
		return false
	}
	n := 0
	for ; n < reqsPerCycle; n++ {
		msg := c.top.PeekIncoming()
		if msg == nil {
			break
		}
		if r, ok := msg.(*mem.ReadReq); ok && len(c.mshr) >= mshrEntries {
			if _, merging := c.mshr[r.Address&^(lineSize-1)]; !merging {
				break // a new miss waits for a free MSHR entry
			}
		}
		c.top.RetrieveIncoming()
		switch m := msg.(type) {
		case *mem.ReadReq:
			c.read(now, m)
		case *mem.WriteReq:
			c.write(now, m)
		default:
			c.pl.fail("%s: unexpected %T from the compute unit", c.Name(), msg)
		}
	}
	return n > 0
}

func (c *Comp) read(now uint64, r *mem.ReadReq) {
	c.stats.readReqs++
	line := r.Address &^ (lineSize - 1)
	if r.AccessByteSize == 0 || r.Address-line+r.AccessByteSize > lineSize {
		c.pl.fail("%s: a read of %d bytes at %#x crosses a line", c.Name(), r.AccessByteSize, r.Address)
		return
	}
	// The bytes are taken before the lookup: the access's end may let the
	// policy invalidate the line it hit (a new SC² code book), which
	// drops them.
	data := c.data[line]
	hit, latency := c.cache.lookup(now, line)
	c.pl.observe(Event{Cycle: now, CU: c.Name(), Kind: EventLoad, Addr: line})
	if hit && data == nil {
		// Cannot happen; if it did, the load is served as a miss rather
		// than left unanswered.
		c.pl.fail("%s: a hit on %#x without its bytes", c.Name(), line)
		hit = false
	}
	if hit {
		off := r.Address - line
		c.stats.hitCycles += uint64(dirLatency + latency)
		c.answer(now+dirLatency+uint64(latency), mem.DataReadyRspBuilder{}.WithSrc(c.top.AsRemote()).
			WithDst(r.Src).WithRspTo(r.ID).WithData(append([]byte(nil), data[off:off+r.AccessByteSize]...)).Build())
		return
	}
	if e, ok := c.mshr[line]; ok {
		e.readers = append(e.readers, r)
		return
	}
	fetch := mem.ReadReqBuilder{}.WithSrc(c.bottom.AsRemote()).WithDst(c.lowMods.Find(line)).
		WithAddress(line).WithPID(r.PID).WithByteSize(lineSize).Build()
	c.mshr[line] = &mshrEntry{start: now, readers: []*mem.ReadReq{r}}
	c.mshrByID[fetch.ID] = line
	c.stats.l2Reads++
	c.toL2 = append(c.toL2, timedMsg{ready: now + dirLatency, msg: fetch})
}

// write is write-through without allocation, as MGPUSim's L1V: the write
// goes to the L2 and is answered when the L2 has it; a line present takes
// the written bytes (and is sized again by sim/cache); a line on its way
// takes them when it arrives.
func (c *Comp) write(now uint64, w *mem.WriteReq) {
	c.stats.writeReqs++
	line := w.Address &^ (lineSize - 1)
	if len(w.Data) == 0 || w.Address-line+uint64(len(w.Data)) > lineSize {
		c.pl.fail("%s: a write of %d bytes at %#x crosses a line", c.Name(), len(w.Data), w.Address)
		return
	}
	buf := c.lineBuf
	if d, ok := c.data[line]; ok {
		overlay(d, line, w)
		buf = d
	}
	if err := c.cache.store(now, line, buf); err != nil {
		c.pl.fail("%s: %v", c.Name(), err)
	}
	c.pl.observe(Event{Cycle: now, CU: c.Name(), Kind: EventStore, Addr: line, Line: buf})
	if e, ok := c.mshr[line]; ok {
		e.writes = append(e.writes, w)
	}
	down := mem.WriteReqBuilder{}.WithSrc(c.bottom.AsRemote()).WithDst(c.lowMods.Find(w.Address)).
		WithAddress(w.Address).WithPID(w.PID).WithData(w.Data).WithDirtyMask(w.DirtyMask).Build()
	c.writes[down.ID] = w
	c.stats.l2Writes++
	c.toL2 = append(c.toL2, timedMsg{ready: now + dirLatency, msg: down})
}

func (c *Comp) answer(at uint64, msg sim.Msg) {
	c.seq++
	heap.Push(&c.toCU, timedMsg{ready: at, seq: c.seq, msg: msg})
}

func (c *Comp) sendToL2(now uint64) bool {
	n := 0
	for n < len(c.toL2) && c.toL2[n].ready <= now && c.bottom.Send(c.toL2[n].msg) == nil {
		c.toL2[n] = timedMsg{}
		n++
	}
	c.toL2 = c.toL2[n:]
	return n > 0
}

func (c *Comp) respond(now uint64) bool {
	n := 0
	for c.toCU.Len() > 0 && c.toCU[0].ready <= now {
		if c.top.Send(c.toCU[0].msg) != nil {
			break
		}
		heap.Pop(&c.toCU)
		n++
	}
	return n > 0
}

// control serves the command processor: a flush waits for the
// transactions in flight, empties the cache and answers (and pauses the
// cache if asked); a restart resumes it.
func (c *Comp) control(now uint64) bool {
	progress := false
	if c.flush == nil {
		switch m := c.ctrl.PeekIncoming().(type) {
		case nil:
		case *cache.FlushReq:
			c.flush = m
			c.ctrl.RetrieveIncoming()
			progress = true
		case *cache.RestartReq:
			rsp := cache.RestartRspBuilder{}.WithSrc(c.ctrl.AsRemote()).WithDst(m.Src).WithRspTo(m.ID).Build()
			if c.ctrl.Send(rsp) == nil {
				c.ctrl.RetrieveIncoming()
				c.paused = false
				progress = true
			}
		default:
			c.pl.fail("%s: unexpected control message %T", c.Name(), m)
			c.ctrl.RetrieveIncoming()
		}
	}
	if c.flush != nil && len(c.mshr) == 0 && len(c.writes) == 0 && len(c.toL2) == 0 && c.toCU.Len() == 0 {
		rsp := cache.FlushRspBuilder{}.WithSrc(c.ctrl.AsRemote()).WithDst(c.flush.Src).WithRspTo(c.flush.ID).Build()
		if c.ctrl.Send(rsp) == nil {
			c.cache.invalidateAll(now)
			c.paused = c.flush.PauseAfterFlushing
			c.flush = nil
			progress = true
		}
	}
	return progress
}
