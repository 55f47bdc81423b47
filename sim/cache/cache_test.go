package cache_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/sim/cache"
)

func codec(t testing.TB, name string, n int) linecomp.Codec {
	t.Helper()
	c, err := linecomp.New(name, n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newCache(t testing.TB, cfg cache.Config) *cache.Cache {
	t.Helper()
	c, err := cache.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// access is one load or store of a line of a memory image.
type access struct {
	store bool
	addr  uint64
	line  []byte
}

// gatherTrace is a real access pattern over a real memory image: the sample
// files laid out one after another form the image, and the column indices
// of a real sparse matrix (graph_mesh_copter2.colidx, the whole file when
// the corpora are present) drive a gather of 16-byte elements from it, as
// an SpMV or BFS kernel reads x[col[i]]; every eighth access is a store of
// the line with one byte changed, as a kernel writes y[i].
func gatherTrace(t testing.TB, lineSize int) []access {
	var image []byte
	var colidx []byte
	for _, f := range codectest.Files(t) {
		if f.Name == "graph_mesh_copter2.colidx.i32" {
			colidx = f.Data // the corpus file comes after the sample's slice of it
		}
	}
	for _, f := range sample.Files() {
		image = append(image, f.Data...)
	}
	lines := uint64(len(image) / lineSize)
	var out []access
	for i := 0; i+4 <= len(colidx); i += 4 {
		v := uint64(binary.LittleEndian.Uint32(colidx[i:]))
		l := (v * 16 / uint64(lineSize)) % lines
		line := image[l*uint64(lineSize) : (l+1)*uint64(lineSize)]
		a := access{addr: l * uint64(lineSize), line: line}
		if i%32 == 28 {
			a.store = true
			a.line = slices.Clone(line)
			a.line[0] ^= byte(i)
		}
		out = append(out, a)
	}
	return out
}

// refEntry is a line in the reference model.
type refEntry struct {
	line   uint64
	blocks int
}

// refCache is an independent, deliberately plain model of model-spec §1
// with write-evict: each set a slice in MRU-first order, sizes computed
// from the codec as the spec words them.
type refCache struct {
	sets, tags, pool, subBlock, lineSize int
	codec                                linecomp.Codec
	content                              [][]refEntry
	st                                   cache.Stats
}

func newRef(sets, ways, tagFactor, subBlock, lineSize int, c linecomp.Codec) *refCache {
	return &refCache{sets: sets, tags: ways * tagFactor, pool: ways * lineSize / subBlock, subBlock: subBlock,
		lineSize: lineSize, codec: c, content: make([][]refEntry, sets)}
}

func (r *refCache) blocksOf(line []byte) int {
	payloadBits := r.codec.Size(line) - r.codec.TagBits()
	payloadBytes := (payloadBits + 7) / 8
	k := (payloadBytes + r.subBlock - 1) / r.subBlock
	return min(k, r.lineSize/r.subBlock)
}

func (r *refCache) used(s int) int {
	n := 0
	for _, e := range r.content[s] {
		n += e.blocks
	}
	return n
}

func (r *refCache) access(a access) bool {
	l := a.addr / uint64(r.lineSize)
	s := int(l % uint64(r.sets))
	set := r.content[s]
	at := slices.IndexFunc(set, func(e refEntry) bool { return e.line == l })
	r.st.Accesses++
	defer func() {
		for _, set := range r.content {
			r.st.ValidLineSum += uint64(len(set))
		}
	}()
	if a.store {
		if at < 0 {
			r.st.StoreMisses++
			return false
		}
		r.st.StoreHits++
		r.content[s] = slices.Delete(set, at, at+1)
		return true
	}
	if at >= 0 {
		r.st.LoadHits++
		e := set[at]
		set = slices.Delete(set, at, at+1)
		r.content[s] = slices.Insert(set, 0, e)
		return true
	}
	r.st.LoadMisses++
	k := r.blocksOf(a.line)
	for len(r.content[s]) == r.tags || r.pool-r.used(s) < k {
		r.content[s] = r.content[s][:len(r.content[s])-1]
		r.st.Evictions++
	}
	r.content[s] = slices.Insert(r.content[s], 0, refEntry{l, k})
	r.st.Fills++
	return false
}

// TestAgainstReference replays a real gather trace through the cache and the
// independent reference model, uncompressed (an ordinary LRU cache) and
// compressed with several codecs, and requires the same outcome for every
// access and the same counters.
func TestAgainstReference(t *testing.T) {
	for _, tc := range []struct {
		codec                           string
		sets, ways, tagFactor, subBlock int
	}{
		{"none", 32, 4, 1, 128}, // plain LRU
		{"none", 8, 2, 1, 128},
		{"none", 32, 4, 4, 32}, // more tags do not help uncompressed lines
		{"bdi", 32, 4, 4, 32},  // LATTE-CC's L1
		{"sc2", 32, 4, 4, 32},  // untrained SC² stores every line raw
		{"bpc", 16, 4, 4, 16},
		{"fpc", 32, 4, 2, 32},
		{"bdi", 64, 8, 1, 128},
	} {
		trace := gatherTrace(t, 128)
		cd := codec(t, tc.codec, 128)
		c := newCache(t, cache.Config{Sets: tc.sets, Ways: tc.ways, LineSize: 128, TagFactor: tc.tagFactor,
			SubBlock: tc.subBlock, Modes: []linecomp.Codec{cd}})
		ref := newRef(tc.sets, tc.ways, tc.tagFactor, tc.subBlock, 128, cd)
		for i, a := range trace {
			want := ref.access(a)
			var r cache.Result
			var err error
			if a.store {
				r, err = c.Store(uint64(i), a.addr, a.line)
			} else {
				r, err = c.Load(uint64(i), a.addr, a.line)
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Hit != want {
				t.Fatalf("%+v: access %d (store %v, addr %#x): hit %v, reference %v", tc, i, a.store, a.addr, r.Hit, want)
			}
		}
		got := c.Stats()
		w := ref.st
		if got.Accesses != w.Accesses || got.LoadHits != w.LoadHits || got.LoadMisses != w.LoadMisses ||
			got.StoreHits != w.StoreHits || got.StoreMisses != w.StoreMisses || got.Evictions != w.Evictions ||
			got.Fills != w.Fills || got.ValidLineSum != w.ValidLineSum {
			t.Errorf("%+v:\n got %+v\nwant %+v", tc, got, w)
		}
		if got.LoadHits == 0 || got.Evictions == 0 {
			t.Errorf("%+v: the trace does not exercise the cache: %+v", tc, got)
		}
		t.Logf("%s %d×%d tags×%d sub %d: %d accesses, load hit rate %.3f, effective capacity %.3f",
			tc.codec, tc.sets, tc.ways, tc.tagFactor, tc.subBlock, got.Accesses,
			float64(got.LoadHits)/float64(got.LoadHits+got.LoadMisses), got.EffectiveCapacity())
	}
}
