package warp

import (
	"fmt"
	"io"
	"math"

	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/internal/tracefile"
)

// Writer writes a warp trace. The instructions of different warps may
// interleave in any way (a capture need not buffer a warp); those of one
// warp must come in program order. It is not safe for concurrent use.
type Writer struct {
	c        *tracefile.Writer
	dict     *tracefile.Dict
	lineSize int
	warpSize int

	kernel  Kernel
	started bool // a kernel has begun
	warps   warpSet

	// the previous item's state, which the next one is coded against
	warp Warp
	pc   uint64
	line uint64

	// pending Compute, merged with the next ones of the same warp
	pendingWarp  Warp
	pendingCount uint32
}

// NewWriter writes the header of a warp trace to w with trace.DefaultLevel
// compression and the default dictionary.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	return NewWriterOptions(w, h, Options{Level: trace.DefaultLevel})
}

// NewWriterOptions is NewWriter with explicit options. It rejects
// (ErrHeader) a line size outside 1…MaxLineSize, a warp size outside
// 1…MaxWarpSize and what trace.NewWriterOptions rejects.
func NewWriterOptions(w io.Writer, h Header, o Options) (*Writer, error) {
	th, err := tracefile.HeaderConfig(h.LineSize, h.Source, o.Level, o.DictEntries, MaxLineSize)
	if err != nil {
		return nil, err
	}
	if h.WarpSize <= 0 || h.WarpSize > MaxWarpSize {
		return nil, fmt.Errorf("%w: warp size %d outside 1…%d", ErrHeader, h.WarpSize, MaxWarpSize)
	}
	th.Extra = tracefile.AppendUvarint(nil, uint64(h.WarpSize))
	c, err := tracefile.NewWriter(w, 'W', th, o.Level)
	if err != nil {
		return nil, err
	}
	return &Writer{
		c:        c,
		dict:     tracefile.NewDict(th.LineSize, th.DictEntries),
		lineSize: th.LineSize,
		warpSize: h.WarpSize,
	}, nil
}

func (w *Writer) usable() error {
	if w.c.Closed() {
		return ErrClosed
	}
	return w.c.Err()
}

// BeginKernel starts a kernel; the instructions written next belong to it.
// It rejects (ErrRecord) a kernel with a zero size, a name longer than
// MaxNameLen or more than MaxWarps warps, and it requires every warp of the
// previous kernel that ran to have exited.
func (w *Writer) BeginKernel(k Kernel) error {
	if err := w.usable(); err != nil {
		return err
	}
	if why := k.check(w.warpSize); why != "" {
		return fmt.Errorf("%w: %s", ErrRecord, why)
	}
	if err := w.endKernel(); err != nil {
		return err
	}
	b := w.c.Buf()
	b = append(b, kindKernel)
	b = tracefile.AppendUvarint(b, uint64(len(k.Name)))
	b = append(b, k.Name...)
	for _, v := range k.Grid {
		b = tracefile.AppendUvarint(b, uint64(v))
	}
	for _, v := range k.Block {
		b = tracefile.AppendUvarint(b, uint64(v))
	}
	w.kernel, w.started = k, true
	w.warps.reset(k.MaxWarpsPerBlock(w.warpSize))
	w.warp, w.pc, w.line = Warp{}, 0, 0
	return w.c.Add(b)
}

// endKernel writes the pending Compute and checks that every warp exited.
func (w *Writer) endKernel() error {
	if !w.started {
		return nil
	}
	if w.warps.open != 0 {
		return fmt.Errorf("%w: kernel %q: %d warps have not exited", ErrRecord, w.kernel.Name, w.warps.open)
	}
	return w.flushCompute()
}

