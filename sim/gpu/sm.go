package gpu

import (
	"math"

	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/trace/warp"
)

// The SM: warp slots, block placement, the warp schedulers (GTO or loose
// round-robin) and their issue, with the compute runs taken in one step.

type warpState struct {
	live    bool
	insts   []Inst
	pc      int
	left    uint32 // instructions left of the current Compute
	pending int    // load lines not yet returned
	barrier bool
	block   int // block slot
	age     uint64
}

func (w *warpState) ready() bool {
	return w.live && !w.barrier && w.pending == 0 && w.pc < len(w.insts)
}

type blockState struct {
	live      bool
	warps     []int // warp slots
	atBarrier int
	exited    int
}

// lsuItem is one memory instruction in the access queue: its lines enter
// the L1 one per cycle, from next on.
type lsuItem struct {
	store bool
	warp  int
	lines []Line
	next  int
}

type mshr struct {
	addr    uint64
	line    Line
	start   uint64
	waiters []int // warp slots, one entry per load line
}

type sm struct {
	id     int
	l1     *cache.Cache
	probe  Probe
	warps  []warpState
	blocks []blockState
	last   []int // per scheduler: the warp slot issued last, or -1
	lsu    []lsuItem
	head   int
	// stalled: the access at head is a new miss and every MSHR is busy;
	// nothing changes that before one of this SM's fills.
	stalled bool
	mshrs   map[uint64]*mshr
	// CABA assist warps: decompression (high priority) and compression
	// (low priority) tasks in arrival order, and stores buffered.
	high, low []assistTask
	buffered  int
	// isReady caches each warp slot's ready(), and nready counts the
	// ready warps; refresh keeps them right after every change of a warp.
	isReady    []bool
	nready     int
	schedReady []int // ready warps per scheduler (slot w is scheduler w mod Schedulers)
	// spare MSHRs, reused so that a miss allocates nothing
	spare []*mshr
	// runPick is, during a compute run, each scheduler's warp or -1.
	runPick []int
}

// newMSHR returns an unused MSHR.
func (s *sm) newMSHR() *mshr {
	if n := len(s.spare); n > 0 {
		m := s.spare[n-1]
		s.spare = s.spare[:n-1]
		return m
	}
	return &mshr{}
}

// refresh updates the ready count after warp slot w changed.
func (s *sm) refresh(w int) {
	if r := s.warps[w].ready(); r != s.isReady[w] {
		s.isReady[w] = r
		d := -1
		if r {
			d = 1
		}
		s.nready += d
		s.schedReady[w%len(s.schedReady)] += d
	}
}

// assistTask is one assist warp: its instructions left and what to do when
// it is done (wake an MSHR's loads, or send a store).
type assistTask struct {
	left  int
	mshr  *mshr
	store Line
}

// busy reports whether the SM can do something next cycle without an
// event: a ready warp or a queued access that is not waiting for an MSHR.
func (s *sm) busy() bool {
	return s.nready > 0 || s.queued() || len(s.high) > 0 || len(s.low) > 0
}

// queued reports whether an access can enter the L1.
func (s *sm) queued() bool { return s.head < len(s.lsu) && !s.stalled }

// dispatch gives blocks, from next on, to SMs round-robin while they have
// room, and returns the next block not dispatched.
func (g *GPU) dispatch(k *Kernel, next int) int {
	if g.full {
		return next // a failed round leaves rr where it was: nothing to redo
	}
	for next < len(k.Blocks) {
		blk := &k.Blocks[next]
		placed := false
		for tries := 0; tries < len(g.sms) && !placed; tries++ {
			s := &g.sms[g.rr]
			g.rr = (g.rr + 1) % len(g.sms)
			placed = s.place(blk, &g.age)
		}
		if !placed {
			g.full = true
			return next
		}
		next++
	}
	return next
}

// place puts blk on s if a block slot and enough warp slots are free.
func (s *sm) place(blk *Block, age *uint64) bool {
	slot := -1
	for i := range s.blocks {
		if !s.blocks[i].live {
			slot = i
			break
		}
	}
	if slot < 0 {
		return false
	}
	free := 0
	for i := range s.warps {
		if !s.warps[i].live {
			free++
		}
	}
	if free < len(blk.Warps) {
		return false
	}
	b := &s.blocks[slot]
	*b = blockState{live: true, warps: b.warps[:0]}
	for _, insts := range blk.Warps {
		for i := range s.warps {
			if !s.warps[i].live {
				*age++
				s.warps[i] = warpState{live: true, insts: insts, block: slot, age: *age}
				b.warps = append(b.warps, i)
				if len(insts) == 0 { // a warp with no instruction has finished
					s.warps[i].live = false
					b.exited++
				}
				s.refresh(i)
				break
			}
		}
	}
	if b.exited == len(b.warps) {
		b.live = false
	}
	return true
}

// issue lets each scheduler of s issue one instruction: a high-priority
// assist warp's first, then a warp's, then, in a slot no warp used, a
// low-priority assist warp's.
func (g *GPU) issue(s *sm) error {
	for sc, n := range s.schedReady {
		s.probe.ready[sc] += uint64(n)
	}
	n := g.cfg.Schedulers
	for sc := 0; sc < n; sc++ {
		if len(s.high) > 0 {
			g.stats.AssistDecompressInstructions++
			if s.high[0].left--; s.high[0].left <= 0 {
				t := s.high[0]
				s.high = s.high[1:]
				g.wake(s, t.mshr)
			}
			continue
		}
		w := -1
		if s.schedReady[sc] > 0 {
			w = g.pick(s, sc)
		}
		if w < 0 {
			if len(s.low) > 0 {
				g.stats.AssistCompressInstructions++
				if s.low[0].left--; s.low[0].left <= 0 {
					t := s.low[0]
					s.low = s.low[1:]
					s.buffered--
					if err := g.storeToL2(t.store, false); err != nil {
						return err
					}
				}
			}
			continue
		}
		if w != s.last[sc] {
			s.probe.switches[sc]++
		}
		s.last[sc] = w
		s.probe.issues[sc]++
		g.stats.Instructions++
		g.step(s, w)
	}
	return nil
}

