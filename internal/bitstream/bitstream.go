// Package bitstream writes and reads the MSB-first bit streams that every
// linecomp codec produces.
//
// Fields are concatenated most significant bit first; the first bit of the
// stream is the most significant bit of byte 0. Writing 0b101 (3 bits) then
// 0x3F (8 bits) gives
//
//	bits:  101 00111111 00000
//	bytes: 10100111 11100000 = 0xA7 0xE0, 11 bits
//
// The low bits of the last byte are zero padding. The reader checks that
// padding and the stream's exact length in Finish.
package bitstream

import "encoding/binary"

// Writer appends an MSB-first bit stream to a byte slice. The zero value is
// not usable; call Reset first. It never allocates if the destination has
// enough capacity.
type Writer struct {
	buf   []byte
	start int    // len(buf) at Reset
	acc   uint64 // pending bits, left-aligned
	nacc  uint   // number of pending bits, always < 32 between calls
}

// Reset starts a new stream appended to dst.
func (w *Writer) Reset(dst []byte) {
	*w = Writer{buf: dst, start: len(dst)}
}

// Write appends the low n bits of v, n ≤ 32. It is small enough to be
// inlined; the flush of a full 32-bit word is not.
func (w *Writer) Write(v uint64, n uint) {
	w.acc |= v & (1<<n - 1) << (64 - n - w.nacc)
	w.nacc += n
	if w.nacc >= 32 {
		w.flush()
	}
}

func (w *Writer) flush() {
	w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(w.acc>>32))
	w.acc <<= 32
	w.nacc -= 32
}

// Write64 appends the low n bits of v, n ≤ 64.
func (w *Writer) Write64(v uint64, n uint) {
	if n > 32 {
		w.Write(v>>32, n-32)
		n = 32
	}
	w.Write(v, n)
}

// Bytes appends raw whole bytes, as n×8-bit fields, four at a time.
func (w *Writer) Bytes(p []byte) {
	for ; len(p) >= 4; p = p[4:] {
		w.Write(uint64(binary.BigEndian.Uint32(p)), 32)
	}
	for _, b := range p {
		w.Write(uint64(b), 8)
	}
}

// Zeros appends n zero bits.
func (w *Writer) Zeros(n int) {
	for ; n > 32; n -= 32 {
		w.Write(0, 32)
	}
	w.Write(0, uint(n))
}

// Bits returns the number of bits written since Reset.
func (w *Writer) Bits() int { return 8*(len(w.buf)-w.start) + int(w.nacc) }

// Finish pads the stream with zero bits to a whole byte and returns the
// extended buffer and the exact stream length in bits.
func (w *Writer) Finish() ([]byte, int) {
	bits := w.Bits()
	for n := int(w.nacc); n > 0; n -= 8 {
		w.buf = append(w.buf, byte(w.acc>>56))
		w.acc <<= 8
	}
	w.nacc = 0
	return w.buf, bits
}

// Reader reads an MSB-first bit stream. Reads past the end return zero bits
// and record the first offset at which the stream ran short, so a decoder
// can read a whole record and check once.
type Reader struct {
	buf     []byte
	pos     int  // bit position of the next read
	end     int  // len(buf)*8
	overrun int  // bit offset of the first read past the end, or -1
	fast    uint // reads starting in a byte below this can load 8 bytes
}

// Reset starts reading buf from bit 0.
func (r *Reader) Reset(buf []byte) {
	*r = Reader{buf: buf, end: 8 * len(buf), overrun: -1, fast: uint(max(len(buf)-7, 0))}
}

// Read returns the next n bits, n ≤ 57, as an unsigned integer. Reads that
// lie at least eight bytes before the end take an inlined fast path.
func (r *Reader) Read(n uint) uint64 {
	if i := uint(r.pos) >> 3; i < r.fast {
		v := binary.BigEndian.Uint64(r.buf[i:i+8]) << (uint(r.pos) & 7) >> (64 - n)
		r.pos += int(n)
		return v
	}
	return r.readTail(n)
}

