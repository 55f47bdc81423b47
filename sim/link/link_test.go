package link_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/link"
)

// fake is a candidate with a chosen name, line size and latency whose Size
// is written in the line: Size(line) = 8 × line[0] bits (a whole number of
// bytes, so wire sizes are easy to compute by hand).
type fake struct {
	name    string
	lineLen int
	lat     linecomp.Latency
}

func (f fake) Name() string              { return f.name }
func (f fake) LineSize() int             { return f.lineLen }
func (f fake) TagBits() int              { return 0 }
func (f fake) Latency() linecomp.Latency { return f.lat }
func (f fake) Size(line []byte) int {
	if len(line) != f.lineLen {
		return -1
	}
	return 8 * int(line[0])
}
func (f fake) Compress(dst, line []byte) ([]byte, int, error) {
	return dst, 0, errors.New("fake codecs only have sizes")
}
func (f fake) Decompress(dst, enc []byte) ([]byte, error) {
	return dst, errors.New("fake codecs only have sizes")
}

func noneCodec(t testing.TB, lineSize int) linecomp.Codec {
	t.Helper()
	c, err := linecomp.New("none", lineSize)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustLink(t *testing.T, cfg link.Config) *link.Link {
	t.Helper()
	l, err := link.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func mustSend(t *testing.T, l *link.Link, m link.Message) {
	t.Helper()
	if err := l.Send(m); err != nil {
		t.Fatal(err)
	}
}

func mustAdvance(t *testing.T, l *link.Link, now uint64) {
	t.Helper()
	if err := l.Advance(now); err != nil {
		t.Fatal(err)
	}
}

// drain runs l to the end, taking every delivery at its cycle, and returns
// them in the order taken.
func drain(t *testing.T, l *link.Link) []link.Delivery {
	t.Helper()
	var out []link.Delivery
	for {
		next, ok := l.Next()
		if !ok {
			return out
		}
		mustAdvance(t, l, next)
		for node := range l.Config().Nodes {
			for {
				d, ok := l.Receive(node)
				if !ok {
					break
				}
				out = append(out, d)
			}
		}
	}
}

func TestHeaders(t *testing.T) {
	// Fig. 4: 4+16+48+32+28, 4+16+4+8, 4+16+48+32+4, 4+16+12.
	for _, tc := range []struct {
		kind        link.Kind
		bits4, bit2 int
	}{{link.ReadReq, 128, 128}, {link.DataReady, 32, 30}, {link.WriteReq, 104, 102}, {link.WriteAck, 32, 32}} {
		if got := link.HeaderBits(tc.kind, link.AlgField4); got != tc.bits4 {
			t.Errorf("%v: %d header bits, want %d", tc.kind, got, tc.bits4)
		}
		if got := link.HeaderBits(tc.kind, link.AlgField2); got != tc.bit2 {
			t.Errorf("%v with a 2-bit field: %d header bits, want %d", tc.kind, got, tc.bit2)
		}
	}
	if link.HeaderBits(7, 4) != -1 {
		t.Error("unknown kind has a header")
	}
	// Byte alignment of header and payload separately:
	// 32-bit header + 13-bit payload = 4 + 2 bytes; 104 + 512 = 13 + 64;
	// 30 + 0 = 4; 102 + 1 = 13 + 1.
	for _, tc := range []struct{ h, p, want int }{{32, 13, 6}, {104, 512, 77}, {30, 0, 4}, {102, 1, 14}, {128, 0, 16}} {
		if got := link.WireBytes(tc.h, tc.p); got != tc.want {
			t.Errorf("WireBytes(%d, %d) = %d, want %d", tc.h, tc.p, got, tc.want)
		}
	}
}

// The paper's example: "a 62-byte message takes 4 cycles to transfer and
// the next message can only start transfer from the 5th cycle".
func TestSixtyTwoByteMessage(t *testing.T) {
	l := mustLink(t, link.Config{Candidates: []linecomp.Codec{noneCodec(t, 64)}, Nodes: 2})
	// DataReady: 32-bit header = 4 bytes, 464-bit payload = 58 bytes: 62.
	m := link.Message{Kind: link.DataReady, Src: 0, Dst: 1, PayloadBits: 464}
	mustSend(t, l, m)
	mustSend(t, l, m)
	ds := drain(t, l)
	if len(ds) != 2 {
		t.Fatalf("%d deliveries, want 2", len(ds))
	}
	// First: cycles 0,1,2,3 (ceil(62/20) = 4); second starts in cycle 4,
	// the 5th, and ends after cycle 7.
	if ds[0].Start != 0 || ds[0].Arrived != 4 || ds[1].Start != 4 || ds[1].Arrived != 8 {
		t.Fatalf("deliveries %+v", ds)
	}
	st := l.Stats()
	if st.WireBytes != 124 || st.BusCycles != 8 || st.BusyCycles != 8 || st.Messages[link.DataReady] != 2 || st.PayloadBits != 928 {
		t.Fatalf("stats %+v", st)
	}
}

// Round-robin arbitration: with every sender's messages ready at once, the
// bus takes one message from each in turn, starting after the last sender
// granted.
func TestRoundRobin(t *testing.T) {
	l := mustLink(t, link.Config{Candidates: []linecomp.Codec{noneCodec(t, 64)}, Nodes: 4})
	// WriteAcks are 4 bytes: one cycle each. Senders 0, 1, 2 to 3, two each;
	// sender 2 sends first, which must not matter.
	var id uint64
	for _, src := range []int{2, 2, 0, 1, 0, 1} {
		id++
		mustSend(t, l, link.Message{Kind: link.WriteAck, Src: src, Dst: 3, ID: id})
	}
	ds := drain(t, l)
	var order []int
	for k, d := range ds {
		order = append(order, d.Src)
		if d.Start != uint64(k) {
			t.Errorf("delivery %d started in cycle %d, want %d", k, d.Start, k)
		}
	}
	if fmt.Sprint(order) != "[0 1 2 0 1 2]" {
		t.Fatalf("grant order %v, want [0 1 2 0 1 2]", order)
	}
	// The pointer stays after sender 2: a new round from 1 and 0, both
	// ready at cycle 6, goes 0 first (the next after 2), then 1.
	mustSend(t, l, link.Message{Kind: link.WriteAck, Src: 1, Dst: 3})
	mustSend(t, l, link.Message{Kind: link.WriteAck, Src: 0, Dst: 3})
	ds = drain(t, l)
	if ds[0].Src != 0 || ds[1].Src != 1 || ds[0].Start != 6 || ds[1].Start != 7 {
		t.Fatalf("second round %+v", ds)
	}
	// A sender whose head is not ready yet is passed over: a compressed
	// payload from 0 (compression 5 cycles) and an ack from 1, both at
	// cycle 10: 1 goes first although 0 is next in turn.
	l2 := mustLink(t, link.Config{Candidates: []linecomp.Codec{noneCodec(t, 64), fake{"slow", 64, linecomp.Latency{Compress: 5, Decompress: 2}}}, Nodes: 3})
	mustAdvance(t, l2, 10)
	mustSend(t, l2, link.Message{Kind: link.WriteReq, Src: 0, Dst: 2, Alg: 1, PayloadBits: 80})
	mustSend(t, l2, link.Message{Kind: link.WriteAck, Src: 1, Dst: 2})
	ds = drain(t, l2)
	// Ack: starts 10, 1 cycle, delivered 11. WriteReq: ready 15, 13+10 = 23
	// bytes = 2 cycles, arrives 17, decompressed 19.
	want := []struct{ src, start, arrived, delivered uint64 }{{1, 10, 11, 11}, {0, 15, 17, 19}}
	for k, w := range want {
		d := ds[k]
		if uint64(d.Src) != w.src || d.Start != w.start || d.Arrived != w.arrived || d.Delivered != w.delivered || d.Sent != 10 {
			t.Fatalf("delivery %d: %+v, want %+v", k, d, w)
		}
	}
	if st := l2.Stats(); st.WaitCycles != 0 {
		t.Fatalf("wait cycles %d, want 0 (each started when ready)", st.WaitCycles)
	}
}

// Compression delays readiness and decompression delivery; kinds without a
// payload have neither, and neither has "none".
func TestLatencies(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 32), fake{"c", 32, linecomp.Latency{Compress: 3, Decompress: 5}}}
	l := mustLink(t, link.Config{Candidates: cands, Nodes: 2})
	mustAdvance(t, l, 10)
	// DataReady, 256 bits: 4 + 32 = 36 bytes, 2 cycles. Ready 13, on the
	// bus 13–14, arrives 15, delivered 20.
	mustSend(t, l, link.Message{Kind: link.DataReady, Src: 0, Dst: 1, Alg: 1, PayloadBits: 256})
	if next, _ := l.Next(); next != 15 {
		t.Fatalf("Next = %d, want 15 (end of the transfer)", next)
	}
	mustAdvance(t, l, 19)
	if _, ok := l.Receive(1); ok {
		t.Fatal("delivered before its decompression ended")
	}
	if next, _ := l.Next(); next != 20 {
		t.Fatalf("Next = %d, want 20", next)
	}
	mustAdvance(t, l, 20)
	d, ok := l.Receive(1)
	if !ok || d.Ready != 13 || d.Start != 13 || d.Arrived != 15 || d.Delivered != 20 {
		t.Fatalf("delivery %+v, %v", d, ok)
	}
	// The same payload with "none": no latency on either side.
	mustSend(t, l, link.Message{Kind: link.DataReady, Src: 0, Dst: 1, Alg: 0, PayloadBits: 256})
	ds := drain(t, l)
	if d := ds[0]; d.Ready != 20 || d.Start != 20 || d.Delivered != 22 {
		t.Fatalf("none: %+v", d)
	}
	if _, ok := l.Next(); ok {
		t.Fatal("an empty link reports an event")
	}
}

