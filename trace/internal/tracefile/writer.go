package tracefile

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// Limits and constants of the layout (documented in package trace).
const (
	// Version is the version writers write: 2 chains the block checksums
	// (each block's CRC-32C continues from the previous block's), so blocks
	// out of order fail their checksum. Readers also read version 1, whose
	// blocks each start from 0.
	Version = 2

	MaxLineSize      = 1 << 20  // bytes of a payload
	MaxSourceLen     = 1 << 16  // bytes of Header.Source
	MaxDictBytes     = 64 << 20 // DictEntries × LineSize
	DefaultDictBytes = 8 << 20  // dictionary size the writers choose by default
	MaxBlockLen      = 1 << 21  // bytes of a block body, and of a deflated block's decoded payload
	BlockTarget      = 64 << 10 // a writer ends a data block once its items reach this many bytes

	BlockHeader  = 'H'
	BlockData    = 'D'
	BlockDeflate = 'Z'
	BlockEnd     = 'E'
)

// Magic returns the 9 bytes that open a trace of the given kind ('L' line
// traffic, 'W' warp instructions): "LCTRACE", the kind, the version.
func Magic(kind byte) [9]byte {
	return [9]byte{'L', 'C', 'T', 'R', 'A', 'C', 'E', kind, Version}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum is the block checksum: CRC-32C (Castagnoli) of the block's type
// byte, length varint and body, continued from prev, the previous block's
// checksum (0 for the header block, and for every block of version 1).
func Checksum(prev uint32, b []byte) uint32 { return crc32.Update(prev, castagnoli, b) }

// Header is what the header block carries. The format validates the fields
// before NewWriter; Extra holds the format's own header fields, encoded by it.
type Header struct {
	LineSize    int
	DictEntries int
	Source      string
	Extra       []byte
}

// Writer writes the container: it buffers one data block of items at a time.
type Writer struct {
	w      io.Writer
	err    error
	level  int // compress/flate level; 0 stores blocks raw
	raw    []byte
	items  uint64 // items in raw
	total  uint64 // items in every block so far
	blocks uint64
	fw     *flate.Writer
	zbuf   bytes.Buffer
	prefix []byte
	chain  uint32 // the last block's checksum, which the next continues
	closed bool
}

// NewWriter writes the magic and the header block to w. level is a
// compress/flate level (flate.HuffmanOnly … flate.BestCompression), 0 for
// none; the caller has checked it.
func NewWriter(w io.Writer, kind byte, h Header, level int) (*Writer, error) {
	cw := &Writer{w: w, level: level, raw: make([]byte, 0, BlockTarget+BlockTarget/4)}
	if level != flate.NoCompression {
		fw, err := flate.NewWriter(&cw.zbuf, level)
		if err != nil {
			return nil, err
		}
		cw.fw = fw
	}
	magic := Magic(kind)
	cw.write(magic[:])
	body := AppendUvarint(nil, 0) // flags: none defined
	body = AppendUvarint(body, uint64(h.LineSize))
	body = AppendUvarint(body, uint64(h.DictEntries))
	body = AppendUvarint(body, uint64(len(h.Source)))
	body = append(body, h.Source...)
	body = append(body, h.Extra...)
	cw.writeBlock(BlockHeader, body, nil)
	if cw.err != nil {
		return nil, cw.err
	}
	return cw, nil
}

// Err returns the first error of the underlying writer, if any.
func (w *Writer) Err() error { return w.err }

// Closed reports whether Close was called.
func (w *Writer) Closed() bool { return w.closed }

// Buf returns the current block's item bytes; the format appends one item
// to it and passes the result to Add.
func (w *Writer) Buf() []byte { return w.raw }

// Add stores b (Buf with one more item appended) and writes the block once
// it has reached BlockTarget bytes.
func (w *Writer) Add(b []byte) error {
	w.raw = b
	w.items++
	w.total++
	if len(w.raw) >= BlockTarget {
		w.flush()
	}
	return w.err
}

// Flush writes the items buffered so far as a data block.
func (w *Writer) Flush() error {
	w.flush()
	return w.err
}

// Close writes the buffered items and the end block. It does not close the
// underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.flush()
	end := AppendUvarint(nil, w.total)
	end = AppendUvarint(end, w.blocks)
	w.writeBlock(BlockEnd, end, nil)
	w.closed = true
	return w.err
}

func (w *Writer) flush() {
	if w.items == 0 || w.err != nil {
		return
	}
	var countBuf [binary.MaxVarintLen64]byte
	count := AppendUvarint(countBuf[:0], w.items)
	rawLen := len(count) + len(w.raw)
	stored := false
	if w.fw != nil {
		w.zbuf.Reset()
		w.fw.Reset(&w.zbuf)
		w.fw.Write(count) // writes to a bytes.Buffer cannot fail
		w.fw.Write(w.raw)
		w.fw.Close()
		var lenBuf [binary.MaxVarintLen64]byte
		zlen := AppendUvarint(lenBuf[:0], uint64(rawLen))
		if len(zlen)+w.zbuf.Len() < rawLen {
			w.writeBlock(BlockDeflate, zlen, w.zbuf.Bytes())
			stored = true
		}
	}
	if !stored {
		w.writeBlock(BlockData, count, w.raw)
	}
	w.blocks++
	w.raw = w.raw[:0]
	w.items = 0
}

// writeBlock writes type, length, the body (the concatenation of a and b)
// and its checksum, continued from the previous block's.
func (w *Writer) writeBlock(typ byte, a, b []byte) {
	w.prefix = append(w.prefix[:0], typ)
	w.prefix = AppendUvarint(w.prefix, uint64(len(a)+len(b)))
	crc := crc32.Update(w.chain, castagnoli, w.prefix)
	crc = crc32.Update(crc, castagnoli, a)
	crc = crc32.Update(crc, castagnoli, b)
	w.chain = crc
	w.write(w.prefix)
	w.write(a)
	w.write(b)
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], crc)
	w.write(sum[:])
}

func (w *Writer) write(b []byte) {
	if w.err != nil || len(b) == 0 {
		return
	}
	_, w.err = w.w.Write(b)
}
