// Package caba implements the three cache-line formats of CABA
// (Vijaykumar et al., "A Case for Core-Assisted Bottleneck Acceleration in
// GPUs: Enabling Flexible Data Compression with Assist Warps", ISCA 2015,
// §5), and counts the warp instructions with which a GPU's assist warps
// compress and decompress them.
//
// CABA compresses lines on their way to DRAM with "assist warps": short
// subroutines that the GPU runs on its own idle pipelines, 32 lanes at a
// time. A format for them must let every lane find its own word without
// decoding the words before it, so CABA puts all metadata at the head of
// the line and gives the words of one encoding one size. The package
// registers, for 32-, 64- and 128-byte lines:
//
//   - "caba-bdi": Base-Delta-Immediate, with every field on a byte boundary;
//   - "caba-fpc": Frequent Pattern Compression with one pattern per segment
//     of 4 words and all prefixes at the head ("caba-fpc-s2" and
//     "caba-fpc-s8": segments of 2 and 8 words);
//   - "caba-cpack": C-Pack with four word codes, one fixed-width code per
//     word and at most four dictionary values after the codes.
//
// Each codec implements linecomp.EncodingReporter and this package's
// AssistWarpCoster: DecompressInstructions and CompressInstructions give
// the warp instructions of one line, for a GPU model to charge as issue
// slots.
//
// # Conventions
//
// A stream is a tag (the leading TagBits bits, which hardware keeps with
// the line: in the tag store or the memory controller's metadata) and a
// payload, MSB-first. Every payload field starts on a byte boundary
// counted from the end of the tag, so that the data array, which holds the
// payload, can be read with byte-addressed loads; multi-byte fields are
// big-endian integers. A line is read as little-endian words. Compress and
// Decompress read all of their input before they write to dst, so dst may
// overlap it; every codec is immutable and safe for concurrent use.
//
// # caba-bdi
//
// A 4-bit encoding id (TagBits = 4), the ids and encodings of package bdi:
//
//	id    encoding   payload
//	0000  zeros      none
//	0001  repeated   the 8-byte value that every 8-byte word equals
//	0010  b8d1       mask, base, deltas with k = 8-byte elements, d = 1-byte deltas
//	0011  b8d2       k = 8, d = 2
//	0100  b8d4       k = 8, d = 4
//	0101  b4d1       k = 4, d = 1
//	0110  b4d2       k = 4, d = 2
//	0111  b2d1       k = 2, d = 1
//	1111  raw        the line, in memory order
//
// A base-delta payload splits the line into n = LineSize/k little-endian
// elements and holds: the mask, n bits, element 0 first, 1 = the element
// uses the explicit base, then zero bits to a whole byte [ours]; the base, k
// bytes; one d-byte delta per element. Element i uses the implicit zero
// base when its value, as a signed k-byte integer, fits in d signed bytes;
// otherwise the first such element is the explicit base and every later
// one must differ from it (mod 2^(8k)) by a signed d-byte value, the full
// two's-complement range. With no element on the base the base field is
// zero. The smallest encoding wins, ties to the lower id: the compressor
// tries the encodings from the shortest (CABA's Algorithm 2 with the
// encodings in that order [ours]; the paper leaves the order open) and
// takes the first that fits. The sizes in
// bits, id included:
//
//	          zeros repeated b8d1 b8d2 b8d4 b4d1 b4d2 b2d1  raw
//	 32 B        4       68   108  140  204  108  172  164   260
//	 64 B        4       68   140  204  332  180  308  308   516
//	128 B        4       68   212  340  596  324  580  596  1028
//
// The only rearrangement BDI needs is the mask padding: at 64 and 128
// bytes the streams are bit for bit those of package bdi, at 32 bytes the
// 8-byte encodings are 4 bits longer (their 4-bit mask takes a byte), so
// a study that compares hardware BDI with CABA-BDI compares the same
// compression.
//
// Worked example, CABA's Figure 6: the 64-byte PageViewCount line of
// 8-byte words 0x00, 0x80001d000, 0x10, 0x80001d008, 0x20, 0x80001d010,
// 0x30, 0x80001d018 is b8d1 with the words 1, 3, 5, 7 on the base
// 0x80001d000 and 0, 2, 4, 6 on the zero base: 17 bytes (1-byte mask,
// 8-byte base, eight 1-byte deltas) and the 4-bit id,
//
//	id    mask      base                     deltas
//	0010  01010101  00 00 00 08 00 01 D0 00  00 00 10 08 20 10 30 18
//	= 25 50 00 00 00 80 00 1D 00 00 00 01 00 82 01 03 01 80 (4 + 8×17 = 140 bits)
//
// # caba-fpc
//
// A 1-bit flag (TagBits = 1): 0 = the raw line follows; 1 = the prefixes
// and the segments' data follow. The W = LineSize/4 words form N = W/S
// segments of S words (S = 4 [ours]; 2 or 8 with WithSegmentWords). The
// payload of flag 1 is the N 3-bit prefixes, segment 0 first, then zero
// bits to a whole byte [ours: the data stays byte-addressed], then each
// segment's data in order: one field per word, word 0 of the segment
// first. The patterns are those of the "fpc" table of
// package fpc (Alameldeen & Wood, UW-CS TR-1500), with the zero run
// replaced by the zero segment:
//
//	prefix  pattern (every word of the segment)    field per word
//	000     zero                                   none
//	001     4-bit sign-extended                    low 4 bits
//	010     1-byte sign-extended                   low byte
//	011     halfword sign-extended                 low halfword
//	100     halfword padded with a zero halfword   high halfword
//	101     two halfwords, each a sign-extended    high half's low byte, then
//	        byte                                   low half's low byte
//	110     four equal bytes                       the byte
//	111     uncompressed                           the word
//
// A segment takes the first pattern in prefix order that fits every word
// of it. 4-bit fields pack two to a byte, the even word in the high
// nibble; S is even, so every segment's data is whole bytes. The flag is 1
// only when the payload is shorter than the line [ours, as in package
// fpc]; Decompress rejects a
// flag-1 stream that is not, which Compress never makes. A 64-byte line of
// zero words is 1 + 16 bits; one of uncompressed words is stored raw.
//
// Worked example, 64 bytes: segments 0, 0, 0, 0 (zero); 3, −1, 5, −8
// (4-bit); 0x12340000, 0xABCD0000, 0, 0x00010000 (zero low halfword);
// 0x12345678, 7, 0xDEADBEEF, 0xFFFFFFFF (uncompressed):
//
//	1 | 000 001 100 111 0000 | 3F 58 | 12 34 AB CD 00 00 00 01 |
//	    12 34 56 78 00 00 00 07 DE AD BE EF FF FF FF FF
//	= 83 38 1F AC 09 1A 55 E6 80 00 00 00 89 1A 2B 3C 00 00 00 03
//	  EF 56 DF 77 FF FF FF FF 80 (1 + 8×(2 + 2 + 8 + 16) = 225 bits)
//
// The variants exist for CABA's trade-off "between
// simplicity/parallelizability versus compressibility": shorter segments let more
// words take a short pattern but cost the assist warp a step each, as the
// segments are decoded one after another (Algorithm 3).
//
// # caba-cpack
//
// A 1-bit flag (TagBits = 1): 0 = the raw line follows; 1 = one 12-bit
// code per word, word 0 first, then D dictionary values of 32 bits. A code
// is a 2-bit encoding, a 2-bit dictionary index and a byte [ours]; every
// word's code has all three fields, the ones its encoding does not use
// being zero, so word i's code sits at payload bit 12i whatever the other
// words are (two codes fill three bytes; W is even, so the dictionary
// starts on a byte):
//
//	code  word   index          byte            the word is
//	00    zzzz   0              0               0
//	01    zzzx   0              the low byte    the byte
//	10    mmmm   the value's    0               the value
//	11    mmmx   the value's    the low byte    the value's upper three bytes, the byte
//
// D is 1 + the largest index of any mmmm or mmmx code, 0 if there is none,
// so a stream is 1 + 12W + 32D bits, always shorter than the raw line.
// Decompress rejects a non-zero unused field. The codes follow CABA's
// Algorithm 6: a word that is zero is zzzz, one below 0x100 zzzx (the
// value zero comes first); then, while a word is uncovered, the first
// uncovered word becomes the next dictionary value and every uncovered word
// equal to it is mmmm, every one that differs from it in the low byte only
// is mmmx. If a word is still uncovered after four values, the line is
// stored raw.
//
// Worked example, 32 bytes: words 0, 0xAB, 0x12345678, 0x12345678,
// 0x123456FF, 0xCAFEBABE, 0xCAFEBA00, 0 are zzzz, zzzx AB, mmmm 0,
// mmmm 0, mmmx 0 FF, mmmm 1, mmmx 1 00, zzzz with the values 0x12345678
// and 0xCAFEBABE:
//
//	1 | 000 4AB | 800 800 | CFF 900 | D00 000 | 12345678 CAFEBABE
//	= 80 02 55 C0 04 00 67 FC 80 68 00 00 09 1A 2B 3C 65 7F 5D 5F 00
//	  (1 + 8×12 + 2×32 = 161 bits)
//
// # Encodings
//
// caba-bdi reports its nine encodings, in id order with raw last, each of
// one size, so its id tells a stream's length (linecomp.TagGivesSize).
// caba-fpc and caba-cpack report "compressed" (of varying length) and
// "raw" (1 + 8·LineSize bits): a memory controller keeps a compressed
// line's length beside the flag, as CABA's metadata keeps its bursts.
//
// # Assist-warp instructions
//
// The package's tests run each format's subroutines, CABA's Algorithms
// 1–6, on a model of one warp and check, on every line of the sample and
// the corpora, that the warp produces exactly the serial codec's line and
// stream and issues the instructions the tables below give. The model:
//
//   - 32 lanes of 64 bits; an instruction over n elements issues ⌈n/32⌉
//     warp instructions (CABA's footnote: "Multiple instructions are
//     required if the number of deltas exceeds the width of the ALU
//     pipeline"). Only b2d1 of a 128-byte line has more than 32.
//   - Uniform (scalar) registers; a uniform instruction is one warp
//     instruction: loads and stores of metadata, bit-field extracts,
//     branches, find-first-set, reading one lane (shuffle), setting the
//     active mask.
//   - An active mask and vector predicates; a warp vote (vote.all, CABA's
//     "global predicate register", vote.any, ballot) and a predicate
//     operation are one instruction per 32 elements.
//   - A load or store at base + stride × lane costs only itself; a
//     data-dependent address is computed by an instruction. Per-lane
//     constants (lane id, its parity) are free. Byte order costs nothing.
//   - Every subroutine sets its active mask first. The encoding of a line
//     to decompress comes with it (the tag): choosing the subroutine is
//     the Assist Warp Controller's work, not an instruction. A raw line
//     needs no assist warp: 0 instructions to decompress.
//
// caba-bdi, per line:
//
//	encoding   decompress   compress at 32 / 64 / 128 B
//	zeros          2          5 /   5 /   5
//	repeated       4         12 /  12 /  12
//	b8d1           8         29 /  29 /  29
//	b8d2           8         57 /  57 /  57
//	b8d4           8         99 /  99 /  85
//	b4d1           8         43 /  43 /  43
//	b4d2           8         85 /  71 /  71
//	b2d1       8 (11 at 128 B)  71 /  85 / 110
//	raw            0         95 /  95 / 104
//
// Decompressing a base-delta line (Algorithm 1) is 5 + 3⌈n/32⌉: set the
// mask of n lanes, load the base-select mask and the base, load the
// deltas, set the active mask to the base lanes, add, reset the mask,
// store. Compressing (Algorithm 2) tries the encodings from the shortest:
// zeros costs 5 to try (set mask, load, compare, vote, branch), repeated
// 6 (and a shuffle), a base-delta encoding 5 + 9⌈n/32⌉ (load, add and
// compare for the zero base, ballot, find-first, shuffle, select the base,
// subtract, add and compare for the base, combine, vote, branch); storing
// adds 1 for repeated and 2 + 2⌈n/32⌉ for base-delta (mask, base, select
// and store the deltas). A line's count is every try up to its encoding
// plus its store: b8d1 at 64 bytes is 5 + 6 + 14 + 4 = 29.
//
// caba-fpc, per segment by pattern, plus a part per line:
//
//	pattern    zero sext4 sext8 sext16 zerolow halves repeated word   per line
//	decompress   4    7     6     6      7       11     7       6       3
//	compress     5   13    15    19     24       35    38      38     6 (+1)
//
// Decompression (Algorithm 3) walks the segments on S lanes: extract the
// prefix, branch to the pattern's code (load, 0–5 ALU instructions to
// extend, store), step the segment-base-address, branch back. Compression
// (Algorithm 4) loads the words once, then per segment sets the mask,
// tests the patterns in prefix order (3 to 10 instructions each, vote and
// branch included), stores the data, steps the address and inserts the
// prefix; at the end it compares the size with the line and, if shorter,
// stores the prefixes (the +1).
//
// caba-cpack: decompressing is 21 per line (load and split every lane's
// code, compute the dictionary address, a compare and ballot per code,
// four branches, reset the mask, store) plus, per code the line uses, 2
// for zzzz, zzzx and mmmm and 4 for mmmx (set the mask; move, or load the
// value and merge the byte). Compressing (Algorithm 6) is 9 per line
// (load, the zero tests, vote), 15 per dictionary value (ballot,
// find-first, shuffle, store the value, compare and partial compare on the
// uncovered lanes, set code, index and byte, vote) and 8 to store a
// compressed line's codes (pack, shuffle two codes into three bytes,
// store); a raw line took four values: 69.
//
// # For a GPU model
//
// DecompressInstructions(enc) and CompressInstructions(line) return these
// counts for one line from one decode of the stream or one pass over the
// line (the work of Decompress or Size), allocating nothing: the issue
// slots a decompression assist warp takes (at high priority, blocking its
// parent warp) and those of a compression assist warp (at low priority, in
// idle slots), including the encodings it tries and rejects. A model that
// depends only on the root contract declares the two methods in an
// interface of its own, as AssistWarpCoster does, and type-asserts a
// linecomp.Codec to it.
//
// # Latency
//
// caba-bdi's Latency is 5 cycles to compress and 1 to decompress, what
// CABA gives the hardware BDI it compares against
// (linecomp.PresetLatency(linecomp.SourceCABA, "bdi")): the same encodings
// in dedicated logic, for a study without assist warps. No source gives a
// latency for the caba-fpc and caba-cpack formats, so both fields are
// linecomp.LatencyUnknown: an assist warp's time is its instructions'
// issue slots, which depend on the SM's load. WithLatency sets a latency
// for any of them.
package caba
