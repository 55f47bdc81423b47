package trace

import (
	"compress/flate"
	"fmt"
	"io"
	"math"

	"github.com/linecomp/linecomp/trace/internal/tracefile"
)

// Op says which way a line's data moves.
type Op uint8

const (
	Read  Op = 1 // data moving in answer to a read: a fill, a data-ready response
	Write Op = 2 // data moving with a write: a write-back, a remote write
)

func (o Op) String() string {
	switch o {
	case Read:
		return "read"
	case Write:
		return "write"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Header describes a whole trace.
type Header struct {
	LineSize int    // bytes of every record's payload
	Source   string // free text: simulator, version, benchmark and its parameters
}

// Record is one line moving between two components.
type Record struct {
	Time uint64 // simulated time in picoseconds; 0 when untimed
	Src  uint32 // sending component: GPU, compute unit or memory controller index
	Dst  uint32
	Op   Op
	Addr uint64 // line-aligned byte address
	Data []byte // exactly Header.LineSize bytes
}

var (
	// ErrFormat means the input is not a well-formed trace: empty, cut
	// short, corrupted (a checksum or an end-marker count does not match),
	// or holding a field out of range. The error is a *FormatError, which
	// carries the byte offset. Package trace/warp returns the same sentinel.
	ErrFormat = tracefile.ErrFormat

	// ErrHeader means NewWriter was given a header or options it cannot
	// write: a line size outside 1…MaxLineSize, a Source longer than
	// MaxSourceLen, a dictionary beyond MaxDictBytes, an unknown
	// compression level.
	ErrHeader = tracefile.ErrHeader

	// ErrRecord means Write was given a record it cannot write: an op
	// other than Read and Write, an address that is not a multiple of the
	// line size, a payload of the wrong length. Nothing is written.
	ErrRecord = tracefile.ErrRecord

	// ErrClosed means Write was called after Close.
	ErrClosed = tracefile.ErrClosed
)

// FormatError says where and why a trace was rejected; errors.Is(err,
// ErrFormat) holds for every *FormatError.
type FormatError = tracefile.FormatError

// Limits of the format. A reader rejects a trace that exceeds them, so no
// length field can make it allocate more.
const (
	MaxLineSize  = tracefile.MaxLineSize  // 1 MiB
	MaxSourceLen = tracefile.MaxSourceLen // 64 KiB
	MaxDictBytes = tracefile.MaxDictBytes // 64 MiB: dictionary entries × line size
	MaxBlockLen  = tracefile.MaxBlockLen  // 2 MiB: a block body, a decoded block
)

// DefaultLevel is the compress/flate level NewWriter deflates blocks with.
const DefaultLevel = flate.BestSpeed

// Options are the writer's choices; none of them changes what a reader
// returns, only the file's size and the memory both sides use.
type Options struct {
	// Level is the compress/flate level each data block is deflated with
	// (flate.HuffmanOnly, flate.BestSpeed … flate.BestCompression,
	// flate.DefaultCompression); 0 (flate.NoCompression) stores blocks as
	// they are. A block is stored raw whenever deflating does not shrink it.
	Level int

	// DictEntries is how many distinct recent payloads the dictionary
	// keeps for back-references: 0 chooses 8 MiB worth (8 MiB / LineSize,
	// at least 1), a negative value turns the dictionary off (every payload
	// is written in full). Entries × LineSize must not exceed MaxDictBytes;
	// a reader holds that many bytes at most.
	DictEntries int
}

// Writer writes a line-traffic trace. It is not safe for concurrent use.
type Writer struct {
	c        *tracefile.Writer
	dict     *tracefile.Dict
	lineSize int
	// the previous record's fields, which the next one is coded against
	time     uint64
	src, dst uint32
	line     uint64
}

// NewWriter writes the header of a line-traffic trace to w, with
// DefaultLevel compression and the default dictionary. It rejects a line
// size ≤ 0 or above MaxLineSize (ErrHeader).
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	return NewWriterOptions(w, h, Options{Level: DefaultLevel})
}

// NewWriterOptions is NewWriter with explicit options.
func NewWriterOptions(w io.Writer, h Header, o Options) (*Writer, error) {
	th, err := tracefile.HeaderConfig(h.LineSize, h.Source, o.Level, o.DictEntries, MaxLineSize)
	if err != nil {
		return nil, err
	}
	c, err := tracefile.NewWriter(w, 'L', th, o.Level)
	if err != nil {
		return nil, err
	}
	return &Writer{c: c, dict: tracefile.NewDict(th.LineSize, th.DictEntries), lineSize: th.LineSize}, nil
}

// Record tag bits (see the package doc).
const (
	tagWrite   = 1 << 0
	tagRef     = 1 << 1
	tagSrc     = 1 << 2
	tagDst     = 1 << 3
	tagTime    = 1 << 4
	tagUnknown = 0xFF &^ (tagWrite | tagRef | tagSrc | tagDst | tagTime)
)

// Write appends a record. It rejects (ErrRecord, writing nothing) an op
// other than Read or Write, an address that is not a multiple of the line
// size and a payload whose length is not the line size. After an error of
// the underlying writer every call returns that error.
func (w *Writer) Write(r Record) error {
	if w.c.Closed() {
		return ErrClosed
	}
	if err := w.c.Err(); err != nil {
		return err
	}
	if r.Op != Read && r.Op != Write {
		return fmt.Errorf("%w: op %d is neither Read (1) nor Write (2)", ErrRecord, r.Op)
	}
	if r.Addr%uint64(w.lineSize) != 0 {
		return fmt.Errorf("%w: address %#x is not a multiple of the line size %d", ErrRecord, r.Addr, w.lineSize)
	}
	if len(r.Data) != w.lineSize {
		return fmt.Errorf("%w: payload of %d bytes, the line size is %d", ErrRecord, len(r.Data), w.lineSize)
	}
	b := w.c.Buf()
	at := len(b)
	b = append(b, 0)
	tag := byte(0)
	if r.Op == Write {
		tag |= tagWrite
	}
	if r.Src != w.src {
		tag |= tagSrc
		b = tracefile.AppendUvarint(b, uint64(r.Src))
		w.src = r.Src
	}
	if r.Dst != w.dst {
		tag |= tagDst
		b = tracefile.AppendUvarint(b, uint64(r.Dst))
		w.dst = r.Dst
	}
	if r.Time != w.time {
		tag |= tagTime
		b = tracefile.AppendVarint(b, int64(r.Time-w.time))
		w.time = r.Time
	}
	line := r.Addr / uint64(w.lineSize)
	b = tracefile.AppendVarint(b, int64(line-w.line))
	w.line = line
	if dist, ok := w.dict.Lookup(r.Data); ok {
		tag |= tagRef
		b = tracefile.AppendUvarint(b, dist)
	} else {
		b = append(b, r.Data...)
	}
	b[at] = tag
	return w.c.Add(b)
}

// Flush writes the records buffered so far as a complete block, so that a
// reader at the other end of a pipe sees them. Blocks are otherwise written
// once they reach 64 KiB.
func (w *Writer) Flush() error {
	if w.c.Closed() {
		return ErrClosed
	}
	return w.c.Flush()
}

// Close writes the buffered records and the end marker (with the record
// count). It does not close the underlying writer. A trace that was never
// closed reads back as an error, not as a shorter trace. Closing twice is
// harmless.
func (w *Writer) Close() error { return w.c.Close() }

// Reader reads a line-traffic trace from a stream (no seeking), holding at
// most one block (MaxBlockLen) and the dictionary (MaxDictBytes) in memory.
type Reader struct {
	c        *tracefile.Reader
	d        tracefile.Decoder
	left     uint64 // records left in the current block
	ring     *tracefile.Ring
	header   Header
	lineSize uint64
	time     uint64
	src, dst uint32
	line     uint64
	data     []byte // the returned record's payload: a copy, so that a caller cannot alter the dictionary
	err      error
}

// NewReader reads the header of a line-traffic trace. Malformed input,
// including an empty one, is an error wrapping ErrFormat.
func NewReader(r io.Reader) (*Reader, error) {
	c, err := tracefile.NewReader(r, 'L', "line-traffic", MaxLineSize)
	if err != nil {
		return nil, err
	}
	if len(c.Header.Extra) != 0 {
		d := c.ExtraDecoder()
		return nil, tracefile.TrailingError(d)
	}
	h := c.Header
	return &Reader{
		c:        c,
		ring:     tracefile.NewRing(h.LineSize, h.DictEntries),
		header:   Header{LineSize: h.LineSize, Source: h.Source},
		lineSize: uint64(h.LineSize),
	}, nil
}

// Header returns the trace's header.
func (r *Reader) Header() Header { return r.header }

// Read returns the next record, in the order they were written. After the
// last record it returns io.EOF (unwrapped), and keeps returning it; but
// only once the end marker has confirmed the record count, so a trace cut
// short is an ErrFormat error instead. Data is valid until the next Read.
func (r *Reader) Read() (Record, error) {
	if r.err != nil {
		return Record{}, r.err
	}
	for r.left == 0 {
		if !r.d.AtEnd() {
			r.err = tracefile.TrailingError(&r.d)
			return Record{}, r.err
		}
		n, err := r.c.Next(&r.d)
		if err != nil {
			r.err = err
			return Record{}, err
		}
		r.left = n
	}
	d := &r.d
	start := d.Pos()
	tag := d.Byte()
	if tag&tagUnknown != 0 {
		d.Failf(start, "record tag %#02x has undefined bits set", tag)
	}
	op := Read
	if tag&tagWrite != 0 {
		op = Write
	}
	if tag&tagSrc != 0 {
		pos := d.Pos()
		if v := d.Uvarint32("source"); v != r.src {
			r.src = v
		} else {
			d.Failf(pos, "source flagged as changed but equal to the previous one")
		}
	}
	if tag&tagDst != 0 {
		pos := d.Pos()
		if v := d.Uvarint32("destination"); v != r.dst {
			r.dst = v
		} else {
			d.Failf(pos, "destination flagged as changed but equal to the previous one")
		}
	}
	if tag&tagTime != 0 {
		pos := d.Pos()
		if dt := d.Varint(); dt != 0 {
			r.time += uint64(dt)
		} else {
			d.Failf(pos, "time flagged as changed by a delta of 0")
		}
	}
	pos := d.Pos()
	line := r.line + uint64(d.Varint())
	if line > math.MaxUint64/r.lineSize {
		d.Failf(pos, "line %d is beyond the 64-bit address space", line)
	}
	r.line = line
	var payload []byte
	if tag&tagRef != 0 {
		pos := d.Pos()
		dist := d.Uvarint()
		p, ok := r.ring.Get(dist)
		if !ok && d.Err() == nil {
			d.Failf(pos, "back-reference %d is older than the dictionary", dist)
		}
		payload = p
	} else {
		payload = d.Bytes(int(r.lineSize))
		if d.Err() == nil {
			r.ring.Add(payload)
		}
	}
	if err := d.Err(); err != nil {
		r.err = err
		return Record{}, err
	}
	r.left--
	if r.data == nil {
		// Allocated only now that a payload has arrived, so that a
		// header's line size alone costs nothing.
		r.data = make([]byte, r.lineSize)
	}
	copy(r.data, payload)
	return Record{Time: r.time, Src: r.src, Dst: r.dst, Op: op, Addr: line * r.lineSize, Data: r.data}, nil
}