// Output buffers push back on the sender; input buffers hold the bus for a
// destination that has not taken its messages.
func TestBuffersFill(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 32)}
	// A WriteReq of a raw 32-byte line is 13 + 32 = 45 bytes, the smallest
	// buffers New accepts.
	if _, err := link.New(link.Config{Candidates: cands, OutputBuffer: 44}); !errors.Is(err, linecomp.ErrConfig) {
		t.Fatalf("a 44-byte output buffer: %v, want ErrConfig", err)
	}
	l := mustLink(t, link.Config{Candidates: cands, Nodes: 3, OutputBuffer: 45, InputBuffer: 45})
	raw := link.Message{Kind: link.DataReady, Src: 0, Dst: 2, PayloadBits: 256} // 36 bytes, 2 cycles
	mustSend(t, l, raw)
	if l.Room(0) != 9 || l.Room(1) != 45 || l.Room(3) != 0 {
		t.Fatalf("room %d, %d, %d; want 9, 45 and 0 (no endpoint 3)", l.Room(0), l.Room(1), l.Room(3))
	}
	// 36 of 45 bytes used: another 36 does not fit, a 4-byte ack does.
	if err := l.Send(raw); !errors.Is(err, link.ErrFull) {
		t.Fatalf("second message: %v, want ErrFull", err)
	}
	mustSend(t, l, link.Message{Kind: link.WriteAck, Src: 0, Dst: 1})
	// The first transfer runs in cycles 0–1; its room is free at cycle 2.
	if next, ok := l.Next(); !ok || next != 2 {
		t.Fatalf("Next = %d, %v; want 2", next, ok)
	}
	mustAdvance(t, l, 1)
	if err := l.Send(raw); !errors.Is(err, link.ErrFull) {
		t.Fatalf("at cycle 1: %v, want ErrFull", err)
	}
	mustAdvance(t, l, 2)
	mustSend(t, l, raw)
	if st := l.Stats(); st.Refused != 2 || st.Messages[link.DataReady] != 2 {
		t.Fatalf("stats %+v", st)
	}

	// Input: the first 36-byte message to 2 holds 36 of its 45 bytes until
	// 2 takes it, so the second (sent at 2) waits, and the ack to 1 (sent
	// at 0 behind the first) goes at cycle 2.
	mustAdvance(t, l, 50)
	if got := l.Stats().Granted; got[link.DataReady] != 1 || got[link.WriteAck] != 1 {
		t.Fatalf("granted %v by cycle 50, want one DataReady (input full) and the ack", got)
	}
	d, _ := l.Receive(2) // frees the room at 50
	if d.Arrived != 2 {
		t.Fatalf("first message arrived %d, want 2", d.Arrived)
	}
	ds := drain(t, l)
	var second link.Delivery
	for _, d := range ds {
		if d.Dst == 2 {
			second = d
		}
	}
	if second.Start != 50 || second.Ready != 2 {
		t.Fatalf("second message %+v: want ready at 2, started at 50 when room was freed", second)
	}
	// Waits: the ack, ready at 0, started at 2 behind the first message;
	// the second message, ready at 2, started at 50: 2 + 48.
	if st := l.Stats(); st.WaitCycles != 50 {
		t.Fatalf("wait cycles %d, want 50", st.WaitCycles)
	}
}

