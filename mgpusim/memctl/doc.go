// Package memctl runs a MAG-aware compressing memory controller live inside
// MGPUSim's timing model (github.com/sarchlab/mgpusim/v4 v4.2.0 on
// akita/v4 v4.9.0): the memory controller of MAG-aware BDI (Lal et al.)
// and of CABA's memory side, as linecomp's model-spec §5 and sim/mem
// specify it, between each L2 bank and a cycle-level DRAM channel
// (akita's mem/dram), so that the bursts compression saves are DRAM time
// saved. Nothing in MGPUSim or Akita is patched: Attach rewires the
// platform that mgpusim/capture builds with the sample runner's own R9
// Nano builder.
//
// # The platform
//
// MGPUSim's R9 Nano model puts an ideal memory controller (a fixed 100
// cycles, no bursts) behind each of the 16 L2 banks of a GPU. Attach
// builds a mem/dram channel per bank (GDDR5 by default, HBM2 as an option;
// see [DRAM]), sets each L2 bank's address mapper to it (writeback.Comp's
// SetAddressToPortMapper) and plugs it into the registered
// "GPU[g].L2ToDRAM" connection. The ideal controllers stay where they
// are, reached only by the DMA engine and the page migration controller
// (the driver's copies, which use no L2; the global storage is shared).
//
//   - Config.Codec "" is the baseline: the channel serves the L2 directly
//     on MGPUSim's global storage, with the R9 Nano interleaving compacted
//     by mem.InterleavingConverter (128-byte stripes over 16 channels).
//   - Any registry name ("none", "bdi", "magbdi-32", "fpc", "cpack", …)
//     puts our controller, [Comp], between the bank and the channel: the
//     bank's requests go to its Top port, and its Bottom port and the
//     channel share a connection of their own.
//
// # What the controller does
//
// Functionally the controller is the memory: it applies a write to
// MGPUSim's global storage and takes a read's bytes from it when the
// request arrives (the L2 never has a read and a write of one line in
// flight at once). For timing, every request's line (64 bytes, after the
// request) is passed to a sim/mem model of the GPU's 16 controllers
// (Controllers 16, Interleave 128, LineSize 64, the channel's MAG), which
// compresses it with the codec and keeps the metadata caches; the
// controller then moves what the model says on the channel:
//
//   - with metadata (any codec but "none"): the MD lookup takes
//     MDHitLatency cycles; on a miss the MD block (MDBlock bytes) is read
//     from a region reserved at the top of the channel before the data,
//     and a dirty block it evicts is written back there (off the critical
//     path; sim/mem does not say which block it evicted, so the write-back
//     goes to the fetched block's address, which costs the same in
//     mem/dram's close-page channel [ours]);
//   - the data: Bursts × MAG bytes from the line's address in the channel
//     (its local index, as the baseline's converter computes it); a line
//     of no bursts (BDI's zero line) does not reach the channel.
//
// The channel has a storage of its own, which holds nothing meaningful: it
// only times the bursts. The L2 gets the whole line back. "none" moves the
// same bytes to the same channel addresses as the baseline; the only
// difference is the controller's place in the path, two more connection
// hops each way (see the tests for the measured effect).
//
// # Counting
//
// [Stats] counts, by hooks on every channel's Top port, the requests, bytes
// and bursts the channels received and their time in the channel; by hooks
// on the L2 banks' Bottom ports, the latency the L2 saw; and sim/mem's
// counters. The hooks count the same way with or without our controller.
package memctl
