// Package cache models a compressed set-associative cache with explicit
// time, as LATTE-CC (Arunkumar et al., HPCA 2018, §IV-A) builds its GPU L1:
// more tags than ways, and the data of each set held as a pool of
// fixed-size sub-blocks, so that compressed lines take fewer sub-blocks and
// more lines fit. With one tag per way and the "none" codec it is an
// ordinary LRU cache.
//
// The model follows linecomp's model specification (model-spec §1 and §2);
// where a paper is silent the rule chosen is marked [ours] below.
//
// # Geometry and placement
//
// A set has TagFactor × Ways tags and Ways × LineSize / SubBlock
// sub-blocks. Line address = addr / LineSize; set = line mod Sets (or a
// hashed index, [IndexHashed]); the tag is the line address.
//
// A line filled in mode m is sized by the codec of that mode:
// k = ceil(ceil((Size − TagBits)/8) / SubBlock) sub-blocks, capped at
// LineSize / SubBlock (a codec that falls back to raw stores the full
// line); an empty payload (BDI's all-zero line) takes k = 0, a tag and no
// data. The line keeps that size until it leaves the cache, except under
// the write-through and write-back options, where a store that hits
// changes the line's data and it is sized again [ours].
//
// # Replacement and writes
//
// True LRU over the set's valid tags. A load that hits makes the line MRU.
// A fill evicts LRU lines until the set has a free tag and k free
// sub-blocks, then inserts the line as MRU. Stores follow the write policy:
// write-evict (the default, LATTE-CC §IV-A: a store that hits invalidates
// the line; no store allocates), write-through-no-allocate (MGPUSim's L1V:
// a store that hits updates the line and makes it MRU) or write-back with
// write-allocate (a store that misses fills the line dirty; evicting a
// dirty line counts a write-back).
//
// # Decompression queue
//
// Each mode has Decompressors non-pipelined decompression units of its own
// (default one), served first come first served (model-spec §2, revised
// 2026-12: LATTE-CC builds separate BDI and SC units). A load hit at cycle
// t to a line stored compressed in mode m waits until one of m's units is
// free, then holds it for D(m) cycles, the decompression latency of m's
// codec: its latency is HitLatency + wait + D(m). With n lines ahead of it
// this is LATTE-CC's Eq. 3, D × (n + 1), above the hit latency. A line is
// stored uncompressed, and bypasses the queues, when its payload is not
// smaller than the line (mode "none", or a codec's raw fallback) [ours].
// The earlier rule, one pool of units shared by every mode, is the option
// SharedDecompressor: under it a BDI hit could wait behind SC² lines.
//
// # Modes and policies
//
// Config.Modes gives the codec of each mode, e.g. none, BDI and SC² for
// LATTE-CC. A [Policy] chooses the mode of every fill by set, which is how
// set sampling works (dedicated sets always use their own mode), and sees
// every event of the cache, the line's data with each fill (to train a code
// book on). Every access ends with an AccessEnd event, when the cache is
// consistent: there, and only there, a policy may replace a mode's codec (a
// new SC² code book) and invalidate the lines stored in that mode.
//
// # Counters
//
// [Stats] counts accesses, load and store hits and misses, evictions (valid
// lines removed to make room; a write-evict invalidation is not one),
// fills, invalidations, write-backs, decompressions and the cycles spent
// waiting for a decompressor, and the effective capacity: after each
// access, the bytes of valid lines (LineSize each) over Sets × Ways ×
// LineSize, averaged over accesses (1.0 is a full uncompressed cache).
//
// # Embedding
//
// A Cache is a passive component: every call takes the current cycle, and
// nothing happens between calls. It has no goroutines and does no I/O; it
// is not safe for concurrent use (a simulator owns one per cache). A
// timing model calls [Cache.Lookup] when an access arrives and [Cache.Fill]
// when the missing line returns; a trace replay calls [Cache.Load], which
// fills at once on a miss, and [Cache.Store].
package cache
