package memctl

import (
	simmem "github.com/linecomp/linecomp/sim/mem"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
)

// Comp is the compressing memory controller of one L2 bank: an Akita
// component between the bank's Bottom port and a mem/dram channel (see the
// package doc).
type Comp struct {
	*sim.TickingComponent
	pl      *Plugin
	gpu     *gpuState
	bank    int
	top     sim.Port
	bottom  sim.Port
	dram    sim.RemotePort
	waiting []*txn          // accepted, in their MD lookup
	toDRAM  []sim.Msg       // DRAM requests not yet sent, in order
	byReq   map[string]*txn // DRAM request ID → its transaction (nil: an MD write-back)
	replies []sim.Msg       // responses ready for the L2, in order
}

// txn is one L2 request in the controller.
type txn struct {
	req    sim.Msg
	read   bool
	local  uint64 // the line's address in the GPU's memory (address − offset)
	data   []byte // what a read returns, taken from the global storage at arrival
	line   []byte // the whole line after the request
	bursts int
	mdMiss bool
	mdWB   bool
	ready  uint64 // cycle the MD lookup ends
	inMD   bool   // waiting for the MD block's fetch
}

func newComp(pl *Plugin, g *gpuState, bank int, name string, dramPort sim.RemotePort) *Comp {
	c := &Comp{pl: pl, gpu: g, bank: bank, dram: dramPort, byReq: make(map[string]*txn)}
	c.TickingComponent = sim.NewTickingComponent(name, pl.engine, pl.freq, c)
	// The ports have the capacity of mem/dram's top port, so that the L2
	// sees the same back-pressure as without the controller.
	c.top = sim.NewPort(c, dramPortBuffer, dramPortBuffer, name+".TopPort")
	c.bottom = sim.NewPort(c, dramPortBuffer, dramPortBuffer, name+".BottomPort")
	c.AddPort("Top", c.top)
	c.AddPort("Bottom", c.bottom)
	return c
}

// dramPortBuffer is mem/dram's top port capacity (dram.Builder.Build).
const dramPortBuffer = 1024

func (c *Comp) cycle() uint64 { return c.pl.freq.Cycle(c.pl.engine.CurrentTime()) }

// Tick moves every transaction as far as it can go this cycle. A request
// with no metadata to look up ("none") is sent on to DRAM in the cycle it
// is taken, so the controller adds only its connections' hops.
func (c *Comp) Tick() bool {
	progress := c.receive()
	progress = c.accept() || progress
	progress = c.advance() || progress
	progress = c.send() || progress
	progress = c.reply() || progress
	// A lookup ending in a later cycle, or a port that refused a message,
	// needs the next tick.
	return progress || len(c.waiting) > 0 || len(c.toDRAM) > 0 || len(c.replies) > 0
}

// accept takes one request from the L2 (mem/dram also takes one a cycle),
// applies it to the global storage and sizes it with the model.
func (c *Comp) accept() bool {
	msg := c.top.RetrieveIncoming()
	if msg == nil {
		return false
	}
	now := c.cycle()
	t := &txn{req: msg}
	var (
		op   simmem.Op
		addr uint64
	)
	switch m := msg.(type) {
	case *mem.ReadReq:
		t.read, addr, op = true, m.Address, simmem.Read
		data, err := c.pl.storage.Read(addr, m.AccessByteSize)
		if err != nil {
			c.pl.fail("%s: reading %#x: %v", c.Name(), addr, err)
		}
		t.data = data
		if err != nil || !c.pl.within(c.Name(), addr, m.AccessByteSize) {
			// Answered at once, so that the L2 does not wait forever;
			// Err reports the request.
			c.complete(t)
			return true
		}
	case *mem.WriteReq:
		addr, op = m.Address, simmem.Write
		// mem/dram writes every byte of Data whatever the dirty mask
		// (finalizeWriteTrans); so do we, so that "none" stores exactly
		// what the baseline stores.
		err := c.pl.storage.Write(addr, m.Data)
		if err != nil {
			c.pl.fail("%s: writing %#x: %v", c.Name(), addr, err)
		}
		if err != nil || !c.pl.within(c.Name(), addr, uint64(len(m.Data))) {
			c.complete(t)
			return true
		}
	default:
		c.pl.fail("%s: unexpected message %T from the L2", c.Name(), msg)
		return true
	}
	lineAddr := addr &^ (lineSize - 1)
	line, err := c.pl.storage.Read(lineAddr, lineSize)
	if err != nil {
		c.pl.fail("%s: reading line %#x: %v", c.Name(), lineAddr, err)
		return true
	}
	t.line = line
	t.local = lineAddr - c.gpu.offset
	r, err := c.gpu.model.Access(now, op, t.local, line)
	if err != nil {
		c.pl.fail("%s: %v", c.Name(), err)
		return true
	}
	if r.Controller != c.bank {
		c.pl.fail("%s: line %#x belongs to controller %d", c.Name(), lineAddr, r.Controller)
		return true
	}
	if c.pl.cfg.Observe != nil {
		c.pl.cfg.Observe(Access{Cycle: now, GPU: c.gpu.index, Bank: c.bank, Write: !t.read, Addr: lineAddr, Line: line, Result: r})
	}
	t.bursts, t.mdMiss, t.mdWB = r.Bursts, r.MDMiss, r.MDWriteBack
	t.ready = now
	if c.gpu.model.MetadataBits() > 0 {
		t.ready += uint64(c.gpu.model.Config().MDHitLatency)
	}
	c.waiting = append(c.waiting, t)
	return true
}

