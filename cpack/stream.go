package cpack

import (
	"encoding/binary"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/bitstream"
)

// The fast stream paths write and read whole 64-bit words at any bit
// position instead of one bitstream call per field.

// maxStreamBytes is the longest stream Compress writes or the fast decoder
// accepts: 1 flag bit and 32 new words of 34 bits, 1089 bits.
const maxStreamBytes = (tagBits + maxWords*34 + 7) / 8

// streamBuf holds a stream with room for an 8-byte load or store at any of
// its bytes.
type streamBuf [maxStreamBytes + 8]byte

// decodeBuf is a zero-padded copy of a stream with room for an 8-byte
// load at any of its bytes: the decoder reads 32 codes of at most 34 bits
// after the flag, so its loads start below byte (1+31×34)/8 = 131.
type decodeBuf [maxStreamBytes + 8]byte

// Per-kind layout of a word's payload, the same in both code tables: the
// index (if any) sits above lowBits bits taken from the word, and the
// decoded word is the entry's bits under hiMask or'ed with those low bits.
var (
	lowBits = [8]uint8{fullMatch: 0, threeMatch: 8, halfMatch: 16, narrowWord: 8, newWord: 32}
	lowMask = [8]uint32{threeMatch: 0xFF, halfMatch: 0xFFFF, narrowWord: 0xFF, newWord: 0xFFFFFFFF}
	hiMask  = [8]uint32{fullMatch: 0xFFFFFFFF, threeMatch: 0xFFFFFF00, halfMatch: 0xFFFF0000}
)

// peekEntry decodes a word code from the stream's next 4 bits, with what
// the decoder needs of its kind.
type peekEntry struct {
	kind     wordKind // badCode if the 4 bits are no code
	codeLen  uint8
	total    uint8 // codeLen + payload bits
	payShift uint8 // 63 − payload bits
	lowBits  uint8 // bits below the index
	hiMask   uint32
	lowMask  uint32
	push     uint // 1 if the kind is pushed
	match    uint // all ones if the kind has an index, else 0
}

// emitEntry is what Compress needs of a word kind.
type emitEntry struct {
	field   uint64 // code prefix shifted above the payload
	lowMask uint32
	lowBits uint8
	size    uint8
}

const badCode wordKind = 0xFF

func (c *Codec) buildFastTables() {
	for k := range numKinds {
		cd := c.codes[k]
		c.field[k] = cd.prefix << payloadBits[k]
		c.sizes8[k] = uint8(c.size[k])
		c.planTab[k] = c.sizes8[k]
	}
	// The kernels push every word ≥ 0x100 that has no match of any kind,
	// or, if matches are pushed too, every word ≥ 0x100: the words coded
	// as the kinds pushMask names.
	if c.pushMask>>fullMatch&1 == 0 {
		binary.LittleEndian.PutUint32(c.planTab[16:], 0xFFFFFFFF)
	}
	for k := range numKinds {
		c.emitTab[k] = emitEntry{field: c.field[k], lowMask: lowMask[k], lowBits: lowBits[k], size: c.sizes8[k]}
		c.vecEmit[k] = c.field[k]
		c.vecEmit[8+k] = uint64(lowMask[k])
		c.vecEmit[16+k] = uint64(lowBits[k])
		c.vecEmit[24+k] = uint64(c.sizes8[k])
	}
	for v := range c.peek {
		e := peekEntry{kind: badCode}
		if k := c.short[v>>2]; k >= 0 {
			e = peekEntry{kind: wordKind(k), codeLen: 2}
		} else if k := c.long[v&3]; k >= 0 {
			e = peekEntry{kind: wordKind(k), codeLen: 4}
		}
		if k := e.kind; k < numKinds {
			pay := uint8(payloadBits[k])
			e.total, e.payShift = e.codeLen+pay, 63-pay
			e.lowBits, e.hiMask, e.lowMask = lowBits[k], hiMask[k], lowMask[k]
			e.push = uint(c.pushMask >> k & 1)
			if hiMask[k] != 0 {
				e.match = ^uint(0)
			}
		}
		c.peek[v] = e
		row := c.decTab[32*v : 32*v+32]
		if e.kind >= numKinds {
			// No word code: a bad row that still moves on.
			row[0] = 4
			binary.LittleEndian.PutUint32(row[28:], 1<<31)
			continue
		}
		// BEXTR controls (start | length<<8) in the window, the stream
		// left-aligned from the code's first bit: the payload is its
		// lowest bits, the index (if any) the top 4 of them.
		pay := uint32(e.total - e.codeLen)
		start := 64 - uint32(e.total)
		row[0] = e.total
		binary.LittleEndian.PutUint32(row[4:], start|pay<<8)
		if e.match != 0 {
			binary.LittleEndian.PutUint32(row[8:], start+uint32(e.lowBits)|indexBits<<8)
			binary.LittleEndian.PutUint32(row[12:], 1)
		}
		binary.LittleEndian.PutUint32(row[16:], e.hiMask)
		binary.LittleEndian.PutUint32(row[20:], e.lowMask)
		binary.LittleEndian.PutUint16(row[24:], uint16(e.push-1)&16)
		binary.LittleEndian.PutUint16(row[26:], uint16(e.push))
	}
}

