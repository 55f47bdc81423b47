// Package gpu is a trace-driven timing model of a GPU's streaming
// multiprocessors (SMs) and their memory path: warps issuing from recorded
// instruction streams under a GTO or loose round-robin scheduler, coalesced
// line accesses entering a (possibly compressed) L1 data cache one per
// cycle, MSHRs that merge misses to the same line, and a shared L2 cache in
// front of a memory whose latency a caller can model. It is the machine of
// LATTE-CC (Arunkumar et al., HPCA 2018, Table II) as linecomp's model
// specification (model-spec §3) fixes it, and it measures what LATTE-CC
// needs: the latency tolerance of each SM in each experimental phase
// (Eq. 4).
//
// # Execution
//
// A workload is a sequence of kernels from a warp trace
// (github.com/linecomp/linecomp/trace/warp); kernels run one after another.
// A kernel's blocks are dispatched to SMs round-robin as an SM has room (at
// most BlocksPerSM blocks and WarpsPerSM warps). Each warp runs its stream:
// Compute n issues n instructions, one a cycle, with no dependence stalls;
// Load and Store issue in one cycle and queue their line accesses, which
// enter the L1 one per cycle per SM in order; a warp that issued a load
// waits until all its lines have returned, a store does not block it;
// Barrier waits for the block's other live warps; Exit ends the warp.
//
// Each SM has Schedulers schedulers (warp slot w belongs to scheduler w mod
// Schedulers), each issuing at most one instruction per cycle. GTO keeps
// issuing from the warp it issued last while that warp is ready, otherwise
// it picks the oldest ready warp (the earliest dispatched); loose
// round-robin picks the first ready warp after the last one issued.
//
// # Memory path
//
// A load that hits in the L1 returns after the cache's hit latency,
// decompression included (sim/cache). A miss takes an MSHR (MSHRs per SM;
// a miss to a line that already has one merges into it, and with all taken
// the access waits in the queue), goes to the L2 (an uncompressed
// sim/cache, shared): an L2 hit returns after L2HitLatency cycles, a miss
// after L2HitLatency plus the Memory's latency. When the line returns, it
// is filled into the L1 (in the mode its policy chooses) and every merged
// load gets it. Stores go through the L1's write policy (write-evict by
// default) and to the L2 (write-back, write-allocate) and the Memory when
// the L2 writes back. Compression happens at the fill, off the load's
// critical path [ours].
//
// # Memory side and CABA (model-spec §5, §7)
//
// The Memory below the L2 may be sim/mem's memory controllers
// ([MemoryController]): every L2 miss and every dirty line the L2 evicts
// is then a request with the line's latest content, moving the bursts its
// codec gives, and DRAM bandwidth limits performance. The GPU keeps the
// latest content of every line it has seen for those write-backs.
//
// The interconnect between the L2 slices and the SMs may have a limited
// bandwidth (Interconnect.FlitBytes per cycle per slice's response port;
// the request path is not limited [ours]) and may carry lines compressed
// (Interconnect.Codec): HW-BDI, CABA-BDI and Ideal-BDI of CABA §7. The L1
// always holds lines uncompressed then. A compressed fill is decompressed
// at the SM by hardware (Interconnect.DecompressCycles) or, with Assist,
// by a high-priority assist warp whose instructions take issue slots before
// any warp's and whose parent loads wait until it is done; a store waits in
// a small store buffer for a low-priority assist warp that runs in issue
// slots no warp used, and goes out uncompressed (and stays uncompressed in
// DRAM until written again) when the buffer is full (CABA §5.2).
//
// # Latency tolerance (Eq. 4)
//
// Per SM and per EP (the span between two calls of [Probe.EndEP], which a
// policy such as policy/latte makes every 256 L1 accesses):
// average_warp_available is the mean over the EP's cycles of the number of
// ready warps, average_execution_cycles_per_schedule is the issue cycles
// (instructions issued by the SM's schedulers) over the times a scheduler
// switched to another warp; their product is the tolerance. With no switch
// in an EP, the issue cycles are one schedule [ours].
//
// # Simulation
//
// The model steps cycle by cycle, but skips what cannot change anything,
// and every count is the one that stepping through those cycles gives
// (TestComputeRun checks a skip by hand; cycle counts were unchanged on
// every committed trace when the skips came in): with no SM able to act,
// time jumps to the next event (a load line returning, a fill); an SM
// whose next access waits for an MSHR sleeps until one of its fills; and
// when every active SM only issues a GTO Compute that no event interrupts,
// those cycles are taken in one step. Events wait in a timing wheel
// (per-cycle buckets over the next 4096 cycles, a heap beyond) that pops
// them in the order of their cycle and then of their scheduling.
//
// # Embedding and driving
//
// The model is passive and has no goroutines or I/O: [New] builds it, and
// [GPU.Run] replays a kernel given as per-warp instruction streams,
// advancing its own cycle count; each SM's L1 policy is attached by the
// caller through Config.AttachL1, so the model depends on no policy
// package. Drivers that read trace files and run several configurations in
// parallel live elsewhere (cmd/linecomp).
package gpu
