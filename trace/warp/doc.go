// Package warp reads and writes warp instruction traces: for each kernel
// launch, its grid and block sizes, and for each warp (a GCN wavefront) its
// instruction stream — Compute n (n non-memory instructions), Load and Store
// (the line-level accesses of one memory instruction after coalescing, each
// with its payload), Barrier and Exit — with the PC of every memory
// instruction. linecomp's SM model replays them (blocks dispatched to SMs,
// each warp running its stream, a warp that issued a load waiting for its
// lines); the MGPUSim capture tool writes them from the emulator.
//
// The container is package trace's — magic (kind byte 'W'), header block,
// chained CRC-32C data blocks that may be deflated, the end marker with the item and
// block counts, the first-in-first-out payload dictionary — so the error
// rules are the same: malformed input is a *trace.FormatError wrapping
// ErrFormat with the byte offset, a trace cut short or with a flipped byte
// never reads back as another valid one, memory stays bounded.
//
// # Order
//
// A trace is a sequence of kernels; a kernel's instructions follow it. The
// instructions of different warps may interleave in any order — the
// emulator runs one wavefront until a barrier, then another, and a capture
// need not buffer them — but those of one warp are in program order, each
// warp ends with Exit, and no warp runs after its Exit. Every warp that
// appears in a kernel must exit before the next kernel or the end of the
// trace (the writer refuses otherwise and the reader checks it). A consumer
// that wants per-warp streams demultiplexes by Inst.Warp; a warp's Exit says
// its stream is complete, so a streaming consumer knows when a block's
// warps have all finished.
//
// A warp is named by its block's linear id (x fastest) and its index in
// the block; blocks at the grid's far edges may be partial (Kernel.Warps).
// Consecutive Compute instructions of one warp with nothing between them are
// stored, and read back, as one Compute with the summed count.
//
// # Layout
//
// The header block's kind-specific field is WarpSize (varint, 1…1024), and
// LineSize is at most 1024. Each data-block item is one of (± marks a
// zigzag varint, as in package trace):
//
//	kernel   tag 0x00, name length (≤ 4096) and name, Grid x y z, Block x y z
//	         (varints, each 1…2^32−1; blocks × warps per full block ≤ 2^24)
//	inst     tag: bits 0–2 the kind (1 Compute, 2 Load, 3 Store, 4 Barrier,
//	         5 Exit), bit 3 the warp changes, bits 4–7 zero; then
//	         if bit 3: ± Block − previous Block, and the warp Index
//	         Compute: Count (varint ≥ 1)
//	         Load, Store: ± PC − previous PC, the number of lines (≤ 1024),
//	           and per line: ± Addr/LineSize − previous one, then a payload
//	           code: 0 and LineSize bytes (a literal, which enters the
//	           dictionary), or k ≥ 1: the payload at distance k − 1
//	         Barrier, Exit: nothing more
//
// The previous warp, PC and line start at 0 with each kernel and are those
// of the previous item of the kernel, whatever its warp.
//
// # Worked example
//
// Lines of 8 bytes, warps of 4 threads, Source "ex", Options{DictEntries:
// 4} (no compression). Kernel "k" has Grid {6,1,1} and Block {4,1,1}: block
// 0 holds threads 0–3 (one warp), block 1 threads 4–5 (one partial warp).
// Written: warp (0,0) Compute 1 twice; warp (1,0) Load at PC 0x100 of lines
// 0x40 (01 02 … 08) and 0x48 (zeros); warp (0,0) Store at PC 0x108 of line
// 0x40 (01 02 … 08); warp (0,0) Barrier and Exit; warp (1,0) Exit:
//
//	4C 43 54 52 41 43 45 57 02  magic "LCTRACE", kind 'W', version 2
//	48 07                       header block, 7 bytes
//	00 08 04 02 65 78 04          flags 0, LineSize 8, DictEntries 4, "ex", WarpSize 4
//	1A EE 40 EF                   CRC-32C 0xEF40EE1A
//	44 32                       data block 'D', 50 bytes
//	07                            7 items
//	00 01 6B 06 01 01 04 01 01    kernel "k", grid 6 1 1, block 4 1 1
//	01 02                         Compute 2 (the two Compute 1 merged), warp (0,0)
//	0A 02 00                      Load, warp changes: Block +1 → zigzag 2, Index 0
//	80 04                           PC +0x100 → zigzag 512 = 0x00|0x80, 4
//	02                              2 lines
//	10 00 01 02 03 04 05 06 07 08   line +8 (0x40/8) → zigzag 16; literal
//	02 00 00 00 00 00 00 00 00 00   line +1 → zigzag 2; literal zeros
//	0B 01 00                      Store, warp changes: Block −1 → zigzag 1, Index 0
//	10 01                           PC +8 → zigzag 16; 1 line
//	01 02                           line −1 → zigzag 1; code 2: distance 1
//	04                            Barrier, warp (0,0)
//	05                            Exit, warp (0,0)
//	0D 02 00                      Exit, warp changes: Block +1, Index 0
//	C4 1F 6B 8C                   CRC-32C 0x8C6B1FC4, continued from 0xEF40EE1A
//	45 02 07 01 A2 AD 32 DA     end block: 7 items in 1 block, CRC-32C 0xDA32ADA2
//
// Reading it back gives the kernel, then Compute 2, the Load, the Store,
// the Barrier and the two Exits, then io.EOF.
package warp
