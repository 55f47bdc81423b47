package l1v

import (
	"errors"
	"fmt"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/mgpusim/live"
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

// portCounter counts, by hooks, the requests MGPUSim's L1V ports see: what
// arrives at the Top ports, and what leaves the Bottom ports for the L2
// (ours sends through them too).
type portCounter struct {
	topRecvd, l2Reads, l2Writes uint64
}

type countHook struct {
	n   *portCounter
	top bool
}

func (h countHook) Func(ctx sim.HookCtx) {
	switch {
	case h.top && ctx.Pos == sim.HookPosPortMsgRecvd:
		h.n.topRecvd++
	case !h.top && ctx.Pos == sim.HookPosPortMsgSend:
		switch ctx.Item.(type) {
		case *mem.ReadReq:
			h.n.l2Reads++
		case *mem.WriteReq:
			h.n.l2Writes++
		}
	}
}

type outcome struct {
	res   live.Result
	ports portCounter // MGPUSim's L1V ports
	ours  portCounter // our Top ports
	pl    *Plugin
}

// runL1 runs b with our L1V (cfg), or MGPUSim's with cfg nil.
func runL1(t *testing.T, b *capture.Benchmark, cfg *Config) outcome {
	t.Helper()
	var o outcome
	res, err := live.Run(live.Config{Bench: b, Setup: func(p *capture.Platform) error {
		for s := 0; s < shaderArrays; s++ {
			for i := 0; i < cusPerSA; i++ {
				old := p.Simulation.GetComponentByName(fmt.Sprintf("GPU[1].SA[%d].L1VCache[%d]", s, i))
				old.GetPortByName("Top").AcceptHook(countHook{n: &o.ports, top: true})
				old.GetPortByName("Bottom").AcceptHook(countHook{n: &o.ports})
			}
		}
		if cfg == nil {
			return nil
		}
		var err error
		o.pl, err = Attach(p, *cfg)
		if err == nil {
			for _, c := range o.pl.comps {
				c.top.AcceptHook(countHook{n: &o.ours, top: true})
			}
		}
		return err
	}})
	if err != nil {
		t.Fatal(err)
	}
	if o.pl != nil {
		if err := o.pl.Err(); err != nil {
			t.Fatal(err)
		}
	}
	o.res = res
	return o
}

// TestNoneIsMGPUSims: with one mode, "none", and one tag per way, our L1V
// behaves as MGPUSim's: every request reaches ours and none MGPUSim's; the
// same writes go to the L2; reads to the L2 and kernel time agree within
// tolerances. Tolerances: MGPUSim's L1V allocates a line's tag when the
// miss is sent and coalesces consecutive requests of one instruction into
// one transaction, ours allocates at the fill (sim/cache) and looks up
// every request; and it models bank conflicts, ours does not. So reads to
// the L2 may differ by 5% and the kernel time by 2%.
func TestNoneIsMGPUSims(t *testing.T) {
	b := bench(t, "fir:length=1024")
	theirs := runL1(t, b, nil)
	ours := runL1(t, b, &Config{Policy: "static", Modes: []string{"none"}, TagFactor: 1})
	s := ours.pl.Stats()
	if theirs.ports.topRecvd == 0 || ours.ports.topRecvd != 0 {
		t.Fatalf("MGPUSim's L1Vs received %d requests alone, %d with ours in place", theirs.ports.topRecvd, ours.ports.topRecvd)
	}
	if s.ReadReqs+s.WriteReqs != theirs.ports.topRecvd {
		t.Errorf("ours took %d requests, MGPUSim's L1Vs %d", s.ReadReqs+s.WriteReqs, theirs.ports.topRecvd)
	}
	if ours.ports.l2Writes != theirs.ports.l2Writes || ours.ports.l2Reads != s.L2Reads {
		t.Errorf("writes to the L2: ours %d, MGPUSim %d; reads counted %d by hook, %d by ours",
			ours.ports.l2Writes, theirs.ports.l2Writes, ours.ports.l2Reads, s.L2Reads)
	}
	within := func(what string, a, b, tol float64) {
		if b == 0 || a < b*(1-tol) || a > b*(1+tol) {
			t.Errorf("%s: ours %v, MGPUSim %v (tolerance %v)", what, a, b, tol)
		}
	}
	within("reads to the L2", float64(ours.ports.l2Reads), float64(theirs.ports.l2Reads), 0.05)
	within("kernel time", float64(ours.res.KernelTimePS), float64(theirs.res.KernelTimePS), 0.02)
	if s.LoadHits == 0 || s.LoadMisses == 0 {
		t.Errorf("the run needs hits and misses: %+v", s.Counters)
	}
	t.Logf("kernel %d / %d ps; reads to L2 %d / %d; writes %d", ours.res.KernelTimePS, theirs.res.KernelTimePS,
		ours.ports.l2Reads, theirs.ports.l2Reads, ours.ports.l2Writes)
}

// TestHitsAsSimCache replays every L1's calls, as the live caches made
// them (Observe), through a fresh sim/cache with the same configuration
// and compares the counters exactly; the number of loads and stores must
// be the requests the L1 ports received; and compression must change what
// the caches hold.
func TestHitsAsSimCache(t *testing.T) {
	b := bench(t, "kmeans:points=256:max-iter=1")
	type call struct {
		Event
		line []byte
	}
	var none Stats
	for _, cfg := range []Config{
		{Policy: "static", Modes: []string{"none"}, TagFactor: 1},
		{Policy: "static", StaticMode: 2}, // SC², 4× tags
		// The same with EPs of 16 accesses, so that every L1 builds its
		// code book and starts new periods, invalidating the lines of the
		// old book (possibly the line a load has just hit).
		{Policy: "static", StaticMode: 2, EPAccesses: 16},
	} {
		calls := make(map[string][]call)
		cfg.Observe = func(e Event) {
			calls[e.CU] = append(calls[e.CU], call{e, append([]byte(nil), e.Line...)})
		}
		o := runL1(t, b, &cfg)
		live := o.pl.Stats()
		if live.Accesses != o.ours.topRecvd || live.Accesses == 0 {
			t.Errorf("%d accesses; our Top ports received %d requests", live.Accesses, o.ours.topRecvd)
		}
		var replay Stats
		c := cfg
		c.fill()
		for _, cu := range o.pl.comps {
			l, err := newL1Cache(&c, 0, machineAdapter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range calls[cu.Name()] {
				switch k.Kind {
				case EventLoad:
					l.lookup(k.Cycle, k.Addr)
				case EventFill:
					err = l.fill(k.Cycle, k.Addr, k.line)
				case EventStore:
					err = l.store(k.Cycle, k.Addr, k.line)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			replay.add(l.counters())
		}
		if fmt.Sprint(replay.Counters) != fmt.Sprint(live.Counters) {
			t.Errorf("policy %s mode %d:\nlive   %+v\nreplay %+v", cfg.Policy, cfg.StaticMode, live.Counters, replay.Counters)
		}
		if len(cfg.Modes) == 1 {
			none = live
			continue
		}
		if cfg.EPAccesses != 0 {
			if live.LoadHits >= none.LoadHits {
				t.Errorf("SC² with a new code book every 10 EPs of 16 accesses hit %d times, none %d", live.LoadHits, none.LoadHits)
			}
		} else if live.Evictions >= none.Evictions || live.ValidLineSum <= none.ValidLineSum {
			t.Errorf("SC² with 4× tags evicted %d lines and held %d line-accesses, none %d and %d",
				live.Evictions, live.ValidLineSum, none.Evictions, none.ValidLineSum)
		}
		t.Logf("none: %d hits %d evictions; sc2 (EP %d): %d hits %d evictions", none.LoadHits, none.Evictions, cfg.EPAccesses, live.LoadHits, live.Evictions)
	}
}

func TestConfigErrors(t *testing.T) {
	for name, cfg := range map[string]Config{
		"unknown policy":    {Policy: "lru"},
		"unknown codec":     {Policy: "static", Modes: []string{"nosuch"}},
		"static mode":       {Policy: "static", StaticMode: 3},
		"latte with 1 mode": {Policy: "latte", Modes: []string{"none"}},
		"sub-block":         {Policy: "static", SubBlock: 24},
	} {
		if err := cfg.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		} else if !errors.Is(err, linecomp.ErrConfig) && name != "unknown codec" {
			t.Errorf("%s: %v does not wrap ErrConfig", name, err)
		}
	}
	if _, err := Attach(nil, Config{Policy: "static"}); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("nil platform: %v", err)
	}
}