// readTail reads near the end of the stream, where a word load would run
// past it.
func (r *Reader) readTail(n uint) uint64 {
	if n == 0 {
		return 0
	}
	if r.pos+int(n) > r.end {
		if r.overrun < 0 {
			r.overrun = r.pos
		}
		r.pos = r.end
		return 0
	}
	i := r.pos >> 3
	var word uint64
	if i+8 <= len(r.buf) {
		word = binary.BigEndian.Uint64(r.buf[i:])
	} else {
		for k := 0; k < 8; k++ {
			word <<= 8
			if i+k < len(r.buf) {
				word |= uint64(r.buf[i+k])
			}
		}
	}
	v := word << uint(r.pos&7) >> (64 - n)
	r.pos += int(n)
	return v
}

// ReadBytes fills p with the next 8·len(p) bits, four bytes at a time.
func (r *Reader) ReadBytes(p []byte) {
	for ; len(p) >= 4; p = p[4:] {
		binary.BigEndian.PutUint32(p, uint32(r.Read(32)))
	}
	for i := range p {
		p[i] = byte(r.Read(8))
	}
}

// Read64 returns the next n bits, n ≤ 64.
func (r *Reader) Read64(n uint) uint64 {
	if n > 32 {
		hi := r.Read(n - 32)
		return hi<<32 | r.Read(32)
	}
	return r.Read(n)
}

// Pos returns the bit offset of the next read.
func (r *Reader) Pos() int { return r.pos }

// Overrun reports whether a read went past the end, and the bit offset of
// the first such read.
func (r *Reader) Overrun() (offset int, ok bool) { return r.overrun, r.overrun >= 0 }

// Problem describes why a fully decoded stream is malformed: it was too
// short, has bytes left over after the last field, or has non-zero padding
// bits. It returns the bit offset and a reason, or ok = true if the stream
// ended exactly at the current position with zero padding.
func (r *Reader) Problem() (offset int, reason string, ok bool) {
	if r.overrun >= 0 {
		return r.overrun, "stream ends inside a field", false
	}
	if want := (r.pos + 7) / 8; len(r.buf) != want {
		return r.pos, "stream has trailing bytes after the last field", false
	}
	if pad := r.end - r.pos; pad > 0 && r.buf[len(r.buf)-1]&(1<<pad-1) != 0 {
		return r.pos, "non-zero padding bits", false
	}
	return 0, "", true
}

// Field returns the n bits (n ≤ 57) at bit offset pos of buf, which must
// have at least eight bytes from pos/8 on: a decoder that has checked a
// stream's length copies it into a zero-padded array and reads its fields
// with Field, one inlined word load each.
func Field(buf []byte, pos, n uint) uint64 { return Peek(buf, pos) >> (64 - n) }

// Peek returns the stream from bit offset pos of buf on, left-aligned in 64
// bits of which at least the top 57 are the stream's; buf must have at
// least eight bytes from pos/8 on, as for Field. A decoder whose next
// field's length depends on its leading bits (a prefix code) peeks once and
// takes the field from the word.
func Peek(buf []byte, pos uint) uint64 {
	return binary.BigEndian.Uint64(buf[pos>>3:]) << (pos & 7)
}

// MaxRawBytes is the longest raw part that AppendRaw and ReadRaw take: the
// largest line of any codec.
const MaxRawBytes = 128