// advance ends the MD lookups due by now, in arrival order: a miss fetches
// the MD block (and writes back the dirty block it evicts, off the
// critical path), a hit goes on to the data.
func (c *Comp) advance() bool {
	now := c.cycle()
	n := 0
	for n < len(c.waiting) && c.waiting[n].ready <= now {
		t := c.waiting[n]
		if t.mdMiss {
			t.inMD = true
			c.issue(c.mdRead(t.local), t)
			c.pl.stats.MDFetchBytes += uint64(c.pl.mdBlock)
			if t.mdWB {
				// The model does not say which block it evicted; the
				// write-back goes to the fetched block's address, which
				// in a close-page channel costs the same [ours].
				c.issue(c.mdWrite(t.local), nil)
				c.pl.stats.MDWriteBackBytes += uint64(c.pl.mdBlock)
			}
		} else {
			c.startData(t)
		}
		c.waiting[n] = nil
		n++
	}
	c.waiting = c.waiting[n:]
	return n > 0
}

// startData issues the data bursts, or completes at once a line that moves
// none (BDI's zero line with MinBursts 0).
func (c *Comp) startData(t *txn) {
	t.inMD = false
	if t.bursts == 0 {
		c.complete(t)
		return
	}
	n := uint64(t.bursts * c.pl.mag)
	addr := c.dataAddr(t.local)
	c.pl.stats.DataBytes += n
	if t.read {
		c.issue(mem.ReadReqBuilder{}.WithSrc(c.bottom.AsRemote()).WithDst(c.dram).
			WithAddress(addr).WithByteSize(n).Build(), t)
		return
	}
	// The channel's own storage only times the bursts; what it holds
	// does not matter. It gets the line's first bytes.
	c.issue(mem.WriteReqBuilder{}.WithSrc(c.bottom.AsRemote()).WithDst(c.dram).
		WithAddress(addr).WithData(append([]byte(nil), t.line[:n]...)).Build(), t)
}

func (c *Comp) issue(m sim.Msg, t *txn) {
	c.byReq[m.Meta().ID] = t
	c.toDRAM = append(c.toDRAM, m)
}

// dataAddr is the line's address on the channel: its global address, as
// in the baseline.
func (c *Comp) dataAddr(local uint64) uint64 { return c.gpu.offset + local }

// mdAddr is the global address of the line's MD block in the region
// reserved for metadata at the top of the controller's share of the GPU's
// memory: the inverse of the placement, from the region's first local
// line on.
func (c *Comp) mdAddr(local uint64) uint64 {
	_, idx := c.gpu.model.Place(local)
	block := idx / uint64(c.gpu.model.LinesPerMDBlock())
	md := c.pl.mdBase/lineSize + block*uint64(c.pl.mdBlock/lineSize) // local line index of the block
	perStripe := uint64(interleave / lineSize)
	return c.gpu.offset + md/perStripe*interleave*banks + uint64(c.bank)*interleave + md%perStripe*lineSize
}

func (c *Comp) mdRead(local uint64) sim.Msg {
	return mem.ReadReqBuilder{}.WithSrc(c.bottom.AsRemote()).WithDst(c.dram).
		WithAddress(c.mdAddr(local)).WithByteSize(uint64(c.pl.mdBlock)).Build()
}

func (c *Comp) mdWrite(local uint64) sim.Msg {
	return mem.WriteReqBuilder{}.WithSrc(c.bottom.AsRemote()).WithDst(c.dram).
		WithAddress(c.mdAddr(local)).WithData(make([]byte, c.pl.mdBlock)).Build()
}

// send passes the queued DRAM requests to the channel, in order.
func (c *Comp) send() bool {
	n := len(c.toDRAM)
	c.toDRAM = sendInOrder(c.bottom, c.toDRAM)
	return len(c.toDRAM) < n
}

// sendInOrder sends msgs through port until it refuses one, and returns
// those not sent.
func sendInOrder(port sim.Port, msgs []sim.Msg) []sim.Msg {
	n := 0
	for n < len(msgs) && port.Send(msgs[n]) == nil {
		msgs[n] = nil
		n++
	}
	return msgs[n:]
}

// receive takes the channel's responses.
func (c *Comp) receive() bool {
	progress := false
	for msg := c.bottom.RetrieveIncoming(); msg != nil; msg = c.bottom.RetrieveIncoming() {
		progress = true
		id, ok := respondsTo(msg)
		if !ok {
			c.pl.fail("%s: unexpected message %T from DRAM", c.Name(), msg)
			continue
		}
		t, ok := c.byReq[id]
		if !ok {
			c.pl.fail("%s: DRAM answered unknown request %s", c.Name(), id)
			continue
		}
		delete(c.byReq, id)
		switch {
		case t == nil: // an MD write-back
		case t.inMD:
			c.startData(t)
		default:
			c.complete(t)
		}
	}
	return progress
}

// complete answers the L2.
func (c *Comp) complete(t *txn) {
	var rsp sim.Msg
	if t.read {
		r := t.req.(*mem.ReadReq)
		rsp = mem.DataReadyRspBuilder{}.WithSrc(c.top.AsRemote()).WithDst(r.Src).
			WithRspTo(r.ID).WithData(t.data).Build()
	} else {
		w := t.req.(*mem.WriteReq)
		rsp = mem.WriteDoneRspBuilder{}.WithSrc(c.top.AsRemote()).WithDst(w.Src).
			WithRspTo(w.ID).Build()
	}
	c.replies = append(c.replies, rsp)
}

// reply sends the ready responses to the L2, in order.
func (c *Comp) reply() bool {
	n := len(c.replies)
	c.replies = sendInOrder(c.top, c.replies)
	return len(c.replies) < n
}
