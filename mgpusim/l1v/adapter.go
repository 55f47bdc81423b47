package l1v

// This file is the only place where the package uses the root's sim/cache
// and policy/latte APIs, so that a change to them is adapted here.
//
// Root APIs used: linecomp.New (codecs by name); cache.Config{Sets, Ways,
// LineSize, TagFactor, SubBlock, Write: cache.WriteThrough, Modes,
// HitLatency, Decompressors, Policy}, cache.New, Cache.Lookup, Fill,
// Store, InvalidateMode, SetPolicy, Stats, Config, cache.Policy
// {FillMode, Observe}, cache.Event kinds Evict and Invalidate, cache.Result
// {Hit, Latency}; latte.New, latte.Config{Kind, StaticMode}, latte.Kind
// (LatteCC, HitCount, CMP, Static), latte.Config.EPAccesses, latte.Machine.EndEP() (tolerance,
// missLatency), Policy.Decisions, Policy.ModeEPs, Policy.Err.

import (
	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sim/cache"
)

// The L1 vector cache of MGPUSim's R9 Nano model
// (timingconfig/shaderarray/builder.go buildL1VCaches): 16 KB, 4 ways,
// 64-byte blocks, so 64 sets.
const (
	l1Sets   = 64
	l1Ways   = 4
	lineSize = 64
)

// Kinds of policy, by the names the command uses.
var kinds = map[string]latte.Kind{
	"static":   latte.Static,
	"latte":    latte.LatteCC,
	"hitcount": latte.HitCount,
	"cmp":      latte.CMP,
}

// l1Cache is one L1's sim/cache and policy.
type l1Cache struct {
	c      *cache.Cache
	policy *latte.Policy
	// drop is called for each line that leaves the cache.
	drop func(addr uint64)
}

// newL1Cache builds the cache of one L1 with fresh codecs (a trained code
// book belongs to one cache) and its policy; m serves the adaptive kinds.
func newL1Cache(cfg *Config, sm int, m latte.Machine) (*l1Cache, error) {
	modes := make([]linecomp.Codec, len(cfg.Modes))
	for i, name := range cfg.Modes {
		c, err := linecomp.New(name, lineSize)
		if err != nil {
			return nil, configError("mode %d: %v", i, err)
		}
		modes[i] = c
	}
	c, err := cache.New(cache.Config{
		Sets: l1Sets, Ways: l1Ways, LineSize: lineSize,
		TagFactor: cfg.TagFactor, SubBlock: cfg.SubBlock,
		Write: cache.WriteThrough, Modes: modes,
		HitLatency: cfg.HitLatency, Decompressors: cfg.Decompressors,
	})
	if err != nil {
		return nil, err
	}
	kind, ok := kinds[cfg.Policy]
	if !ok {
		return nil, configError("unknown policy %q (static, latte, hitcount, cmp)", cfg.Policy)
	}
	l := &l1Cache{c: c}
	var machine latte.Machine
	if kind != latte.Static {
		machine = m
	}
	p, err := latte.New(c, machine, latte.Config{Kind: kind, StaticMode: cfg.StaticMode, EPAccesses: cfg.EPAccesses, SM: sm})
	if err != nil {
		return nil, err
	}
	l.policy = p
	// The wrapper sees every event after the policy, to drop the bytes of
	// the lines that leave.
	c.SetPolicy(dropper{Policy: p, l: l})
	return l, nil
}

// dropper passes every event to the policy and tells the L1 which lines
// left the cache.
type dropper struct {
	cache.Policy
	l *l1Cache
}

func (d dropper) Observe(e cache.Event) {
	d.Policy.Observe(e)
	if (e.Kind == cache.Evict || e.Kind == cache.Invalidate) && d.l.drop != nil {
		d.l.drop(e.Addr)
	}
}

// lookup is a load: hit and its latency (hit latency, decompressor wait
// and decompression).
func (l *l1Cache) lookup(now, addr uint64) (hit bool, latency int) {
	r := l.c.Lookup(now, addr)
	return r.Hit, r.Latency
}

func (l *l1Cache) fill(now, addr uint64, line []byte) error {
	_, err := l.c.Fill(now, addr, line)
	return err
}

func (l *l1Cache) store(now, addr uint64, line []byte) error {
	_, err := l.c.Store(now, addr, line)
	return err
}

// invalidateAll empties the cache (a flush from the command processor).
func (l *l1Cache) invalidateAll(now uint64) {
	for m := range l.c.Config().Modes {
		l.c.InvalidateMode(now, m)
	}
}

// Counters is what the statistics need from sim/cache and the policy.
type Counters struct {
	Accesses, LoadHits, LoadMisses, StoreHits, StoreMisses uint64
	Evictions, Fills, Decompressions, QueueWait            uint64
	ValidLineSum, Lines                                    uint64
	HitsByMode, FillsByMode                                []uint64
	// ModeEPs counts the EPs the policy spent in each mode.
	ModeEPs []uint64
}

func (l *l1Cache) counters() Counters {
	s := l.c.Stats()
	eps := l.policy.ModeEPs()
	return Counters{Accesses: s.Accesses, LoadHits: s.LoadHits, LoadMisses: s.LoadMisses,
		StoreHits: s.StoreHits, StoreMisses: s.StoreMisses, Evictions: s.Evictions, Fills: s.Fills,
		Decompressions: s.Decompressions, QueueWait: s.QueueWait,
		ValidLineSum: s.ValidLineSum, Lines: s.Lines,
		HitsByMode: s.HitsByMode, FillsByMode: s.FillsByMode, ModeEPs: eps[:]}
}

func (l *l1Cache) err() error { return l.policy.Err() }

// machineAdapter turns the CU's per-scheduler measurements into the
// latte.Machine of today's API (one tolerance and one miss latency per
// EP). A per-scheduler EndEP would take epMeasure's fields directly.
type machineAdapter struct{ m *machine }

func (a machineAdapter) EndEP() (tolerance, missLatency float64) {
	e := a.m.endEP()
	return e.tolerance(), e.missLatency
}
