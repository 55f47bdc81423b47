package tracefile

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// Reader reads the container block by block: it never holds more than one
// block body and one decoded block, each at most MaxBlockLen bytes, and it
// grows its buffers only as bytes actually arrive.
type Reader struct {
	Header Header

	br      *bufio.Reader
	off     int64 // file offset of the next byte of input
	body    []byte
	raw     []byte
	zsrc    bytes.Reader
	fr      io.ReadCloser
	chained bool   // version 2: each block's checksum continues from the previous one's
	chain   uint32 // the last block's checksum
	items   uint64 // items announced by the data blocks read so far
	blocks  uint64
	err     error // sticky: a *FormatError, an I/O error or io.EOF

	extraStart int64 // file offset of Header.Extra
}

// NewReader reads the magic and the header block. kind is the trace kind
// the caller expects, name names it in errors ("line-traffic", "warp") and
// maxLineSize is its largest line size.
func NewReader(r io.Reader, kind byte, name string, maxLineSize int) (*Reader, error) {
	cr := &Reader{br: bufio.NewReader(r)}
	var magic [9]byte
	n, err := io.ReadFull(cr.br, magic[:])
	cr.off += int64(n)
	switch {
	case n == 0 && (err == io.EOF || err == io.ErrUnexpectedEOF):
		return nil, formatErr(0, "empty input")
	case err == io.ErrUnexpectedEOF:
		return nil, formatErr(int64(n), "input ends inside the magic")
	case err != nil:
		return nil, cr.ioErr(err)
	}
	want := Magic(kind)
	if !bytes.Equal(magic[:7], want[:7]) {
		return nil, formatErr(0, "not a linecomp trace (magic %q)", magic[:7])
	}
	if magic[7] != kind {
		return nil, formatErr(7, "not a %s trace (kind byte %q)", name, magic[7])
	}
	if magic[8] != 1 && magic[8] != Version {
		return nil, formatErr(8, "unsupported version %d", magic[8])
	}
	cr.chained = magic[8] >= 2
	typ, body, start, err := cr.readBlock()
	if err != nil {
		return nil, err
	}
	if typ != BlockHeader {
		return nil, formatErr(start, "first block has type %q, want the header %q", typ, BlockHeader)
	}
	var d Decoder
	bodyStart := cr.off - int64(len(body)) - 4
	d.Reset(body, func(pos int) (int64, string) { return bodyStart + int64(pos), "" })
	if flags := d.Uvarint(); flags != 0 {
		d.Failf(0, "unknown header flags %#x", flags)
	}
	pos := d.Pos()
	lineSize := d.Uvarint()
	if d.Err() == nil && (lineSize == 0 || lineSize > uint64(maxLineSize)) {
		d.Failf(pos, "line size %d outside 1…%d", lineSize, maxLineSize)
	}
	pos = d.Pos()
	entries := d.Uvarint()
	if d.Err() == nil && entries > MaxDictBytes/lineSize {
		d.Failf(pos, "dictionary of %d entries of %d bytes exceeds %d bytes", entries, lineSize, MaxDictBytes)
	}
	pos = d.Pos()
	srcLen := d.Uvarint()
	if d.Err() == nil && srcLen > MaxSourceLen {
		d.Failf(pos, "source of %d bytes exceeds %d", srcLen, MaxSourceLen)
	}
	src := d.Bytes(int(srcLen))
	if err := d.Err(); err != nil {
		return nil, err
	}
	cr.Header = Header{
		LineSize:    int(lineSize),
		DictEntries: int(entries),
		Source:      string(src),
		Extra:       bytes.Clone(body[d.Pos():]),
	}
	cr.extraStart = bodyStart + int64(d.Pos())
	return cr, nil
}

// ExtraDecoder returns a decoder over the header's format-specific fields,
// reporting file offsets.
func (r *Reader) ExtraDecoder() *Decoder {
	d := new(Decoder)
	start := r.extraStart
	d.Reset(r.Header.Extra, func(pos int) (int64, string) { return start + int64(pos), "" })
	return d
}

