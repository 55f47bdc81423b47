// Package magbdi implements MAG-aware BDI (Lal et al., "Memory Access
// Granularity Aware Lossless Compression for GPUs"): BDI with a 4-byte base whose delta width is chosen so that
// every compressed block is an exact multiple of the DRAM memory access
// granularity (MAG), so the raw and the effective compression ratio agree.
// It registers "magbdi-16", "magbdi-32" and "magbdi-64" (the MAG in bytes)
// and their "-signed" variants with linecomp, for 128-, 64- and 32-byte
// lines where the MAG leaves a compressed size.
//
// # Sizes
//
// The compressed sizes are the multiples of the MAG below the line size.
// The header is a 32-bit base plus a mask of one bit per 4-byte word, and
// each size gets the widest delta that fits, Eq. (1) of the paper:
//
//	width = floor((size − header) / words)
//
// For a 128-byte line (32 words, 64 header bits) that gives the paper's
// Table III: at a 32-byte MAG, 6, 14 and 22 bits for 32, 64 and 96 bytes
// ((256−64)/32 = 6, (512−64)/32 = 14, (768−64)/32 = 22); at 16 bytes,
// 2, 6, 10, 14, 18, 22 and 26 bits; at 64 bytes, 14 bits. A line size with
// no compressed size (magbdi-64 on 64-byte lines, magbdi-32 on 32-byte
// lines) is linecomp.ErrLineSize.
//
// The MAG is 16, 32 or 64 bytes, as in the paper: a power of two
// smaller than the line. For these MAGs and line sizes the base, mask and
// deltas fill every compressed size exactly, and the sizes take every code
// of the encoding field but the raw line's. Any other MAG has no registry
// name, and New rejects it with an error wrapping linecomp.ErrConfig.
//
// # Stream
//
// An encoding field of ceil(log2(sizes + 1)) bits (TagBits: 2 for a 32-byte
// MAG on 128-byte lines, 3 for 16, 1 for 64): 0 is the smallest size,
// counting up, and all ones means uncompressed. A compressed block follows
// as base (32 bits), mask (element 0 first, 1 = uses the base) and one
// delta per word, exactly the compressed size; an uncompressed one as the
// raw line. A 128-byte line at a 32-byte MAG is
// therefore 2+256, 2+512, 2+768 or 2+1024 bits.
//
// Deltas are unsigned by default, as the paper evaluates them (leading
// zeros only): a word uses the zero base when it is below 2^w; otherwise the
// first such word is the base (its delta is 0) and every later one must
// satisfy 0 ≤ value − base < 2^w. If no word needs the base, the base field
// is zero. The smallest size that fits wins: a line that needs 16-bit
// deltas goes to 22 bits (96 bytes), never to BDI's 2-byte deltas.
//
// # Worked example
//
// A 128-byte line of the words 0x12340 + 3i (i = 0…31) at a 32-byte MAG:
// no word is below 2^14, so word 0 (0x12340) is the base; the deltas
// 0, 3, …, 93 fit in 14 bits but not in 6: code 01, 64 bytes.
//
//	01 00000000000000010010001101000000 11111111111111111111111111111111
//	   00000000000000 00000000000011 … 00000001011101 (32 deltas: 512 bits exactly)
//	= 40 00 48 D0 3F FF FF FF C0 00 00 0C …, 514 bits
//
// # Names and encodings
//
// A codec's Name is the registry name of its configuration however it was
// built: New(128, 32, WithSignedDeltas()) is "magbdi-32-signed", and
// linecomp.New(c.Name(), c.LineSize()) makes the same codec. The codec
// implements linecomp.EncodingReporter: one encoding per compressed size,
// named by its size ("32B", "64B", "96B"), then "raw", each of one size,
// so the tag bits alone tell a memory controller how many bursts to fetch.
// Compress and Decompress read all of their input before they write to
// dst, so dst may overlap it.
//
// # Latency
//
// 1 cycle to compress and 1 to decompress, the paper's §V setting;
// WithLatency sets another.
package magbdi
