// Package cpack implements C-Pack, the dictionary-based cache compressor of
// Chen et al. ("C-Pack: A High-Performance Microprocessor Cache Compression
// Algorithm", IEEE TVLSI 2010), and C-Pack+Z, the variant with a zero-block
// code that Tavana et al. (multi-GPU adaptive compression) use, with its
// codes exactly as their Table II lists them. It registers "cpack",
// "cpack-z" and their gem5-push-rule variants with linecomp, for 32-, 64-
// and 128-byte lines.
//
// # Words and dictionary
//
// A line is read as little-endian 32-bit words in memory order. Byte
// letters run from the most to the least significant byte of such a word:
// zzzx is a word whose upper three bytes are zero, mmxx one whose upper two
// bytes equal those of a dictionary entry.
//
// Each line starts with an empty 16-slot dictionary. A word coded as a new
// word (xxxx) is pushed into slot p mod 16, where p counts the pushes so
// far: first-in first-out, so on a 128-byte line the 17th push overwrites
// slot 0. Only valid slots can match; the code's 4-bit index field is the
// slot number. Each word takes its shortest code; among dictionary entries
// that give the same code, the lowest slot wins.
//
// # Stream
//
// A 1-bit flag (TagBits = 1), then, if it is 1, one code per word, all
// MSB-first. If the word codes are not strictly shorter than the line, the
// flag is 0 and the raw line follows in memory order (1 + 8×LineSize bits).
//
//	C-Pack (Chen et al., Table I)         C-Pack+Z (Tavana et al., Table II)
//	code  word  payload        bits       code  word          payload          bits
//	00    zzzz  –              2          00    zero block    –                2
//	01    xxxx  word (32)      34         01    zero word     –                2
//	10    mmmm  index (4)      6          10    new word      word (32)        34
//	1100  mmxx  index, low 16  24         1100  word matched  index (4)        8
//	1101  zzzx  low 8          12         1101  halfword m.   index, low 16    24
//	1110  mmmx  index, low 8   16         1110  narrow word   low 8            12
//	                                      1111  3 bytes m.    index, low 8     16
//
// In C-Pack+Z an all-zero line is the flag and the zero-block code, 3 bits
// in all; the zero-block code is never one word's code among others, and
// Decompress rejects it anywhere but as the first and only code. C-Pack's
// code 1111 is undefined. Decompress also rejects an index of a slot that
// no word has filled yet.
//
// # Worked example
//
// The 32-byte line of words 0x00000000, 0x000000AB, 0x12345678,
// 0x12345678 and four zero words, i.e. the bytes
//
//	00 00 00 00 AB 00 00 00 78 56 34 12 78 56 34 12 00 (×16)
//
// is coded by C-Pack as zzzz, zzzx, xxxx (pushed into slot 0), mmmm of slot
// 0 and four zzzz:
//
//	flag  zzzz  zzzx           xxxx                                  mmmm       zzzz×4
//	1     00    1101 10101011  01 00010010001101000101011001111000  10 0000    00000000
//	= 9B 56 89 1A 2B 3C 40 00 (63 bits: 1 + 2 + 12 + 34 + 6 + 4×2)
//
// and by C-Pack+Z as
//
//	1 01 1110 10101011 10 00010010001101000101011001111000 1100 0000 01010101
//	= BD 57 09 1A 2B 3C 60 2A 80 (65 bits: 1 + 2 + 12 + 34 + 8 + 4×2)
//
// # Variants
//
//   - "cpack-gem5", "cpack-z-gem5" (WithGem5PushRule): every word not coded
//     as a zero or narrow word is pushed, matches included, as gem5's CPack
//     does. Chen et al. leave the rule open; Tavana et al. say "if no match
//     is found in the dictionary, the word is inserted", which is the
//     default here. The variant exists to cross-check against gem5: words
//     0x12345678, 0x12345678, 0x12345679, 0x12345679 cost 34+6+16+16 = 72
//     bits of codes by default and 34+6+16+6 = 62 with gem5's rule.
//   - "cpack-z" (WithCPackZ): Tavana et al.'s code table with the zero-block
//     code, for their multi-GPU study.
//
// # Encodings and pattern counts
//
// Codec implements linecomp.EncodingReporter with the line-level
// encodings "compressed" (flag 1 and word codes, of varying length), "raw"
// (1 + 8·LineSize bits) and, for C-Pack+Z, "zeros" (the zero block, 3
// bits). CountPatterns counts the words of many lines per Pattern, the
// shape of Tavana et al.'s Table VI: pattern p is their C-Pack+Z pattern
// p + 1 (zero block, zzzz, xxxx, mmmm, mmxx, zzzx, mmmx, uncompressed
// line) in every variant. `linecomp ratio -patterns` prints them.
//
// # Latency
//
// C-Pack's own paper is not among the latency sources, so "cpack" takes
// linecomp.DefaultLatency's first preset that has it: MAG-aware BDI
// (Lal et al., §V), 12 cycles to compress and 13 to decompress. "cpack-z"
// takes its own paper's, Tavana et al.'s Table III: 16 and 9 cycles. The
// gem5 variants keep these; gem5's own 13/9 is
// linecomp.PresetLatency(linecomp.SourceGem5, "cpack"), for WithLatency,
// whose fields may be linecomp.LatencyUnknown but no other negative value.
//
// # Speed
//
// planGeneric codes a line word by word against the dictionary, the
// definition the kernels must match. With AVX-512 a kernel does the same
// for a whole line; under the default push rule it needs no dictionary
// search at all. Entries never share their upper two bytes, so a word of
// at least 0x100 can only match the entry holding its upper half: the one
// its last earlier word with that half was pushed as or matched. While at
// most 16 words have been pushed (always, in a 64-byte line) that entry
// is still there, so a word is pushed exactly when no earlier such word
// shares its upper two bytes, and otherwise matches the first that does:
// the 64- and 128-byte plan kernels find those words by comparing the
// line with itself shifted, with no serial chain. A 128-byte line that
// pushes more than 16 words is planned again by a kernel whose serial part
// is one step per word with an earlier same-half word: its entry is gone
// if 16 words were pushed since. The plans batch linecomp.Sizes, and one
// call codes a line for Compress and linecomp.CompressLines (plan, then
// packing: without a serial chain at 64 bytes, unrolled at 128; a raw
// line's stream is written by the same call). Decompress decodes with a
// BMI2 kernel (AVX2 level) that takes the next code's first bits from the
// window it has already loaded, so each table lookup waits only for the
// previous code's length; decodeWordsGeneric defines it.
package cpack