// Compress appends the encoding of line to dst.
func (c *Codec) Compress(dst, line []byte) ([]byte, int, error) {
	if len(line) != c.lineSize {
		return dst, 0, linecomp.LineSizeError(c.name, len(line), "lines of its configured size")
	}
	// The stream is built in buf, so dst may overlap line.
	var buf streamBuf
	if c.fused() {
		dst, total := c.appendStream(dst, &buf, c.wordCodes(&buf, line))
		return dst, total, nil
	}
	var ops [maxWords]op
	dst, total := c.encode(dst, line, &ops, c.planOps(line, &ops))
	return dst, total, nil
}

// encode appends the encoding of line, planned as ops with word codes of
// codeBits bits, to dst and returns it with its length in bits.
func (c *Codec) encode(dst, line []byte, ops *[maxWords]op, codeBits int) ([]byte, int) {
	var buf streamBuf
	if codeBits < 8*c.lineSize {
		c.emit(&buf, line, ops)
	} else {
		writeRaw(&buf, line)
	}
	return c.appendStream(dst, &buf, codeBits)
}

// writeRaw writes the raw stream of line (flag 0, then the line) to
// buf[:len(line)+1].
func writeRaw(buf *streamBuf, line []byte) {
	_, _ = bitstream.AppendRaw(buf[:0], rawFlag, tagBits, line) // in place: buf has room
}

// appendStream appends the encoding of a line whose word codes are
// codeBits long to dst and returns it with its length in bits. buf holds
// flag 1 and the word codes if they are shorter than the line, else the
// raw stream.
func (c *Codec) appendStream(dst []byte, buf *streamBuf, codeBits int) ([]byte, int) {
	layout, total := c.layoutOf(codeBits)
	if layout == layoutZeroBlock {
		buf[0] = 1<<7 | zeroBlockCode<<(7-zeroBlockBits)
	}
	return append(dst, buf[:(total+7)/8]...), total
}

// wordCodesGeneric plans line and returns the length in bits of its word
// codes; if they are shorter than the line, it writes flag 1 and the codes
// to buf[:(1+length+7)/8] as emit does (later bytes are scratch), and if
// not, the raw stream to buf[:LineSize()+1]. It is the pure-Go definition
// that the fused Compress kernel must match.
func (c *Codec) wordCodesGeneric(buf *streamBuf, line []byte) int {
	var ops [maxWords]op
	codeBits := c.planGeneric(line, &ops)
	if codeBits < 8*c.lineSize {
		c.emitGeneric(buf, line, &ops)
	} else {
		writeRaw(buf, line)
	}
	return codeBits
}

