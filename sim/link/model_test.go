package link_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/link"
)

// sendEvent is one message offered at a cycle.
type sendEvent struct {
	at uint64
	m  link.Message
}

type modelMsg struct {
	d      link.Delivery
	bytes  int
	cycles uint64
}

// cycleModel is an independent, cycle-by-cycle reading of the bus rules of
// the package doc, with receivers that take every message in the cycle it
// is delivered. Within a cycle: the transfer ending then frees its sender's
// room, receivers take what is due, offered messages enter the output
// buffers (or are refused), and a free bus is granted. It returns the
// deliveries by message ID and the IDs refused for a full output buffer.
func cycleModel(cfg link.Config, events []sendEvent) (map[uint64]link.Delivery, map[uint64]bool) {
	n := cfg.Nodes
	out := make([][]*modelMsg, n)
	outUsed := make([]int, n)
	inUsed := make([]int, n)
	var inFlight []*modelMsg
	done := map[uint64]link.Delivery{}
	refused := map[uint64]bool{}
	var busUntil uint64
	var onBus *modelMsg
	last := -1
	next := 0
	queued := func() bool {
		for _, q := range out {
			if len(q) > 0 {
				return true
			}
		}
		return false
	}
	for c := uint64(0); next < len(events) || len(inFlight) > 0 || onBus != nil || queued(); c++ {
		if onBus != nil && busUntil <= c {
			outUsed[onBus.d.Src] -= onBus.bytes
			onBus = nil
		}
		kept := inFlight[:0]
		for _, m := range inFlight {
			if m.d.Delivered <= c {
				inUsed[m.d.Dst] -= m.bytes
				done[m.d.ID] = m.d
			} else {
				kept = append(kept, m)
			}
		}
		inFlight = kept
		for ; next < len(events) && events[next].at == c; next++ {
			e := events[next].m
			bytes := link.WireBytes(link.HeaderBits(e.Kind, cfg.AlgFieldBits), e.PayloadBits)
			if outUsed[e.Src]+bytes > cfg.OutputBuffer {
				refused[e.ID] = true
				continue
			}
			m := &modelMsg{bytes: bytes, cycles: uint64((bytes + cfg.BytesPerCycle - 1) / cfg.BytesPerCycle)}
			m.d.Message, m.d.Sent, m.d.Ready = e, c, c
			if e.Kind.CarriesPayload() {
				m.d.Ready += uint64(cfg.Candidates[e.Alg].Latency().Compress)
			}
			out[e.Src] = append(out[e.Src], m)
			outUsed[e.Src] += bytes
		}
		if onBus == nil {
			for k := 1; k <= n; k++ {
				s := (last + k) % n
				if len(out[s]) == 0 {
					continue
				}
				h := out[s][0]
				if h.d.Ready > c || inUsed[h.d.Dst]+h.bytes > cfg.InputBuffer {
					continue
				}
				out[s] = out[s][1:]
				h.d.Start, h.d.Arrived = c, c+h.cycles
				h.d.Delivered = h.d.Arrived
				if h.d.Kind.CarriesPayload() {
					h.d.Delivered += uint64(cfg.Candidates[h.d.Alg].Latency().Decompress)
				}
				inUsed[h.d.Dst] += h.bytes
				inFlight = append(inFlight, h)
				onBus, busUntil, last = h, c+h.cycles, s
				break
			}
		}
	}
	return done, refused
}

// randomEvents makes a bursty random workload of all four kinds, of
// messages no larger than maxBytes.
func randomEvents(rng *rand.Rand, nodes, count, candidates, maxBytes int) []sendEvent {
	var ev []sendEvent
	var at uint64
	for id := uint64(1); id <= uint64(count); id++ {
		if rng.IntN(4) == 0 {
			at += uint64(rng.IntN(30))
		}
		src := rng.IntN(nodes)
		dst := (src + 1 + rng.IntN(nodes-1)) % nodes
		m := link.Message{Kind: link.Kind(rng.IntN(link.NumKinds)), Src: src, Dst: dst, ID: id}
		if m.Kind.CarriesPayload() {
			m.Alg = rng.IntN(candidates)
			m.PayloadBits = rng.IntN(8*(maxBytes-13) + 1) // 13: the larger header
		}
		ev = append(ev, sendEvent{at, m})
	}
	return ev
}

