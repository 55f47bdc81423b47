package fpc

import (
	"encoding/binary"
	"math/bits"

	"github.com/linecomp/linecomp/internal/bitstream"
)

// The hot paths below code and decode a word with table lookups and
// arithmetic instead of a switch on its kind, and move bits through a 64-bit
// accumulator written 8 bytes at a time. The slow decoder in fpc.go, which
// reports errors, reads one field at a time with the bit reader and
// rebuilds words with word, the readable definition of each data field.

// encStep codes one word of a kind: its code is
// pre | (w>>shift)&maskShifted | w&maskLow | run&maskRun, bits long, where
// run is the zero-run field (count − 1), which only the "fpc" zero kind uses.
type encStep struct {
	pre                  uint64
	shift                uint8
	bits                 uint8
	maskShifted, maskLow uint32
	maskRun              uint32
}

// decStep decodes the code of one prefix: data is the dataBits bits after
// the prefix; the word is uint32(int64(data<<up)>>down) · mul, replaced by
// the two-halves word where maskTwo is set, and the decoder moves
// advance + data&maskRun words on (a zero run moves count words).
type decStep struct {
	dataBits, up, down uint8
	mul, maskTwo       uint32
	maskRun            uint32
	advance            int
}

// badAdvance moves the decoder past any line, so that a prefix that is not
// valid in the middle of a line (Tavana's zero block) sends it to the slow
// decoder, which reports the error.
const badAdvance = 2 * maxWords

func (t *table) buildSteps() {
	for k := range nKinds {
		db := t.dataBits[k]
		s := encStep{pre: uint64(t.prefix[k]) << db, bits: prefixBits + db}
		switch k {
		case kZero:
			if !t.tavana {
				s.maskRun = 1<<runBits - 1
			}
		case kSE4, kSE8, kRep, kSE16, kRaw:
			s.maskLow = uint32(1<<db - 1)
		case kLowZero:
			s.shift, s.maskShifted = 16, 0xFFFF
		case kTwo:
			s.shift, s.maskShifted, s.maskLow = 8, 0xFF00, 0xFF
		}
		t.enc[k] = s
		for r, v := range []uint64{s.pre, uint64(s.shift), uint64(s.maskShifted), uint64(s.maskLow), uint64(s.maskRun), uint64(s.bits)} {
			t.vecEnc[8*r+int(k)] = v
		}
	}
	for p, k := range t.kindOf {
		d := decStep{advance: 1}
		switch k {
		case kNone:
			d.advance = badAdvance
		case kZero:
			if !t.tavana {
				d.maskRun = 1<<runBits - 1
			}
		case kSE4, kSE8, kSE16, kRaw:
			d.up = 64 - t.dataBits[k] // sign-extend from the data width
			d.down, d.mul = d.up, 1
		case kRep:
			d.mul = 0x01010101
		case kLowZero:
			d.up, d.mul = 16, 1
		case kTwo:
			d.maskTwo = 0xFFFFFFFF
		}
		if k != kNone {
			d.dataBits = t.dataBits[k]
		}
		t.dec[p] = d
		row := t.decTab[16*p : 16*p+16]
		total := prefixBits + d.dataBits
		row[0], row[2], row[3] = total, d.up, d.down
		// The data's BEXTR control in the window, the stream
		// left-aligned from the prefix: start 64 − total, length dataBits.
		binary.LittleEndian.PutUint16(row[14:], uint16(64-total)|uint16(d.dataBits)<<8)
		binary.LittleEndian.PutUint32(row[4:], d.mul)
		binary.LittleEndian.PutUint32(row[8:], d.maskTwo)
		row[12], row[13] = uint8(d.maskRun), uint8(d.advance)
	}
}

// maxCodeBytes bounds the word codes of any line: 32 words of 35 bits and
// the flag, 141 bytes. The scratch buffers have room for an 8-byte store or
// load at any byte of such a stream.
const (
	maxCodeBytes = (tagBits + maxWords*(prefixBits+32) + 7) / 8
	scratchBytes = maxCodeBytes + 8
)

// appendCodes appends flag 1 and the word codes of line, whose words have
// kinds kinds and zero mask zeros, to dst. codeBits is their length.
func (c *Codec) appendCodes(dst, line []byte, kinds []uint8, zeros uint32, codeBits int) []byte {
	emit := c.allWords
	if !c.tab.tavana {
		// A zero word emits a code only where a run code starts.
		emit = ^zeros&c.allWords | runCodeStarts(zeros)
	}
	var buf [scratchBytes]byte
	c.pack(&buf, line, kinds, zeros, emit)
	return append(dst, buf[:(tagBits+codeBits+7)/8]...)
}

