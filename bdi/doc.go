// Package bdi implements Base-Delta-Immediate compression (Pekhimenko et
// al., "Base-Delta-Immediate Compression: Practical Data Compression for
// On-Chip Caches", PACT 2012), with the encodings exactly as Table II of
// Tavana et al. (multi-GPU adaptive compression) lists them. It registers
// "bdi" and two variants with linecomp, for 32-, 64- and 128-byte lines.
//
// # Stream
//
// A 4-bit encoding id (TagBits = 4), then its payload, all MSB-first:
//
//	id    encoding       payload
//	0000  zeros          none
//	0001  repeated       one 64-bit value: every 8-byte word equals it
//	0010  base8-Δ1       mask, base, deltas (k = 8, d = 1)
//	0011  base8-Δ2       k = 8, d = 2
//	0100  base8-Δ4       k = 8, d = 4
//	0101  base4-Δ1       k = 4, d = 1
//	0110  base4-Δ2       k = 4, d = 2
//	0111  base2-Δ1       k = 2, d = 1
//	1111  uncompressed   the raw line, in memory order
//
// A base-delta payload splits the line into n = LineSize/k little-endian
// k-byte elements and stores: an n-bit mask (element 0 first; 1 = the
// element uses the explicit base), the explicit base (8k bits), and one
// 8d-bit delta per element. Element i uses the implicit zero base when its
// value, read as a signed k-byte integer, fits in d signed bytes; otherwise
// the first such element becomes the explicit base (its own delta is 0) and
// every later one must satisfy: (value − base) mod 2^(8k), read as signed,
// fits in d signed bytes. The full two's-complement range counts. If no
// element needs the explicit base, the base field is zero. The smallest
// encoding wins and ties go to the lower id; for a 64-byte line the sizes
// are those of Tavana's Table II: 4, 68, 140, 204, 332, 180, 308, 308 and
// 516 bits.
//
// # Worked example
//
// The BDI paper's perlbench line, eight 4-byte words 0xC04039C0 + 8i in a
// 32-byte line, is base4-Δ1 with every element on the explicit base:
//
//	id    mask      base                              deltas
//	0101  11111111  11000000010000000011100111000000  00000000 00001000 … 00111000
//	= 5F FC 04 03 9C 00 00 81 01 82 02 83 03 80 (108 bits: 4 + 8 + 32 + 8×8)
//
// # Variants
//
//   - "bdi-symmetric" (WithSymmetricDeltas): gem5's delta range, which
//     excludes −2^(8d−1); for cross-checking against gem5.
//   - "bdi-single" (WithSingleBase): B+Δ, the single-base scheme of the BDI
//     paper's size table: element 0 is the base, no zero base, no mask.
//     Its kernels test every encoding of every line without branches and
//     return the chosen id outright.
//
// A codec's Name is the registry name of its options however it was built,
// so linecomp.New(c.Name(), c.LineSize()) makes the same codec. The two
// options together have no registry name, and New rejects them with an
// error wrapping linecomp.ErrConfig.
//
// # Encodings
//
// The codec implements linecomp.EncodingReporter: its nine encodings, in
// id order with the raw line last, are named zeros, repeated, b8d1, b8d2,
// b8d4, b4d1, b4d2, b2d1 and raw, and each has one size at a line size, so
// the 4-bit id alone tells a memory controller how long a line is.
//
// Compress and Decompress read all of their input before they write to
// dst, so dst may overlap it.
//
// # Latency
//
// 5 cycles to compress, 1 to decompress: the BDI paper's numbers as CABA
// quotes them. Other papers' numbers are in linecomp.LatencyPresets();
// WithLatency sets one of them.
package bdi
