package gpu

import (
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bound"
	"github.com/linecomp/linecomp/sim/cache"
)

// The memory path: the access queue into the L1, MSHRs, the L2 slices, the
// interconnect and its flits, stores, write-backs, and the events that
// bring lines back to the warps.

// lineState is the latest content of a line the GPU has seen, and whether
// DRAM holds it uncompressed.
type lineState struct {
	data []byte
	raw  bool
}

// lsuStep lets the head of s's access queue enter the L1.
func (g *GPU) lsuStep(s *sm) error {
	if s.head == len(s.lsu) {
		s.lsu, s.head = s.lsu[:0], 0
		return nil
	}
	if s.stalled {
		return nil
	}
	it := &s.lsu[s.head]
	line := it.lines[it.next]
	addr := line.Addr
	if it.store {
		if _, err := s.l1.Store(g.now, addr, line.Data); err != nil {
			return err
		}
		s.advance(it)
		return g.store(s, line)
	}
	if len(s.mshrs) == g.cfg.MSHRs && s.mshrs[addr] == nil {
		if _, _, ok := s.l1.Contains(addr); !ok {
			s.stalled = true // a new miss, and every MSHR busy: wait
			return nil
		}
	}
	g.see(line, false)
	r := s.l1.Lookup(g.now, addr)
	s.advance(it) // it stays valid: nothing appends to the queue here
	if r.Hit {
		// A hit wins even over a pending miss to the line (a write-back
		// L1 may hold a stored line whose load miss is still out).
		g.events.push(event{t: g.now + uint64(r.Latency), kind: evWake, sm: int32(s.id), warp: int32(it.warp)})
		return nil
	}
	// The MSHRs are looked up only on a miss: most accesses hit.
	if m := s.mshrs[addr]; m != nil {
		m.waiters = append(m.waiters, it.warp)
		g.stats.MergedMisses++
		return nil
	}
	t, err := g.fetch(line)
	if err != nil {
		return err
	}
	m := s.newMSHR()
	m.addr, m.line, m.start, m.waiters = addr, line, g.now, append(m.waiters[:0], it.warp)
	s.mshrs[addr] = m
	g.events.push(event{t: t, kind: evFill, sm: int32(s.id), addr: addr})
	return nil
}

// advance moves the access queue past the line of it that entered the L1.
func (s *sm) advance(it *lsuItem) {
	if it.next++; it.next == len(it.lines) {
		s.head++
	}
}

// see records the latest content of a line; a load leaves a raw line raw.
func (g *GPU) see(l Line, raw bool) {
	if !g.track {
		return
	}
	st := g.image[l.Addr]
	g.image[l.Addr] = lineState{data: l.Data, raw: st.raw || raw}
}

// fetch sends an L1 miss to the L2 (and the memory on an L2 miss) and over
// the interconnect, and returns the cycle its line reaches the SM, the
// hardware decompression included.
func (g *GPU) fetch(l Line) (uint64, error) {
	lat := uint64(g.cfg.L2HitLatency)
	slice, l2, local := g.l2Slice(l.Addr)
	raw := g.image[l.Addr].raw
	if !l2.Lookup(g.now, local).Hit {
		ml, err := g.cfg.Memory.Access(g.now+lat, MemRequest{Addr: l.Addr, Line: l.Data, Raw: raw})
		if err != nil {
			return 0, err
		}
		if !bound.Cycles(ml) {
			return 0, linecomp.ConfigError("gpu", "the Memory answered a read of %#x at cycle %d with a latency of %d cycles; want 0 to %d", l.Addr, g.now+lat, ml, bound.MaxCycles)
		}
		g.stats.MemReads++
		lat += uint64(ml)
		if _, err := l2.Fill(g.now+lat, local, l.Data); err != nil {
			return 0, err
		}
	}
	t := g.transfer(slice, g.now+lat, l.Data, raw)
	if g.compressed(l.Data, raw) && g.cfg.Assist == nil {
		t += uint64(g.cfg.Interconnect.DecompressCycles)
	}
	return t, g.err
}

// compressed reports whether line travels compressed on the interconnect.
func (g *GPU) compressed(line []byte, raw bool) bool {
	c := g.cfg.Interconnect.Codec
	return c != nil && !raw && c.Size(line) < 8*len(line)+c.TagBits()
}

// transfer puts line on the response port of an L2 slice at cycle t and
// returns when it arrives: after the flits queued before it, its own
// included in the port's time but not in its latency (the L2 latency
// counts one line's transfer).
func (g *GPU) transfer(slice int, t uint64, line []byte, raw bool) uint64 {
	flits, full := g.flits(line, raw)
	g.stats.Flits += uint64(flits)
	g.stats.UncompressedFlits += uint64(full)
	fb := g.cfg.Interconnect.FlitBytes
	if fb == 0 {
		return t
	}
	start := max(t, g.ports[slice])
	g.ports[slice] = start + uint64(flits)
	return start
}

