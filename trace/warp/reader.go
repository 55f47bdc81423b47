package warp

import (
	"io"
	"math"

	"github.com/linecomp/linecomp/trace/internal/tracefile"
)

// Reader reads a warp trace from a stream (no seeking). It holds one block
// (at most 2 MiB), the dictionary (at most trace.MaxDictBytes, as the
// writer chose), one instruction's lines (at most MaxLines × MaxLineSize =
// 1 MiB) and the kernel's warp bitmaps (at most 4 MiB), each grown only as
// input arrives.
//
// Use it like archive/tar: NextKernel moves to the next kernel (skipping
// what is left of the current one), Read returns the kernel's instructions
// one by one, in the order they were written, and io.EOF after its last.
type Reader struct {
	c        *tracefile.Reader
	d        tracefile.Decoder
	left     uint64 // items left in the current block
	ring     *tracefile.Ring
	header   Header
	lineSize uint64

	kernel   Kernel
	inKernel bool // NextKernel has returned a kernel whose items are being read
	warps    warpSet
	warp     Warp
	pc, line uint64

	lines []Line
	arena []byte // the payloads the returned lines point into
	err   error  // sticky: a format or I/O error, or io.EOF at the end of the trace
}

// NewReader reads the header of a warp trace. Malformed input, including an
// empty one, is an error wrapping ErrFormat.
func NewReader(r io.Reader) (*Reader, error) {
	c, err := tracefile.NewReader(r, 'W', "warp", MaxLineSize)
	if err != nil {
		return nil, err
	}
	d := c.ExtraDecoder()
	h := c.Header
	warpSize := d.Uvarint()
	if d.Err() == nil && (warpSize == 0 || warpSize > MaxWarpSize) {
		d.Failf(0, "warp size %d outside 1…%d", warpSize, MaxWarpSize)
	}
	if d.Err() == nil && !d.AtEnd() {
		return nil, tracefile.TrailingError(d)
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return &Reader{
		c:        c,
		ring:     tracefile.NewRing(h.LineSize, h.DictEntries),
		header:   Header{LineSize: h.LineSize, WarpSize: int(warpSize), Source: h.Source},
		lineSize: uint64(h.LineSize),
	}, nil
}

// Header returns the trace's header.
func (r *Reader) Header() Header { return r.header }

// Kernel returns the current kernel (the last one NextKernel returned).
func (r *Reader) Kernel() Kernel { return r.kernel }

// NextKernel moves to the next kernel and returns it, skipping (but still
// checking) the rest of the current one. After the last kernel it returns
// io.EOF, once the end marker has confirmed that nothing is missing.
func (r *Reader) NextKernel() (Kernel, error) {
	for {
		tag, err := r.peek()
		if err != nil {
			return Kernel{}, err
		}
		if tag&kindMask == kindKernel {
			return r.readKernel()
		}
		if !r.inKernel {
			r.d.Failf(r.d.Pos(), "instruction before the first kernel")
			return Kernel{}, r.fail()
		}
		if _, err := r.readInst(); err != nil {
			return Kernel{}, err
		}
	}
}

// Read returns the current kernel's next instruction. After the kernel's
// last one, and before the first NextKernel, it returns io.EOF. Lines and
// their Data are valid until the next call.
func (r *Reader) Read() (Inst, error) {
	if !r.inKernel {
		return Inst{}, io.EOF
	}
	tag, err := r.peek()
	if err != nil {
		return Inst{}, err
	}
	if tag&kindMask == kindKernel {
		return Inst{}, io.EOF
	}
	return r.readInst()
}

// peek makes the next item's tag available, reading a block if needed. At
// the end of the trace it checks the last kernel and returns io.EOF.
func (r *Reader) peek() (byte, error) {
	if r.err != nil {
		return 0, r.err
	}
	for r.left == 0 {
		if !r.d.AtEnd() {
			r.err = tracefile.TrailingError(&r.d)
			return 0, r.err
		}
		n, err := r.c.Next(&r.d)
		if err == io.EOF && r.inKernel && r.warps.open != 0 {
			err = &tracefile.FormatError{Offset: r.c.Offset(), Reason: "trace ends with warps of its last kernel still running"}
		}
		if err != nil {
			r.inKernel = false
			r.err = err
			return 0, err
		}
		r.left = n
	}
	tag, ok := r.d.Peek()
	if !ok {
		r.d.Failf(r.d.Pos(), "item cut short")
		return 0, r.fail()
	}
	return tag, nil
}

func (r *Reader) fail() error {
	r.err = r.d.Err()
	r.inKernel = false
	return r.err
}

func (r *Reader) readKernel() (Kernel, error) {
	d := &r.d
	start := d.Pos()
	if r.inKernel && r.warps.open != 0 {
		d.Failf(start, "kernel %q ends with %d warps still running", r.kernel.Name, r.warps.open)
		return Kernel{}, r.fail()
	}
	if tag := d.Byte(); tag != kindKernel {
		d.Failf(start, "kernel tag %#02x has undefined bits set", tag)
	}
	pos := d.Pos()
	n := d.Uvarint()
	if d.Err() == nil && n > MaxNameLen {
		d.Failf(pos, "kernel name of %d bytes exceeds %d", n, MaxNameLen)
	}
	var k Kernel
	k.Name = string(d.Bytes(int(n)))
	for i := range k.Grid {
		k.Grid[i] = d.Uvarint32("grid size")
	}
	for i := range k.Block {
		k.Block[i] = d.Uvarint32("block size")
	}
	if d.Err() == nil {
		if why := k.check(r.header.WarpSize); why != "" {
			d.Failf(start, "%s", why)
		}
	}
	if d.Err() != nil {
		return Kernel{}, r.fail()
	}
	r.left--
	r.kernel, r.inKernel = k, true
	r.warps.reset(k.MaxWarpsPerBlock(r.header.WarpSize))
	r.warp, r.pc, r.line = Warp{}, 0, 0
	return k, nil
}

func (r *Reader) readInst() (Inst, error) {
	d := &r.d
	start := d.Pos()
	tag := d.Byte()
	kind := Kind(tag & kindMask)
	if tag&tagReserved != 0 || kind > Exit {
		d.Failf(start, "instruction tag %#02x is undefined", tag)
		return Inst{}, r.fail()
	}
	if tag&tagWarp != 0 {
		pos := d.Pos()
		block := int64(r.warp.Block) + d.Varint()
		index := d.Uvarint32("warp index")
		w := Warp{Block: uint32(block), Index: index}
		switch {
		case d.Err() != nil:
		case block < 0 || block > math.MaxUint32:
			d.Failf(pos, "block %d outside 32 bits", block)
		case w == r.warp:
			d.Failf(pos, "warp flagged as changed but equal to the previous one")
		default:
			if why := checkWarp(&r.kernel, w, r.header.WarpSize); why != "" {
				d.Failf(pos, "%s", why)
			}
		}
		r.warp = w
	}
	if d.Err() == nil {
		if why := r.warps.step(r.warp, kind); why != "" {
			d.Failf(start, "%s", why)
		}
	}
	in := Inst{Warp: r.warp, Kind: kind}
	switch kind {
	case Compute:
		pos := d.Pos()
		in.Count = d.Uvarint32("compute count")
		if d.Err() == nil && in.Count == 0 {
			d.Failf(pos, "Compute of count 0")
		}
	case Load, Store:
		r.pc += uint64(d.Varint())
		in.PC = r.pc
		pos := d.Pos()
		n := d.Uvarint()
		if d.Err() == nil && n > MaxLines {
			d.Failf(pos, "%v of %d lines exceeds %d", kind, n, MaxLines)
		}
		in.Lines = r.readLines(int(n))
	}
	if d.Err() != nil {
		return Inst{}, r.fail()
	}
	r.left--
	return in, nil
}

func (r *Reader) readLines(n int) []Line {
	d := &r.d
	r.lines = r.lines[:0]
	r.arena = r.arena[:0]
	for range n {
		pos := d.Pos()
		line := r.line + uint64(d.Varint())
		if d.Err() == nil && line > math.MaxUint64/r.lineSize {
			d.Failf(pos, "line %d is beyond the 64-bit address space", line)
		}
		r.line = line
		pos = d.Pos()
		var p []byte
		if code := d.Uvarint(); code == 0 {
			p = d.Bytes(int(r.lineSize))
			if d.Err() == nil {
				r.ring.Add(p)
			}
		} else if d.Err() == nil {
			var ok bool
			if p, ok = r.ring.Get(code - 1); !ok {
				d.Failf(pos, "back-reference %d is older than the dictionary", code-1)
			}
		}
		if d.Err() != nil {
			return nil
		}
		r.arena = append(r.arena, p...)
		r.lines = append(r.lines, Line{Addr: line * r.lineSize})
	}
	// Point the lines into the arena only now: appending may have moved it.
	for i := range r.lines {
		off := uint64(i) * r.lineSize
		r.lines[i].Data = r.arena[off : off+r.lineSize : off+r.lineSize]
	}
	return r.lines
}
