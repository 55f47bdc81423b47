package gpu

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventQueueOrder drives the timing wheel with random pushes (near,
// at now, and beyond the wheel, so that events wait in the heap and wrap
// around the buckets) and pops, and checks that every event comes out when
// due and in (t, seq) order, exactly as from one sorted list.
func TestEventQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q eventQueue
	var pending []event // the independent model: every event not yet popped
	var seq uint64
	now := uint64(0)
	popped := 0
	for step := 0; step < 100000; step++ {
		for range rng.IntN(4) {
			var d uint64
			switch rng.IntN(10) {
			case 0:
				d = 0
			case 1:
				d = wheelSize - 1 + uint64(rng.IntN(3)) // the wheel's edge
			case 2:
				d = wheelSize + uint64(rng.IntN(3*wheelSize)) // the heap
			default:
				d = uint64(rng.IntN(400))
			}
			seq++
			e := event{t: now + d, addr: seq}
			q.push(e)
			// seq grows, so the new event goes after every event due
			// at or before its cycle.
			i, _ := slices.BinarySearchFunc(pending, e.t, func(p event, t uint64) int {
				if p.t <= t {
					return -1
				}
				return 1
			})
			pending = slices.Insert(pending, i, event{t: e.t, seq: seq, addr: seq})
		}
		if q.len() != len(pending) {
			t.Fatalf("step %d: len %d, want %d", step, q.len(), len(pending))
		}
		if len(pending) > 0 {
			if got := q.next(); got != pending[0].t {
				t.Fatalf("step %d: next %d, want %d", step, got, pending[0].t)
			}
		}
		for {
			e, ok := q.pop(now)
			if want := len(pending) > 0 && pending[0].t <= now; ok != want {
				t.Fatalf("step %d, cycle %d: pop reports %v, want %v", step, now, ok, want)
			}
			if !ok {
				break
			}
			if e.addr != pending[0].addr || e.t != pending[0].t {
				t.Fatalf("step %d, cycle %d: popped event %d at %d, want %d at %d", step, now, e.addr, e.t, pending[0].addr, pending[0].t)
			}
			pending = pending[1:]
			popped++
		}
		// Advance as the GPU does: a cycle, or a jump to the next event.
		if len(pending) > 0 && rng.IntN(3) == 0 {
			now = q.next()
		} else {
			now++
		}
	}
	if popped < 50000 {
		t.Fatalf("only %d events popped: the test exercised too little", popped)
	}
}