// Next makes d decode the next data block and returns how many items it
// holds (at least one). After the end block, once it has checked the item
// and block counts and that nothing follows, Next returns io.EOF, and keeps
// returning it. The format must check that d is at its end after the last
// item (TrailingError).
func (r *Reader) Next(d *Decoder) (items uint64, err error) {
	if r.err != nil {
		return 0, r.err
	}
	items, err = r.next(d)
	if err != nil {
		r.err = err
	}
	return items, err
}

func (r *Reader) next(d *Decoder) (uint64, error) {
	typ, body, start, err := r.readBlock()
	if err != nil {
		return 0, err
	}
	bodyStart := start + 1 + int64(uvarintLen(uint64(len(body))))
	var payload []byte
	var locate func(int) (int64, string)
	switch typ {
	case BlockData:
		payload = body
		locate = func(pos int) (int64, string) { return bodyStart + int64(pos), "" }
	case BlockDeflate:
		payload, err = r.inflate(body, bodyStart)
		if err != nil {
			return 0, err
		}
		locate = func(pos int) (int64, string) {
			return start, fmt.Sprintf("decoded byte %d of the deflated block", pos)
		}
	case BlockEnd:
		return 0, r.end(body, start, bodyStart)
	default:
		return 0, formatErr(start, "unexpected block type %q", typ)
	}
	d.Reset(payload, locate)
	items := d.Uvarint()
	if d.Err() == nil && items == 0 {
		d.Failf(0, "data block with no items")
	}
	if err := d.Err(); err != nil {
		return 0, err
	}
	r.items += items
	r.blocks++
	return items, nil
}

// end checks the end block and that the input ends with it.
func (r *Reader) end(body []byte, start, bodyStart int64) error {
	var d Decoder
	d.Reset(body, func(pos int) (int64, string) { return bodyStart + int64(pos), "" })
	items := d.Uvarint()
	blocks := d.Uvarint()
	if !d.AtEnd() {
		d.Failf(d.Pos(), "trailing bytes in the end block")
	}
	if err := d.Err(); err != nil {
		return err
	}
	if items != r.items || blocks != r.blocks {
		return formatErr(start, "end marker counts %d items in %d blocks, the trace holds %d in %d", items, blocks, r.items, r.blocks)
	}
	if _, err := r.br.ReadByte(); err == nil {
		return formatErr(r.off, "data after the end marker")
	} else if err != io.EOF {
		return r.ioErr(err)
	}
	return io.EOF
}

// TrailingError is the error for a block with bytes left after its last item.
func TrailingError(d *Decoder) error {
	d.Failf(d.Pos(), "bytes after the block's last item")
	return d.Err()
}

// readBlock reads one block and checks its checksum. start is the block's
// file offset. An input that ends before the block's first byte gives an
// error wrapping io.EOF and ErrFormat.
func (r *Reader) readBlock() (typ byte, body []byte, start int64, err error) {
	start = r.off
	typ, err = r.br.ReadByte()
	if err != nil {
		if err == io.EOF {
			return 0, nil, start, formatErr(start, "trace ends without its end marker (a capture cut short?)")
		}
		return 0, nil, start, r.ioErr(err)
	}
	r.off++
	var lenBuf [binary.MaxVarintLen64]byte
	n := 0
	for {
		c, err := r.br.ReadByte()
		if err != nil {
			if err == io.EOF {
				return 0, nil, start, formatErr(r.off, "trace cut short inside a block length")
			}
			return 0, nil, start, r.ioErr(err)
		}
		r.off++
		lenBuf[n] = c
		n++
		if c < 0x80 || n == len(lenBuf) {
			break
		}
	}
	length, _, ok := uvarint(lenBuf[:n])
	if !ok {
		return 0, nil, start, formatErr(start+1, "malformed block length")
	}
	if length > MaxBlockLen {
		return 0, nil, start, formatErr(start+1, "block length %d exceeds %d", length, MaxBlockLen)
	}
	r.body, err = r.readFull(r.body, int(length)+4)
	if err != nil {
		return 0, nil, start, err
	}
	body = r.body[:length]
	var seed uint32
	if r.chained {
		seed = r.chain
	}
	crc := crc32.Update(seed, castagnoli, []byte{typ})
	crc = crc32.Update(crc, castagnoli, lenBuf[:n])
	crc = crc32.Update(crc, castagnoli, body)
	if got := binary.LittleEndian.Uint32(r.body[length:]); got != crc {
		why := ""
		if r.chained {
			why = " (a changed byte, or a block out of order)"
		}
		return 0, nil, start, formatErr(start, "block checksum %08x, computed %08x%s", got, crc, why)
	}
	r.chain = crc
	return typ, body, start, nil
}