// computeRun returns for how many cycles from now the GPU does nothing but
// issue compute instructions, each scheduler from the warp it issues from
// now (recorded in runPick): no event falls due, no access is queued, no
// assist warp runs, and no warp reaches the end of its Compute before the
// last of those cycles. The cycles can then be taken in one step, with the
// state and counters that taking them one by one gives. It returns 0 when
// that does not hold, and under loose round-robin, whose schedulers change
// warps every cycle.
func (g *GPU) computeRun() uint64 {
	if g.cfg.Scheduling != GTO {
		return 0
	}
	run := uint64(math.MaxUint64)
	if g.events.len() > 0 {
		run = g.events.next() - g.now // events due now were drained
		if run < 2 {
			return 0
		}
	}
	// The cheap tests first: most cycles of a memory-bound kernel fail
	// them, and then no scheduler's pick is worth computing.
	for i := range g.sms {
		if s := &g.sms[i]; s.queued() || len(s.high) > 0 || len(s.low) > 0 {
			return 0
		}
	}
	for i := range g.sms {
		s := &g.sms[i]
		if s.nready == 0 {
			continue
		}
		for sc := range s.runPick {
			s.runPick[sc] = -1
			if s.schedReady[sc] == 0 {
				continue
			}
			w := g.pick(s, sc)
			ws := &s.warps[w]
			in := &ws.insts[ws.pc]
			if in.Kind != warp.Compute {
				return 0
			}
			left := ws.left
			if left == 0 {
				left = in.Count
			}
			s.runPick[sc] = w
			run = min(run, uint64(left))
		}
	}
	if run == math.MaxUint64 {
		return 0
	}
	return run
}

// issueRun takes k cycles of s found by computeRun: each scheduler issues k
// instructions of its warp's Compute; k is at most what any has left.
func (g *GPU) issueRun(s *sm, k uint64) {
	for sc, n := range s.schedReady {
		s.probe.ready[sc] += uint64(n) * k
	}
	for sc, w := range s.runPick {
		if w < 0 {
			continue
		}
		if w != s.last[sc] {
			s.probe.switches[sc]++
		}
		s.last[sc] = w
		s.probe.issues[sc] += k
		g.stats.Instructions += k
		ws := &s.warps[w]
		if ws.left == 0 {
			ws.left = ws.insts[ws.pc].Count
		}
		if ws.left -= uint32(k); ws.left == 0 {
			ws.pc++
		}
		s.refresh(w)
	}
}

// pick returns the warp scheduler sc of s issues from, or -1.
func (g *GPU) pick(s *sm, sc int) int {
	n := g.cfg.Schedulers
	last := s.last[sc]
	if g.cfg.Scheduling == GTO {
		if last >= 0 && s.isReady[last] {
			return last
		}
		best := -1
		for w := sc; w < len(s.warps); w += n {
			if s.isReady[w] && (best < 0 || s.warps[w].age < s.warps[best].age) {
				best = w
			}
		}
		return best
	}
	// Loose round-robin: the first ready warp after the last one.
	slots := (len(s.warps) - sc + n - 1) / n
	first := 0
	if last >= 0 {
		first = (last-sc)/n + 1
	}
	for i := 0; i < slots; i++ {
		w := sc + (first+i)%slots*n
		if s.isReady[w] {
			return w
		}
	}
	return -1
}

// step issues warp w's next instruction.
func (g *GPU) step(s *sm, w int) {
	ws := &s.warps[w]
	in := &ws.insts[ws.pc]
	switch in.Kind {
	case warp.Compute:
		if ws.left == 0 {
			ws.left = in.Count
		}
		if ws.left--; ws.left == 0 {
			ws.pc++
		}
	case warp.Load, warp.Store:
		if len(in.Lines) > 0 {
			s.lsu = append(s.lsu, lsuItem{store: in.Kind == warp.Store, warp: w, lines: in.Lines})
		}
		if in.Kind == warp.Load {
			ws.pending += len(in.Lines)
			g.stats.Loads += uint64(len(in.Lines))
		} else {
			g.stats.Stores += uint64(len(in.Lines))
		}
		ws.pc++
	case warp.Barrier:
		ws.pc++
		ws.barrier = true
		b := &s.blocks[ws.block]
		b.atBarrier++
		s.release(b)
	case warp.Exit:
		ws.pc = len(ws.insts)
		ws.live = false
		g.full = false
		s.last[w%g.cfg.Schedulers] = -1 // the slot's next warp is another warp
		b := &s.blocks[ws.block]
		b.exited++
		s.release(b)
		if b.exited == len(b.warps) {
			b.live = false
		}
	}
	s.refresh(w)
}

// release lets a block's warps past the barrier once every live one is at
// it.
func (s *sm) release(b *blockState) {
	if b.atBarrier == 0 || b.atBarrier < len(b.warps)-b.exited {
		return
	}
	for _, w := range b.warps {
		s.warps[w].barrier = false
		s.refresh(w)
	}
	b.atBarrier = 0
}
