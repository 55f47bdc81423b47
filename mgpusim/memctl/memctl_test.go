package memctl

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/mgpusim/live"
	simmem "github.com/linecomp/linecomp/sim/mem"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
)

// bench returns one of MGPUSim's benchmarks (live.NewBenchmark's spec)
// at a size small enough for CI.
func bench(t *testing.T, spec string) *capture.Benchmark {
	t.Helper()
	b, err := live.NewBenchmark(spec)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// request is one request an L2 bank sent to memory, as a test hook saw it
// on the bank's Bottom port.
type request struct {
	op   simmem.Op
	addr uint64 // the line's address in its GPU
	line []byte // the line after the request
}

// l2Recorder records, independently of the controller, every request the
// L2 banks send, with its line read from the global storage (a write laid
// over it) at the moment it is sent.
type l2Recorder struct {
	storage *mem.Storage
	reqs    []request
	err     error
}

func (r *l2Recorder) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosPortMsgSend {
		return
	}
	var (
		op   simmem.Op
		addr uint64
		data []byte
	)
	switch m := ctx.Item.(type) {
	case *mem.ReadReq:
		op, addr = simmem.Read, m.Address
	case *mem.WriteReq:
		op, addr, data = simmem.Write, m.Address, m.Data
	default:
		return
	}
	base := addr &^ (lineSize - 1)
	line, err := r.storage.Read(base, lineSize)
	if err != nil && r.err == nil {
		r.err = err
	}
	copy(line[addr-base:], data)
	r.reqs = append(r.reqs, request{op: op, addr: base - gpuMemBytes, line: line})
}

type run struct {
	res   live.Result
	stats Stats
	reqs  []request
	mag   int
}

// runWith runs b on one GPU with the memory side cfg.
func runWith(t *testing.T, b *capture.Benchmark, cfg Config) run {
	t.Helper()
	var (
		pl  *Plugin
		rec *l2Recorder
	)
	res, err := live.Run(live.Config{Bench: b, Setup: func(p *capture.Platform) error {
		rec = &l2Recorder{storage: p.Storage}
		for bank := 0; bank < banks; bank++ {
			p.Simulation.GetComponentByName(fmt.Sprintf("GPU[1].L2Cache[%d]", bank)).
				GetPortByName("Bottom").AcceptHook(rec)
		}
		var err error
		pl, err = Attach(p, cfg)
		return err
	}})
	if err != nil {
		t.Fatalf("codec %q: %v", cfg.Codec, err)
	}
	if err := pl.Err(); err != nil {
		t.Fatal(err)
	}
	if rec.err != nil {
		t.Fatal(rec.err)
	}
	return run{res: res, stats: pl.Stats(), reqs: rec.reqs, mag: pl.MAG()}
}

// TestNoneIsTheBaseline: our controller with "none" moves exactly the
// bytes mem/dram moves without it, request for request, and changes the
// kernel time only by its place in the path. Tolerance: the controller is
// a component of its own between two connections, so a request crosses
// two more connection hops (one each way, 1 cycle each at 1 GHz) than
// without it; the mean L2-side latency may grow by at most 2 cycles and a
// bit (mem/dram's bank timing sees the requests shifted by a cycle), and
// the kernel time by at most 1%.
func TestNoneIsTheBaseline(t *testing.T) {
	b := bench(t, "fir:length=1024")
	base := runWith(t, b, Config{})
	none := runWith(t, b, Config{Codec: "none"})
	bs, ns := base.stats, none.stats
	if bs.DRAMReads == 0 || bs.DRAMWrites == 0 {
		t.Fatalf("the baseline moved %d reads and %d writes: the test needs both", bs.DRAMReads, bs.DRAMWrites)
	}
	if bs.DRAMReads != ns.DRAMReads || bs.DRAMWrites != ns.DRAMWrites || bs.DRAMBytes != ns.DRAMBytes {
		t.Errorf("DRAM traffic: baseline %d reads %d writes %d bytes, none %d %d %d",
			bs.DRAMReads, bs.DRAMWrites, bs.DRAMBytes, ns.DRAMReads, ns.DRAMWrites, ns.DRAMBytes)
	}
	if len(base.reqs) != len(none.reqs) {
		t.Fatalf("the L2 sent %d requests in the baseline, %d with none", len(base.reqs), len(none.reqs))
	}
	// The same requests; the banks' flushes at the end may interleave in
	// another order, the timing being shifted.
	key := func(rs []request) []string {
		var k []string
		for _, r := range rs {
			k = append(k, fmt.Sprintf("%d %#x %x", r.op, r.addr, r.line))
		}
		slices.Sort(k)
		return k
	}
	if !slices.Equal(key(base.reqs), key(none.reqs)) {
		t.Error("the L2 sent other requests with none than without the controller")
	}
	if ns.Model.MetadataBursts != 0 || ns.MDFetchBytes != 0 || ns.Model.Bursts != ns.Model.UncompressedBursts {
		t.Errorf("none moved metadata or compressed bursts: %+v", ns.Model)
	}
	meanBase := float64(bs.L2LatencyPS) / float64(bs.L2Requests) / 1000
	meanNone := float64(ns.L2LatencyPS) / float64(ns.L2Requests) / 1000
	if d := meanNone - meanBase; d < 0 || d > 2.5 {
		t.Errorf("mean L2 memory latency %.2f cycles with none, %.2f without: %+.2f", meanNone, meanBase, d)
	}
	kb, kn := float64(base.res.KernelTimePS), float64(none.res.KernelTimePS)
	if kb == 0 || kn < kb*0.99 || kn > kb*1.01 {
		t.Errorf("kernel time %v ps with none, %v ps without", kn, kb)
	}
	t.Logf("kernel %v / %v ps; mean L2 latency %.2f / %.2f cycles; DRAM %d bytes", kb, kn, meanBase, meanNone, bs.DRAMBytes)
}

