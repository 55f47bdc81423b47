// Package bpc implements Bit-Plane Compression (Kim, Sullivan, Choukse,
// Erez, "Bit-Plane Compression: Transforming Data for Better Compression
// in Many-core Architectures", ISCA 2016), with stream sizes equal to those
// of the BPC authors' own code (scalable-arch/compression,
// src/BPCompressor.hh). It registers "bpc" and the variant "bpc-unsigned"
// with linecomp, for 128-byte lines (the paper's 32 × 32-bit words) and
// also 64- and 32-byte lines.
//
// # Transform
//
// A line of n little-endian 32-bit words w_0 … w_{n−1} (n = 32, 16 or 8),
// read as signed, gives n − 1 deltas Δ_i = w_i − w_{i−1} (i = 1 … n−1),
// each a 33-bit signed value. The delta bit planes DBP[j], j = 0 … 32, are
// (n−1)-bit words whose bit i−1 is bit j of Δ_i; plane 32 is the sign of
// the deltas. The DBX planes XOR neighbouring planes: DBX[32] = DBP[32],
// DBX[j] = DBP[j] XOR DBP[j+1]. Smooth data make most DBX planes zero.
//
// # Stream
//
// A 1-bit flag (TagBits = 1), then, all fields MSB-first:
//
//	flag 0: the raw line, in memory order (8 × LineSize bits)
//	flag 1: the base word w_0, then one symbol per DBX plane (or run of
//	        planes) from DBX[32] down to DBX[0]
//
// The bit-plane stream is used only when it is strictly shorter than the
// line. The base word takes the first code whose sign-extended field holds
// it:
//
//	000           w_0 = 0
//	001 + 4 bits  −8 … 7
//	010 + 8 bits  −128 … 127
//	011 + 16 bits −32768 … 32767
//	1 + 32 bits   anything else
//
// All-zero DBX planes are grouped greedily into maximal runs (at most 33,
// as there are 33 planes). Each run or non-zero plane is one symbol; a
// non-zero plane takes the first symbol that applies, in this order (the
// authors' priority, which decides sizes where several apply):
//
//	01 + 5 bits (length−2)  run of 2 … 33 zero DBX planes
//	001                     a single zero DBX plane
//	00001                   DBP[j] = 0 (so DBX[j] = DBP[j+1])
//	00000                   DBX[j] all ones
//	00010 + position p      exactly two ones, at p and p+1
//	00011 + position p      exactly one one, at p
//	1 + DBX[j]              the raw n−1-bit plane, bit n−2 (Δ_{n−1}) first
//
// A position is a bit index in the plane, i.e. delta index − 1, in
// ceil(log2(n−1)) bits.
//
// # Line sizes
//
// The paper and the authors' code define BPC for 128-byte lines only. For
// 64-byte (16 words) and 32-byte lines (8 words) this package uses the
// same scheme with 15- and 7-bit planes and 4- and 3-bit position fields;
// there are still 33 planes, so the run-length field stays 5 bits (runs of
// up to 33). This generalisation is ours, not the paper's.
//
// # Worked example
//
// The 32-byte line of words 3, 4, 6, 6, 5, 5, 5, 7 (bytes 03 00 00 00 04
// 00 00 00 …) has deltas Δ_1…Δ_7 = 1, 2, 0, −1, 0, 0, 2. Written Δ_7
// first, DBP[32…2] = 0001000 (only Δ_4 = −1 has those bits),
// DBP[1] = 1001010 and DBP[0] = 0001001, so DBX[32] = 0001000,
// DBX[31…2] = 0, DBX[1] = 1000010 and DBX[0] = 1000011:
//
//	flag  base      DBX[32]       DBX[31…2]    DBX[1]      DBX[0]
//	1     001 0011  00011 011     01 11100     1 1000010   1 1000011
//	      w_0 = 3   one one at 3  run of 30    raw         raw
//	= 93 1B 79 85 86 (39 bits: 1 + 7 + 8 + 7 + 8 + 8)
//
// # Variants
//
//   - "bpc-unsigned" (WithUnsignedPlane): plane 32 is the borrow of the
//     unsigned subtraction (w_i < w_{i−1} as unsigned), as the bit-exact C
//     implementation in NAP64/Memory-Compression-Measurements-Open
//     (include/bpc.h) computes it. It exists to cross-check against that
//     code; it differs from the default only when words cross the
//     signed/unsigned boundary (e.g. 0, −1, …, −31 is 15 bits signed but 52
//     unsigned). Only the plane changes: the symbol priority stays the
//     authors'.
//
// A codec's Name is the registry name of its configuration however it was
// built (New(n, WithUnsignedPlane()) is "bpc-unsigned"), so
// linecomp.New(c.Name(), c.LineSize()) makes the same codec.
//
// # Encodings
//
// The codec implements linecomp.EncodingReporter with two encodings:
// "compressed", the bit-plane stream, whose length varies with the line,
// and "raw", 1 + 8 × LineSize bits. The flag alone does not give a line's
// length (linecomp.TagGivesSize is false).
//
// # Decoding
//
// Decompress rebuilds the DBX planes, the DBP planes by the XOR chain from
// plane 32 down, the deltas by transposing the planes back, and the words
// as prefix sums modulo 2^32; plane 32 is not checked against the words.
// It accepts any stream of the layout above, including ones Compress would
// not produce, and rejects runs longer than the planes left, positions
// outside the plane (p ≥ n−1 for one one, p+1 ≥ n−1 for two), truncation,
// trailing bytes and non-zero padding. Compress and Decompress read all of
// their input before they write to dst, so dst may overlap it.
//
// # Kernels
//
// On amd64 at 64 and 128 bytes, Compress runs one AVX-512 kernel per line
// (the transform, every plane's symbol in vector lanes, the packing: in
// registers at 64 bytes, where it writes straight into dst when dst has
// room for a line), and
// Decompress parses the plane symbols with a kernel (up to three raw
// symbols a step, the other kinds from a table on their first ten bits,
// no branch on a symbol's kind) and rebuilds the line with an AVX-512 one;
// at 64 bytes one kernel does both, and steps from symbol to symbol with a
// table, made with vector code before its loop, of the length of a step
// at every bit position of the stream, so that the loop's chain is one
// byte load and an add a step.
// Every level is checked against the pure-Go encoder and the field-by-field
// decoder on every corpus line (kernel_test.go).
//
// # Latency
//
// The BPC paper is not among the latency sources (linecomp.LatencyPresets()),
// so the default is linecomp.DefaultLatency("", "bpc"): LATTE-CC Table I,
// which gives only the decompression latency, 11 cycles; compression is
// linecomp.LatencyUnknown. WithLatency sets both.
package bpc
