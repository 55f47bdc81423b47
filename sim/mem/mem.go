package mem

import (
	"fmt"
	"math/bits"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bound"
)

// Op is the direction of a request.
type Op uint8

const (
	Read  Op = 1 // a fill: the line moves from DRAM to the cache
	Write Op = 2 // a write-back: the line moves from the cache to DRAM
)

// DRAM is the timing of one controller's channel.
type DRAM struct {
	Latency     int // cycles from a request's start on the bus to its data
	BurstCycles int // cycles one MAG burst occupies the data bus
}

// GDDR5 and HBM2 return channel presets with a 32-byte MAG (MAG-aware BDI
// §I and Table IV: GDDR5 has a 32-bit bus and burst length 8, HBM2 a
// 128-bit bus and burst length 2). BurstCycles counts command-clock
// cycles: GDDR5 moves 4 data words per command clock (8 words in 2
// cycles), HBM2 2 (2 words in 1 cycle). Latency is LATTE-CC Table II's
// minimum DRAM latency beyond an L2 hit (220 − 120 cycles); no paper gives
// one per memory type [ours]. They are functions, not variables, so that
// no importer can change the default of another.
func GDDR5() DRAM { return DRAM{Latency: 100, BurstCycles: 2} }

// HBM2 returns the HBM2 channel preset; see GDDR5.
func HBM2() DRAM { return DRAM{Latency: 100, BurstCycles: 1} }

// The energy of one access to a memory controller's metadata cache,
// MAG-aware BDI §V-B: 0.0014 nJ a read, 0.00097 nJ a write. They are the
// memory model's, not the root's presets, which price codecs.
const (
	MDReadPicoJoules  = 1.4
	MDWritePicoJoules = 0.97
)

// Config describes the memory controllers. Zero values of the fields
// marked "default" take the default; LineSize and Codec are required.
type Config struct {
	Controllers int // default 6 (MAG-aware BDI Table IV)
	Interleave  int // bytes per controller stripe, default 4096, a multiple of LineSize
	LineSize    int // bytes
	MAG         int // bytes per burst, default 32; divides LineSize

	// Codec compresses every line; "none" is the uncompressed baseline.
	Codec linecomp.Codec

	MDCacheBytes int // per controller, default 16384 (MAG-aware BDI §IV-F)
	MDWays       int // default 4
	MDBlock      int // bytes of an MD block, default 128
	MDHitLatency int // cycles, default 1 (MAG-aware BDI §V-A)

	// MinBursts is the fewest data bursts a request moves: 0 (the
	// default) lets a zero-bit payload move none; 1 charges it one.
	MinBursts int

	DRAM DRAM // default GDDR5
}

// Result is what one request did.
type Result struct {
	Controller int
	Bursts     int  // data bursts
	MDHit      bool // the MD lookup hit (false also when there is no metadata)
	MDMiss     bool
	// MDWriteBack: the MD fetch evicted a dirty block, written back.
	MDWriteBack bool
	// Latency from arrival to data: MD lookup, MD fetch on a miss, then the
	// data request's DRAM latency and waits.
	Latency int
}

// Stats are the counters of all controllers together.
type Stats struct {
	Requests, Reads, Writes uint64
	Bursts                  uint64 // data bursts
	UncompressedBursts      uint64 // requests × LineSize / MAG
	MetadataBursts          uint64 // MD fetches and write-backs
	MDHits, MDMisses        uint64
	MDWriteBacks            uint64
	MDReads, MDWrites       uint64 // MD cache accesses, for energy
	BusBusyCycles           uint64
	// BurstHistogram[b] counts requests that moved b data bursts.
	BurstHistogram []uint64
}

// EffectiveRatio is the uncompressed bursts over the data bursts.
func (s *Stats) EffectiveRatio() float64 { return ratio(s.UncompressedBursts, s.Bursts) }

// EffectiveRatioWithMetadata also counts the metadata bursts.
func (s *Stats) EffectiveRatioWithMetadata() float64 {
	return ratio(s.UncompressedBursts, s.Bursts+s.MetadataBursts)
}

// MDHitRate is MD hits over MD lookups.
func (s *Stats) MDHitRate() float64 { return ratio(s.MDHits, s.MDHits+s.MDMisses) }

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// MDEnergyPicoJoules returns the MD cache's energy (MDReadPicoJoules,
// MDWritePicoJoules): every lookup is a read, every write request's update
// a write.
func (s *Stats) MDEnergyPicoJoules() float64 {
	return float64(s.MDReads)*MDReadPicoJoules + float64(s.MDWrites)*MDWritePicoJoules
}

