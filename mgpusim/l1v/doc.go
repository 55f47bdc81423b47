// Package l1v runs a compressed L1 vector cache live inside MGPUSim's
// timing model (github.com/sarchlab/mgpusim/v4 v4.2.0 on akita/v4
// v4.9.0): linecomp's sim/cache with any cache.Policy of policy/latte
// (static modes, LATTE-CC, Adaptive-Hit-Count, Adaptive-CMP) in place of
// every L1V of the R9 Nano platform that mgpusim/capture builds. Nothing
// in MGPUSim or Akita is patched; Attach rewires the built platform (see
// attachOne for how each cache is replaced).
//
// # The cache
//
// Geometry is MGPUSim's L1V: 64 sets of 4 ways of 64-byte lines (16 KB),
// with TagFactor times the tags and SubBlock-byte sub-blocks (defaults 4
// and 16: LATTE-CC's quadrupled tags and quarter-line sub-blocks). Like
// MGPUSim's L1V (akita writearound.Comp) it takes up to 8 requests a cycle,
// has 128 MSHR entries merging misses to a line, a 2-cycle directory and
// 20-cycle banks, and is write-through without write-allocate:
//
//   - a load that hits is answered 2 + HitLatency + wait + D cycles after
//     it arrives, where wait and D are sim/cache's decompression queue and
//     the decompression latency of the line's mode: real simulated time
//     the wavefront waits;
//   - a load that misses is sent to the L2 2 cycles later (or joins the
//     line's MSHR entry); the L2's bytes are filled into sim/cache, in the
//     mode the policy chooses, and every load waiting for the line is
//     answered a bank access (20 cycles) after the fill;
//   - a store goes to the L2 and is answered when the L2 has it; a line
//     present takes the bytes (sim/cache sizes it again), a line on its
//     way takes them when it arrives (as MGPUSim merges stores into MSHR
//     entries);
//   - a flush from the command processor waits for the transactions in
//     flight, invalidates every line, answers, and pauses the cache if
//     asked; a restart resumes it.
//
// The bytes of every line present are kept from the L2's responses and
// the stores, and hits are answered with them, so a benchmark's own
// verification checks the data path.
//
// What differs from MGPUSim's L1V: a miss takes its tag when the line
// arrives (sim/cache's Fill) rather than when the request leaves; every
// request is one access (MGPUSim coalesces consecutive requests of an
// instruction to one line into one transaction); bank conflicts are not
// modelled. The tests state the resulting tolerances.
//
// # LATTE-CC's inputs from the compute unit
//
// The adaptive policies ask for the latency tolerance (Eq. 4) and the L1
// miss latency of every EP; see machine for exactly what is read from
// MGPUSim's CU (instruction-issue tracing tasks through a hook on the CU,
// and the exported State and InstToIssue of the wavefronts seen issuing,
// sampled every SampleEvery cycles) and how the four SIMD wavefront pools
// are the schedulers of model-spec §3's per-scheduler rule. The miss
// latency is the mean over the EP of the L1's fills (request to fill).
//
// adapter.go holds every use of the root's sim/cache and policy/latte.
package l1v