func TestAlgFieldOption(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 64), fake{"a", 64, linecomp.Latency{}}, fake{"b", 64, linecomp.Latency{}}, fake{"c", 64, linecomp.Latency{}}}
	l2 := mustLink(t, link.Config{Candidates: cands, AlgFieldBits: link.AlgField2})
	l4 := mustLink(t, link.Config{Candidates: cands})
	for _, l := range []*link.Link{l2, l4} {
		mustSend(t, l, link.Message{Kind: link.DataReady, Src: 0, Dst: 1, Alg: 3, PayloadBits: 100})
		mustSend(t, l, link.Message{Kind: link.WriteReq, Src: 1, Dst: 0, Alg: 2, PayloadBits: 7})
	}
	s2, s4 := l2.Stats(), l4.Stats()
	// 30 + 102 = 132 against 32 + 104 = 136 header bits; the same
	// (4+13) + (13+1) = 31 wire bytes.
	if s2.HeaderBits != 132 || s4.HeaderBits != 136 || s2.WireBytes != 31 || s4.WireBytes != 31 {
		t.Fatalf("2-bit %+v\n4-bit %+v", s2, s4)
	}
	five := append(cands, fake{"d", 64, linecomp.Latency{}})
	if _, err := link.New(link.Config{Candidates: five, AlgFieldBits: link.AlgField2}); err == nil || !strings.Contains(err.Error(), "2-bit") {
		t.Fatalf("five candidates in a 2-bit field: %v", err)
	}
}

