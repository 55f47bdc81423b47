package link_test

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/link"
)

func mustReplay(t testing.TB, cfg link.ReplayConfig) *link.Replay {
	t.Helper()
	r, err := link.NewReplay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustAdd(t testing.TB, r *link.Replay, tr link.Transfer) {
	t.Helper()
	if err := r.Add(tr); err != nil {
		t.Fatal(err)
	}
}

func mustFinish(t testing.TB, r *link.Replay) link.Result {
	t.Helper()
	res, err := r.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sized returns a 64-byte line that the fake codecs size at 8·b bits.
func sized(b byte) []byte {
	l := make([]byte, 64)
	l[0] = b
	return l
}

// A read and a write through a fixed fake codec, every counter and time
// computed by hand.
func TestReplayByHand(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 64), fake{"c", 64, linecomp.Latency{Compress: 2, Decompress: 1}}}
	r := mustReplay(t, link.ReplayConfig{Link: link.Config{Candidates: cands, Nodes: 4}, NewChooser: link.Static(1)})
	mustAdd(t, r, link.Transfer{Time: 0, Src: 1, Dst: 2, Op: link.Read, Data: sized(10)})     // 80 payload bits
	mustAdd(t, r, link.Transfer{Time: 5400, Src: 2, Dst: 1, Op: link.Write, Data: sized(20)}) // 160 bits, cycle 5
	res := mustFinish(t, r)
	// Wire: ReadReq 16, DataReady 4+10 = 14, WriteReq 13+20 = 33, WriteAck 4:
	// 67 bytes; bus cycles 1+1+2+1 = 5. Uncompressed payloads: DataReady
	// 4+64 = 68, WriteReq 13+64 = 77: 165 bytes, 1+4+4+1 = 10 cycles.
	// Headers 128+32+104+32 = 296 bits.
	want := link.Result{
		Transfers: 2, PayloadBits: 240, UncompressedPayloadBits: 1024, WireBytes: 67, BusCycles: 5,
		HeaderBits: 296, UncompressedWireBytes: 165, UncompressedBusCycles: 10,
		// ReadReq 2→1: cycle 0, arrives 1. DataReady 1→2 sent 1, ready 3
		// (compression 2), bus 3, arrives 4, delivered 5 (decompression 1).
		// WriteReq 2→1 at cycle 5: ready 7, bus 7–8, arrives 9, delivered
		// 10. WriteAck 1→2 at 10, bus 10, delivered 11.
		LastRecordCycle: 5, CompletionCycle: 11, DelayCycles: 0, WaitCycles: 0,
		WireEnergyPJ: 67 * 8, UnpricedTransfers: 2,
	}
	if res.Uses["none"] != 0 || res.Uses["c"] != 2 || len(res.Uses) != 2 {
		t.Fatalf("uses %v", res.Uses)
	}
	for k, n := range map[string]uint64{"read_req": 1, "data_ready": 1, "write_req": 1, "write_ack": 1} {
		if res.Messages[k] != n {
			t.Fatalf("messages %v", res.Messages)
		}
	}
	if !strings.Contains(res.CodecEnergyNotes["c"], "not a registered codec") || res.WireEnergySource != link.WireInPackage().Source {
		t.Fatalf("energy sources %v, %q", res.CodecEnergyNotes, res.WireEnergySource)
	}
	got := res
	got.Uses, got.Messages, got.CodecEnergyNotes, got.WireEnergySource = nil, nil, nil, ""
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("result\n got %+v\nwant %+v", got, want)
	}
}

// When the sender's output buffer is full, the record stream waits.
func TestReplayBackpressure(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 64)}
	// 77-byte buffers hold one uncompressed WriteReq (13+64 bytes, 4 cycles).
	r := mustReplay(t, link.ReplayConfig{Link: link.Config{Candidates: cands, Nodes: 2, OutputBuffer: 77}, NewChooser: link.Static(0)})
	for range 3 {
		mustAdd(t, r, link.Transfer{Src: 0, Dst: 1, Op: link.Write, Data: sized(0)})
	}
	res := mustFinish(t, r)
	// W1 0–3; at 4 W1 is delivered and its room freed: W2 and Ack1 are sent;
	// round robin after 0 gives Ack1 cycle 4, W2 5–8; at 9 W3 and Ack2 are
	// sent: Ack2 9, W3 10–13, Ack3 14, delivered 15. W2 waited 4 cycles for
	// room, W3 9.
	if res.CompletionCycle != 15 || res.DelayCycles != 13 || res.WaitCycles != 1+1 {
		t.Fatalf("completion %d, delay %d, wait %d; want 15, 13, 2", res.CompletionCycle, res.DelayCycles, res.WaitCycles)
	}
	if st := r.Link().Stats(); st.Refused != 0 {
		t.Fatalf("refused %d: the replay asks Room before it sends", st.Refused)
	}
}

