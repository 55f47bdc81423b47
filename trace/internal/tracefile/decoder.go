package tracefile

import (
	"encoding/binary"
	"fmt"
)

// Decoder reads the fields of one block's items. Errors are sticky: after the
// first problem every method returns zero values and Err reports the problem
// with the file offset of the field that caused it.
type Decoder struct {
	buf    []byte
	pos    int
	err    error
	locate func(pos int) (int64, string) // maps a position in buf to a file offset and a note
}

// Reset makes d read buf; locate maps a position in buf to the file offset
// reported in errors (and a note such as "decoded byte 12 of a deflated
// block" when the position has no file offset of its own).
func (d *Decoder) Reset(buf []byte, locate func(pos int) (int64, string)) {
	*d = Decoder{buf: buf, locate: locate}
}

// Err returns the first problem found, a *FormatError, or nil.
func (d *Decoder) Err() error { return d.err }

// AtEnd reports whether every byte has been read.
func (d *Decoder) AtEnd() bool { return d.pos == len(d.buf) }

// Failf records a problem at position pos (usually the start of the field
// being decoded, from Pos) unless one was recorded already.
func (d *Decoder) Failf(pos int, format string, args ...any) {
	if d.err != nil {
		return
	}
	reason := fmt.Sprintf(format, args...)
	off, note := int64(pos), ""
	if d.locate != nil {
		off, note = d.locate(pos)
	}
	if note != "" {
		reason += " (" + note + ")"
	}
	d.err = &FormatError{Offset: off, Reason: reason}
	d.pos = len(d.buf)
}

// Pos is the position of the next byte to be read.
func (d *Decoder) Pos() int { return d.pos }

// Byte reads one byte.
func (d *Decoder) Byte() byte {
	if d.err != nil {
		return 0
	}
	if d.pos >= len(d.buf) {
		d.Failf(d.pos, "item cut short")
		return 0
	}
	b := d.buf[d.pos]
	d.pos++
	return b
}

// Bytes reads n bytes and returns them without copying.
func (d *Decoder) Bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.buf)-d.pos {
		d.Failf(d.pos, "item cut short: %d bytes wanted, %d left", n, len(d.buf)-d.pos)
		return nil
	}
	b := d.buf[d.pos : d.pos+n : d.pos+n]
	d.pos += n
	return b
}

// Uvarint reads an unsigned LEB128 varint, rejecting overlong encodings (a
// last byte of zero after the first) so that every value has one encoding.
func (d *Decoder) Uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n, ok := uvarint(d.buf[d.pos:])
	if !ok {
		if n == 0 {
			d.Failf(d.pos, "varint cut short")
		} else {
			d.Failf(d.pos, "malformed varint")
		}
		return 0
	}
	d.pos += n
	return v
}

// Varint reads a zigzag varint: 0, −1, 1, −2 … are 0, 1, 2, 3 ….
func (d *Decoder) Varint() int64 {
	u := d.Uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// Uvarint32 reads a varint that must fit 32 bits; what names the field.
func (d *Decoder) Uvarint32(what string) uint32 {
	pos := d.pos
	v := d.Uvarint()
	if v > 1<<32-1 {
		d.Failf(pos, "%s %d does not fit 32 bits", what, v)
		return 0
	}
	return uint32(v)
}

// uvarint decodes a canonical varint from b. n is the number of bytes used,
// 0 when b ends inside the varint; ok is false for a truncated, overlong or
// overflowing varint.
func uvarint(b []byte) (v uint64, n int, ok bool) {
	v, n = binary.Uvarint(b)
	if n <= 0 {
		if n == 0 {
			return 0, 0, false
		}
		return 0, -n, false
	}
	if n > 1 && b[n-1] == 0 {
		return 0, n, false
	}
	return v, n, true
}

// AppendVarint appends v zigzag-encoded as Decoder.Varint reads it.
func AppendVarint(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

// AppendUvarint appends v as Decoder.Uvarint reads it.
func AppendUvarint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// Peek returns the next byte without reading it; ok is false at the end.
func (d *Decoder) Peek() (b byte, ok bool) {
	if d.err != nil || d.pos >= len(d.buf) {
		return 0, false
	}
	return d.buf[d.pos], true
}