func TestEnergy(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 64), fake{"mine", 64, linecomp.Latency{}}}
	l := mustLink(t, link.Config{Candidates: cands, Nodes: 2, Wire: link.WireBoard()})
	mustSend(t, l, link.Message{Kind: link.DataReady, Src: 0, Dst: 1, Alg: 0, PayloadBits: 512})
	mustSend(t, l, link.Message{Kind: link.DataReady, Src: 0, Dst: 1, Alg: 1, PayloadBits: 8})
	st := l.Stats()
	// Wire: (4+64) + (4+1) = 73 bytes = 584 bits × 10 pJ/b = 5840 pJ.
	// Codecs: none costs 0, "mine" is not registered: unpriced.
	if st.WireEnergyPJ != 5840 || st.CodecEnergyPJ != 0 || st.Unpriced != 1 {
		t.Fatalf("stats %+v", st)
	}
	if e, _ := l.CodecEnergy(1); e.Priced || !strings.Contains(e.Note, "not a registered codec") {
		t.Fatalf("energy of an unregistered codec: %+v", e)
	}
	if w, ok := link.WirePreset("node"); !ok || w.PicoJoulePerBit != 250 {
		t.Fatalf("node preset %+v", w)
	}
	if l.Config().CodecEnergy != linecomp.SourceTavana {
		t.Fatalf("default codec energy source %q", l.Config().CodecEnergy)
	}
	l = mustLink(t, link.Config{Candidates: cands})
	if l.Config().Wire != link.WireInPackage() {
		t.Fatalf("default wire %+v", l.Config().Wire)
	}
}