// AppendRaw appends to dst the stream that stores an incompressible line
// as it is: the low k bits of tag (k ≤ 8), then the bytes of raw, MSB-first
// and zero-padded to a whole byte. It returns the extended buffer and the
// stream length, k + 8·len(raw) bits. Every codec with a "tag, then the raw
// line" encoding writes it with AppendRaw and reads it with ReadRaw.
//
// AppendRaw reads all of raw before it writes to dst, so the two may
// overlap. len(raw) must be at most MaxRawBytes.
func AppendRaw(dst []byte, tag uint64, k uint, raw []byte) ([]byte, int) {
	if len(raw) > MaxRawBytes || k > 8 {
		panic("bitstream: AppendRaw of more than MaxRawBytes or a tag over 8 bits")
	}
	if k == 1 && tag&1 == 0 {
		// The raw encoding of bpc, fpc, sc and cpack: a kernel where the
		// level has one for the length (5.4 ns instead of 24 at 64 bytes,
		// 6.3 instead of 30 at 128, BenchmarkAppendRaw).
		if out, ok := appendRawKernel(dst, raw); ok {
			return out, 1 + 8*len(raw)
		}
	}
	// in is the tag's byte, then raw. The stream is in without the tag
	// byte's 8 − k unused high bits: in shifted left by 8 − k bits as a
	// whole, eight bytes at a time.
	var in, out [MaxRawBytes + 16]byte
	in[0] = byte(tag & (1<<k - 1))
	copy(in[1:], raw)
	bits := int(k) + 8*len(raw)
	m := (bits + 7) / 8
	for i := 0; i < m; i += 8 {
		v := binary.BigEndian.Uint64(in[i:])<<(8-k) | uint64(in[i+8])>>k
		binary.BigEndian.PutUint64(out[i:], v)
	}
	return append(dst, out[:m]...), bits
}

// ReadRaw reads the raw part of a stream that AppendRaw made with a k-bit
// tag (k ≤ 8) into line, all len(line) bytes of it. It does not look at the
// tag, which the caller has read to choose this encoding. It checks that
// enc is exactly the tag, the line and zero padding; if not, it writes
// nothing and returns the bit offset and the reason, worded as
// Reader.Problem words them, for a linecomp.CorruptError.
//
// ReadRaw reads all of enc before it writes to line, so the two may
// overlap. len(line) must be at most MaxRawBytes.
func ReadRaw(line, enc []byte, k uint) (offset int, reason string, ok bool) {
	if len(line) > MaxRawBytes || k > 8 {
		panic("bitstream: ReadRaw of more than MaxRawBytes or a tag over 8 bits")
	}
	if k == 1 && readRawKernel(line, enc) {
		// A well-formed stream of a one-bit tag, by a kernel where the
		// level has one for the length (5.0 ns instead of 18 at 128
		// bytes, BenchmarkReadRaw); a malformed one goes on below, which
		// finds what is wrong.
		return 0, "", true
	}
	// Line byte j is the eight stream bits from 8j + k on. They are
	// shifted into out, which is then copied to line: all of enc is read
	// before line is written, wherever line lies.
	n := len(line)
	if k > 0 && n%8 == 0 && len(enc) == n+1 && enc[n]<<k == 0 {
		// A well-formed stream of whole 8-byte words, the common case:
		// every load lies inside enc, so enc is read where it is, not
		// copied first (20 ns instead of 33 for a 128-byte line).
		var out [MaxRawBytes]byte
		for i := 0; i < n; i += 8 {
			v := binary.BigEndian.Uint64(enc[i:i+8])<<k | uint64(enc[i+8])>>(8-k)
			binary.BigEndian.PutUint64(out[i:i+8], v)
		}
		copy(line, out[:n])
		return 0, "", true
	}
	bits := int(k) + 8*n
	switch m := (bits + 7) / 8; {
	case len(enc) < m:
		return 8 * len(enc), "stream ends inside a field", false
	case len(enc) > m:
		return bits, "stream has trailing bytes after the last field", false
	}
	if pad := uint(8*len(enc) - bits); pad > 0 && enc[len(enc)-1]&(1<<pad-1) != 0 {
		return bits, "non-zero padding bits", false
	}
	// Any other stream: a load may reach past enc, so read a zero-padded
	// copy.
	var in, out [MaxRawBytes + 16]byte
	copy(in[:], enc)
	for i := 0; i < n; i += 8 {
		v := binary.BigEndian.Uint64(in[i:])<<k | uint64(in[i+8])>>(8-k)
		binary.BigEndian.PutUint64(out[i:], v)
	}
	copy(line, out[:n])
	return 0, "", true
}
