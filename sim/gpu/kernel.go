package gpu

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/linecomp/linecomp"

	"github.com/linecomp/linecomp/trace/warp"
)

// Kernel is one kernel launch as per-warp instruction streams, grouped by
// block: the model's form of a trace/warp kernel. warp.Kernel is only the
// launch's header (grid and block sizes), and warp.Inst carries what the
// model never reads (the warp's name and the PC, 16 bytes an instruction
// over traces of millions), so the model keeps these leaner types; a line
// access is the trace's own warp.Line.
type Kernel struct {
	Name   string
	Blocks []Block // in linear block id order
}

// Block is one block (workgroup): its warps' streams by index.
type Block struct {
	Warps [][]Inst
}

// Inst is one step of a warp's stream (see warp.Inst).
type Inst struct {
	Kind  warp.Kind
	Count uint32 // Compute: instructions
	Lines []Line // Load, Store: line accesses after coalescing
}

// Line is one line access: its address and payload (for a load the bytes
// read, for a store the line after the store). Payloads may be shared
// between lines with equal content and must not be modified.
type Line = warp.Line

// Accesses returns the number of line accesses of the kernel's loads and
// stores.
func (k *Kernel) Accesses() int {
	n := 0
	for _, b := range k.Blocks {
		for _, w := range b.Warps {
			for _, in := range w {
				n += len(in.Lines)
			}
		}
	}
	return n
}

// ReadKernel reads the current kernel of r (after r.NextKernel) into per-warp
// streams, sharing one copy of every distinct payload. It returns an error
// wrapping warp.ErrFormat for a malformed trace, and one wrapping
// linecomp.ErrConfig for a nil r.
//
// The kernel holds the warps that have records, in block order and by
// index within a block, and the blocks that have such warps: a warp the
// trace never mentions runs nothing (a capture records every warp's Exit),
// so it is not launched. Memory thus follows what the trace holds, not the
// grid its header declares: a few bytes may declare 2^24 warps.
func ReadKernel(r *warp.Reader) (*Kernel, error) {
	if r == nil {
		return nil, linecomp.ConfigError("gpu", "ReadKernel: the reader is nil")
	}
	k := r.Kernel()
	ws := r.Header().WarpSize
	var seen []warp.Warp // every warp with a record, in first-record order
	streams := map[warp.Warp][]Inst{}
	payloads := map[string][]byte{}
	for {
		in, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if b, i := int(in.Warp.Block), int(in.Warp.Index); b >= k.Blocks() || i >= k.Warps(b, ws) {
			return nil, fmt.Errorf("%w: kernel %s: warp %d of block %d is outside the grid", warp.ErrFormat, k.Name, i, b)
		}
		x := Inst{Kind: in.Kind, Count: in.Count}
		if len(in.Lines) > 0 {
			x.Lines = make([]Line, len(in.Lines))
			for j, l := range in.Lines {
				d, ok := payloads[string(l.Data)]
				if !ok {
					d = append([]byte(nil), l.Data...)
					payloads[string(d)] = d
				}
				x.Lines[j] = Line{Addr: l.Addr, Data: d}
			}
		}
		s, ok := streams[in.Warp]
		if !ok {
			seen = append(seen, in.Warp)
		}
		streams[in.Warp] = append(s, x)
	}
	slices.SortFunc(seen, func(a, b warp.Warp) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Index, b.Index))
	})
	out := &Kernel{Name: k.Name}
	for i, w := range seen {
		if i == 0 || w.Block != seen[i-1].Block {
			out.Blocks = append(out.Blocks, Block{})
		}
		b := &out.Blocks[len(out.Blocks)-1]
		b.Warps = append(b.Warps, streams[w])
	}
	return out, nil
}

// RunTrace runs every kernel of a warp trace, in order, one kernel held at a
// time, and calls after (if not nil) with each kernel's statistics once it
// has run; an error from after stops the replay. A trace whose lines are
// not the L1's size is an error wrapping linecomp.ErrLineSize before any
// kernel runs.
func (g *GPU) RunTrace(r *warp.Reader, after func(KernelStats) error) error {
	if r == nil {
		return linecomp.ConfigError("gpu", "RunTrace: the trace reader is nil")
	}
	if ls := r.Header().LineSize; ls != g.cfg.L1.LineSize {
		return fmt.Errorf("%w: the trace has %d-byte lines; the L1 takes %d", linecomp.ErrLineSize, ls, g.cfg.L1.LineSize)
	}
	for {
		if _, err := r.NextKernel(); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		k, err := ReadKernel(r)
		if err != nil {
			return err
		}
		ks, err := g.Run(k)
		if err != nil {
			return err
		}
		if after != nil {
			if err := after(ks); err != nil {
				return err
			}
		}
	}
}