// mdLine is one MD cache entry.
type mdLine struct {
	block uint64
	stamp uint64
	valid bool
	dirty bool
}

// controller is one memory controller: its MD cache and channel.
type controller struct {
	md      []mdLine // sets × ways
	busFree uint64   // cycle at which the data bus is free
}

// Memory is the set of memory controllers. See the package doc.
type Memory struct {
	cfg           Config
	mdBits        int // metadata bits per line; 0 = no metadata
	linesPerBlock uint64
	mdSets        int
	mdBursts      int // bursts of one MD block
	lineBursts    int // bursts of an uncompressed line
	ctrls         []controller
	clock         uint64
	stats         Stats
}

// The most controllers New builds, and MD blocks over all of them (some
// 400 MB of model state).
const (
	maxControllers  = 1 << 16
	maxMDCacheBytes = 1 << 30
	maxMDBlocks     = 1 << 24
)

// New returns the memory controllers, or an error wrapping
// linecomp.ErrConfig that names the field that cannot work.
func New(cfg Config) (*Memory, error) {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.Controllers, 6)
	def(&cfg.Interleave, 4096)
	def(&cfg.MAG, 32)
	def(&cfg.MDCacheBytes, 16384)
	def(&cfg.MDWays, 4)
	def(&cfg.MDBlock, 128)
	def(&cfg.MDHitLatency, 1)
	if cfg.DRAM == (DRAM{}) {
		cfg.DRAM = GDDR5()
	}
	bad := func(format string, args ...any) (*Memory, error) {
		return nil, linecomp.ConfigError("mem", format, args...)
	}
	switch {
	case cfg.Codec == nil:
		return bad("Codec is nil")
	case cfg.LineSize <= 0 || cfg.Codec.LineSize() != cfg.LineSize:
		return bad("LineSize %d must be positive and the codec's (%s takes %d)", cfg.LineSize, cfg.Codec.Name(), cfg.Codec.LineSize())
	case cfg.Controllers < 0 || cfg.Controllers > maxControllers:
		return bad("Controllers must be 1 to %d, got %d", maxControllers, cfg.Controllers)
	case cfg.MAG < 0 || cfg.LineSize%cfg.MAG != 0:
		return bad("MAG (%d bytes) must divide LineSize (%d)", cfg.MAG, cfg.LineSize)
	case cfg.Interleave < 0 || cfg.Interleave%cfg.LineSize != 0:
		return bad("Interleave (%d bytes) must be a positive multiple of LineSize (%d)", cfg.Interleave, cfg.LineSize)
	case cfg.MDBlock < 0 || cfg.MDBlock%cfg.MAG != 0:
		return bad("MDBlock (%d bytes) must be a positive multiple of MAG (%d)", cfg.MDBlock, cfg.MAG)
	case cfg.MDWays < 0:
		return bad("MDWays must be positive, got %d", cfg.MDWays)
	case cfg.MDCacheBytes < 0 || cfg.MDCacheBytes > maxMDCacheBytes:
		return bad("MDCacheBytes must be 1 to %d, got %d", maxMDCacheBytes, cfg.MDCacheBytes)
	}
	// MDBlock × MDWays is one set; computed so that it cannot wrap.
	if set, ok := bound.Product(cfg.MDCacheBytes, cfg.MDBlock, cfg.MDWays); !ok || cfg.MDCacheBytes%set != 0 {
		return bad("MDCacheBytes (%d) must be a whole number of sets of MDWays (%d) of MDBlock (%d bytes)", cfg.MDCacheBytes, cfg.MDWays, cfg.MDBlock)
	}
	if _, ok := bound.Product(maxMDBlocks, cfg.Controllers, cfg.MDCacheBytes/cfg.MDBlock); !ok {
		return bad("Controllers (%d) × MDCacheBytes (%d) / MDBlock (%d) is more than %d MD blocks", cfg.Controllers, cfg.MDCacheBytes, cfg.MDBlock, maxMDBlocks)
	}
	switch {
	case !bound.Cycles(cfg.MDHitLatency):
		return bad("MDHitLatency must be 0 to %d cycles, got %d", bound.MaxCycles, cfg.MDHitLatency)
	case cfg.MinBursts < 0 || cfg.MinBursts > 1:
		return bad("MinBursts must be 0 or 1, got %d", cfg.MinBursts)
	case !bound.Cycles(cfg.DRAM.Latency) || !bound.Cycles(cfg.DRAM.BurstCycles):
		return bad("DRAM Latency and BurstCycles must be 0 to %d cycles, got %+v", bound.MaxCycles, cfg.DRAM)
	}
	m := &Memory{cfg: cfg, lineBursts: cfg.LineSize / cfg.MAG, mdBursts: cfg.MDBlock / cfg.MAG}
	m.mdBits = MetadataBits(cfg.Codec, cfg.MAG)
	if m.mdBits > 0 {
		m.linesPerBlock = uint64(8 * cfg.MDBlock / m.mdBits)
		if m.linesPerBlock == 0 {
			return bad("%d metadata bits per line do not fit a %d-byte MD block", m.mdBits, cfg.MDBlock)
		}
		m.mdSets = cfg.MDCacheBytes / cfg.MDBlock / cfg.MDWays
		if m.mdSets == 0 {
			return bad("an MD cache of %d bytes holds no set", cfg.MDCacheBytes)
		}
	}
	m.ctrls = make([]controller, cfg.Controllers)
	for i := range m.ctrls {
		m.ctrls[i].md = make([]mdLine, m.mdSets*cfg.MDWays)
	}
	m.ResetStats()
	return m, nil
}