// TestAgainstCycleModel drives the link through its event interface
// (Next, Advance, Receive every delivery at its cycle, Send at the offered
// cycle) and compares every message's life with cycleModel.
func TestAgainstCycleModel(t *testing.T) {
	cands := []linecomp.Codec{
		noneCodec(t, 64),
		fake{"fast", 64, linecomp.Latency{Compress: 2, Decompress: 1}},
		fake{"mid", 64, linecomp.Latency{Compress: 3, Decompress: 5}},
		fake{"slow", 64, linecomp.Latency{Compress: 16, Decompress: 9}},
	}
	var refusals, inputWaits int
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		cfg := link.Config{Candidates: cands, Nodes: 2 + rng.IntN(4), BytesPerCycle: 20}
		if seed%2 == 1 { // small buffers: refusals and full inputs
			cfg.InputBuffer, cfg.OutputBuffer = 80+rng.IntN(100), 80+rng.IntN(100)
		} else {
			cfg.InputBuffer, cfg.OutputBuffer = 4096, 4096
		}
		if seed%3 == 0 {
			cfg.AlgFieldBits = link.AlgField2
		} else {
			cfg.AlgFieldBits = link.AlgField4
		}
		events := randomEvents(rng, cfg.Nodes, 400, len(cands), min(cfg.InputBuffer, cfg.OutputBuffer, 13+70))
		want, wantRefused := cycleModel(cfg, events)

		l := mustLink(t, cfg)
		got := map[uint64]link.Delivery{}
		gotRefused := map[uint64]bool{}
		var order []link.Delivery
		next := 0
		for {
			at, ok := l.Next()
			if next < len(events) && (!ok || events[next].at < at) {
				at, ok = events[next].at, true
			}
			if !ok {
				break
			}
			mustAdvance(t, l, at)
			for node := range cfg.Nodes {
				for {
					d, ok := l.Receive(node)
					if !ok {
						break
					}
					got[d.ID] = d
					order = append(order, d)
				}
			}
			for ; next < len(events) && events[next].at == at; next++ {
				if err := l.Send(events[next].m); err != nil {
					gotRefused[events[next].m.ID] = true
				}
			}
		}
		if len(got) != len(want) || len(gotRefused) != len(wantRefused) {
			t.Fatalf("seed %d: %d delivered, %d refused; model %d, %d", seed, len(got), len(gotRefused), len(want), len(wantRefused))
		}
		for id, w := range want {
			if got[id] != w {
				t.Fatalf("seed %d: message %d\n got %+v\nwant %+v", seed, id, got[id], w)
			}
		}
		checkInvariants(t, l, cfg, events, order, wantRefused)
		refusals += len(wantRefused)
		for _, d := range order {
			if d.Start > d.Ready {
				inputWaits++
			}
		}
	}
	// The workloads must have exercised backpressure and waiting.
	if refusals == 0 || inputWaits == 0 {
		t.Fatalf("%d refusals, %d waiting messages over all seeds: the test exercised too little", refusals, inputWaits)
	}
	t.Logf("%d refusals, %d messages that waited once ready", refusals, inputWaits)
}

// checkInvariants checks what must hold of any drained run: every accepted
// message delivered once, every byte and cycle accounted for, no two
// transfers overlapping, each sender's messages in order, and each
// message's times in order.
func checkInvariants(t *testing.T, l *link.Link, cfg link.Config, events []sendEvent, ds []link.Delivery, refused map[uint64]bool) {
	t.Helper()
	st := l.Stats()
	var wantMsgs [link.NumKinds]uint64
	var wire, cycles, payload uint64
	for _, e := range events {
		if refused[e.m.ID] {
			continue
		}
		wantMsgs[e.m.Kind]++
		b := uint64(link.WireBytes(link.HeaderBits(e.m.Kind, cfg.AlgFieldBits), e.m.PayloadBits))
		wire += b
		cycles += (b + 19) / 20
		payload += uint64(e.m.PayloadBits)
	}
	if st.Messages != wantMsgs || st.Granted != wantMsgs || st.Delivered != wantMsgs {
		t.Fatalf("messages %v, granted %v, delivered %v; offered and accepted %v", st.Messages, st.Granted, st.Delivered, wantMsgs)
	}
	if st.WireBytes != wire || st.BusCycles != cycles || st.BusyCycles != cycles || st.PayloadBits != payload {
		t.Fatalf("stats %+v; want %d wire bytes, %d bus cycles, %d payload bits", st, wire, cycles, payload)
	}
	if st.Refused != uint64(len(refused)) {
		t.Fatalf("refused %d, want %d", st.Refused, len(refused))
	}
	byStart := slices.Clone(ds)
	slices.SortFunc(byStart, func(a, b link.Delivery) int { return int(a.Start) - int(b.Start) })
	var wait uint64
	lastBySender := map[int]uint64{}
	for i, d := range byStart {
		if i > 0 && d.Start < byStart[i-1].Arrived {
			t.Fatalf("transfers overlap: %+v and %+v", byStart[i-1], d)
		}
		if d.Sent > d.Ready || d.Ready > d.Start || d.Start >= d.Arrived || d.Arrived > d.Delivered {
			t.Fatalf("times out of order: %+v", d)
		}
		if prev, ok := lastBySender[d.Src]; ok && d.ID < prev {
			t.Fatalf("sender %d's message %d overtook %d", d.Src, d.ID, prev)
		}
		lastBySender[d.Src] = d.ID
		wait += d.Start - d.Ready
	}
	if st.WaitCycles != wait {
		t.Fatalf("wait cycles %d, want %d", st.WaitCycles, wait)
	}
	if _, ok := l.Next(); ok {
		t.Fatal("drained link reports an event")
	}
}
