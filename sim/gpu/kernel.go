package gpu

import (
	"errors"
	"fmt"
	"io"

	"github.com/linecomp/linecomp/trace/warp"
)

// Kernel is one kernel launch as per-warp instruction streams.
type Kernel struct {
	Name   string
	Blocks []Block // by linear block id
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
type Line struct {
	Addr uint64
	Data []byte
}

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
// wrapping warp.ErrFormat for a malformed trace.
func ReadKernel(r *warp.Reader) (*Kernel, error) {
	k := r.Kernel()
	ws := r.Header().WarpSize
	out := &Kernel{Name: k.Name, Blocks: make([]Block, k.Blocks())}
	for b := range out.Blocks {
		out.Blocks[b].Warps = make([][]Inst, k.Warps(b, ws))
	}
	payloads := map[string][]byte{}
	for {
		in, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		b, i := int(in.Warp.Block), int(in.Warp.Index)
		if b >= len(out.Blocks) || i >= len(out.Blocks[b].Warps) {
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
				x.Lines[j] = Line{l.Addr, d}
			}
		}
		out.Blocks[b].Warps[i] = append(out.Blocks[b].Warps[i], x)
	}
}