// MetadataBits returns the metadata bits a memory controller keeps per line
// for codec at a MAG of mag bytes: the codec's tag bits, plus a burst count
// of ceil(log2(LineSize/mag + 1)) bits when the tag bits do not give the
// size. "none" has none.
func MetadataBits(codec linecomp.Codec, mag int) int {
	n := codec.TagBits()
	if n == 0 && linecomp.TagGivesSize(codec) {
		return 0
	}
	if !linecomp.TagGivesSize(codec) {
		n += bits.Len(uint(codec.LineSize() / mag))
	}
	return n
}

// Config returns the configuration with defaults filled in.
func (m *Memory) Config() Config { return m.cfg }

// MetadataBits returns the metadata bits per line; 0 means no metadata.
func (m *Memory) MetadataBits() int { return m.mdBits }

// LinesPerMDBlock returns how many lines' metadata one MD block holds.
func (m *Memory) LinesPerMDBlock() int { return int(m.linesPerBlock) }

// Stats returns the counters so far.
func (m *Memory) Stats() Stats {
	s := m.stats
	s.BurstHistogram = append([]uint64(nil), s.BurstHistogram...)
	return s
}

// ResetStats zeroes the counters; the MD caches keep their contents.
func (m *Memory) ResetStats() {
	h := m.stats.BurstHistogram
	if h == nil {
		h = make([]uint64, m.lineBursts+1)
	}
	clear(h)
	m.stats = Stats{BurstHistogram: h}
}

// Place returns the controller of addr and the line's local index there.
func (m *Memory) Place(addr uint64) (ctrl int, local uint64) {
	il := uint64(m.cfg.Interleave)
	stripe := addr / il
	ctrl = int(stripe % uint64(m.cfg.Controllers))
	local = stripe/uint64(m.cfg.Controllers)*(il/uint64(m.cfg.LineSize)) + addr%il/uint64(m.cfg.LineSize)
	return ctrl, local
}

// Bursts returns the data bursts that moving line takes.
func (m *Memory) Bursts(line []byte) int {
	c := m.cfg.Codec
	size := c.Size(line)
	if size < 0 {
		return -1
	}
	b := linecomp.EffectiveBits(size-c.TagBits(), m.cfg.MAG) / 8 / m.cfg.MAG
	return max(min(b, m.lineBursts), m.cfg.MinBursts)
}

// Access is a request of op for the line at addr (its LineSize bytes,
// compressed by the configured codec) arriving at cycle now. It returns what
// the request did; a line of the wrong length or an unknown op is an error
// and changes nothing.
func (m *Memory) Access(now uint64, op Op, addr uint64, line []byte) (Result, error) {
	if len(line) != m.cfg.LineSize {
		return Result{}, linecomp.LineSizeError("mem", len(line), fmt.Sprintf("%d-byte lines", m.cfg.LineSize))
	}
	return m.access(now, op, addr, m.Bursts(line))
}

