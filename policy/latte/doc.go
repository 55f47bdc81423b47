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
//   - An EP is EPAccesses (256) accesses of the cache; a period is
//     PeriodEPs (10) EPs: the first LearningEPs (1) learn, the rest adapt.
//   - Dedicated sets: DedicatedPerMode (4) per mode. In the learning EPs
//     they always use their mode; all other sets, and in the adaptive EPs
//     every set, use the current winner. The winner before the first
//     decision is mode 0 [ours]. Mode m's k-th set is k·G + (3k + m) mod G
//     with G = Sets/DedicatedPerMode, so that the modes interleave (at 32
//     sets: none {0, 11, 22, 25}, low latency {1, 12, 23, 26}, high
//     capacity {2, 13, 16, 27}), and in period p mode m takes the sets of
//     (m + p) mod 3, so that no mode owns a hot set for the whole run.
//   - N_miss(m): fills into mode m's dedicated sets during the learning
//     EPs. N_hit(m): load hits in them during the learning EPs and one EP
//     more (the paper lets the hit counters run one EP longer, since reuse
//     comes later than insertion). Both restart every period. Store hits
//     are not counted [ours: under write-evict a store that hits removes
//     the line; it reuses nothing].
//   - At the start of every adaptive EP, with the tolerance T measured in
//     the previous EP: AMAT_GPU(m) = (N_hit·max(hit(m) − T, 0) +
//     N_miss·miss) / (N_hit + N_miss), where hit(m) = HitLatency +
//     D(m)·(mean queue position + 1) and miss is the mean L1 miss latency
//     of the previous EP. The queue position is that of a virtual unit of
//     mode m (as many units as the cache has per mode) fed by every load
//     hit of the previous EP at the cycle it happened, whatever mode its
//     line was stored in: position = wait / D(m). That is Eq. 3 if mode m
//     served every hit, the contention LATTE-CC's §V-C describes. The
//     least AMAT wins; ties go to the mode with the lower decompression
//     latency, then the lower mode. A mode with no sample (N_hit + N_miss
//     = 0) has AMAT = miss [ours: as if every access missed].
//   - A mode whose codec implements linecomp.Trainable (SC²) learns its code
//     book from the lines filled during EP 0 of the first period, is rebuilt
//     at the end of it, and is rebuilt from the lines filled during the last
//     EP of every period; when a new period starts, the lines stored with
//     the old code book are invalidated. The first code book replaces the
//     empty one without invalidating the lines stored raw under it [ours:
//     the paper invalidates only when a period starts]. The codecs never
//     change: each policy trains through a linecomp.Trainer, and the first
//     trainer is GPU-wide when the run's policies share a [CodeBooks], as
//     the paper's one SC table for all SMs is (see CodeBooks).
//
// Adaptive-Hit-Count uses the same sampling and chooses the mode with the
// most N_hit. Adaptive-CMP (Alameldeen & Wood, ISCA 2004) keeps, per
// compressed mode, a saturating counter over its dedicated sets while N_hit
// counts (the learning EPs and one more): a load hit to a compressed line at LRU stack depth < Ways (one
// that an uncompressed cache would also have) subtracts D(m); a load hit at
// depth ≥ Ways (one only compression gives) adds the miss latency; the mode
// with the largest positive counter wins, none if no counter is positive.
// CMP's other case, a miss whose tag is resident without data, cannot
// happen in sim/cache, which frees a line's tag with its data.
//
// Every decision is recorded ([Decision]) with what a reader needs to audit
// it: per mode N_hit, N_miss, the queue position, hit(m) and AMAT(m), the
// tolerance and the chosen mode.
//
// # Why the defaults changed (model-spec, revised 2026-12)
//
// Three rules of linecomp's earlier specification misread the paper, and
// with them LATTE-CC lost to Static-BDI on every cache-sensitive trace.
// Each earlier rule stays reachable, so that anyone can reproduce the old
// numbers:
//
//   - [Config.ObservedQueue]: hit(m) from the hits that went through m's
//     own unit. When m is not the winner only its dedicated sets use that
//     unit, so SC² looked nearly free (~34 cycles) until chosen, then cost
//     hundreds; LATTE-CC oscillated into it.
//   - [Config.StridedSets]: each mode's dedicated sets on one residue, the
//     same every period, so strided kernels sampled one mode far more than
//     another.
//   - One decompressor shared by all modes (sim/cache's
//     SharedDecompressor) and the tolerance of Eq. 4 summed over both
//     schedulers (sim/gpu's SMWideTolerance) belong to the cache and the
//     SM model.
//
// What remains is a property of the paper's parameters, not a bug: with
// 256-access EPs and 4 sets per mode each dedicated set sees about ten
// accesses per EP, fewer than the reuse distance of most hits that only
// compression gives. EPAccesses, LearningEPs, PeriodEPs and
// DedicatedPerMode are parameters for a sensitivity study; the defaults
// stay the paper's.
//
// A Policy is passive: it acts only inside the cache's calls and asks its
// Machine at EP boundaries; no goroutines, no I/O, no global state.
package latte
