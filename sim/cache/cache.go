package cache

import (
	"fmt"
	"math/bits"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bound"
)

// WritePolicy says what a store does.
type WritePolicy uint8

const (
	// WriteEvict: a store that hits invalidates the line; no store
	// allocates; the write goes down. LATTE-CC's L1 (§IV-A).
	WriteEvict WritePolicy = iota
	// WriteThrough: write-through, no write-allocate; a store that hits
	// updates the line. MGPUSim's L1 vector cache.
	WriteThrough
	// WriteBack: write-back with write-allocate; evicting a dirty line
	// writes it back.
	WriteBack
)

func (w WritePolicy) String() string {
	switch w {
	case WriteEvict:
		return "evict"
	case WriteThrough:
		return "through"
	case WriteBack:
		return "back"
	}
	return fmt.Sprintf("WritePolicy(%d)", uint8(w))
}

// Index says how a line address maps to a set.
type Index uint8

const (
	// IndexModulo: set = line mod Sets (the default).
	IndexModulo Index = iota
	// IndexHashed: the line address's bits above the set index are folded
	// into it by XOR, spreading power-of-two strides over the sets.
	IndexHashed
)

// Config is the geometry and behaviour of a cache. Sets, Ways, LineSize and
// Modes are required; a zero TagFactor means 1, a zero SubBlock means
// LineSize, a zero Decompressors means 1.
type Config struct {
	Sets      int // a power of two
	Ways      int
	LineSize  int // bytes
	TagFactor int // tags per set = TagFactor × Ways
	SubBlock  int // bytes of a data sub-block; divides LineSize

	Write WritePolicy
	Index Index

	// Modes is the codec of each mode: a line filled in mode m is sized
	// and decompressed as Modes[m] says. Every codec takes LineSize and
	// has a known decompression latency. At most 256 modes.
	Modes []linecomp.Codec

	// HitLatency is the latency of a hit before any decompression, in
	// cycles.
	HitLatency int
	// Decompressors is the number of decompression units of each mode
	// (model-spec §2, revised 2026-12: LATTE-CC builds separate BDI and
	// SC units, so a BDI hit never waits behind an SC² line).
	Decompressors int
	// SharedDecompressor makes the Decompressors units one pool that
	// serves every mode, the rule before 2026-12. It exists to reproduce
	// the earlier results; with it a hit to a fast codec's line can wait
	// behind a slow codec's.
	SharedDecompressor bool

	// Policy chooses the mode of each fill and observes every event; nil
	// stores every line in mode 0.
	Policy Policy
}

// LatteL1 returns LATTE-CC's L1 data cache (Table II): 16 KB, 128-byte
// lines, 4 ways, four times the tags, 32-byte sub-blocks, write-evict, a
// 20-cycle hit latency (MGPUSim's L1V; the paper does not print
// GPGPU-Sim's) and one decompressor per mode, with the given modes.
func LatteL1(modes ...linecomp.Codec) Config {
	return Config{Sets: 32, Ways: 4, LineSize: 128, TagFactor: 4, SubBlock: 32,
		Modes: modes, HitLatency: 20, Decompressors: 1}
}

// EventKind names what happened in the cache.
type EventKind uint8

const (
	LoadHit    EventKind = iota // a load found its line
	LoadMiss                    // a load did not
	StoreHit                    // a store found its line
	StoreMiss                   // a store did not
	Fill                        // a line was inserted
	Evict                       // a valid line was removed to make room
	Invalidate                  // a line was removed by a store or by the policy
	// AccessEnd closes every access (Lookup, Load, Store), after its
	// other events, with the cache consistent: handling it, and only it, a
	// policy may call InvalidateMode and SetMode.
	AccessEnd
)

