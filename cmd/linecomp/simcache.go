package main

import (
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/trace"
)

var simCacheCommand = &command{
	name:    "cache",
	args:    "[flags] [TRACE…]",
	summary: "replay line traces through one compressed cache",
	run:     runSimCache,
}

const simCacheHelp = `
Replays line traces (linecomp's trace format: Read records are loads,
Write records stores, in record order) through one set-associative cache
whose lines are stored with one codec, as model-spec §1 specifies: -tags
tags per way and a pool of -subblock-byte sub-blocks per set, true LRU,
the write policy of -write. Prints, per trace, the accesses, load and store
hits and misses, evictions, fills, invalidations, write-backs and the
effective capacity (the mean over accesses of the valid lines' bytes over
the data capacity; 1.0 is a full uncompressed cache).

-codecs takes a list (e.g. bdi,fpc,sc2) or all, as ratio does: each codec
has its own cache and row, all fed the same records. -tags 1 with -codecs
none is an ordinary LRU cache. A trainable codec (sc2)
learns its code book as LATTE-CC does: from the lines filled in the first
EP (256 accesses), rebuilt from those of the last EP of every period of 10
EPs, with its old lines invalidated. Without traces it replays the
committed sample L1 traces.`

// cacheJSON is one trace's row; the counters are integers.
type cacheJSON struct {
	Trace             string  `json:"trace"`
	Codec             string  `json:"codec"`
	Accesses          uint64  `json:"accesses"`
	LoadHits          uint64  `json:"load_hits"`
	LoadMisses        uint64  `json:"load_misses"`
	StoreHits         uint64  `json:"store_hits"`
	StoreMisses       uint64  `json:"store_misses"`
	Evictions         uint64  `json:"evictions"`
	Fills             uint64  `json:"fills"`
	Invalidations     uint64  `json:"invalidations"`
	WriteBacks        uint64  `json:"write_backs"`
	EffectiveCapacity float64 `json:"effective_capacity"`
}

func runSimCache(e *env, c *command, args []string) error {
	fs := newFlags(e, c, simCacheHelp)
	codecList := fs.String("codecs", "bdi", "codecs of the lines, comma-separated, or all: one cache and row per codec")
	fs.StringVar(codecList, "codec", "bdi", "the same as -codecs")
	sets := fs.Int("sets", 32, "sets (a power of two)")
	ways := fs.Int("ways", 4, "ways: lines of data per set uncompressed")
	tags := fs.Int("tags", 4, "tag factor: tags per set = tags × ways")
	subBlock := fs.Int("subblock", 32, "bytes of a data sub-block")
	line := fs.Int("line", 0, "line size in bytes (default: the trace's; another value is an error)")
	write := fs.String("write", "evict", "write policy: evict, through or back")
	format := fs.String("format", "text", "output: text, csv or json")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := parseFormat(*format); err != nil {
		return err
	}
	policy, ok := map[string]cache.WritePolicy{"evict": cache.WriteEvict, "through": cache.WriteThrough, "back": cache.WriteBack}[*write]
	if !ok {
		return usagef("-write %q: want evict, through or back", *write)
	}
	codecs, err := parseReplayCodecs(*codecList)
	if err != nil {
		return err
	}
	// newCache builds the cache of one codec; a trainable codec (sc2)
	// learns its code book as LATTE-CC does.
	newCache := func(codec string, n int) (*cache.Cache, error) {
		cd, err := linecomp.New(codec, n)
		if err != nil {
			return nil, err
		}
		cc, err := cache.New(cache.Config{Sets: *sets, Ways: *ways, LineSize: n, TagFactor: *tags, SubBlock: *subBlock, Write: policy,
			Modes: []linecomp.Codec{cd}, HitLatency: 20})
		if err != nil {
			return nil, err
		}
		if _, ok := cd.(linecomp.Trainer); ok {
			if _, err := latte.New(cc, nil, latte.Config{Kind: latte.Static}); err != nil {
				return nil, err
			}
		}
		return cc, nil
	}
	// A bad flag is a usage error before any trace is read.
	if err := codecs.check(*line, func(codec string, n int) error {
		_, err := newCache(codec, n)
		return err
	}); err != nil {
		return usageError{err}
	}
	srcs := lineTraceSources(e, inputs, "l1")
	if len(srcs) == 0 {
		return usagef("no trace given, and no sample L1 trace is embedded")
	}
	var rows []cacheJSON
	failed := e.eachInput(srcs, func(in *input) error {
		var names []string
		var caches []*cache.Cache
		var n uint64
		_, err := eachRecord(in, *line, []string{"l1", "dram"}, func(h trace.Header, r trace.Record) error {
			if caches == nil {
				var err error
				if names, caches, err = buildReplays(e, codecs, h.LineSize, newCache); err != nil {
					return err
				}
			}
			for _, cc := range caches {
				var err error
				if r.Op == trace.Write {
					_, err = cc.Store(n, r.Addr, r.Data)
				} else {
					_, err = cc.Load(n, r.Addr, r.Data)
				}
				if err != nil {
					return err
				}
			}
			n++
			if n%(1<<16) == 0 {
				e.progress.show("%s: %d records", in.name, n)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if caches == nil {
			return fmt.Errorf("the trace has no record")
		}
		for i, cc := range caches {
			s := cc.Stats()
			rows = append(rows, cacheJSON{Trace: in.name, Codec: names[i], Accesses: s.Accesses,
				LoadHits: s.LoadHits, LoadMisses: s.LoadMisses, StoreHits: s.StoreHits, StoreMisses: s.StoreMisses,
				Evictions: s.Evictions, Fills: s.Fills, Invalidations: s.Invalidations, WriteBacks: s.WriteBacks,
				EffectiveCapacity: s.EffectiveCapacity()})
		}
		return nil
	})
	e.progress.clear()
	if err := printCacheRows(e, rows, *format); err != nil {
		return err
	}
	return failed
}

func printCacheRows(e *env, rows []cacheJSON, format string) error {
	if format == "json" {
		if rows == nil {
			rows = []cacheJSON{}
		}
		return writeJSON(e.stdout, rows)
	}
	t := table{header: []string{"trace", "codec", "accesses", "load_hits", "load_misses", "store_hits", "store_misses",
		"evictions", "fills", "invalidations", "write_backs", "effective_capacity"}}
	for _, r := range rows {
		t.add(r.Trace, r.Codec, utoa(r.Accesses), utoa(r.LoadHits), utoa(r.LoadMisses), utoa(r.StoreHits), utoa(r.StoreMisses),
			utoa(r.Evictions), utoa(r.Fills), utoa(r.Invalidations), utoa(r.WriteBacks), ffmt(r.EffectiveCapacity, 4))
	}
	return t.write(e.stdout, format)
}
