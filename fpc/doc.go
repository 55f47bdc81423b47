// Package fpc implements Frequent Pattern Compression (Alameldeen & Wood,
// "Frequent Pattern Compression: A Significance-Based Compression Scheme for
// L2 Caches", UW-CS TR-1500, 2004). It registers "fpc", the report's
// prefix table, and "fpc-tavana", the table of Tavana et al. (multi-GPU
// adaptive compression, Table II), both for 32-, 64- and 128-byte lines.
//
// FPC codes a line word by word: each little-endian 32-bit word gets a
// 3-bit prefix naming its pattern and a data field holding only the bits
// the pattern does not imply.
//
// # Stream
//
// A 1-bit flag (TagBits = 1), then, MSB-first:
//
//	flag 1  the word codes, word 0 first
//	flag 0  the raw line, in memory order (8·LineSize bits)
//
// The word codes are used only when they are strictly shorter than the raw
// line; otherwise the flag is 0. A line therefore never costs more than
// 1 + 8·LineSize bits.
//
// # The "fpc" table (TR-1500)
//
//	prefix  pattern                                 data             code bits
//	000     run of 1–8 zero words                   count − 1        3 + 3 = 6
//	001     4-bit sign-extended                     low 4 bits       3 + 4 = 7
//	010     1-byte sign-extended                    low byte         3 + 8 = 11
//	011     halfword sign-extended                  low halfword     3 + 16 = 19
//	100     halfword padded with a zero halfword    high halfword    3 + 16 = 19
//	101     two halfwords, each a sign-extended     high half's low  3 + 16 = 19
//	        byte                                    byte, then low
//	                                                half's low byte
//	110     word of repeated bytes                  the byte         3 + 8 = 11
//	111     uncompressed word                       the word         3 + 32 = 35
//
// "Sign-extended n-bit" means the word read as an int32 lies in
// [−2^(n−1), 2^(n−1)). "Padded with a zero halfword" means the low 16 bits
// are zero. "Two halfwords, each a sign-extended byte" means each 16-bit
// half, read as an int16, lies in [−128, 127]. "Repeated bytes" means all
// four bytes are equal. Zero words are always coded as runs, taken
// greedily: consecutive zero words, up to 8, form one run, so an all-zero
// 64-byte line is 1 + 2×6 = 13 bits. Every other word takes the pattern with
// the fewest code bits, ties to the lower prefix: 0xFFFFFFFF is 4-bit
// sign-extended (7 bits), not repeated bytes (11); 0xFFFF0000 is 100, not
// 101.
//
// # The "fpc-tavana" table (Tavana et al., Table II)
//
//	prefix  pattern                                 data             code bits
//	000     zero block: the whole line is zero      none             3
//	001     zero word                               none             3
//	010     word of repeated bytes                  the byte         3 + 8 = 11
//	011     4-bit sign-extended                     low 4 bits       3 + 4 = 7
//	100     1-byte sign-extended                    low byte         3 + 8 = 11
//	101     halfword sign-extended                  low halfword     3 + 16 = 19
//	110     halfword padded with a zero halfword    high halfword    3 + 16 = 19
//	111     two halfwords, each a sign-extended     as above         3 + 16 = 19
//	        byte
//
// The patterns and the selection rule are those above. Code 000 appears
// only as the sole code of an all-zero line (1 + 3 = 4 bits in all); a
// decoder rejects it anywhere else. There is no per-word uncompressed code:
// a line with any word that matches no pattern is stored raw (flag 0).
//
// # Worked example
//
// A 32-byte line of the words 0, 0, 3, 0xFFFFFF80, 0x12340000, 0x00050003,
// 0xABABABAB, 0x12345678, i.e. the bytes
//
//	00 00 00 00 00 00 00 00 03 00 00 00 80 FF FF FF
//	00 00 34 12 03 00 05 00 AB AB AB AB 78 56 34 12
//
// is, under "fpc", 109 bits:
//
//	1                                      flag
//	000 001                                run of 2 zero words
//	001 0011                               3
//	010 10000000                           −128
//	100 0001001000110100                   0x1234 above a zero halfword
//	101 00000101 00000011                  halfwords 5 and 3
//	110 10101011                           0xAB four times
//	111 00010010001101000101011001111000   0x12345678
//	= 82 4D 40 41 23 4A 0A 07 AA F8 91 A2 B3 C0 (1 + 6 + 7 + 11 + 19 + 19 + 11 + 35)
//
// Under "fpc-tavana" the last word matches no pattern, so the same line is
// stored raw: a 0 flag and the 32 bytes above, 257 bits,
//
//	= 00 00 00 00 00 00 00 00 01 80 00 00 40 7F FF FF
//	  80 00 1A 09 01 80 02 80 55 D5 D5 D5 BC 2B 1A 09 00
//
// # How public implementations differ
//
// The default follows the report. Public simulators differ in ways this
// package does not reproduce: gem5's two-halfword test only accepts halves
// in [0, 127] (0xFFF0FFF0 costs 35 bits there, 19 here); some
// implementations end a zero run at 7 words or never; some test repeated
// bytes before the sign-extended patterns (0xFFFFFFFF at 11 bits). Stored
// in a compressed cache, the report's lines occupy 8-byte segments; apply
// linecomp.EffectiveBits to Size − TagBits for that.
//
// # Encodings and pattern counts
//
// Codec implements linecomp.EncodingReporter with the line-level
// encodings "compressed" (flag 1 and word codes, of varying length), "raw"
// (1 + 8·LineSize bits) and, for "fpc-tavana", "zeros" (the zero block, 4
// bits). CountPatterns counts the words of many lines per Pattern, the
// shape of Tavana et al.'s Table VI: pattern p is their pattern p + 1 (zero
// block, zero word, repeated bytes, the three sign-extended widths, zero
// low halfword, two halves, uncompressed line), then the "fpc" table's
// uncompressed word. `linecomp ratio -patterns` prints them.
//
// # Latency
//
// 3 cycles to compress and 5 to decompress, for "fpc" from the FPC report
// and for "fpc-tavana" from Tavana's Table III (the same numbers). Other
// papers' numbers are in linecomp.LatencyPresets(); use WithLatency, whose
// fields may be linecomp.LatencyUnknown but no other negative value.
//
// # Speed
//
// Every word's pattern and every line's size come from one classification
// pass: on amd64 an AVX2 or AVX-512 kernel (generated by _asm/fpc.go,
// chosen by internal/cpu) classifies all words of a line at once, else the
// pure-Go classifyLineGeneric, which defines what the kernels must return.
// Size needs nothing else; Compress then codes the words from per-kind
// tables and packs them through a 64-bit accumulator; Decompress decodes
// with a per-prefix table, on amd64 with a BMI2 kernel (AVX2 level) that
// takes the next prefix from the window it has already loaded, so each
// lookup waits only for the previous code's length (unpackGeneric defines
// it). The batch entry points linecomp.Sizes and linecomp.CompressLines
// classify many lines per kernel call. With AVX-512, a 64- or 128-byte
// "fpc" line is coded by one kernel call that classifies it and packs its
// codes, or writes its raw stream, straight into dst when it has room
// (masked stores: nothing past the stream). A 64-byte line's codes are
// packed without a serial chain (bit offsets by prefix sum, each code
// split over the two 64-bit words it can touch), a 128-byte line's with
// fields side by side and the packing unrolled, as the pack kernel that
// codes other 64- and 128-byte lines does; the pure-Go definitions
// (wordCodesGeneric, packGeneric) say what they must write. With AVX-512,
// Decompress of a 64- or 128-byte "fpc" line is one kernel call that
// decodes a well-formed stream, raw or of word codes, straight into dst
// (decodeLineGeneric defines it); any other stream goes to the decoders
// above, which say what is wrong with it.
package fpc