// emitGeneric writes the flag and the word codes of ops into buf. It is the
// pure-Go definition that the emit kernel must match. Pending bits
// stay left-aligned in acc; after each code the whole bytes are stored
// with one 8-byte write (fewer than 8 bits stay pending, and a code is at
// most 34 bits, so acc never overflows).
//
// It is only called for the word layout, whose stream is at most 8 ×
// LineSize bits: every store is at a byte offset below 128.
func (c *Codec) emitGeneric(buf *streamBuf, line []byte, ops *[maxWords]op) {
	acc, nacc, o := uint64(1)<<63, uint(tagBits), uint(0)
	tab := &c.emitTab
	for i := 0; len(line) >= 4; i++ {
		op := ops[i&(maxWords-1)]
		e := &tab[op.kind()]
		v := binary.LittleEndian.Uint32(line)
		line = line[4:]
		f := e.field | uint64(op.index())<<(e.lowBits&63) | uint64(v&e.lowMask)
		nacc += uint(e.size)
		acc |= f << ((64 - nacc) & 63)
		binary.BigEndian.PutUint64(buf[o&127:], acc)
		o += nacc >> 3
		acc <<= nacc &^ 7 & 63
		nacc &= 7
	}
	// The last store already holds the final partial byte, zero-padded.
}

// Decompress appends the line that enc encodes to dst. It accepts every
// stream of the documented layout, including ones Compress would not
// choose (e.g. a compressed stream longer than the raw one). It decodes
// into a local array, so dst may overlap enc.
func (c *Codec) Decompress(dst, enc []byte) ([]byte, error) {
	var line [128]byte
	out := line[:c.lineSize]
	if len(enc) > 0 && enc[0]>>7 == rawFlag {
		if off, why, ok := bitstream.ReadRaw(out, enc, tagBits); !ok {
			return dst, &linecomp.CorruptError{Codec: c.name, Offset: off, Reason: why}
		}
		return append(dst, out...), nil
	}
	if c.decodeFast(&line, enc) {
		return append(dst, out...), nil
	}
	return c.decompressSlow(dst, enc)
}

// decodeFast decodes a well-formed stream of word codes (flag 1) into line
// and reports whether it was one. It reads the stream from a zero-padded
// copy and checks the index, code and length rules without saying which
// failed: decompressSlow does that.
func (c *Codec) decodeFast(line *[128]byte, enc []byte) bool {
	n := len(enc)
	if n == 0 || n > maxStreamBytes || enc[0]>>7 != 1 {
		return false
	}
	var buf decodeBuf
	copy(buf[:], enc)
	pos, ok := c.decodeWords(line, &buf)
	end := uint(8 * n)
	if !ok || pos > end || (pos+7)/8 != uint(n) {
		return false // too short or trailing bytes
	}
	return buf[n-1]&(1<<(end-pos)-1) == 0 // padding
}

// decodeWordsGeneric decodes the word codes after flag 1 in buf into line
// and returns the bit offset after them, with ok false if a code is
// undefined there or a match names an empty slot. It reads one 8-byte
// load per word. It is the pure-Go definition that the decode kernel must
// match.
func (c *Codec) decodeWordsGeneric(line *[128]byte, buf *decodeBuf) (pos uint, ok bool) {
	// Slots 16 to 31 are scratch: every word is stored, where it counts
	// only if it is pushed.
	var dict [2 * dictSlots]uint32
	pushes := uint(0)
	pos = tagBits
	nw := c.lineSize / 4
	peek := &c.peek
	for i := 0; i < nw; i++ {
		v := bitstream.Peek(buf[:], pos)
		e := &peek[v>>60]
		if e.kind >= numKinds {
			if e.kind != zeroBlockKind || i != 0 {
				return pos, false
			}
			pos += zeroBlockBits
			break // the whole line is zero
		}
		p := v << e.codeLen >> 1 >> (e.payShift & 63)
		pos += uint(e.total)
		idx := uint(p >> (e.lowBits & 63))
		if (idx+1)&e.match > pushes {
			return pos, false // an empty slot
		}
		w := dict[idx&15]&e.hiMask | uint32(p)&e.lowMask
		binary.LittleEndian.PutUint32(line[4*(i%maxWords):], w)
		dict[(pushes&15|(e.push-1)&16)&31] = w
		pushes += e.push
	}
	return pos, true
}
