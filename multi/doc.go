// Package multi is a codec that stores each line with one of several
// member codecs, chosen per line, behind a k-bit algorithm field that names
// the member. It registers "tavana-best" with linecomp: the per-transfer
// best of Tavana et al. §V ("Exploiting Adaptive Data Compression to
// Improve Performance and Energy-Efficiency of Compute Workloads in
// Multi-GPU Systems", IPDPS 2019), which runs every algorithm on a line
// and sends the smallest result. The paper's adaptive scheme instead
// samples a few transfers and keeps one algorithm for a while; that policy
// lives in the model layer and needs only the members.
//
// # Stream
//
// The field value i (k bits, MSB-first), then member i's stream for the
// line, bit for bit, with no padding between them: the member's first bit
// is bit k of the stream. The stream is k + b bits, where b is the
// member's, in (k+b+7)/8 bytes, and the padding bits of the last byte are
// zero. TagBits is k: the member's own tag bits follow the field but are
// not counted, because they differ from member to member (0 for none, 4
// for bdi) and because on Tavana et al.'s link only the field travels in
// the message header, the member's bits in the payload.
//
// k defaults to ceil(log2 n) for n members (0 for a single member, whose
// stream is then the member's unchanged); WithFieldBits widens it up to
// MaxFieldBits = 8.
//
// # Choice
//
// By default the member with the least Size stores the line; a tie goes to
// the member with the lower decompression latency (an unknown latency
// counts as higher than every known one), then to the lower index.
// WithChooser replaces the rule with any function of the line, e.g. a
// penalty Size + λ·(compress + decompress latency) as in Tavana et al.'s
// equation (1). Decompress does not depend on the rule: the field says
// which member decodes.
//
// # "tavana-best"
//
// Members, in field order, with Tavana et al.'s Table III latencies
// (compress/decompress cycles):
//
//	field  member      latency  why
//	00     none        0/0      the paper reserves 0 for "not compressed"
//	01     bdi         2/1      Table II's BDI
//	10     fpc-tavana  3/5      Table II's FPC (fpc.WithTavanaTable)
//	11     cpack-z     16/9     Table II's C-Pack+Z (cpack.WithCPackZ)
//
// BDI is built with bdi.WithLatency, because its default is its own
// paper's 5/1 cycles. The codec takes 32-, 64- and 128-byte lines. A codec
// built with New from these members, these latencies and a 2-bit field is
// named "tavana-best" too.
//
// # Worked example
//
// The 32-byte line of the eight words 0, 3, 6, …, 21 (little-endian) costs
// none 256 bits, bdi 108 (base4-Δ1: 4 + 8 + 32 + 8·8), cpack-z 87 and
// fpc-tavana 73, so fpc-tavana (field 10) stores it. Its stream is the
// flag 1, then 001 for the zero word, 011 and four bits for 3 and 6, and
// 100 and a byte for each of 9 … 21: 1 + 3 + 2·7 + 5·11 = 73 bits. With
// the field in front:
//
//	10 1 001 0110011 0110110 10000001001 10000001100 10000001111 10000010010 10000010101
//	= A5 9B 68 13 03 20 7C 12 82 A0 (75 bits, 5 padding bits)
//
// An all-zero line costs none 256 bits, bdi 4, fpc-tavana 4 and cpack-z 3
// (its flag and zero-block code, 1 00), so it is 11 100 = E0, 5 bits.
//
// # Latency
//
// Latency is the slowest member's compression and decompression latency
// (16/9 cycles for "tavana-best"): every member compresses the line so
// that the best can be chosen, and the paper notes this "adds to the
// maximum latency". A stream's own decompression latency is its member's:
// c.Member(i).Latency() for i from c.MemberOf(enc). WithLatency overrides
// the whole-codec figure.
//
// # Naming
//
// A registered configuration, or one that matches it, is named by its
// registry name, so linecomp.New(c.Name(), c.LineSize()) rebuilds it. Any
// other is named "multi(a,b,…)" (with ";k=…" when WithFieldBits was given
// and ";custom" with a chooser): a description, which linecomp.New rejects
// with ErrUnknownCodec. To make such a configuration buildable by name,
// register it with linecomp.Register and give New the same name with
// WithName.
//
// # Encodings and errors
//
// The codec implements linecomp.EncodingReporter with one encoding per
// member, named after the member; its Bits is k plus the member's fixed
// stream length when the member reports one for every line (none: k + 8 ×
// LineSize), else -1. MemberOf (and EncodingOf) reads only the field.
//
// Decompress rejects a stream shorter than the field, a field that names no
// member, and a stream longer or shorter than the member's part makes it;
// an error inside the member's part is the member's own error, naming the
// member, with an offset that counts from the member's first bit (bit k).
//
// # Decoding cost
//
// The member's part of a stream of L bytes is L or L−1 bytes long, and the
// Codec interface gives no way to ask a member which: only the member's
// stream length b tells. When the member reports a fixed size for the
// stream's encoding (none, BDI, and the raw and zero-block lines of FPC
// and C-Pack) that gives b. Otherwise Decompress tries L bytes, then L−1
// when the last byte allows it, and checks the length against the member's
// Size of the decoded line (a strict member accepts at most one of the
// two, but cannot see that the multi stream around it has a surplus zero
// byte or lacks a byte of zero bits). So a variable-size stream costs a
// decode and a Size, and when the first try fails, one allocation for the
// member's error. For "tavana-best" the first try fails for the C-Pack+Z
// streams of 8m+7 bits, which the 2-bit field pushes one bit into a new
// byte: 5,551 of the 32,768 128-byte lines of mem_core_py.bin.
//
// # Members
//
// Members must take the same line size (else an error wrapping
// linecomp.ErrConfig). A trainable member (SC²) is used with the code book
// it has; after Rebuild, build a new multi codec from the new member.
package multi
