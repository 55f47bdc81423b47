// Package capture runs MGPUSim's benchmarks (github.com/sarchlab/mgpusim/v4
// v4.2.0 on github.com/sarchlab/akita/v4 v4.9.0) and records the data they
// move as linecomp traces: line-traffic traces (package trace) of the
// inter-GPU link, the L2↔DRAM interface or the L1 vector caches, and warp
// instruction traces (package trace/warp) from the emulator. Nothing in
// MGPUSim or Akita is patched: the capture builds the platform with their
// exported constructors and watches it through hooks, tracers and the
// global storage. The command mgpusim/cmd/capture is its front end.
//
// # Streams
//
// rdma (timing): every payload an RDMA engine sends to another GPU. A
// remote read is answered by the owner's L2 and leaves the owner's engine
// as a *mem.DataReadyRsp on RDMADataOutside (amd/timing/rdma/comp.go:225,
// processRspFromL2), recorded as trace.Read from the owner to the
// requester; a remote write leaves the writer's engine as a *mem.WriteReq
// on RDMARequestOutside (comp.go:177, processReqFromL1), recorded as
// trace.Write from the writer to the owner. Src and Dst are MGPUSim's GPU
// numbers (GPU[1] is 1). A data-ready response carries no address: the
// read requests arriving at RDMADataOutside are remembered by message ID
// (Akita's HookPosPortMsgRecvd, sim/port.go:145) until answered. The
// engine neither splits nor aligns anything: it forwards what the L1
// caches send (cloneReq/cloneRsp, comp.go:353-400), and those move whole
// 64-byte blocks (log2CacheLineSize 6, timingconfig/r9nano/builder.go:68).
// A write is the issuing L1's 64-byte block buffer with a dirty mask, zero
// where the block is not dirty (akita mem/cache/writearound/coalescer.go:194,
// coalesceWrite), and is recorded as sent. The capture checks every
// payload is one aligned 64-byte line and stops with ErrCapture if not.
//
// dram (timing): every line between an L2 bank (akita
// mem/cache/writeback.Comp) and its DRAM controller, seen at the L2's
// Bottom port: fills (the *mem.DataReadyRsp arriving for a ReadReq the L2
// sent, writebufferstage.go:134) as trace.Read, write-backs (the
// *mem.WriteReq it sends, writebufferstage.go:244) as trace.Write. Banks
// are numbered (gpu-1)*16 + bank; bank b of L2 talks only to controller b
// (r9nano/builder.go:272, connectL2AndDRAM), so Src = Dst and Op tells the
// direction. The R9 Nano model's DRAM is idealmemcontroller (fixed 100
// cycles, builder.go:515) over the global storage. DMA copies reach DRAM
// without an L2 and are not in the stream.
//
// l1 (timing): every request reaching an L1 vector cache's Top port
// (akita mem/cache/writearound, built in
// timingconfig/shaderarray/builder.go:557), after address translation, so
// addresses are physical. Src is the compute unit, (gpu-1)*64 + 4*SA +
// index, and Dst the GPU number. The payload is each -line line the
// request touches, read from the global storage when the request arrives,
// with a write's bytes laid over it. The global storage is DRAM: a line
// dirty in an L2 (MGPUSim's L2 is write-back, and only memory copies flush
// it) reads with its DRAM value. In the FIR test every read response the
// L1 returns matches the payload.
//
// warps (emulation, one GPU): per-wavefront instruction streams. The
// emulated compute unit (amd/emu/computeunit.go) runs one wavefront until
// a barrier or its end (runWfUntilBarrier, :317) and after each
// instruction invokes its hooks with Item = *emu.Wavefront and Detail =
// *insts.Inst (logInst, :357). Its ALU reaches memory only through the
// emu.StorageAccessor given to the ALU factory (BuildComputeUnitWithALU,
// :464; interface in storageaccessor.go:12); instruction fetches go
// through the compute unit's own, unwrapped reference (:326). The capture
// builds the emulation platform itself (the runner's emugpu builder makes
// its compute units internally) with an ALU factory that wraps the
// accessor, so every data access is seen with its virtual address and
// attributed to the instruction named by the next hook. FLAT loads and
// stores become warp.Load and warp.Store, their lanes coalesced into the
// distinct lines in order of first touch, each line's payload read after
// the instruction (for a store, the line after it). Scalar loads (SMEM:
// kernel arguments, constants) and LDS instructions count as Compute.
// Addresses are the program's virtual addresses.
//
// # Benchmarks
//
// MGPUSim's own benchmarks take the flags of MGPUSim's sample programs.
// The suite's benchmarks (package suite: bc, color, gbfs, km, mis, pf, prk,
// sssp) are linecomp's own OpenCL kernels of the papers' workloads; the
// graph kernels read -graph FILE or generate an R-MAT or grid graph
// (graphInput), and each verifies every result against its host
// reference. They run on one GPU; several GPUs must be one unified GPU
// (-unified), over which MGPUSim's driver spreads each kernel's
// work-groups, so the rdma stream records the traffic that spreading
// makes.
//
// One timing run can record several streams (RunStreams: rdma, dram and l1
// hook different ports, and each stream's file is byte-identical to a run
// of that stream alone; TestRunStreams). Config.Progress reports a long
// run's progress from inside the simulation.
//
// # Platform and runs
//
// Timing runs use the sample runner's own builder
// (amd/samples/runner/timingconfig) for GPU type r9nano. Run then does
// what the runner's Run does: start the driver, run the benchmark, run its
// verification, stop. The runner itself is not used: it takes its settings
// from package-level flags (its -gpus is a list), always opens the
// monitoring server unless told otherwise, and builds its simulation with
// an SQLite recorder in the working directory
// (akita simulation/builder.go:89); the capture builds the simulation
// without monitoring and with the recorder in a temporary directory.
// Benchmarks report a wrong result by panicking (turned into ErrVerify) or
// by log.Fatal (the process exits with status 1).
//
// # Determinism
//
// The serial engine runs one event at a time in time order, hooks run
// inside it, and the capture keeps no state whose order depends on Go's
// map iteration. Several benchmarks draw their inputs from math/rand's
// global source (aes, bitonicsort, spmv, pagerank unseeded; kmeans,
// matrixmultiplication, floydwarshall after rand.Seed), which Go 1.20+
// seeds randomly and Go 1.24+ makes unseedable; the module's go.mod sets
// godebug randautoseed=0 and randseednop=0 (a program importing this
// package needs the same lines in its own go.mod). With that, captures
// repeat byte for byte (TestDeterministic; the held-out FIR command on 4
// GPUs; most committed traces), with two exceptions from MGPUSim's
// driver, which takes commands from the benchmark's goroutine and
// schedules its tick at whatever time the engine has reached when it
// notices them (amd/driver/driver.go:94-115): a timing capture can come
// out shifted by whole cycles (seen once: every record of a dram capture
// 2,000 ps later, same records in the same order), and in emulation the
// order of a kernel's workgroups can change (the emulated compute units
// run them all at one whole-second event time, computeunit.go:115), and
// with it the bytes of lines several workgroups write (floydwarshall
// -node 64). Making the driver notice commands only when the engine is
// idle (a wrapper around the engine held in the driver's exported Engine
// field) would remove the first; it is not done.
package capture