// flits returns the flits line takes on the interconnect, and the flits it
// takes uncompressed (with unlimited bandwidth, 32-byte flits are counted).
func (g *GPU) flits(line []byte, raw bool) (flits, full int) {
	fb := g.cfg.Interconnect.FlitBytes
	if fb == 0 {
		fb = 32
	}
	full = (len(line) + fb - 1) / fb
	if !g.compressed(line, raw) {
		return full, full
	}
	c := g.cfg.Interconnect.Codec
	bytes := (c.Size(line) - c.TagBits() + 7) / 8
	return max(1, (bytes+fb-1)/fb), full
}

// store sends a store's line towards the L2: through the store buffer and
// a compression assist warp with CABA, compressed by hardware with an
// interconnect codec, or as it is.
func (g *GPU) store(s *sm, l Line) error {
	a := g.cfg.Assist
	if a == nil || !g.compressed(l.Data, false) {
		return g.storeToL2(l, false)
	}
	if s.buffered == a.StoreBuffer {
		g.stats.UncompressedStores++
		return g.storeToL2(l, true)
	}
	s.buffered++
	s.low = append(s.low, assistTask{left: max(1, a.Compress(l.Data)), store: l})
	return nil
}

// storeToL2 writes l into its L2 slice; raw marks it stored uncompressed.
func (g *GPU) storeToL2(l Line, raw bool) error {
	if g.track {
		g.image[l.Addr] = lineState{data: l.Data, raw: raw}
	}
	_, l2, local := g.l2Slice(l.Addr)
	flits, full := g.flits(l.Data, raw)
	g.stats.Flits += uint64(flits)
	g.stats.UncompressedFlits += uint64(full)
	if _, err := l2.Store(g.now, local, l.Data); err != nil {
		return err
	}
	return g.err
}

// writeBacks observes an L2 slice: it sends every dirty line the slice
// evicts to the memory, with the line's latest content.
type writeBacks struct {
	g     *GPU
	slice int
}

func (w writeBacks) Observe(e cache.Event) {
	if e.Kind != cache.Evict || !e.Dirty {
		return
	}
	g := w.g
	addr := g.globalAddr(w.slice, e.Addr)
	st, ok := g.image[addr]
	if !ok && g.track { // cannot happen: every line the L2 holds was seen
		if g.err == nil {
			g.err = fmt.Errorf("gpu: the L2 wrote back line %#x, which no access brought", addr)
		}
		return
	}
	ml, err := g.cfg.Memory.Access(e.Now, MemRequest{Write: true, Raw: st.raw, Addr: addr, Line: st.data})
	if err == nil && !bound.Cycles(ml) {
		err = linecomp.ConfigError("gpu", "the Memory answered a write-back of %#x at cycle %d with a latency of %d cycles; want 0 to %d", addr, e.Now, ml, bound.MaxCycles)
	}
	if err != nil && g.err == nil {
		g.err = err
	}
	g.stats.MemWrites++
}

// globalAddr turns a slice-local line address back into the global one.
func (g *GPU) globalAddr(slice int, local uint64) uint64 {
	il, n, ls := uint64(g.cfg.L2Interleave), uint64(g.cfg.L2Slices), uint64(g.cfg.L2.LineSize)
	perStripe := il / ls
	line := local / ls
	return (line/perStripe*n+uint64(slice))*il + line%perStripe*ls
}

// drainEvents handles every event due at or before now.
func (g *GPU) drainEvents() error {
	for {
		e, ok := g.events.pop(g.now)
		if !ok {
			return nil
		}
		s := &g.sms[e.sm]
		switch e.kind {
		case evWake:
			s.warps[e.warp].pending--
			s.refresh(int(e.warp))
		case evFill:
			m := s.mshrs[e.addr]
			delete(s.mshrs, e.addr)
			s.stalled = false
			if _, err := s.l1.Fill(e.t, e.addr, m.line.Data); err != nil {
				return err
			}
			lat := e.t - m.start
			s.probe.missSum += lat
			s.probe.misses++
			g.stats.L1MissLatency += lat
			g.stats.L1MissFills++
			if a := g.cfg.Assist; a != nil && g.compressed(m.line.Data, g.image[e.addr].raw) {
				if n := a.Decompress(m.line.Data); n > 0 {
					s.high = append(s.high, assistTask{left: n, mshr: m})
					continue
				}
			}
			g.wake(s, m)
		}
	}
}

// wake gives an MSHR's line to every load waiting for it, and frees the
// MSHR for reuse.
func (g *GPU) wake(s *sm, m *mshr) {
	for _, w := range m.waiters {
		s.warps[w].pending--
		s.refresh(w)
	}
	m.line = Line{}
	s.spare = append(s.spare, m)
}