// packGeneric writes flag 1 and the codes of the words of line marked in
// emit to buf. It is the pure-Go definition that the pack kernel must
// match byte for byte.
//
// It works in two passes so that the loop carrying the bit position stays
// small enough for the compiler to keep in registers: the first computes
// every code independently into a compact list (a word that emits nothing,
// inside a zero run, is overwritten by the next), the second packs the
// list.
func (t *table) packGeneric(buf *[scratchBytes]byte, line []byte, kinds []uint8, zeros, emit uint32) {
	var codes [maxWords]uint64 // code value << 8 | code length
	kinds = kinds[:len(line)/4]
	j := 0
	for i, k := range kinds {
		w := binary.LittleEndian.Uint32(line[4*i:])
		s := &t.enc[k&7]
		// count − 1 of the zero run starting at word i; garbage for
		// other kinds, which mask it out.
		run := uint32(min(bits.TrailingZeros32(^(zeros>>uint(i))), maxRun) - 1)
		v := s.pre | uint64(w>>s.shift&s.maskShifted|w&s.maskLow|run&s.maskRun)
		codes[j&(maxWords-1)] = v<<8 | uint64(s.bits) // j ≤ i < maxWords
		j += int(emit >> uint(i) & 1)
	}
	// acc holds the pending bits right-aligned; the 8-byte store writes
	// them left-aligned at byte p, and only the whole bytes are kept.
	acc, nacc := uint64(1), uint(tagBits)
	p := 0
	for _, code := range codes[:j] {
		n := uint(code & 63)
		acc = acc<<n | code>>8
		nacc += n
		binary.BigEndian.PutUint64(buf[p:p+8], acc<<((64-nacc)&63))
		p += int(nacc >> 3)
		nacc &= 7
	}
	binary.BigEndian.PutUint64(buf[p:p+8], acc<<((64-nacc)&63))
}

// wordCodesGeneric classifies line and returns its summary and the length
// of flag 1 and its word codes under the report's table; if they are
// shorter than the line (the stream Compress makes), it writes them to
// buf[:(length+7)/8] as appendCodes does (later bytes are scratch), and if
// not, the raw stream (flag 0 and the line) to buf[:LineSize()+1]. It is
// the pure-Go definition that the fused Compress kernel must match,
// except that where the codes are not shorter than the line the kernel's
// length may be any that is not shorter either (c.streamBits of the two
// is the same).
func (c *Codec) wordCodesGeneric(buf *[scratchBytes]byte, line []byte) (summary, int) {
	var kinds [maxWords]uint8
	s := classifyLineGeneric(line, kinds[:])
	zeros := s.zeros()
	codeBits := c.codeBits(s)
	if c.fits(codeBits) {
		c.tab.packGeneric(buf, line, kinds[:], zeros, ^zeros&c.allWords|runCodeStarts(zeros))
	} else {
		_, _ = bitstream.AppendRaw(buf[:0], rawFlag, tagBits, line) // in place: buf has room
	}
	return s, tagBits + codeBits
}

// appendZeroBlock appends Tavana's all-zero line: flag 1, prefix 000.
func appendZeroBlock(dst []byte) []byte {
	return append(dst, 1<<7|TavanaZeroBlock<<4)
}

// decodeCodes decodes a stream of word codes (flag 1) into out and reports
// whether it is well formed: the codes cover exactly the line and the
// stream ends at the last code with zero padding. A malformed stream gives
// false, and the slow decoder then reports what is wrong with it.
func (c *Codec) decodeCodes(out *[128]byte, enc []byte) bool {
	if len(enc) > maxCodeBytes {
		return false
	}
	var in [scratchBytes]byte
	copy(in[:], enc)
	n := c.lineSize / 4
	pos, i := c.tab.unpack(out, &in, n)
	if i != n || int(pos+7)/8 != len(enc) {
		return false
	}
	pad := -pos & 7
	return enc[len(enc)-1]&(1<<pad-1) == 0
}

// decodeLineGeneric decodes enc into out (LineSize() bytes) and reports
// true if it is a well-formed raw stream or a stream of word codes that
// decodeCodes accepts, the streams that Decompress decodes without its
// error-reporting decoders; otherwise it may have written to out. It is
// the pure-Go definition that the one-call decode kernel must match (which
// writes nothing when it reports false).
func (c *Codec) decodeLineGeneric(out, enc []byte) bool {
	n := c.lineSize
	switch {
	case len(enc) == 0:
		return false
	case enc[0]>>7 == rawFlag:
		if len(enc) != n+1 || enc[n]&0x7F != 0 {
			return false
		}
		_, _, ok := bitstream.ReadRaw(out[:n], enc, tagBits)
		return ok
	case len(enc) > maxCodeBytes:
		return false
	}
	var in [scratchBytes]byte
	copy(in[:], enc)
	var line [128]byte
	pos, i := c.tab.unpackGeneric(&line, &in, n/4)
	if i != n/4 || int(pos+7)/8 != len(enc) || enc[len(enc)-1]&(1<<(-pos&7)-1) != 0 {
		return false
	}
	copy(out, line[:n])
	return true
}

// unpackGeneric decodes word codes from in, starting after the flag, into
// out until they cover at least n words. It returns the bit position after
// the last code and the number of words covered. It is the pure-Go
// definition that the unpack kernel must match.
func (t *table) unpackGeneric(out *[128]byte, in *[scratchBytes]byte, n int) (pos uint, i int) {
	pos = tagBits
	for i < n {
		// A code is at most 35 bits and pos&7 ≤ 7, so the 8 bytes from
		// pos's byte hold it; the loop runs at most maxWords times, so
		// pos stays inside the scratch buffer.
		v := bitstream.Peek(in[:], pos)
		d := &t.dec[v>>(64-prefixBits)]
		db := uint(d.dataBits)
		x := v >> ((64 - prefixBits - db) & 63) & (1<<db - 1)
		pos += prefixBits + db
		w := uint32(int64(x<<(d.up&63))>>(d.down&63)) * d.mul
		two := uint32(uint16(int8(x>>8)))<<16 | uint32(uint16(int8(x)))
		w = w&^d.maskTwo | two&d.maskTwo
		binary.LittleEndian.PutUint32(out[4*(i&(maxWords-1)):], w)
		i += d.advance + int(uint32(x)&d.maskRun)
	}
	return pos, i
}
