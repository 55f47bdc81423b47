// Package sc implements SC², statistical cache compression (Arelakis and
// Stenström, "SC²: A Statistical Compression Cache Scheme", ISCA 2014), as
// LATTE-CC (Arunkumar et al., HPCA 2018, §IV-A2) configures it for GPU L1
// caches: a value-frequency table (VFT) of 1024 32-bit values with 12-bit
// counters samples the data, and a Huffman code built from it compresses
// every 32-bit word of a line. It registers "sc2" with linecomp, for 32-,
// 64- and 128-byte lines.
//
// Unlike the other codecs, an SC² codec learns: it implements
// linecomp.Trainable. A codec from the registry starts with the empty code
// book, in which every word escapes, so it stores every line raw until a
// simulator has fed a Trainer (the codec's NewTrainer) the lines of a
// sampling phase and called its Build, which returns a new codec with the
// learned code book.
//
// A code book (Table) never changes once built, and a codec has no state
// but its code book: a codec decodes every line it ever compressed,
// whatever else is trained, built or parsed, one codec can serve any
// number of caches and simulations at once, and every method of a Codec
// may run concurrently with every other.
//
// # Stream
//
// A 1-bit flag (TagBits = 1), then, MSB-first:
//
//	flag  payload
//	1     for each little-endian 32-bit word, in memory order: its codeword,
//	      or the escape codeword followed by the word as a 32-bit integer
//	0     the raw line, in memory order
//
// The coded form is used when its payload is strictly shorter than the
// line (fewer than 8·LineSize bits); otherwise the line is stored raw. The
// stream is therefore 1 + payload bits or 1 + 8·LineSize bits. Decompress
// accepts every stream of this layout under the codec's code book,
// including ones Compress would not choose (an escaped word that has a
// codeword of its own, a coded payload no shorter than the line). It
// rejects, with a *linecomp.CorruptError carrying the bit offset, a stream
// that is truncated, runs into bits that start no codeword (an incomplete
// code leaves some unassigned; a code longer than L is one of them), has
// bytes after the last field or non-zero padding.
//
// Compress and Decompress read all of their input before they write to
// dst, so dst may overlap the input.
//
// # Value-frequency table
//
// The VFT is fully associative with E entries (WithVFTEntries, default
// 1024) and c-bit saturating counters (WithCounterBits, default 12), as
// LATTE-CC sizes it. For every observed word: if the value is in the table
// its counter counts up; otherwise the escape counter (also c bits,
// saturating) counts up, and the value takes a free entry, or else replaces
// the entry with the smallest count — among equal counts the one inserted
// longest ago — starting at 1. (SC²'s own VFT is set-associative and also
// counts down on evictions from the cache; LATTE-CC gives neither detail,
// and a fully associative LFU table needs no geometry choice.)
//
// # Code construction
//
// The symbols are the VFT's values plus one escape symbol. A value's weight
// is its count (a value of count zero gets no code; a VFT entry never has
// one); the escape's weight is max(escape count, 1), so that the escape
// always has a codeword and every word is encodable. The symbol order is by
// value, the escape after every value.
//
// Code lengths are optimal (least Σ weight × length) among prefix codes with
// no codeword longer than L (WithMaxCodeLen), computed by package-merge
// (Larmore and Hirschberg) with fixed tie rules, so that the code is fully
// determined by the weights:
//
//   - the leaves are sorted by weight, equal weights in symbol order;
//   - the list of level L is the leaves; the list of level l−1 is the merge
//     of the leaves with the packages of level l's list (its items paired
//     first-with-second, third-with-fourth, …, an odd last item dropped),
//     and a leaf goes before a package of equal weight;
//   - the first 2n−2 items of level 1's list are selected (n symbols); each
//     selected package selects the two items it was made of; a symbol's
//     length is the number of selected items, over all levels, that are
//     that symbol's leaf.
//
// A code of a single symbol (only the escape) has length 1. Codewords are
// then assigned canonically: symbols sorted by length, then in symbol order;
// the first gets all zeros, each next one the previous codeword plus one,
// shifted left by the growth in length.
//
// # Decoding (DeLUT)
//
// As in SC²'s decompressor, the decoder keeps, for every length l, the
// first codeword of that length first[l], the canonical index of its
// symbol offset[l], and the limit (first[l] + count[l]) << (L − l). It
// takes the next L bits of the stream as an integer v (zero-filled past the
// end), finds the shortest l with v < limit[l] — the codeword's length —
// and reads symbol (v >> (L − l)) − first[l] + offset[l] from the symbols
// in canonical order (the De-LUT). If v reaches the last limit, no
// codeword starts there. There is no bit-by-bit tree walk.
//
// # Maximum code length L
//
// L defaults to 16 (DefaultMaxCodeLen). The SC² paper is not among our
// sources and we could not find its limit stated in any that we searched;
// gem5's FrequentValues compressor uses 18, but it simply drops longer
// codes rather than limiting the code. 16 is the value prescribed for this
// case. The VFT size must leave room for the escape: E < 2^L.
//
// # Training
//
// A Trainer's Observe (linecomp.Trainer) counts every whole 32-bit word of
// the line it is given in its VFT. Build builds a code book from the VFT
// and returns a new codec that has it; the trainer keeps its counts.
// LATTE-CC rebuilds the code every period of experimental phases from that
// period's sample, so each period starts counting afresh with a new
// trainer.
//
// Lines compressed under a code book must be decompressed under the same
// one. The codec that compressed them always can, since its code book
// never changes. To decompress them elsewhere (another process, a stored
// trace), keep the code book: Table returns it, MarshalBinary writes it,
// ParseTable reads it back, and New(n, WithTable(t)) makes a codec with it.
// Tables have no method that modifies them; ParseTable and BuildTable make
// new ones.
//
// Compress, Size and Decompress only read the code book: they take no lock
// and allocate nothing. A Trainer's Observe, VFT and Build share its VFT
// under its lock, so training may run beside use. Building a table
// allocates.
//
// # Name
//
// Every SC² codec is named "sc2", whatever its options. The VFT size, the
// counter width and the maximum code length change only how the next code
// book is learned, and the empty code book, in which every line is raw, is
// the same under all of them; a learned code book is data, like the lines,
// not configuration. So linecomp.New(c.Name(), c.LineSize()) makes the
// untrained codec, and New(c.LineSize(), WithTable(c.Table())) makes one
// that produces the same bits as c on every line.
//
// # Encodings
//
// The codec implements linecomp.EncodingReporter with two encodings, told
// apart by the flag: "compressed" (flag 1, number 0), whose length depends
// on the words, and "raw" (flag 0, number 1), always 1 + 8·LineSize bits.
// The flag alone therefore does not give a line's length.
//
// # Table format
//
// Table.MarshalBinary (or AppendBinary) writes a code book as bytes:
//
//	offset  bytes       field
//	0       1           L, 1..32
//	1       1           e, the length of the escape's codeword, 1..L
//	2       varies      count[1..L]: codewords of each length, unsigned
//	                    varints (encoding/binary), minimal
//	…       4·(n−1)     the n−1 values in canonical order (by length, then
//	                    ascending), 32-bit big-endian; the escape is not
//	                    stored: it is the last symbol of length e
//
// ParseTable accepts exactly the encodings MarshalBinary produces: it
// rejects an over-subscribed code (Kraft sum above 1), a length group out of
// order, a value listed twice, no codeword of length e for the escape, a
// non-minimal varint, and missing or trailing bytes, with a
// *linecomp.CorruptError. Incomplete codes are accepted. Table has no
// UnmarshalBinary: decoding into an existing table would change the code
// book of every codec that holds it.
//
// # Worked example
//
// A 32-byte codec trained on A = 0x00000000 13 times, B = 0xFFFFFFFF 7
// times, C = 0x00000001 3 times and D = 0x12345678 once has an escape count
// of 4 (each value missed once). At L = 16 the lengths are A 1, B 2,
// escape 3, C 4, D 4 and the codewords A 0, B 10, escape 110, C 1110,
// D 1111. The line A A B C 0xDEADBEEF A D A is
//
//	1 0 0 10 1110 110 11011110101011011011111011101111 0 1111 0
//	= 97 6D EA DB EE F7 80 (50 bits)
//
// At L = 3 the limit binds: A 0, C 100, D 101, B 110, escape 111, and the
// same line takes 49 bits. TestGolden works both by hand.
//
// # Latency
//
// 6 cycles to compress, 14 to decompress: LATTE-CC's numbers for SC
// (§IV-A2), the default linecomp.DefaultLatency gives when the algorithm's
// own paper is not among the sources. WithLatency replaces them; a field
// may be linecomp.LatencyUnknown.
package sc