// AccessUncompressed is Access for a line stored, or to be stored,
// uncompressed whatever its content: it moves LineSize / MAG bursts, and
// its metadata is looked up and updated as for any line. CABA's stores
// that overflow the store buffer go to memory this way (§5.2.2).
func (m *Memory) AccessUncompressed(now uint64, op Op, addr uint64) (Result, error) {
	return m.access(now, op, addr, m.lineBursts)
}

func (m *Memory) access(now uint64, op Op, addr uint64, bursts int) (Result, error) {
	if op != Read && op != Write {
		return Result{}, linecomp.ConfigError("mem", "unknown op %d", op)
	}
	ci, local := m.Place(addr)
	ctrl := &m.ctrls[ci]
	r := Result{Controller: ci, Bursts: bursts}
	m.stats.Requests++
	if op == Read {
		m.stats.Reads++
	} else {
		m.stats.Writes++
	}
	t := now
	if m.mdBits > 0 {
		t += uint64(m.cfg.MDHitLatency)
		hit, wb := m.lookupMD(ctrl, local/m.linesPerBlock, op == Write)
		m.stats.MDReads++
		if op == Write {
			m.stats.MDWrites++
		}
		if hit {
			m.stats.MDHits++
			r.MDHit = true
		} else {
			m.stats.MDMisses++
			r.MDMiss = true
			t += uint64(m.transfer(ctrl, t, m.mdBursts))
			m.stats.MetadataBursts += uint64(m.mdBursts)
			if wb {
				r.MDWriteBack = true
				m.stats.MDWriteBacks++
				m.stats.MetadataBursts += uint64(m.mdBursts)
				m.transfer(ctrl, t, m.mdBursts)
			}
		}
	}
	t += uint64(m.transfer(ctrl, t, r.Bursts))
	r.Latency = int(t - now)
	m.stats.Bursts += uint64(r.Bursts)
	m.stats.UncompressedBursts += uint64(m.lineBursts)
	m.stats.BurstHistogram[r.Bursts]++
	return r, nil
}

// transfer puts a DRAM request of n bursts on ctrl's bus at cycle t and
// returns its latency: DRAM.Latency plus the wait for the bus.
func (m *Memory) transfer(ctrl *controller, t uint64, n int) int {
	start := max(t, ctrl.busFree)
	busy := uint64(n * m.cfg.DRAM.BurstCycles)
	ctrl.busFree = start + busy
	m.stats.BusBusyCycles += busy
	return m.cfg.DRAM.Latency + int(start-t)
}

// lookupMD looks block up in ctrl's MD cache, filling it on a miss (LRU
// victim) and marking it dirty on a write. It reports a hit, and whether the
// fill evicted a dirty block.
func (m *Memory) lookupMD(ctrl *controller, block uint64, write bool) (hit, writeBack bool) {
	ways := m.cfg.MDWays
	s := int(block % uint64(m.mdSets))
	set := ctrl.md[s*ways : (s+1)*ways]
	m.clock++
	for i := range set {
		if set[i].valid && set[i].block == block {
			set[i].stamp = m.clock
			set[i].dirty = set[i].dirty || write
			return true, false
		}
	}
	victim := -1
	for i := range set {
		if !set[i].valid {
			victim = i
			break
		}
	}
	if victim < 0 { // every way valid: the least recently used goes
		victim = 0
		for i := range set {
			if set[i].stamp < set[victim].stamp {
				victim = i
			}
		}
	}
	writeBack = set[victim].valid && set[victim].dirty
	set[victim] = mdLine{block: block, stamp: m.clock, valid: true, dirty: write}
	return false, writeBack
}

// Flush writes back every dirty MD block at cycle now, counting the
// write-backs and their bursts, as a run that ends with clean metadata
// would. It returns the number of blocks written back.
func (m *Memory) Flush(now uint64) int {
	n := 0
	for i := range m.ctrls {
		ctrl := &m.ctrls[i]
		for j := range ctrl.md {
			if ctrl.md[j].valid && ctrl.md[j].dirty {
				ctrl.md[j].dirty = false
				m.transfer(ctrl, now, m.mdBursts)
				m.stats.MDWriteBacks++
				m.stats.MetadataBursts += uint64(m.mdBursts)
				n++
			}
		}
	}
	return n
}