// TestBurstsAsTheModel: with compressing codecs the channels receive
// exactly the bursts sim/mem computes, and a fresh sim/mem fed the
// requests a hook saw leave the L2 banks gives the same counters.
func TestBurstsAsTheModel(t *testing.T) {
	for _, c := range []struct {
		codec string
		dram  DRAM
	}{{"bdi", GDDR5}, {"fpc", HBM2}} {
		codec := c.codec
		b := bench(t, "fir:length=1024")
		r := runWith(t, b, Config{Codec: codec, DRAM: c.dram})
		s := r.stats
		mag := uint64(r.mag)
		if s.DRAMBytes != s.DataBytes+s.MDFetchBytes+s.MDWriteBackBytes {
			t.Errorf("%s: the channels received %d bytes, the controller sent %d data + %d MD + %d MD write-back",
				codec, s.DRAMBytes, s.DataBytes, s.MDFetchBytes, s.MDWriteBackBytes)
		}
		if s.DataBytes/mag != s.Model.Bursts || (s.MDFetchBytes+s.MDWriteBackBytes)/mag != s.Model.MetadataBursts {
			t.Errorf("%s: %d data and %d MD bursts on the channels, the model says %d and %d",
				codec, s.DataBytes/mag, (s.MDFetchBytes+s.MDWriteBackBytes)/mag, s.Model.Bursts, s.Model.MetadataBursts)
		}
		if s.Model.Bursts >= s.Model.UncompressedBursts {
			t.Errorf("%s: %d bursts, %d uncompressed: nothing compressed", codec, s.Model.Bursts, s.Model.UncompressedBursts)
		}
		c, err := linecomp.New(codec, lineSize)
		if err != nil {
			t.Fatal(err)
		}
		m, err := simmem.New(simmem.Config{Controllers: banks, Interleave: interleave, LineSize: lineSize, MAG: r.mag, Codec: c})
		if err != nil {
			t.Fatal(err)
		}
		for i, q := range r.reqs {
			if _, err := m.Access(uint64(i), q.op, q.addr, q.line); err != nil {
				t.Fatal(err)
			}
		}
		want := m.Stats()
		if !reflect.DeepEqual(want, s.Model) {
			t.Errorf("%s: live model %+v\nreplay of the L2's requests %+v", codec, s.Model, want)
		}
		t.Logf("%s: %d requests, %d bursts (%d uncompressed), %d MD bursts, MD hits %d misses %d; kernel %d ps",
			codec, s.Model.Requests, s.Model.Bursts, s.Model.UncompressedBursts, s.Model.MetadataBursts,
			s.Model.MDHits, s.Model.MDMisses, r.res.KernelTimePS)
	}
}

func TestConfigErrors(t *testing.T) {
	if err := (Config{Codec: "nosuch"}).Check(); err == nil {
		t.Error("unknown codec accepted")
	}
	bad := GDDR5
	bad.BusWidth = 24
	if err := (Config{Codec: "bdi", DRAM: bad}).Check(); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("24-bit bus: %v", err)
	}
	if err := (Config{Codec: "bdi", MDWays: -1}).Check(); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("negative MD ways: %v", err)
	}
	if _, err := Attach(nil, Config{}); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("nil platform: %v", err)
	}
}
