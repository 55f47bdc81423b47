// Package mem models the memory side of a GPU that compresses the traffic
// between its last-level cache and DRAM: memory controllers that fetch a
// compressed line in whole bursts of the memory access granularity (MAG),
// keep each line's compression metadata in DRAM and cache it in a small
// metadata (MD) cache, and share one DRAM channel each. It is the memory
// controller of MAG-aware BDI (Lal et al., §IV-F, §V) and of CABA's memory
// side (Vijaykumar et al., §5.3.2), as linecomp's model specification
// (model-spec §5) fixes it; rules the papers leave open are marked [ours].
//
// # Placement
//
// A line belongs to controller (addr / Interleave) mod Controllers; its
// local line index in that controller is
// (addr / Interleave / Controllers) × (Interleave / LineSize) +
// (addr mod Interleave) / LineSize.
//
// # Metadata
//
// Each line has metadata bits: the codec's tag bits (2 for magbdi-32 at 128
// bytes, 4 for bdi), plus, when the tag bits do not tell the line's size
// (linecomp.TagGivesSize is false: fpc, cpack, bpc, sc2 have a 1-bit flag),
// a burst count of ceil(log2(LineSize/MAG + 1)) bits [ours: the
// combination; CABA keeps "how many bursts are needed"]. A codec with no
// metadata bits ("none") has no metadata: no MD lookups. One MD block of
// MDBlock bytes holds the metadata of floor(8·MDBlock / bits) consecutive
// local lines. Each controller caches MD blocks in its own MD cache (true
// LRU; set = block number mod sets). Every request looks its block up (a
// write must update its entry, so a write that misses fetches the block
// too); the lookup takes MDHitLatency cycles; a miss then reads the block
// from DRAM (MDBlock / MAG bursts) before the data access; a write marks the
// block dirty; evicting a dirty block writes it back (MDBlock / MAG bursts)
// [ours]. Dirty blocks still cached at the end are neither written back nor
// counted unless the caller calls [Memory.Flush].
//
// # Bursts and timing
//
// A request moves EffectiveBits(Size − TagBits, MAG) / 8 / MAG data bursts,
// at most LineSize / MAG; "none" moves LineSize / MAG. A zero-bit payload
// (BDI's all-zero line) moves no burst [ours; Config.MinBursts = 1 makes it
// one]. Each controller has one channel whose data bus a burst occupies for
// BurstCycles cycles; a DRAM request's latency is DRAM.Latency plus its wait
// for the bus [ours: a simple channel, no banks or rows]. A dirty MD block's
// write-back occupies the bus after the fetch that evicted it, off the
// request's critical path.
//
// # Counters
//
// [Stats] counts requests, data bursts, the bursts the same requests take
// uncompressed (requests × LineSize / MAG), metadata bursts (MD fetches and
// write-backs), MD hits, misses and write-backs, MD reads and writes (for
// energy), bus-busy cycles and the distribution of data bursts per request
// (the shape of MAG-aware BDI Fig. 12).
//
// # Embedding
//
// A Memory is a passive component with explicit time: [Memory.Access] takes
// the cycle at which a request arrives and returns its latency. It has no
// goroutines and does no I/O, and is not safe for concurrent use.
package mem
