package link

import (
	"bytes"
	"errors"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/policy/vote"
	simlink "github.com/linecomp/linecomp/sim/link"
	"github.com/linecomp/linecomp/trace"
)

// The tests run MGPUSim's FIR on 2 unified GPUs: 2048 samples make 128
// remote writes of 64-byte output lines and a few remote reads, enough
// for several vote periods with a short running phase, in a few seconds.
const (
	testGPUs   = 2
	testLength = "2048"
)

func testFIR(t *testing.T) *capture.Benchmark {
	t.Helper()
	b, err := capture.NewBenchmark("fir")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Set("length", testLength); err != nil {
		t.Fatal(err)
	}
	return b
}

// candidates are the study's: none, then BDI, FPC and C-Pack+Z with Tavana
// Table III's latencies.
func candidates(t *testing.T) []linecomp.Codec {
	t.Helper()
	lat, _ := linecomp.PresetLatency(linecomp.SourceTavana, "bdi")
	b, err := bdi.New(64, bdi.WithLatency(lat))
	if err != nil {
		t.Fatal(err)
	}
	out := []linecomp.Codec{mustCodec(t, "none"), b, mustCodec(t, "fpc-tavana"), mustCodec(t, "cpack-z")}
	return out
}

func mustCodec(t *testing.T, name string) linecomp.Codec {
	t.Helper()
	c, err := linecomp.New(name, 64)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// run runs FIR with cfg and fails the test unless the run and the
// benchmark's verification succeed; it returns the capture's records too.
func run(t *testing.T, cfg *Config) (Result, []trace.Record) {
	t.Helper()
	var recs []trace.Record
	res, err := Run(RunConfig{
		Bench: testFIR(t), GPUs: testGPUs, Link: cfg,
		Records: func(r trace.Record) {
			r.Data = bytes.Clone(r.Data)
			recs = append(recs, r)
		},
	})
	if err != nil {
		t.Fatalf("run: %v", err) // includes a failed verification (ErrVerify)
	}
	if res.Transfers == 0 || uint64(len(recs)) != res.Transfers {
		t.Fatalf("%d payload messages, %d captured records", res.Transfers, len(recs))
	}
	return res, recs
}

// mgpusimBytes is what MGPUSim's protocol puts on the wire for the
// captured records: a remote read is a 12-byte request and a 64+4-byte
// data-ready response, a remote write a 64+12-byte request and a 4-byte
// write-done response (akita mem/mem/protocol.go).
func mgpusimBytes(recs []trace.Record) uint64 {
	var n uint64
	for _, r := range recs {
		if r.Op == trace.Read {
			n += 12 + 64 + 4
		} else {
			n += 64 + 12 + 4
		}
	}
	return n
}

// TestNoneCarriesMGPUSimBytes: without compression the new fabric carries
// exactly the bytes MGPUSim carries on its own network without the
// plug-in, both as the protocol prices the captured records.
func TestNoneCarriesMGPUSimBytes(t *testing.T) {
	plain, plainRecs := run(t, nil)
	want := mgpusimBytes(plainRecs)
	if plain.DeliveredBytes != want || plain.MGPUSimBytes != want {
		t.Errorf("MGPUSim alone: delivered %d, sent %d bytes; the %d records price at %d",
			plain.DeliveredBytes, plain.MGPUSimBytes, len(plainRecs), want)
	}
	if plain.Kernels == 0 || plain.KernelTimePS == 0 || plain.KernelTimePS >= plain.SimTimePS {
		t.Errorf("MGPUSim alone: %d kernel launches took %d of %d ps", plain.Kernels, plain.KernelTimePS, plain.SimTimePS)
	}
	if plain.Flits != 0 {
		t.Errorf("MGPUSim alone: %d flits on a fabric that does not exist", plain.Flits)
	}
	for _, topo := range []Topology{Bus, Crossbar} {
		none, recs := run(t, &Config{Fabric: Fabric{Topology: topo}})
		if none.Messages != plain.Messages {
			t.Errorf("%s: messages per kind %v, MGPUSim alone %v", topo, none.Messages, plain.Messages)
		}
		if none.DeliveredBytes != plain.DeliveredBytes || none.SentBytes != none.MGPUSimBytes ||
			mgpusimBytes(recs) != none.DeliveredBytes {
			t.Errorf("%s: delivered %d, sent %d of MGPUSim's %d bytes; MGPUSim alone delivered %d",
				topo, none.DeliveredBytes, none.SentBytes, none.MGPUSimBytes, plain.DeliveredBytes)
		}
		if none.Flits != none.BusCycles || none.Flits == 0 {
			t.Errorf("%s: %d flits for Σ ceil(bytes/20) = %d", topo, none.Flits, none.BusCycles)
		}
		if none.Uses != nil || none.CompressCycles != 0 || none.DecompressCycles != 0 || none.CodecEnergyPJ != 0 {
			t.Errorf("%s: no compression, yet uses %v, latencies %d/%d, codec energy %g",
				topo, none.Uses, none.CompressCycles, none.DecompressCycles, none.CodecEnergyPJ)
		}
		if none.PayloadBits != none.UncompressedPayloadBits || none.PayloadBits != 512*none.Transfers {
			t.Errorf("%s: %d payload bits for %d transfers", topo, none.PayloadBits, none.Transfers)
		}
	}
}

// TestStaticWireBytes: with a fixed codec every message the hook sizes has
// Fig. 4's header plus the codec's byte-aligned size of the payload the
// capture recorded for it, and the fabric delivers exactly those bytes.
func TestStaticWireBytes(t *testing.T) {
	for _, idx := range []int{1, 3} { // bdi, cpack-z
		cands := candidates(t)
		var msgs []Message
		res, recs := run(t, &Config{
			Candidates: cands, NewChooser: simlink.Static(idx),
			Observe: func(m Message) {
				m.Data = bytes.Clone(m.Data)
				msgs = append(msgs, m)
			},
		})
		// An independent codec of the same configuration prices the
		// captured payloads.
		ref := candidates(t)[idx]
		var payloads int
		var sum uint64
		for _, m := range msgs {
			sum += uint64(m.WireBytes)
			if !m.Kind.CarriesPayload() {
				// 12-byte read requests and 4-byte write-done responses
				// keep MGPUSim's size.
				if want := map[simlink.Kind]int{simlink.ReadReq: 12, simlink.WriteAck: 4}[m.Kind]; m.WireBytes != want || m.Candidate != -1 {
					t.Errorf("%s: %d bytes, candidate %d", m.Kind, m.WireBytes, m.Candidate)
				}
				continue
			}
			if payloads >= len(recs) {
				t.Fatalf("more payload messages than the %d records", len(recs))
			}
			rec := recs[payloads]
			payloads++
			wantKind := simlink.DataReady
			if rec.Op == trace.Write {
				wantKind = simlink.WriteReq
			}
			if m.Kind != wantKind || uint32(m.Src) != rec.Src || uint32(m.Dst) != rec.Dst || !bytes.Equal(m.Data, rec.Data) {
				t.Fatalf("message %s %d→%d does not match record %v %d→%d", m.Kind, m.Src, m.Dst, rec.Op, rec.Src, rec.Dst)
			}
			bits := ref.Size(rec.Data)
			// Fig. 4: a DataReady header is 32 bits (4 bytes), a WriteReq
			// header 104 bits (13 bytes); the payload is rounded up to
			// whole bytes.
			header := 4
			if wantKind == simlink.WriteReq {
				header = 13
			}
			want := header + (bits+7)/8
			if m.WireBytes != want || m.PayloadBits != bits || m.Candidate != idx {
				t.Errorf("%s of %d bits: hook wrote %d bytes, %d bits, candidate %d; want %d bytes",
					m.Kind, bits, m.WireBytes, m.PayloadBits, m.Candidate, want)
			}
			if w := simlink.WireBytes(simlink.HeaderBits(wantKind, simlink.AlgField4), bits); w != want {
				t.Errorf("sim/link.WireBytes = %d, want %d", w, want)
			}
			lc, _ := ref.Latency().CompressCycles()
			ld, _ := ref.Latency().DecompressCycles()
			if m.CompressCycles != lc || m.DecompressCycles != ld {
				t.Errorf("latencies %d/%d, want %d/%d", m.CompressCycles, m.DecompressCycles, lc, ld)
			}
		}
		if payloads != len(recs) {
			t.Errorf("%d payload messages for %d records", payloads, len(recs))
		}
		if sum != res.SentBytes || sum != res.DeliveredBytes {
			t.Errorf("hook wrote %d bytes; sent %d, delivered %d", sum, res.SentBytes, res.DeliveredBytes)
		}
		if res.Flits != res.BusCycles {
			t.Errorf("%d flits for Σ ceil(bytes/20) = %d", res.Flits, res.BusCycles)
		}
		if res.Uses[idx] != res.Transfers {
			t.Errorf("uses %v for %d transfers", res.Uses, res.Transfers)
		}
	}
}

// sized is a test codec that only sizes lines: every line is bits long and
// takes lat to compress and decompress. The plug-in never calls Compress
// or Decompress; the embedded "none" answers them.
type sized struct {
	linecomp.Codec
	bits int
	lat  linecomp.Latency
}

func (s sized) Name() string              { return "test-sized" }
func (s sized) Size(line []byte) int      { return s.bits }
func (s sized) Latency() linecomp.Latency { return s.lat }

// TestLatencyAndPayloadMoveTime: on a fabric narrow enough to be the
// bottleneck, a smaller payload makes the run shorter, and codec latency
// makes it longer.
func TestLatencyAndPayloadMoveTime(t *testing.T) {
	narrow := Fabric{BytesPerCycle: 4} // a 76-byte write takes 19 cycles
	small := func(lat int) *Config {
		c := sized{Codec: mustCodec(t, "none"), bits: 8, lat: linecomp.Latency{Compress: lat, Decompress: lat}}
		return &Config{Candidates: []linecomp.Codec{c}, NewChooser: simlink.Static(0), Fabric: narrow}
	}
	none, _ := run(t, &Config{Fabric: narrow})
	fast, _ := run(t, small(0))
	slow, _ := run(t, small(400))
	// 8-bit payloads: a write is 13 + 1 bytes, 4 cycles instead of 19.
	if fast.BusCycles >= none.BusCycles {
		t.Errorf("bus cycles: small payload %d, none %d", fast.BusCycles, none.BusCycles)
	}
	if fast.SimTimePS >= none.SimTimePS {
		t.Errorf("time: small payload %d ps, uncompressed %d ps", fast.SimTimePS, none.SimTimePS)
	}
	// 800 cycles more per message: a kernel waiting for a remote line waits
	// at least that much longer.
	if slow.SimTimePS < fast.SimTimePS+800_000 {
		t.Errorf("time: latency 400/400 %d ps, latency 0 %d ps", slow.SimTimePS, fast.SimTimePS)
	}
	if slow.CompressCycles != 400*slow.Transfers || slow.BusCycles != fast.BusCycles {
		t.Errorf("latency run: %d compress cycles for %d transfers, %d bus cycles (latency 0: %d)",
			slow.CompressCycles, slow.Transfers, slow.BusCycles, fast.BusCycles)
	}
	t.Logf("simulated µs: none %.3f, 8-bit payload %.3f, with latency 400/400 %.3f",
		float64(none.SimTimePS)/1e6, float64(fast.SimTimePS)/1e6, float64(slow.SimTimePS)/1e6)
}

// TestVoteMatchesOfflineReplay: the candidate the plug-in chose for every
// payload is what a fresh vote.Selector per sending GPU chooses when fed
// the captured payloads of that GPU in order.
func TestVoteMatchesOfflineReplay(t *testing.T) {
	// A short running phase makes several sampling phases happen. At
	// λ = 4 C-Pack+Z's 25 cycles cost 100 bits, about what it saves on
	// FIR's output lines, so the selection changes between none and
	// C-Pack+Z (λ = 0 always picks C-Pack+Z here, λ = 6 always none).
	cfg := vote.Config{Lambda: 4, Running: 10}
	var chosen []Message
	res, recs := run(t, &Config{
		Candidates: candidates(t), NewChooser: Vote(cfg),
		Observe: func(m Message) {
			if m.Kind.CarriesPayload() {
				chosen = append(chosen, Message{Src: m.Src, Candidate: m.Candidate})
			}
		},
	})
	if len(chosen) != len(recs) {
		t.Fatalf("%d payload messages, %d records", len(chosen), len(recs))
	}
	selectors := map[uint32]*vote.Selector{}
	uses := make([]uint64, 4)
	distinct := map[int]bool{}
	for i, rec := range recs {
		s := selectors[rec.Src]
		if s == nil {
			c := cfg
			c.Candidates = candidates(t)
			var err error
			if s, err = vote.New(c); err != nil {
				t.Fatal(err)
			}
			selectors[rec.Src] = s
		}
		want := s.Choose(rec.Data)
		if uint32(chosen[i].Src) != rec.Src || chosen[i].Candidate != want {
			t.Fatalf("transfer %d from GPU %d: plug-in chose %d, replay %d", i, rec.Src, chosen[i].Candidate, want)
		}
		uses[want]++
		distinct[want] = true
	}
	for i := range uses {
		if uses[i] != res.Uses[i] {
			t.Errorf("uses %v, replay %v", res.Uses, uses)
			break
		}
	}
	if len(selectors) < 2 {
		t.Errorf("only %d sending GPUs: the per-GPU selectors are not exercised", len(selectors))
	}
	t.Logf("%d transfers from %d GPUs, uses %v", len(recs), len(selectors), uses)
	if len(distinct) < 2 {
		t.Errorf("the vote chose only %v: the test does not exercise a change of selection", distinct)
	}
}

func TestConfigErrors(t *testing.T) {
	cands := candidates(t)
	small, err := bdi.New(32)
	if err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]Config{
		"bytes/cycle not a multiple of 4": {Fabric: Fabric{BytesPerCycle: 10}},
		"negative bytes/cycle":            {Fabric: Fabric{BytesPerCycle: -4}},
		"negative latency":                {Fabric: Fabric{Latency: -1}},
		"unknown topology":                {Fabric: Fabric{Topology: 7}},
		"chooser without candidates":      {NewChooser: simlink.Static(0)},
		"nil candidate":                   {Candidates: []linecomp.Codec{nil}, NewChooser: simlink.Static(0)},
		"32-byte lines":                   {Candidates: []linecomp.Codec{small}, NewChooser: simlink.Static(0)},
		"mixed line sizes":                {Candidates: []linecomp.Codec{cands[0], small}, NewChooser: simlink.Static(0)},
	} {
		if _, err := Run(RunConfig{Bench: testFIR(t), GPUs: testGPUs, Link: &cfg}); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: got %v, want ErrConfig", name, err)
		}
	}
	if _, err := Attach(nil, &Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("nil platform: got %v", err)
	}
	if _, err := Attach(&capture.Platform{}, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("platform without simulation: got %v", err)
	}
}

// TestChooserOutOfRange: a chooser naming no candidate is traffic the
// plug-in refuses, reported by Run rather than a panic.
func TestChooserOutOfRange(t *testing.T) {
	_, err := Run(RunConfig{Bench: testFIR(t), GPUs: testGPUs, Link: &Config{
		Candidates: candidates(t), NewChooser: simlink.Static(9),
	}})
	if !errors.Is(err, ErrTraffic) {
		t.Errorf("got %v, want ErrTraffic", err)
	}
}