// readFull reads n bytes into buf (reused), growing it only as data arrives
// so that a hostile length costs no more memory than the input supplies.
func (r *Reader) readFull(buf []byte, n int) ([]byte, error) {
	buf = buf[:0]
	for len(buf) < n {
		if len(buf) == cap(buf) {
			nb := make([]byte, len(buf), min(n, max(2*cap(buf), 64<<10)))
			copy(nb, buf)
			buf = nb
		}
		m, err := io.ReadFull(r.br, buf[len(buf):min(cap(buf), n)])
		buf = buf[:len(buf)+m]
		r.off += int64(m)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return buf, formatErr(r.off, "trace cut short inside a block")
		}
		if err != nil {
			return buf, r.ioErr(err)
		}
	}
	return buf, nil
}

// inflate decodes a deflated block body: a varint of the decoded length,
// then a raw DEFLATE stream that must end exactly at the end of the body.
func (r *Reader) inflate(body []byte, bodyStart int64) ([]byte, error) {
	rawLen, n, ok := uvarint(body)
	if !ok {
		return nil, formatErr(bodyStart, "malformed decoded length")
	}
	if rawLen > MaxBlockLen {
		return nil, formatErr(bodyStart, "decoded length %d exceeds %d", rawLen, MaxBlockLen)
	}
	r.zsrc.Reset(body[n:])
	if r.fr == nil {
		r.fr = flate.NewReader(&r.zsrc)
	} else if err := r.fr.(flate.Resetter).Reset(&r.zsrc, nil); err != nil {
		return nil, formatErr(bodyStart, "deflate: %v", err)
	}
	buf := r.raw[:0]
	for len(buf) < int(rawLen) {
		if len(buf) == cap(buf) {
			nb := make([]byte, len(buf), min(int(rawLen), max(2*cap(buf), 64<<10)))
			copy(nb, buf)
			buf = nb
		}
		m, err := r.fr.Read(buf[len(buf):min(cap(buf), int(rawLen))])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, formatErr(bodyStart, "deflate: %v", err)
		}
	}
	r.raw = buf
	if len(buf) != int(rawLen) {
		return nil, formatErr(bodyStart, "deflated block decodes to %d bytes, its header says %d", len(buf), rawLen)
	}
	var one [1]byte
	if m, err := r.fr.Read(one[:]); m != 0 || err != io.EOF {
		if err != nil && err != io.EOF {
			return nil, formatErr(bodyStart, "deflate: %v", err)
		}
		return nil, formatErr(bodyStart, "deflated block decodes to more than the %d bytes its header says", rawLen)
	}
	if r.zsrc.Len() != 0 {
		return nil, formatErr(bodyStart, "%d bytes after the deflate stream", r.zsrc.Len())
	}
	return buf, nil
}

// Offset is the file offset of the next byte the reader will read.
func (r *Reader) Offset() int64 { return r.off }

func (r *Reader) ioErr(err error) error {
	return fmt.Errorf("trace: reading byte %d: %w", r.off, err)
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