// The counters do not depend on timing; the chosen candidates do not
// either, and every message is accounted for after Finish.
func TestReplayTimingIndependence(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 64),
		fake{"fast", 64, linecomp.Latency{Compress: 2, Decompress: 1}},
		fake{"slow", 64, linecomp.Latency{Compress: 16, Decompress: 9}}}
	rng := rand.New(rand.NewPCG(3, 4))
	var transfers []link.Transfer
	var at uint64
	for range 3000 {
		src := uint32(1 + rng.IntN(4))
		dst := 1 + (src+uint32(rng.IntN(3)))%4
		op := link.Read
		if rng.IntN(5) == 0 {
			op = link.Write
		}
		at += uint64(rng.IntN(9000))
		transfers = append(transfers, link.Transfer{Time: at, Src: src, Dst: dst, Op: op, Data: sized(byte(rng.IntN(80)))})
	}
	// A chooser that depends only on the line: slow when small, fast when
	// middling, none otherwise.
	factory := func([]linecomp.Codec) (link.Chooser, error) { return byLine{}, nil }
	var results []link.Result
	for _, untimed := range []bool{false, true} {
		r := mustReplay(t, link.ReplayConfig{Link: link.Config{Candidates: cands, Nodes: 5}, NewChooser: factory})
		for _, tr := range transfers {
			if untimed {
				tr.Time = 0
			}
			mustAdd(t, r, tr)
		}
		res := mustFinish(t, r)
		st := r.Link().Stats()
		var reads, writes uint64
		for _, tr := range transfers {
			if tr.Op == link.Read {
				reads++
			} else {
				writes++
			}
		}
		wantMsgs := [link.NumKinds]uint64{reads, reads, writes, writes}
		if st.Messages != wantMsgs || st.Granted != wantMsgs || st.Delivered != wantMsgs {
			t.Fatalf("untimed=%v: messages %v granted %v delivered %v, want %v", untimed, st.Messages, st.Granted, st.Delivered, wantMsgs)
		}
		if st.WireBytes != res.WireBytes || st.BusCycles != res.BusCycles || st.BusyCycles != res.BusCycles ||
			st.PayloadBits != res.PayloadBits || st.HeaderBits != res.HeaderBits || st.LastDelivery != res.CompletionCycle {
			t.Fatalf("untimed=%v: link %+v\nreplay %+v", untimed, st, res)
		}
		if res.CompletionCycle < res.LastRecordCycle {
			t.Fatalf("untimed=%v: completed at %d before the last record at %d", untimed, res.CompletionCycle, res.LastRecordCycle)
		}
		results = append(results, res)
	}
	a, b := results[0], results[1]
	if a.Transfers != b.Transfers || a.PayloadBits != b.PayloadBits || a.WireBytes != b.WireBytes || a.BusCycles != b.BusCycles {
		t.Fatalf("timed %+v\nuntimed %+v", a, b)
	}
	for name, n := range a.Uses {
		if b.Uses[name] != n {
			t.Fatalf("uses timed %v, untimed %v", a.Uses, b.Uses)
		}
	}
	// One bus carries everything, one message per cycle at most.
	if b.CompletionCycle < b.BusCycles {
		t.Fatalf("untimed completion %d for %d bus cycles", b.CompletionCycle, b.BusCycles)
	}
}

type byLine struct{}

func (byLine) Choose(line []byte) int {
	switch {
	case line[0] < 20:
		return 2
	case line[0] < 50:
		return 1
	}
	return 0
}

type badChooser int

func (b badChooser) Choose([]byte) int { return int(b) }

