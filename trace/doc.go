// Package trace reads and writes line-traffic traces: the cache lines that
// move between the components of a simulated system (GPUs, compute units,
// caches, memory controllers), each record with its time, its ends, its
// direction, its line address and its payload. The linecomp models replay
// them; the MGPUSim capture tool (module mgpusim) writes them.
//
// A Writer encodes records in the order it is given them, and a Reader
// returns them in that order, from any io.Reader (a pipe will do: nothing
// seeks). Both hold bounded memory: one block of at most MaxBlockLen bytes
// and a payload dictionary of at most MaxDictBytes (8 MiB by default), grown
// only as payloads actually arrive. Time may decrease from one record to the
// next, since the streams of several components interleave.
//
// Errors: malformed input (empty, cut short, a checksum or count that does
// not match, a field out of range) is a *FormatError wrapping ErrFormat with
// the byte offset, never a panic. A trace whose writer was never closed (a
// capture killed half-way) has no end marker and is an error, not a shorter
// trace; a flipped byte breaks a block's CRC, and so do blocks out of order
// (each block's CRC continues the previous one's). NewWriter rejects a bad header
// with ErrHeader and Write a bad record with ErrRecord, writing nothing.
//
// Package trace/warp writes warp instruction traces in the same container
// (the same blocks, checksums, end marker and dictionary).
//
// # Container
//
// All integers are unsigned LEB128 varints (7 bits a byte, least
// significant first, high bit = more) in their shortest form — a reader
// rejects an overlong one — or, where marked ±, zigzag varints (0, −1, 1, −2
// … as 0, 1, 2, 3 …, so that small negatives stay short). A file is:
//
//	magic    "LCTRACE", a kind byte ('L' here; 'W' for trace/warp), version 02
//	block    the header block, type 'H'
//	block…   data blocks, type 'D' or 'Z', each holding one or more items
//	block    the end block, type 'E'; nothing may follow it
//
// and every block is
//
//	type     1 byte
//	length   varint, ≤ MaxBlockLen (2 MiB): bytes of body
//	body     length bytes
//	crc      4 bytes, little-endian: CRC-32C (Castagnoli) of type, length and
//	         body, continued from the previous block's crc (0 for the header
//	         block): the CRC-32C of this block's type, length and body after
//	         those of every block before it
//
// The chain makes the order of the blocks part of every checksum: blocks
// exchanged, each intact, fail at the first one out of place, which the end
// marker's counts alone cannot see. Version 01, which writers wrote before,
// is read too: its every block's crc starts from 0 (the committed sample
// traces are version 01).
//
// Header body: flags (varint, 0; no flag is defined), LineSize (1 … 1 MiB),
// DictEntries (the dictionary's capacity; DictEntries × LineSize ≤ 64 MiB;
// 0 = no dictionary), the length of Source (≤ 64 KiB) and its bytes, then
// fields of the trace kind (none for line traffic).
//
// 'D' body: the number of items n ≥ 1, then the n items, which must end
// exactly at the end of the body. 'Z' body: the length of the decoded body
// (≤ 2 MiB), then a raw DEFLATE stream (RFC 1951, compress/flate) that
// decodes to exactly that many bytes, laid out as a 'D' body, and ends
// exactly at the end of the block. A writer deflates when Options.Level is
// not 0 and the block shrinks; it ends a block once its items reach 64 KiB
// (or on Flush and Close), so a reader at the other end of a pipe sees
// records 64 KiB at a time.
//
// End body: the total number of items in the data blocks, and the number of
// data blocks. Reading them back confirms that nothing was lost.
//
// # Payload dictionary
//
// Every payload written in full (a literal) enters the dictionary: a ring of
// the last DictEntries literals, first in, first out. A payload equal to one
// in the ring is written as its distance from the newest entry (0 = the
// literal written last); references do not change the ring. The writer finds
// equal payloads through a hash index; the reader keeps only the ring.
//
// # Records
//
// Each item is one record, coded against the previous record of the trace
// (for the first, against Time 0, Src 0, Dst 0, Addr 0):
//
//	tag      1 byte: bit 0 Op (0 Read, 1 Write)
//	                 bit 1 payload is a back-reference (else a literal)
//	                 bit 2 Src differs from the previous record's
//	                 bit 3 Dst differs
//	                 bit 4 Time differs
//	                 bits 5–7 zero
//	Src      varint, if bit 2 (must differ from the previous Src, fit 32 bits)
//	Dst      varint, if bit 3 (likewise)
//	ΔTime    ± varint, if bit 4: Time − previous Time, modulo 2^64, not 0
//	ΔLine    ± varint: Addr/LineSize − previous Addr/LineSize, modulo 2^64
//	payload  LineSize bytes (a literal), or if bit 1 a varint distance
//
// # Worked example
//
// A trace of 8-byte lines, Source "ex", written with Options{DictEntries:
// 4} (no compression) and three records:
//
//	Time 1000, Src 1, Dst 0, Read,  Addr 0x1000, Data 01 02 03 04 05 06 07 08
//	Time 1000, Src 1, Dst 0, Read,  Addr 0x1008, Data 00 00 00 00 00 00 00 00
//	Time  900, Src 0, Dst 1, Write, Addr 0x1000, Data 01 02 03 04 05 06 07 08
//
// is these 67 bytes:
//
//	4C 43 54 52 41 43 45 4C 02  magic "LCTRACE", kind 'L', version 2
//	48 06                       header block 'H', 6 bytes of body
//	00 08 04 02 65 78             flags 0, LineSize 8, DictEntries 4, Source "ex"
//	23 59 2A 76                   CRC-32C 0x762A5923
//	44 20                       data block 'D', 32 bytes of body
//	03                            3 records
//	14                            tag 0x14: Read, literal, Src and Time change
//	01                              Src 1
//	D0 0F                           ΔTime +1000 → zigzag 2000 = 0x50|0x80, 15
//	80 08                           ΔLine +512 (0x1000/8) → zigzag 1024 = 0x00|0x80, 8
//	01 02 03 04 05 06 07 08         literal (dictionary entry 0)
//	00                            tag 0x00: Read, literal, nothing else changes
//	02                              ΔLine +1 → zigzag 2
//	00 00 00 00 00 00 00 00         literal (dictionary entry 1)
//	1F                            tag 0x1F: Write, reference, Src, Dst and Time change
//	00 01                           Src 0, Dst 1
//	C7 01                           ΔTime −100 → zigzag 199 = 0x47|0x80, 1
//	01                              ΔLine −1 → zigzag 1
//	01                              distance 1: the literal before the newest
//	6A 26 13 82                   CRC-32C 0x8213266A, continued from 0x762A5923
//	45 02                       end block 'E', 2 bytes of body
//	03 01                         3 records in 1 data block
//	63 E2 FF A1                   CRC-32C 0xA1FFE263, continued from 0x8213266A
//
// Cut anywhere before its last byte, this file is an ErrFormat error; with
// any one byte changed, too. In version 01 the two later CRCs would be
// B1 7B 61 C9 and FC F6 45 CC, each over its own block alone.
package trace
