// Package latte implements LATTE-CC (Arunkumar et al., "LATTE-CC:
// Latency Tolerance Aware Adaptive Cache Compression Management for GPUs",
// HPCA 2018): an L1 policy that chooses, for each experimental phase (EP),
// between storing lines uncompressed, with a low-latency codec (BDI) or
// with a high-capacity codec (SC²), whichever gives the least average
// memory access time the GPU cannot hide, AMAT_GPU. It also implements the
// baselines the paper compares against: Static (one mode everywhere),
// Adaptive-Hit-Count and Adaptive-CMP. Kernel-OPT, an oracle that runs each
// kernel under every static mode, belongs to the driver (sim/gpu).
//
// A Policy drives a [cache.Cache] through the cache's Policy interface: it
// chooses the mode of every fill by set and counts the events of the
// dedicated sets. It asks the SM model it serves for the latency tolerance
// and the mean L1 miss latency of each EP through the [Machine] interface.
// The rules are those of linecomp's model specification (model-spec §4):
//
//   - Modes: 0 none, 1 low latency, 2 high capacity (any codecs; BDI and
//     SC² by default, BPC for LATTE-CC-BDI-BPC).
//   - An EP is 256 accesses of the cache; a period is 10 EPs: EP 0 learns,
//     EPs 1–9 adapt.
//   - Dedicated sets: in EP 0, sets i·Sets/12 (i = 0..11) always use mode
//     i mod 3; all other sets, and in EPs 1–9 every set, use the current
//     winner. The winner before the first decision is mode 0 [ours].
//   - N_miss(m): fills into mode m's dedicated sets during EP 0. N_hit(m):
//     load hits in them during EPs 0 and 1 (the paper lets the hit counters
//     run one EP longer, since reuse comes later than insertion). Both
//     restart every period. Store hits are not counted [ours: under
//     write-evict a store that hits removes the line; it reuses nothing].
//   - At the start of every adaptive EP, with the tolerance T measured in
//     the previous EP: AMAT_GPU(m) = (N_hit·max(hit(m) − T, 0) +
//     N_miss·miss) / (N_hit + N_miss), where hit(m) = HitLatency +
//     D(m)·(mean queue position + 1), the queue position of a hit being
//     its wait over D(m), averaged over the previous EP's hits in mode m,
//     and miss is the mean L1 miss latency of the previous EP. The least
//     AMAT wins; ties go to the mode with the lower decompression latency,
//     then the lower mode. A mode with no sample (N_hit + N_miss = 0) has
//     AMAT = miss [ours: as if every access missed].
//   - A mode whose codec implements linecomp.Trainer (SC²) learns its code
//     book from the lines filled during EP 0 of the first period, is rebuilt
//     at the end of it, and is rebuilt from the lines filled during the last
//     EP of every period; when a new period starts, the lines stored with
//     the old code book are invalidated. The first code book replaces the
//     empty one without invalidating the lines stored raw under it [ours:
//     the paper invalidates only when a period starts].
//
// Adaptive-Hit-Count uses the same sampling and chooses the mode with the
// most N_hit. Adaptive-CMP (Alameldeen & Wood, ISCA 2004) keeps, per
// compressed mode, a saturating counter over its dedicated sets during EPs
// 0 and 1: a load hit to a compressed line at LRU stack depth < Ways (one
// that an uncompressed cache would also have) subtracts D(m); a load hit at
// depth ≥ Ways (one only compression gives) adds the miss latency; the mode
// with the largest positive counter wins, none if no counter is positive.
// CMP's other case, a miss whose tag is resident without data, cannot
// happen in sim/cache, which frees a line's tag with its data.
//
// Every decision is recorded ([Decision]) and can be written as CSV.
//
// A Policy is passive: it acts only inside the cache's calls and asks its
// Machine at EP boundaries; no goroutines, no I/O, no global state.
package latte