func TestReplayErrors(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 64), fake{"c", 64, linecomp.Latency{}}}
	cfg := link.ReplayConfig{Link: link.Config{Candidates: cands, Nodes: 4}, NewChooser: link.Static(1)}
	for _, tc := range []struct {
		cfg  link.ReplayConfig
		want string
	}{
		{link.ReplayConfig{Link: cfg.Link}, "NewChooser is nil"},
		{link.ReplayConfig{Link: link.Config{Candidates: []linecomp.Codec{cands[1], cands[1]}}, NewChooser: link.Static(0)}, "both c"},
		{link.ReplayConfig{Link: link.Config{}, NewChooser: link.Static(0)}, "Candidates is empty"},
	} {
		if _, err := link.NewReplay(tc.cfg); !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want ErrConfig naming %q", err, tc.want)
		}
	}
	r := mustReplay(t, cfg)
	for _, tc := range []struct {
		tr   link.Transfer
		want error
	}{
		{link.Transfer{Src: 0, Dst: 1, Op: 3, Data: sized(1)}, link.ErrTransfer},
		{link.Transfer{Src: 0, Dst: 1, Op: 0, Data: sized(1)}, link.ErrTransfer},
		{link.Transfer{Src: 1, Dst: 1, Op: link.Read, Data: sized(1)}, link.ErrTransfer},
		{link.Transfer{Src: 0, Dst: 4, Op: link.Read, Data: sized(1)}, link.ErrTransfer},
		{link.Transfer{Src: 1 << 31, Dst: 0, Op: link.Read, Data: sized(1)}, link.ErrTransfer},
		{link.Transfer{Src: 0, Dst: 1, Op: link.Read, Data: make([]byte, 63)}, linecomp.ErrLineSize},
		{link.Transfer{Src: 0, Dst: 1, Op: link.Read}, linecomp.ErrLineSize},
	} {
		if err := r.Add(tc.tr); !errors.Is(err, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.tr, err, tc.want)
		}
	}
	if res := mustFinish(t, r); res.Transfers != 0 || res.WireBytes != 0 {
		t.Fatalf("rejected transfers counted: %+v", res)
	}
	// A payload larger than the buffers: 13 + 200 bytes > 100.
	small := mustReplay(t, link.ReplayConfig{Link: link.Config{Candidates: cands, Nodes: 2, OutputBuffer: 100}, NewChooser: link.Static(1)})
	if err := small.Add(link.Transfer{Src: 0, Dst: 1, Op: link.Write, Data: sized(200)}); !errors.Is(err, link.ErrTransfer) || !errors.Is(err, link.ErrMessage) {
		t.Fatalf("oversized payload: %v", err)
	}
	// Choosers that answer with no candidate.
	for _, b := range []badChooser{-1, 2} {
		r := mustReplay(t, link.ReplayConfig{Link: cfg.Link, NewChooser: func([]linecomp.Codec) (link.Chooser, error) { return b, nil }})
		if err := r.Add(link.Transfer{Src: 0, Dst: 1, Op: link.Read, Data: sized(1)}); !errors.Is(err, link.ErrTransfer) {
			t.Fatalf("chooser returning %d: %v", b, err)
		}
	}
	// A factory that fails, or returns nil.
	boom := errors.New("boom")
	r = mustReplay(t, link.ReplayConfig{Link: cfg.Link, NewChooser: func([]linecomp.Codec) (link.Chooser, error) { return nil, boom }})
	if err := r.Add(link.Transfer{Src: 0, Dst: 1, Op: link.Read, Data: sized(1)}); !errors.Is(err, boom) {
		t.Fatalf("failing factory: %v", err)
	}
	r = mustReplay(t, link.ReplayConfig{Link: cfg.Link, NewChooser: func([]linecomp.Codec) (link.Chooser, error) { return nil, nil }})
	if err := r.Add(link.Transfer{Src: 0, Dst: 1, Op: link.Read, Data: sized(1)}); !errors.Is(err, linecomp.ErrConfig) {
		t.Fatalf("nil chooser: %v", err)
	}
	if _, err := link.Static(2)(cands); !errors.Is(err, linecomp.ErrConfig) {
		t.Fatalf("Static(2) of 2 candidates: %v", err)
	}
}

func TestReplayZeroAllocs(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 64),
		fake{"fast", 64, linecomp.Latency{Compress: 2, Decompress: 1}},
		fake{"slow", 64, linecomp.Latency{Compress: 16, Decompress: 9}}}
	r := mustReplay(t, link.ReplayConfig{Link: link.Config{Candidates: cands, Nodes: 5}, NewChooser: func([]linecomp.Codec) (link.Chooser, error) { return byLine{}, nil }})
	lines := [][]byte{sized(10), sized(30), sized(60)}
	var k int
	var at uint64
	add := func() {
		k++
		at += 3000
		op := link.Read
		if k%3 == 0 {
			op = link.Write
		}
		src := uint32(1 + k%4)
		if err := r.Add(link.Transfer{Time: at, Src: src, Dst: 1 + src%4, Op: op, Data: lines[k%3]}); err != nil {
			t.Fatal(err)
		}
	}
	for range 10000 { // warm up: buffers reach their working size
		add()
	}
	if n := testing.AllocsPerRun(10000, add); n != 0 {
		t.Fatalf("%v allocations per transfer", n)
	}
}
