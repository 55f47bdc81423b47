package cache_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/sim/cache"
)

// Lines of known BDI sizes at 128 bytes (stream bits − 4 tag bits = payload):
//
//	zero:     all zero, "zeros", payload 0 bits            → k = 0 sub-blocks
//	repeated: one 8-byte value 16 times, 64 bits = 8 bytes → k = 1
//	raw:      hash output, "raw", 1024 bits = 128 bytes    → k = 4 (of 32 bytes)
func zeroLine() []byte { return make([]byte, 128) }

func repeatedLine(v uint64) []byte {
	b := make([]byte, 128)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
	return b
}

func rawLine(seed int) []byte {
	var b []byte
	for i := 0; len(b) < 128; i++ {
		h := sha256.Sum256([]byte(fmt.Sprint(seed, i)))
		b = append(b, h[:]...)
	}
	return b[:128]
}

func bdiCodec(t testing.TB, lat linecomp.Latency) linecomp.Codec {
	t.Helper()
	c, err := bdi.New(128, bdi.WithLatency(lat))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSubBlockPool: one set of 2 ways × 128 bytes (a pool of 8 sub-blocks of
// 32 bytes) with 8 tags.
//
//	access  line         k  set after (MRU first)           valid  evicted
//	1       A raw        4  A                               1
//	2       B raw        4  B A        (pool 8/8)           2
//	3       C repeated   1  C B        (A out: 1 free < 1)  2      A
//	4-9     Z1..Z6 zero  0  Z6..Z1 C B (8 tags, 5 blocks)   3..8
//	10      Z7 zero      0  Z7..Z1 C   (no free tag: B out) 8      B
//	11      C            -  hit, depth 7 (the LRU valid line)
//
// Valid lines summed after each access: 1+2+2+3+4+5+6+7+8+8+8 = 54 over 11
// accesses; the uncompressed cache holds Sets × Ways = 2 lines, so the
// effective capacity is 54 / 2 / 11.
func TestSubBlockPool(t *testing.T) {
	var events []cache.Event
	c := newCache(t, cache.Config{Sets: 1, Ways: 2, LineSize: 128, TagFactor: 4, SubBlock: 32,
		Modes:  []linecomp.Codec{bdiCodec(t, linecomp.Latency{Compress: 5, Decompress: 1})},
		Policy: recorder{&events}})
	load := func(i int, addr uint64, line []byte) cache.Result {
		t.Helper()
		r, err := c.Load(uint64(i), addr, line)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	load(1, 0x000, rawLine(1))
	load(2, 0x080, rawLine(2))
	if r := load(3, 0x100, repeatedLine(0x1234)); r.Hit || r.Evicted != 1 {
		t.Fatalf("C: %+v, want a miss evicting A", r)
	}
	if _, _, ok := c.Contains(0x000); ok {
		t.Fatal("A should be out")
	}
	for i := 0; i < 6; i++ {
		if r := load(4+i, uint64(0x1000+0x80*i), zeroLine()); r.Evicted != 0 {
			t.Fatalf("Z%d evicted %d lines", i+1, r.Evicted)
		}
	}
	if r := load(10, 0x2000, zeroLine()); r.Evicted != 1 {
		t.Fatalf("Z7: %+v, want B evicted for its tag", r)
	}
	if _, _, ok := c.Contains(0x080); ok {
		t.Fatal("B should be out")
	}
	if m, k, ok := c.Contains(0x100); !ok || k != 1 || m != 0 {
		t.Fatalf("C: mode %d, %d sub-blocks, present %v", m, k, ok)
	}
	events = events[:0]
	if r := load(11, 0x100, repeatedLine(0x1234)); !r.Hit {
		t.Fatal("C should hit")
	}
	if len(events) != 1 || events[0].Kind != cache.LoadHit || events[0].Depth != 7 || events[0].SubBlocks != 1 {
		t.Fatalf("events %+v, want one load hit at depth 7", events)
	}
	s := c.Stats()
	if s.Accesses != 11 || s.LoadHits != 1 || s.LoadMisses != 10 || s.Fills != 10 || s.Evictions != 2 || s.ValidLineSum != 54 {
		t.Errorf("stats %+v", s)
	}
	if got, want := s.EffectiveCapacity(), 54.0/2/11; got != want {
		t.Errorf("effective capacity %v, want %v", got, want)
	}
}

// recorder is a policy that stores every line in mode 0 and keeps the
// events.
type recorder struct{ events *[]cache.Event }

func (r recorder) FillMode(int) int { return 0 }
func (r recorder) Observe(e cache.Event) {
	if e.Kind != cache.AccessEnd {
		*r.events = append(*r.events, e)
	}
}

// TestDecompressionQueue: four hits in one cycle to compressed lines with
// D = 3 and a hit latency of 20 wait 0, 3, 6 and 9 cycles for the one
// decompressor: latencies 20 + D × (n + 1) for n = 0..3 lines ahead (Eq. 3):
// 23, 26, 29, 32. With two decompressors: 23, 23, 26, 26. A raw line's hit
// bypasses the queue: 20. A hit after the queue drains waits 0.
func TestDecompressionQueue(t *testing.T) {
	for _, tc := range []struct {
		units int
		want  []int
	}{{1, []int{23, 26, 29, 32}}, {2, []int{23, 23, 26, 26}}} {
		c := newCache(t, cache.Config{Sets: 4, Ways: 4, LineSize: 128, TagFactor: 4, SubBlock: 32,
			Modes: []linecomp.Codec{bdiCodec(t, linecomp.Latency{Compress: 5, Decompress: 3})}, HitLatency: 20, Decompressors: tc.units})
		for i := 0; i < 4; i++ {
			if _, err := c.Fill(0, uint64(i*128), repeatedLine(uint64(i))); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.Fill(0, 4*128, rawLine(0)); err != nil {
			t.Fatal(err)
		}
		for i, want := range tc.want {
			r := c.Lookup(100, uint64(i*128))
			if !r.Hit || r.Latency != want || r.Wait != want-23 {
				t.Errorf("%d units, hit %d: %+v, want latency %d", tc.units, i, r, want)
			}
		}
		if r := c.Lookup(100, 4*128); r.Latency != 20 || r.Wait != 0 {
			t.Errorf("raw line hit: %+v, want latency 20", r)
		}
		if r := c.Lookup(200, 0); r.Latency != 23 {
			t.Errorf("hit after the queue drained: %+v", r)
		}
		s := c.Stats()
		wantWait := uint64(0)
		for _, l := range tc.want {
			wantWait += uint64(l - 23)
		}
		if s.Decompressions != 5 || s.QueueWait != wantWait || s.Fills != 5 || s.Accesses != 6 {
			t.Errorf("%d units: stats %+v, want 5 decompressions waiting %d", tc.units, s, wantWait)
		}
	}
}

// byAddrSet is a policy that stores lines of set s in mode modes[s].
type byAddrSet []int

func (b byAddrSet) FillMode(set int) int { return b[set] }
func (byAddrSet) Observe(cache.Event)    {}

// TestDecompressorPerMode: mode 0 (D = 3) holds sets 0-1, mode 1 (D = 7)
// sets 2-3. At cycle 100 two hits to mode-1 lines (sets 2, 3), then two to
// mode-0 lines (sets 0, 1). With one unit per mode (the default) each mode
// queues only behind its own lines:
//
//	mode 1: waits 0, 7  → latencies 20+0+7 = 27, 20+7+7 = 34
//	mode 0: waits 0, 3  → latencies 20+0+3 = 23, 20+3+3 = 26
//
// With SharedDecompressor (the earlier rule) the mode-0 hits queue behind
// both mode-1 lines (busy until 114): waits 14, 17 → 37, 40.
func TestDecompressorPerMode(t *testing.T) {
	for _, tc := range []struct {
		shared bool
		want   []int
	}{{false, []int{27, 34, 23, 26}}, {true, []int{27, 34, 37, 40}}} {
		c := newCache(t, cache.Config{Sets: 4, Ways: 4, LineSize: 128, TagFactor: 4, SubBlock: 32,
			Modes: []linecomp.Codec{
				bdiCodec(t, linecomp.Latency{Compress: 5, Decompress: 3}),
				bdiCodec(t, linecomp.Latency{Compress: 5, Decompress: 7}),
			}, HitLatency: 20, SharedDecompressor: tc.shared, Policy: byAddrSet{0, 0, 1, 1}})
		for set := 0; set < 4; set++ {
			if _, err := c.Fill(0, uint64(set*128), repeatedLine(uint64(set))); err != nil {
				t.Fatal(err)
			}
		}
		for i, set := range []int{2, 3, 0, 1} {
			r := c.Lookup(100, uint64(set*128))
			if !r.Hit || r.Latency != tc.want[i] {
				t.Errorf("shared %v, hit %d (set %d): %+v, want latency %d", tc.shared, i, set, r, tc.want[i])
			}
		}
	}
}

// TestQueue: the FIFO arithmetic of Eq. 3 on two units with D = 4.
//
//	arrival  units free at   takes   starts  wait
//	0        0, 0            unit 0  0       0
//	0        4, 0            unit 1  0       0
//	0        4, 4            unit 0  4       4
//	5        8, 4            unit 1  5       0
//	6        8, 9            unit 0  8       2
//	20       12, 9           unit 1  20      0
func TestQueue(t *testing.T) {
	units := make([]uint64, 2)
	for i, tc := range []struct {
		now  uint64
		wait int
	}{{0, 0}, {0, 0}, {0, 4}, {5, 0}, {6, 2}, {20, 0}} {
		if got := cache.Queue(units, tc.now, 4); got != tc.wait {
			t.Errorf("arrival %d at %d: wait %d, want %d", i, tc.now, got, tc.wait)
		}
	}
}

// TestWritePolicies: what a store does under each policy.
func TestWritePolicies(t *testing.T) {
	cfg := func(w cache.WritePolicy) cache.Config {
		return cache.Config{Sets: 1, Ways: 2, LineSize: 128, TagFactor: 2, SubBlock: 32, Write: w,
			Modes: []linecomp.Codec{bdiCodec(t, linecomp.Latency{Compress: 5, Decompress: 1})}}
	}
	// Write-evict: a store hit frees the tag and sub-blocks (no eviction
	// counted); a store miss allocates nothing.
	c := newCache(t, cfg(cache.WriteEvict))
	must(c.Load(0, 0, rawLine(1)))
	if r := must(c.Store(1, 0, rawLine(2))); !r.Hit {
		t.Fatal("store should hit")
	}
	if c.ValidLines() != 0 {
		t.Fatal("write-evict kept the line")
	}
	must(c.Store(2, 128, rawLine(3)))
	if r := must(c.Load(3, 0, rawLine(2))); r.Hit {
		t.Fatal("load after a write-evict store should miss")
	}
	if s := c.Stats(); s.StoreHits != 1 || s.StoreMisses != 1 || s.Invalidations != 1 || s.Evictions != 0 || s.Fills != 2 {
		t.Errorf("write-evict stats %+v", s)
	}

	// Write-through: a store hit updates the line and sizes it again (raw
	// k = 4 becomes zero k = 0); a store miss allocates nothing.
	c = newCache(t, cfg(cache.WriteThrough))
	must(c.Load(0, 0, rawLine(1)))
	must(c.Store(1, 0, zeroLine()))
	if _, k, ok := c.Contains(0); !ok || k != 0 {
		t.Fatalf("write-through store hit: present %v, %d sub-blocks", ok, k)
	}
	must(c.Store(2, 128, rawLine(3)))
	if _, _, ok := c.Contains(128); ok {
		t.Fatal("write-through allocated on a store miss")
	}
	if r := must(c.Load(3, 0, zeroLine())); !r.Hit {
		t.Fatal("the updated line should hit")
	}

	// Write-back: a store miss allocates a dirty line; evicting it counts a
	// write-back. Two raw lines fill the pool; a third evicts the LRU.
	c = newCache(t, cfg(cache.WriteBack))
	must(c.Store(0, 0, rawLine(1)))       // dirty A
	must(c.Load(1, 128, rawLine(2)))      // clean B
	r := must(c.Load(2, 256, rawLine(3))) // evicts A (LRU), dirty
	if r.Evicted != 1 || r.WriteBacks != 1 {
		t.Fatalf("evicting the dirty line: %+v", r)
	}
	r = must(c.Load(3, 384, rawLine(4))) // evicts B, clean
	if r.Evicted != 1 || r.WriteBacks != 0 {
		t.Fatalf("evicting the clean line: %+v", r)
	}
	if s := c.Stats(); s.WriteBacks != 1 || s.Evictions != 2 || s.StoreMisses != 1 || s.Fills != 4 {
		t.Errorf("write-back stats %+v", s)
	}
}

func must(r cache.Result, err error) cache.Result {
	if err != nil {
		panic(err)
	}
	return r
}

// setPolicy stores lines of even sets in mode 0 and odd sets in mode 1.
type setPolicy struct{}

func (setPolicy) FillMode(set int) int { return set % 2 }
func (setPolicy) Observe(cache.Event)  {}

// TestModes: the policy's mode decides a line's size and codec; replacing a
// mode's codec and invalidating its lines works per mode.
func TestModes(t *testing.T) {
	none := codec(t, "none", 128)
	b := bdiCodec(t, linecomp.Latency{Compress: 5, Decompress: 1})
	c := newCache(t, cache.Config{Sets: 2, Ways: 2, LineSize: 128, TagFactor: 4, SubBlock: 32,
		Modes: []linecomp.Codec{none, b}, Policy: setPolicy{}})
	must(c.Load(0, 0, zeroLine()))   // set 0: mode none, 4 sub-blocks
	must(c.Load(1, 128, zeroLine())) // set 1: mode bdi, 0 sub-blocks
	if m, k, _ := c.Contains(0); m != 0 || k != 4 {
		t.Errorf("set 0 line: mode %d, %d sub-blocks", m, k)
	}
	if m, k, _ := c.Contains(128); m != 1 || k != 0 {
		t.Errorf("set 1 line: mode %d, %d sub-blocks", m, k)
	}
	if n := c.InvalidateMode(2, 1); n != 1 || c.ValidLines() != 1 {
		t.Errorf("InvalidateMode removed %d, %d left", n, c.ValidLines())
	}
	if err := c.SetMode(1, codec(t, "fpc", 64)); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("SetMode with a 64-byte codec: %v", err)
	}
	if err := c.SetMode(1, codec(t, "fpc", 128)); err != nil || c.Mode(1).Name() != "fpc" {
		t.Errorf("SetMode: %v", err)
	}
	if s := c.Stats(); s.FillsByMode[0] != 1 || s.FillsByMode[1] != 1 || s.Invalidations != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestHashedIndex: a stride of Sets lines puts every line in set 0 with the
// modulo index, and spreads them with the hashed one.
func TestHashedIndex(t *testing.T) {
	for _, idx := range []cache.Index{cache.IndexModulo, cache.IndexHashed} {
		c := newCache(t, cache.Config{Sets: 8, Ways: 1, LineSize: 64, Index: idx, Modes: []linecomp.Codec{codec(t, "none", 64)}})
		seen := map[int]bool{}
		for i := 0; i < 8; i++ {
			seen[c.SetOf(uint64(i*8*64))] = true
		}
		if want := map[cache.Index]int{cache.IndexModulo: 1, cache.IndexHashed: 8}[idx]; len(seen) != want {
			t.Errorf("index %d: %d sets used, want %d", idx, len(seen), want)
		}
	}
}

// fakeCodec has an unknown decompression latency.
type fakeCodec struct{ linecomp.Codec }

func (fakeCodec) Latency() linecomp.Latency {
	return linecomp.Latency{Compress: 1, Decompress: linecomp.LatencyUnknown}
}

// TestBadConfig: every configuration that cannot work is an ErrConfig
// naming its field; bad lines are ErrLineSize; nothing panics.
func TestBadConfig(t *testing.T) {
	none := codec(t, "none", 128)
	good := cache.Config{Sets: 4, Ways: 2, LineSize: 128, Modes: []linecomp.Codec{none}}
	for name, mut := range map[string]func(*cache.Config){
		"Sets":          func(c *cache.Config) { c.Sets = 0 },
		"power of two":  func(c *cache.Config) { c.Sets = 6 },
		"Ways":          func(c *cache.Config) { c.Ways = -1 },
		"LineSize":      func(c *cache.Config) { c.LineSize = 0 },
		"SubBlock":      func(c *cache.Config) { c.SubBlock = 48 },
		"TagFactor":     func(c *cache.Config) { c.TagFactor = -2 },
		"Modes":         func(c *cache.Config) { c.Modes = nil },
		"nil":           func(c *cache.Config) { c.Modes = []linecomp.Codec{nil} },
		"takes":         func(c *cache.Config) { c.Modes = []linecomp.Codec{codec(t, "none", 64)} },
		"latency":       func(c *cache.Config) { c.Modes = []linecomp.Codec{fakeCodec{none}} },
		"HitLatency":    func(c *cache.Config) { c.HitLatency = -1 },
		"Decompressors": func(c *cache.Config) { c.Decompressors = -1 },
	} {
		cfg := good
		mut(&cfg)
		if _, err := cache.New(cfg); !errors.Is(err, linecomp.ErrConfig) || !bytes.Contains([]byte(err.Error()), []byte(name)) {
			t.Errorf("%s: %v", name, err)
		}
	}
	c := newCache(t, good)
	for _, n := range []int{0, 127, 129} {
		if _, err := c.Load(0, 0, make([]byte, n)); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("Load of %d bytes: %v", n, err)
		}
		if _, err := c.Store(0, 0, make([]byte, n)); !errors.Is(err, linecomp.ErrLineSize) {
			t.Errorf("Store of %d bytes: %v", n, err)
		}
	}
	if s := c.Stats(); s.Accesses != 0 {
		t.Errorf("rejected accesses were counted: %+v", s)
	}
	bad := newCache(t, cache.Config{Sets: 4, Ways: 2, LineSize: 128, Modes: []linecomp.Codec{none}, Policy: badPolicy{}})
	if _, err := bad.Load(0, 0, zeroLine()); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("a policy choosing mode 7: %v", err)
	}
}

type badPolicy struct{}

func (badPolicy) FillMode(int) int    { return 7 }
func (badPolicy) Observe(cache.Event) {}

// allEvents keeps every event, AccessEnd included.
type allEvents struct{ kinds *[]cache.EventKind }

func (a allEvents) FillMode(int) int      { return 0 }
func (a allEvents) Observe(e cache.Event) { *a.kinds = append(*a.kinds, e.Kind) }

// TestEventOrder: a load that misses in a full set reports the miss, the
// eviction, the fill and then the end of the access; a hit, its hit and
// the end; a write-evict store hit, the hit, the invalidation and the end.
func TestEventOrder(t *testing.T) {
	var kinds []cache.EventKind
	c := newCache(t, cache.Config{Sets: 1, Ways: 1, LineSize: 128, Modes: []linecomp.Codec{codec(t, "none", 128)}, Policy: allEvents{&kinds}})
	must(c.Load(0, 0, zeroLine()))
	kinds = kinds[:0]
	must(c.Load(1, 128, zeroLine()))
	must(c.Load(2, 128, zeroLine()))
	must(c.Store(3, 128, zeroLine()))
	want := []cache.EventKind{cache.LoadMiss, cache.Evict, cache.Fill, cache.AccessEnd,
		cache.LoadHit, cache.AccessEnd, cache.StoreHit, cache.Invalidate, cache.AccessEnd}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", kinds, want)
	}
}