var eventNames = [...]string{"load-hit", "load-miss", "store-hit", "store-miss", "fill", "evict", "invalidate", "access-end"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is one thing that happened in the cache, as a Policy sees it.
type Event struct {
	Kind EventKind
	Now  uint64 // cycle of the call that caused it
	Addr uint64 // line-aligned byte address of the line concerned
	Set  int
	// Mode of the line concerned; for a miss, the mode its fill would
	// take is not known yet and Mode is -1.
	Mode int
	// Depth is a hit line's position in its set's LRU stack before the
	// access (0 = MRU), counting valid lines only.
	Depth int
	// SubBlocks is the line's stored size.
	SubBlocks int
	// Wait and Latency of a load hit: cycles waited for a decompressor,
	// and HitLatency + Wait + D. Compressed reports whether it went
	// through the decompression queue.
	Wait, Latency int
	Compressed    bool
	// Dirty: an evicted or invalidated line was dirty (write-back).
	Dirty bool
	// Data is the line of a Fill, valid only while Observe runs (a
	// policy trains a code book on it).
	Data []byte
}

// Policy decides the mode of each fill by set and sees every event.
type Policy interface {
	// FillMode returns the mode in which a line filled into set is stored.
	FillMode(set int) int
	Observer
}

// Observer sees every event of a cache, in order, before the call that
// caused it returns: a tracer, a statistics collector, the host that routes
// write-backs. A cache has one Policy and any number of Observers, so that
// attaching one never displaces another.
type Observer interface {
	Observe(e Event)
}

// Result is what one access did.
type Result struct {
	Hit  bool
	Mode int // mode of the line hit or filled; -1 for a miss without fill
	// Latency of a load hit (HitLatency + Wait + D); 0 otherwise: the
	// caller adds its own miss path.
	Latency, Wait int
	Evicted       int // valid lines evicted by this access
	WriteBacks    int // dirty lines written back by this access
}

// Stats are the cache's counters. Read them at any time; ResetStats zeroes
// them.
type Stats struct {
	Accesses    uint64 // loads and stores
	LoadHits    uint64
	LoadMisses  uint64
	StoreHits   uint64
	StoreMisses uint64
	Evictions   uint64 // valid lines removed to make room for a fill
	Fills       uint64
	// Invalidations: lines removed by a write-evict store or by
	// InvalidateMode.
	Invalidations uint64
	WriteBacks    uint64 // dirty lines evicted (write-back policy)
	// Decompressions: load hits to lines stored compressed; QueueWait:
	// the cycles they waited for a decompressor in all.
	Decompressions uint64
	QueueWait      uint64
	// ValidLineSum is the number of valid lines after each access, summed
	// over accesses; EffectiveCapacity derives from it.
	ValidLineSum uint64
	// Lines is Sets × Ways, the lines an uncompressed cache holds.
	Lines uint64
	// FillsByMode, HitsByMode and DecompressionsByMode count fills, load
	// hits and decompressions per mode.
	FillsByMode, HitsByMode, DecompressionsByMode []uint64
}

// EffectiveCapacity returns the mean, over accesses, of the bytes of valid
// lines after the access over the data capacity: 1.0 is a full
// uncompressed cache, more means compression fits more lines.
func (s *Stats) EffectiveCapacity() float64 {
	if s.Accesses == 0 || s.Lines == 0 {
		return 0
	}
	return float64(s.ValidLineSum) / float64(s.Lines) / float64(s.Accesses)
}

// way is one tag of a set.
type way struct {
	stamp      uint64 // last use; larger is more recent
	valid      bool
	dirty      bool
	compressed bool  // goes through the decompression queue on a hit
	mode       uint8 // index into modes
	blocks     uint8 // sub-blocks held
}

// Cache is a compressed set-associative cache. See the package doc.
type Cache struct {
	cfg        Config
	tags       int // per set
	blocks     int // sub-blocks per set
	lineBlocks int // sub-blocks of an uncompressed line
	setBits    uint
	lineShift  uint // log2(LineSize) when a power of two, else 0
	ways       []way
	// lines holds each way's line address (addr / LineSize), apart from
	// ways so that a tag search scans 8 bytes a tag rather than a whole
	// way; an invalid way keeps a stale line, so a match is confirmed with
	// valid.
	lines []uint64
	free  []int // free sub-blocks per set
	valid int   // valid lines in the whole cache
	clock uint64
	// units[m] holds the cycle at which each of mode m's decompressors
	// is free; under SharedDecompressor every mode's entry is one slice.
	units     [][]uint64
	decompLat []int // decompression latency of each mode
	stats     Stats
	policy    Policy
	observers []Observer
}

// The largest cache New builds: 2^24 tags (a 2 GB cache of 128-byte
// lines, some 400 MB of model state) and 2^16 decompressors.
const (
	maxTags          = 1 << 24
	maxDecompressors = 1 << 16
)

// New returns an empty cache, or an error wrapping linecomp.ErrConfig that
// names the field that cannot work.
func New(cfg Config) (*Cache, error) {
	if cfg.TagFactor == 0 {
		cfg.TagFactor = 1
	}
	if cfg.SubBlock == 0 {
		cfg.SubBlock = cfg.LineSize
	}
	if cfg.Decompressors == 0 {
		cfg.Decompressors = 1
	}
	bad := func(format string, args ...any) (*Cache, error) {
		return nil, linecomp.ConfigError("cache", format, args...)
	}
	switch {
	case cfg.Sets <= 0 || cfg.Sets&(cfg.Sets-1) != 0:
		return bad("Sets must be a positive power of two, got %d", cfg.Sets)
	case cfg.Ways <= 0:
		return bad("Ways must be positive, got %d", cfg.Ways)
	case cfg.LineSize <= 0:
		return bad("LineSize must be positive, got %d", cfg.LineSize)
	case cfg.TagFactor < 0:
		return bad("TagFactor must be positive, got %d", cfg.TagFactor)
	case cfg.SubBlock < 0 || cfg.LineSize%cfg.SubBlock != 0:
		return bad("SubBlock (%d bytes) must divide LineSize (%d bytes)", cfg.SubBlock, cfg.LineSize)
	case cfg.LineSize/cfg.SubBlock > 255:
		return bad("a line of %d sub-blocks of %d bytes is more than 255", cfg.LineSize/cfg.SubBlock, cfg.SubBlock)
	case cfg.Decompressors < 0 || cfg.Decompressors > maxDecompressors:
		return bad("Decompressors must be 1 to %d, got %d", maxDecompressors, cfg.Decompressors)
	case !bound.Cycles(cfg.HitLatency):
		return bad("HitLatency must be 0 to %d cycles, got %d", bound.MaxCycles, cfg.HitLatency)
	case cfg.Write > WriteBack:
		return bad("unknown write policy %d", cfg.Write)
	case cfg.Index > IndexHashed:
		return bad("unknown index %d", cfg.Index)
	case len(cfg.Modes) == 0 || len(cfg.Modes) > 256:
		return bad("Modes must hold 1 to 256 codecs, got %d", len(cfg.Modes))
	}
	if _, ok := bound.Product(maxTags, cfg.Sets, cfg.Ways, cfg.TagFactor); !ok {
		return bad("Sets (%d) × Ways (%d) × TagFactor (%d) is more than %d tags", cfg.Sets, cfg.Ways, cfg.TagFactor, maxTags)
	}
	c := &Cache{
		cfg:        cfg,
		tags:       cfg.TagFactor * cfg.Ways,
		lineBlocks: cfg.LineSize / cfg.SubBlock,
		setBits:    uint(bits.TrailingZeros(uint(cfg.Sets))),
		policy:     cfg.Policy,
		units:      make([][]uint64, len(cfg.Modes)),
	}
	for m := range c.units {
		if m == 0 || !cfg.SharedDecompressor {
			c.units[m] = make([]uint64, cfg.Decompressors)
		} else {
			c.units[m] = c.units[0]
		}
	}
	c.cfg.Modes = append([]linecomp.Codec(nil), cfg.Modes...)
	c.blocks = cfg.Ways * c.lineBlocks
	if cfg.LineSize&(cfg.LineSize-1) == 0 {
		c.lineShift = uint(bits.TrailingZeros(uint(cfg.LineSize)))
	}
	c.decompLat = make([]int, len(cfg.Modes))
	for m, codec := range cfg.Modes {
		if err := c.checkCodec(m, codec); err != nil {
			return nil, err
		}
	}
	c.ways = make([]way, cfg.Sets*c.tags)
	c.lines = make([]uint64, cfg.Sets*c.tags)
	c.free = make([]int, cfg.Sets)
	for s := range c.free {
		c.free[s] = c.blocks
	}
	c.ResetStats()
	return c, nil
}

func (c *Cache) checkCodec(m int, codec linecomp.Codec) error {
	if codec == nil {
		return linecomp.ConfigError("cache", "Modes[%d] is nil", m)
	}
	if codec.LineSize() != c.cfg.LineSize {
		return linecomp.ConfigError("cache", "Modes[%d] (%s) takes %d-byte lines, the cache has %d", m, codec.Name(), codec.LineSize(), c.cfg.LineSize)
	}
	d, ok := codec.Latency().DecompressCycles()
	if !ok {
		return linecomp.ConfigError("cache", "Modes[%d] (%s) has no known decompression latency", m, codec.Name())
	}
	if !bound.Cycles(d) {
		return linecomp.ConfigError("cache", "Modes[%d] (%s) decompresses in %d cycles, more than %d", m, codec.Name(), d, bound.MaxCycles)
	}
	c.decompLat[m] = d
	return nil
}

// Config returns the cache's configuration, with defaults filled in.
func (c *Cache) Config() Config {
	cfg := c.cfg
	cfg.Modes = append([]linecomp.Codec(nil), c.cfg.Modes...)
	return cfg
}

// Stats returns the counters so far.
func (c *Cache) Stats() Stats {
	s := c.stats
	s.FillsByMode = append([]uint64(nil), s.FillsByMode...)
	s.HitsByMode = append([]uint64(nil), s.HitsByMode...)
	s.DecompressionsByMode = append([]uint64(nil), s.DecompressionsByMode...)
	return s
}

// ResetStats zeroes the counters; the cache's contents stay.
func (c *Cache) ResetStats() {
	fills, hits, dec := c.stats.FillsByMode, c.stats.HitsByMode, c.stats.DecompressionsByMode
	if len(fills) != len(c.cfg.Modes) {
		n := len(c.cfg.Modes)
		fills, hits, dec = make([]uint64, n), make([]uint64, n), make([]uint64, n)
	}
	clear(fills)
	clear(hits)
	clear(dec)
	c.stats = Stats{Lines: uint64(c.cfg.Sets) * uint64(c.cfg.Ways), FillsByMode: fills, HitsByMode: hits, DecompressionsByMode: dec}
}

// Mode returns the codec of mode m, or nil if the cache has no mode m.
func (c *Cache) Mode(m int) linecomp.Codec {
	if m < 0 || m >= len(c.cfg.Modes) {
		return nil
	}
	return c.cfg.Modes[m]
}

// SetMode replaces the codec of mode m, e.g. with an SC² codec built from a
// new code book. Lines already stored keep their size and mode; a policy
// that changes a code book invalidates them with InvalidateMode.
func (c *Cache) SetMode(m int, codec linecomp.Codec) error {
	if m < 0 || m >= len(c.cfg.Modes) {
		return linecomp.ConfigError("cache", "SetMode: no mode %d (the cache has %d)", m, len(c.cfg.Modes))
	}
	old := c.decompLat[m]
	if err := c.checkCodec(m, codec); err != nil {
		c.decompLat[m] = old
		return err
	}
	c.cfg.Modes[m] = codec
	return nil
}

// SetPolicy replaces the policy (nil: every line in mode 0). A policy that
// needs the cache it serves is made after it and installed here. Observers
// stay attached.
func (c *Cache) SetPolicy(p Policy) { c.policy = p; c.cfg.Policy = p }

// AddObserver attaches o: it sees every event after the policy and the
// observers attached before it. A nil o is ignored.
func (c *Cache) AddObserver(o Observer) {
	if o != nil {
		c.observers = append(c.observers, o)
	}
}

// RemoveObserver detaches o (compared with ==) and reports whether it was
// attached.
func (c *Cache) RemoveObserver(o Observer) bool {
	for i, x := range c.observers {
		if x == o {
			c.observers = append(c.observers[:i], c.observers[i+1:]...)
			return true
		}
	}
	return false
}

// Sets returns the number of sets.
func (c *Cache) Sets() int { return c.cfg.Sets }

// SetOf returns the set that addr maps to.
func (c *Cache) SetOf(addr uint64) int { return c.setOfLine(c.lineOf(addr)) }

func (c *Cache) lineOf(addr uint64) uint64 {
	if c.lineShift != 0 || c.cfg.LineSize == 1 {
		return addr >> c.lineShift
	}
	return addr / uint64(c.cfg.LineSize)
}

func (c *Cache) setOfLine(line uint64) int {
	mask := uint64(c.cfg.Sets - 1)
	if c.cfg.Index == IndexHashed && c.setBits > 0 {
		h := line
		for rest := line >> c.setBits; rest != 0; rest >>= c.setBits {
			h ^= rest
		}
		return int(h & mask)
	}
	return int(line & mask)
}

// set returns the tags of set s.
func (c *Cache) set(s int) []way { return c.ways[s*c.tags : (s+1)*c.tags] }

// find returns the index in set s (whose ways are ws) of line, or -1.
func (c *Cache) find(s int, ws []way, line uint64) int {
	for i, l := range c.lines[s*c.tags : (s+1)*c.tags] {
		if l == line && ws[i].valid {
			return i
		}
	}
	return -1
}

// depth returns the LRU stack position of ws[i] among the valid lines, for
// the policy's and observers' event; without them nobody reads it, and the
// scan of the set is skipped.
func (c *Cache) depth(ws []way, i int) int {
	if c.policy == nil && len(c.observers) == 0 {
		return 0
	}
	d := 0
	for j := range ws {
		if ws[j].valid && ws[j].stamp > ws[i].stamp {
			d++
		}
	}
	return d
}

func (c *Cache) observe(e Event) {
	if c.policy != nil {
		c.policy.Observe(e)
	}
	for _, o := range c.observers {
		o.Observe(e)
	}
}

// touch makes ws[i] the most recently used line.
func (c *Cache) touch(ws []way, i int) {
	c.clock++
	ws[i].stamp = c.clock
}

// endAccess counts one access, samples the valid lines for the effective
// capacity and tells the policy the access is over.
func (c *Cache) endAccess(now uint64) {
	c.stats.Accesses++
	c.stats.ValidLineSum += uint64(c.valid)
	c.observe(Event{Kind: AccessEnd, Now: now, Mode: -1})
}

// Lookup is a load arriving at cycle now: on a hit the line becomes MRU and,
// if stored compressed, queues for a decompressor; on a miss nothing is
// filled (call Fill when the line arrives).
func (c *Cache) Lookup(now, addr uint64) Result {
	r := c.lookup(now, addr)
	c.endAccess(now)
	return r
}

func (c *Cache) lookup(now, addr uint64) Result {
	line := c.lineOf(addr)
	s := c.setOfLine(line)
	ws := c.set(s)
	i := c.find(s, ws, line)
	if i < 0 {
		c.stats.LoadMisses++
		c.observe(Event{Kind: LoadMiss, Now: now, Addr: line * uint64(c.cfg.LineSize), Set: s, Mode: -1})
		return Result{Mode: -1}
	}
	w := &ws[i]
	e := Event{Kind: LoadHit, Now: now, Addr: line * uint64(c.cfg.LineSize), Set: s, Mode: int(w.mode),
		Depth: c.depth(ws, i), SubBlocks: int(w.blocks), Compressed: w.compressed}
	c.touch(ws, i)
	e.Latency = c.cfg.HitLatency
	if w.compressed {
		d := c.decompLat[w.mode]
		e.Wait = Queue(c.units[w.mode], now, d)
		e.Latency += e.Wait + d
		c.stats.Decompressions++
		c.stats.DecompressionsByMode[w.mode]++
		c.stats.QueueWait += uint64(e.Wait)
	}
	c.stats.LoadHits++
	c.stats.HitsByMode[w.mode]++
	c.observe(e)
	return Result{Hit: true, Mode: e.Mode, Latency: e.Latency, Wait: e.Wait}
}

// Queue puts one decompression of d cycles arriving at cycle now on the
// first free of units (each the cycle at which that non-pipelined unit is
// free, updated in place) and returns how long it waits for it: the
// first-come-first-served queue of model-spec §2, Eq. 3 of LATTE-CC. A
// policy uses it to replay a virtual unit.
func Queue(units []uint64, now uint64, d int) int {
	u := 0
	for k := range units {
		if units[k] < units[u] {
			u = k
		}
	}
	start := max(now, units[u])
	units[u] = start + uint64(d)
	return int(start - now)
}

// Load is a load of line (the LineSize bytes at addr) at cycle now that, on
// a miss, fills the line at once: the form a trace replay uses.
func (c *Cache) Load(now, addr uint64, line []byte) (Result, error) {
	if err := c.checkLine(line); err != nil {
		return Result{Mode: -1}, err
	}
	r := c.lookup(now, addr)
	if !r.Hit {
		f, err := c.fill(now, addr, line, false)
		if err != nil {
			return r, err
		}
		r.Mode, r.Evicted, r.WriteBacks = f.Mode, f.Evicted, f.WriteBacks
	}
	c.endAccess(now)
	return r, nil
}

// Fill inserts line (the LineSize bytes at addr) at cycle now, in the mode
// the policy chooses for its set, evicting LRU lines until it fits. It does
// not count an access. Filling a line that is already present refreshes its
// data, size and mode and makes it MRU.
func (c *Cache) Fill(now, addr uint64, line []byte) (Result, error) {
	if err := c.checkLine(line); err != nil {
		return Result{Mode: -1}, err
	}
	return c.fill(now, addr, line, false)
}

// Store is a store of line (the whole line after the store) at cycle now,
// handled by the write policy.
func (c *Cache) Store(now, addr uint64, line []byte) (Result, error) {
	if err := c.checkLine(line); err != nil {
		return Result{Mode: -1}, err
	}
	l := c.lineOf(addr)
	s := c.setOfLine(l)
	ws := c.set(s)
	i := c.find(s, ws, l)
	base := l * uint64(c.cfg.LineSize)
	r := Result{Mode: -1}
	if i < 0 {
		c.stats.StoreMisses++
		c.observe(Event{Kind: StoreMiss, Now: now, Addr: base, Set: s, Mode: -1})
		if c.cfg.Write == WriteBack {
			f, err := c.fill(now, addr, line, true)
			if err != nil {
				return r, err
			}
			r = f
		}
		c.endAccess(now)
		return r, nil
	}
	c.stats.StoreHits++
	c.observe(Event{Kind: StoreHit, Now: now, Addr: base, Set: s, Mode: int(ws[i].mode),
		Depth: c.depth(ws, i), SubBlocks: int(ws[i].blocks), Compressed: ws[i].compressed})
	r.Hit = true
	switch c.cfg.Write {
	case WriteEvict:
		r.Mode = int(ws[i].mode)
		c.remove(now, s, i, Invalidate)
	default:
		f, err := c.fill(now, addr, line, c.cfg.Write == WriteBack)
		if err != nil {
			return r, err
		}
		f.Hit = true
		r = f
	}
	c.endAccess(now)
	return r, nil
}

func (c *Cache) checkLine(line []byte) error {
	if len(line) != c.cfg.LineSize {
		return linecomp.LineSizeError("cache", len(line), fmt.Sprintf("%d-byte lines", c.cfg.LineSize))
	}
	return nil
}

// subBlocks returns the stored size of line in mode m and whether it is
// stored compressed.
func (c *Cache) subBlocks(m int, line []byte) (int, bool) {
	codec := c.cfg.Modes[m]
	payload := codec.Size(line) - codec.TagBits()
	if payload >= 8*c.cfg.LineSize {
		return c.lineBlocks, false
	}
	bytes := (max(payload, 0) + 7) / 8
	k := (bytes + c.cfg.SubBlock - 1) / c.cfg.SubBlock
	return min(k, c.lineBlocks), true
}

// fill inserts or refreshes a line. dirty marks it dirty (write-back).
func (c *Cache) fill(now, addr uint64, line []byte, dirty bool) (Result, error) {
	l := c.lineOf(addr)
	s := c.setOfLine(l)
	ws := c.set(s)
	m := 0
	if c.policy != nil {
		m = c.policy.FillMode(s)
		if m < 0 || m >= len(c.cfg.Modes) {
			return Result{Mode: -1}, linecomp.ConfigError("cache", "the policy chose mode %d for set %d; the cache has %d modes", m, s, len(c.cfg.Modes))
		}
	}
	k, compressed := c.subBlocks(m, line)
	r := Result{Mode: m}
	i := c.find(s, ws, l)
	if i >= 0 { // refresh in place: give back its blocks first
		dirty = dirty || ws[i].dirty
		c.free[s] += int(ws[i].blocks)
		ws[i].valid = false
		c.valid--
	}
	for {
		freeTag := -1
		for j := range ws {
			if !ws[j].valid {
				freeTag = j
				break
			}
		}
		if freeTag >= 0 && c.free[s] >= k {
			i = freeTag
			break
		}
		victim := -1
		for j := range ws {
			if ws[j].valid && (victim < 0 || ws[j].stamp < ws[victim].stamp) {
				victim = j
			}
		}
		if ws[victim].dirty {
			r.WriteBacks++
		}
		r.Evicted++
		c.remove(now, s, victim, Evict)
	}
	ws[i] = way{valid: true, dirty: dirty, compressed: compressed, mode: uint8(m), blocks: uint8(k)}
	c.lines[s*c.tags+i] = l
	c.touch(ws, i)
	c.free[s] -= k
	c.valid++
	c.stats.Fills++
	c.stats.FillsByMode[m]++
	c.observe(Event{Kind: Fill, Now: now, Addr: l * uint64(c.cfg.LineSize), Set: s, Mode: m, SubBlocks: k, Compressed: compressed, Data: line})
	return r, nil
}

// remove takes ws[i] of set s out of the cache, as an eviction or an
// invalidation.
func (c *Cache) remove(now uint64, s, i int, kind EventKind) {
	ws := c.set(s)
	w := ws[i]
	if kind == Evict {
		c.stats.Evictions++
		if w.dirty {
			c.stats.WriteBacks++
		}
	} else {
		c.stats.Invalidations++
	}
	ws[i].valid = false
	c.free[s] += int(w.blocks)
	c.valid--
	c.observe(Event{Kind: kind, Now: now, Addr: c.lines[s*c.tags+i] * uint64(c.cfg.LineSize), Set: s, Mode: int(w.mode),
		SubBlocks: int(w.blocks), Compressed: w.compressed, Dirty: w.dirty})
}

// InvalidateMode removes every line stored in mode m, e.g. when its code
// book changes, and returns how many it removed. A dirty line is dropped
// without a write-back; a write-back cache should not invalidate by mode.
func (c *Cache) InvalidateMode(now uint64, m int) int {
	n := 0
	for s := 0; s < c.cfg.Sets; s++ {
		ws := c.set(s)
		for i := range ws {
			if ws[i].valid && int(ws[i].mode) == m {
				c.remove(now, s, i, Invalidate)
				n++
			}
		}
	}
	return n
}

// Contains reports whether the line holding addr is in the cache, and in
// which mode and how many sub-blocks; it changes nothing.
func (c *Cache) Contains(addr uint64) (mode, subBlocks int, ok bool) {
	l := c.lineOf(addr)
	s := c.setOfLine(l)
	ws := c.set(s)
	i := c.find(s, ws, l)
	if i < 0 {
		return -1, 0, false
	}
	return int(ws[i].mode), int(ws[i].blocks), true
}

// ValidLines returns the number of valid lines in the cache now.
func (c *Cache) ValidLines() int { return c.valid }