// Write appends one instruction of a warp. It rejects (ErrRecord, writing
// nothing) an instruction before the first kernel, a warp outside the
// kernel or one that has exited, an unknown kind, a Compute of count 0, a
// memory instruction of more than MaxLines lines or with a misaligned
// address or a payload of the wrong length, and fields the kind does not
// use (a Count outside Compute, a PC or Lines outside Load and Store).
//
// Consecutive Compute instructions of one warp, with nothing written
// between them, are stored (and read back) as one whose Count is their sum.
func (w *Writer) Write(in Inst) error {
	if err := w.usable(); err != nil {
		return err
	}
	if why := w.checkInst(&in); why != "" {
		return fmt.Errorf("%w: %s", ErrRecord, why)
	}
	if in.Kind == Compute {
		if w.pendingCount != 0 && w.pendingWarp == in.Warp && uint64(w.pendingCount)+uint64(in.Count) <= math.MaxUint32 {
			w.pendingCount += in.Count
			return nil
		}
		if err := w.flushCompute(); err != nil {
			return err
		}
		w.warps.step(in.Warp, Compute)
		w.pendingWarp, w.pendingCount = in.Warp, in.Count
		return nil
	}
	if err := w.flushCompute(); err != nil {
		return err
	}
	w.warps.step(in.Warp, in.Kind)
	b := w.c.Buf()
	b = w.appendTag(b, in.Kind, in.Warp)
	if in.Kind == Load || in.Kind == Store {
		b = tracefile.AppendVarint(b, int64(in.PC-w.pc))
		w.pc = in.PC
		b = tracefile.AppendUvarint(b, uint64(len(in.Lines)))
		for _, l := range in.Lines {
			line := l.Addr / uint64(w.lineSize)
			b = tracefile.AppendVarint(b, int64(line-w.line))
			w.line = line
			if dist, ok := w.dict.Lookup(l.Data); ok {
				b = tracefile.AppendUvarint(b, dist+1)
			} else {
				b = append(b, 0)
				b = append(b, l.Data...)
			}
		}
	}
	return w.c.Add(b)
}

func (w *Writer) checkInst(in *Inst) string {
	if !w.started {
		return "instruction before the first kernel"
	}
	if why := checkWarp(&w.kernel, in.Warp, w.warpSize); why != "" {
		return why
	}
	word, bit := w.warps.index(in.Warp)
	if word < len(w.warps.exited) && w.warps.exited[word]&bit != 0 {
		return fmt.Sprintf("warp %d of block %d has exited already", in.Warp.Index, in.Warp.Block)
	}
	switch in.Kind {
	case Compute:
		if in.Count == 0 {
			return "Compute of count 0"
		}
	case Load, Store:
		if in.Count != 0 {
			return fmt.Sprintf("%v with a Count", in.Kind)
		}
		if len(in.Lines) > MaxLines {
			return fmt.Sprintf("%v of %d lines exceeds %d", in.Kind, len(in.Lines), MaxLines)
		}
		for i, l := range in.Lines {
			if l.Addr%uint64(w.lineSize) != 0 {
				return fmt.Sprintf("line %d: address %#x is not a multiple of the line size %d", i, l.Addr, w.lineSize)
			}
			if len(l.Data) != w.lineSize {
				return fmt.Sprintf("line %d: payload of %d bytes, the line size is %d", i, len(l.Data), w.lineSize)
			}
		}
		return ""
	case Barrier, Exit:
		if in.Count != 0 {
			return fmt.Sprintf("%v with a Count", in.Kind)
		}
	default:
		return fmt.Sprintf("unknown kind %d", in.Kind)
	}
	if in.PC != 0 || len(in.Lines) != 0 {
		return fmt.Sprintf("%v with a PC or lines", in.Kind)
	}
	return ""
}

// appendTag appends an item's tag and, when the warp changes, the warp.
func (w *Writer) appendTag(b []byte, k Kind, warp Warp) []byte {
	if warp == w.warp {
		return append(b, byte(k))
	}
	b = append(b, byte(k)|tagWarp)
	b = tracefile.AppendVarint(b, int64(warp.Block)-int64(w.warp.Block))
	b = tracefile.AppendUvarint(b, uint64(warp.Index))
	w.warp = warp
	return b
}

func (w *Writer) flushCompute() error {
	if w.pendingCount == 0 {
		return nil
	}
	b := w.appendTag(w.c.Buf(), Compute, w.pendingWarp)
	b = tracefile.AppendUvarint(b, uint64(w.pendingCount))
	w.pendingCount = 0
	return w.c.Add(b)
}

// Flush writes everything written so far as a complete block, so that a
// reader at the other end of a pipe sees it.
func (w *Writer) Flush() error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.flushCompute(); err != nil {
		return err
	}
	return w.c.Flush()
}

// Close writes the end marker; it does not close the underlying writer.
// If a warp of the last kernel has not exited, Close returns an ErrRecord
// error and writes no end marker, so the trace reads back as malformed
// rather than as a complete one. Closing twice is harmless.
func (w *Writer) Close() error {
	if w.c.Closed() {
		return w.c.Err()
	}
	if err := w.c.Err(); err != nil {
		return err
	}
	if err := w.endKernel(); err != nil {
		return err
	}
	return w.c.Close()
}