func TestErrors(t *testing.T) {
	cands := []linecomp.Codec{noneCodec(t, 64), fake{"c", 64, linecomp.Latency{Compress: 1, Decompress: 1}}}
	for _, tc := range []struct {
		cfg  link.Config
		want string
	}{
		{link.Config{}, "Candidates is empty"},
		{link.Config{Candidates: []linecomp.Codec{cands[0], nil}}, "Candidates[1] is nil"},
		{link.Config{Candidates: []linecomp.Codec{cands[0], fake{"x", 32, linecomp.Latency{}}}}, "Candidates[1]"},
		{link.Config{Candidates: []linecomp.Codec{fake{"u", 64, linecomp.Latency{Compress: linecomp.LatencyUnknown}}}}, "unknown latency"},
		{link.Config{Candidates: cands, Nodes: 1}, "Nodes"},
		{link.Config{Candidates: cands, Nodes: -1}, "Nodes"},
		{link.Config{Candidates: cands, BytesPerCycle: -20}, "BytesPerCycle"},
		{link.Config{Candidates: cands, InputBuffer: -1}, "InputBuffer"},
		{link.Config{Candidates: cands, AlgFieldBits: 3}, "AlgFieldBits"},
		{link.Config{Candidates: cands, Wire: link.WireEnergy{Name: "x", PicoJoulePerBit: math.NaN()}}, "PicoJoulePerBit"},
		{link.Config{Candidates: cands, Wire: link.WireEnergy{Name: "x", PicoJoulePerBit: -1}}, "PicoJoulePerBit"},
	} {
		if l, err := link.New(tc.cfg); l != nil || !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, %v; want ErrConfig naming %q", tc.cfg, l, err, tc.want)
		}
	}
	l := mustLink(t, link.Config{Candidates: cands, Nodes: 3})
	for _, m := range []link.Message{
		{Kind: 4, Src: 0, Dst: 1},
		{Kind: link.ReadReq, Src: 0, Dst: 3},
		{Kind: link.ReadReq, Src: -1, Dst: 1},
		{Kind: link.ReadReq, Src: 1, Dst: 1},
		{Kind: link.DataReady, Src: 0, Dst: 1, Alg: 2},
		{Kind: link.DataReady, Src: 0, Dst: 1, Alg: -1},
		{Kind: link.DataReady, Src: 0, Dst: 1, PayloadBits: -8},
		{Kind: link.WriteAck, Src: 0, Dst: 1, PayloadBits: 8},
		{Kind: link.ReadReq, Src: 0, Dst: 1, Alg: 1},
		{Kind: link.WriteReq, Src: 0, Dst: 1, PayloadBits: 8 * 5000}, // larger than a buffer
	} {
		if err := l.Send(m); !errors.Is(err, link.ErrMessage) {
			t.Errorf("%+v: %v, want ErrMessage", m, err)
		}
	}
	if st := l.Stats(); st != (link.Stats{}) {
		t.Fatalf("rejected messages counted: %+v", st)
	}
	mustAdvance(t, l, 5)
	if err := l.Advance(4); !errors.Is(err, link.ErrTime) {
		t.Fatalf("Advance backwards: %v, want ErrTime", err)
	}
	if l.Now() != 5 {
		t.Fatalf("Now %d after a refused Advance, want 5", l.Now())
	}
	if _, ok := l.Receive(-1); ok {
		t.Fatal("Receive(-1) reported a delivery")
	}
	if _, ok := l.Receive(99); ok {
		t.Fatal("Receive(99) reported a delivery")
	}
}

func TestReset(t *testing.T) {
	l := mustLink(t, link.Config{Candidates: []linecomp.Codec{noneCodec(t, 64)}, Nodes: 2})
	mustSend(t, l, link.Message{Kind: link.WriteAck, Src: 0, Dst: 1})
	mustAdvance(t, l, 3)
	l.ResetStats()
	if l.Stats() != (link.Stats{}) || l.Now() != 3 {
		t.Fatalf("after ResetStats: %+v at %d", l.Stats(), l.Now())
	}
	if ds := drain(t, l); len(ds) != 1 {
		t.Fatalf("ResetStats dropped a message: %v", ds)
	}
	mustSend(t, l, link.Message{Kind: link.WriteAck, Src: 0, Dst: 1})
	l.Reset()
	if _, ok := l.Next(); ok || l.Now() != 0 || l.Stats() != (link.Stats{}) {
		t.Fatal("Reset left something behind")
	}
	mustSend(t, l, link.Message{Kind: link.WriteAck, Src: 1, Dst: 0})
	if ds := drain(t, l); len(ds) != 1 || ds[0].Start != 0 {
		t.Fatalf("after Reset: %+v", ds)
	}
}
