package gpu

import "math/bits"

// wheelSize is the span of cycles, from the queue's current cycle, whose
// events sit in per-cycle buckets; it covers an L2 miss and its queueing
// in the common case, and an event farther out waits in a heap until the
// span reaches it. A power of two.
const wheelSize = 4096

// eventQueue holds pending events in (t, seq) order: a timing wheel of
// per-cycle FIFO buckets for the next wheelSize cycles and a binary heap for
// later ones. Events are pushed in increasing seq, so a bucket in push order
// is in seq order; a heap event for cycle t moves into t's bucket as soon as
// t enters the wheel, before anything can be pushed there directly, so it
// stays ahead of the later pushes. Compared with one heap, a push and a pop
// cost O(1) instead of O(log n) with hundreds of loads in flight.
type eventQueue struct {
	cur uint64 // every wheel event has cur <= t < cur+wheelSize
	seq uint64
	n   int // events held, wheel and heap
	// Each bucket is a FIFO list threaded through nodes; first and last
	// hold a node's index plus one, 0 for an empty bucket. Freed nodes are
	// chained from free, so a warmed-up queue allocates nothing.
	nodes       []eventNode
	free        int32
	first, last [wheelSize]int32
	used        [wheelSize / 64]uint64 // bit t%wheelSize: the bucket holds events
	later       []event                // a binary min-heap on (t, seq), t >= cur+wheelSize at push
}

type eventNode struct {
	e    event
	next int32 // the next node of its bucket, or of the free list, plus one
}

func (q *eventQueue) len() int { return q.n }

// push adds e. The GPU schedules nothing before now and pops only up to
// now, so e.t is never before the wheel's first cycle; if it were, e would
// be due at that cycle, after the events already there.
func (q *eventQueue) push(e event) {
	q.seq++
	e.seq = q.seq
	q.n++
	if e.t >= q.cur && e.t-q.cur >= wheelSize {
		q.heapPush(e)
		return
	}
	q.append(max(e.t, q.cur)%wheelSize, e)
}

// append adds e at the end of bucket b.
func (q *eventQueue) append(b uint64, e event) {
	i := q.free
	if i == 0 {
		q.nodes = append(q.nodes, eventNode{})
		i = int32(len(q.nodes))
	} else {
		q.free = q.nodes[i-1].next
	}
	q.nodes[i-1] = eventNode{e: e}
	if q.last[b] == 0 {
		q.first[b] = i
	} else {
		q.nodes[q.last[b]-1].next = i
	}
	q.last[b] = i
	q.used[b/64] |= 1 << (b % 64)
}

// next returns the cycle of the earliest event; the queue must not be
// empty.
func (q *eventQueue) next() uint64 {
	start := q.cur % wheelSize
	// Scan the used bits from cur's bucket to the end, then wrap.
	for i := uint64(0); i <= wheelSize/64; i++ {
		w := (start/64 + i) % (wheelSize / 64)
		word := q.used[w]
		if i == 0 {
			word &= ^uint64(0) << (start % 64)
		} else if i == wheelSize/64 {
			word &= 1<<(start%64) - 1
		}
		if word != 0 {
			b := w*64 + uint64(bits.TrailingZeros64(word))
			return q.cur + (b-start+wheelSize)%wheelSize
		}
	}
	return q.later[0].t
}

// pop removes and returns the earliest event if it is due at or before
// now, and advances the wheel to now.
func (q *eventQueue) pop(now uint64) (event, bool) {
	if q.n == 0 || q.next() > now {
		q.advance(now)
		return event{}, false
	}
	t := q.next()
	q.advance(t)
	b := t % wheelSize
	i := q.first[b]
	nd := &q.nodes[i-1]
	e := nd.e
	q.first[b] = nd.next
	nd.next, q.free = q.free, i
	if q.first[b] == 0 {
		q.last[b] = 0
		q.used[b/64] &^= 1 << (b % 64)
	}
	q.n--
	return e, true
}

// advance moves the wheel's first cycle to t (every bucket before it is
// empty) and brings into the wheel the heap events it now covers.
func (q *eventQueue) advance(t uint64) {
	if t <= q.cur {
		return
	}
	q.cur = t
	for len(q.later) > 0 && q.later[0].t-q.cur < wheelSize {
		e := q.heapPop()
		q.append(e.t%wheelSize, e)
	}
}

func (q *eventQueue) heapPush(e event) {
	h := append(q.later, e)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !less(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	q.later = h
}

func (q *eventQueue) heapPop() event {
	h := q.later
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && less(h[l], h[m]) {
			m = l
		}
		if r < n && less(h[r], h[m]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	q.later = h
	return top
}

func less(a, b event) bool { return a.t < b.t || (a.t == b.t && a.seq < b.seq) }

// event kinds
const (
	evWake = iota // a load line returns to a warp
	evFill        // an L1 miss returns: fill and wake the merged loads
)

type event struct {
	t    uint64
	seq  uint64
	kind uint8
	sm   int32
	warp int32
	addr uint64
}
