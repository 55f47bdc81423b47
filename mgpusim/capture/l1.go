package capture

import (
	"fmt"

	"github.com/linecomp/linecomp/trace"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
)

// r9nano shader arrays: 16 per GPU, 4 compute units each, one L1 vector
// cache (akita mem/cache/writearound.Comp) per compute unit, named
// "GPU[g].SA[s].L1VCache[i]" (timingconfig/shaderarray/builder.go).
const (
	r9nanoShaderArrays = 16
	r9nanoCUsPerSA     = 4
	r9nanoCUsPerGPU    = r9nanoShaderArrays * r9nanoCUsPerSA
)

// l1Capture records every request that reaches an L1 vector cache's Top
// port (from the compute unit through its reorder buffer and address
// translator, so the address is physical): a *mem.ReadReq as trace.Read,
// a *mem.WriteReq as trace.Write. Src is the compute unit,
// (g-1)*64 + 4*s + i; Dst is the GPU number g. The payload is the
// lineSize-byte line (one record per line the request touches), read from MGPUSim's
// global storage at the moment the request arrives; for a write, with the
// written bytes laid over it (the line after the store).
//
// The global storage is DRAM. MGPUSim's L2 is write-back, so a line that
// is dirty in an L2 (written since the last flush and not yet evicted)
// reads here with its DRAM value; the L1 itself is write-around and holds
// nothing dirty.
type l1Capture struct {
	p        *Platform
	sink     *sink
	lineSize uint64
}

func attachL1(p *Platform, sk *sink, lineSize int) (finish func() error, err error) {
	c := &l1Capture{p: p, sink: sk, lineSize: uint64(lineSize)}
	for g := 1; g <= p.GPUs; g++ {
		for s := 0; s < r9nanoShaderArrays; s++ {
			for i := 0; i < r9nanoCUsPerSA; i++ {
				l1 := p.component(fmt.Sprintf("GPU[%d].SA[%d].L1VCache[%d]", g, s, i))
				cu := uint32((g-1)*r9nanoCUsPerGPU + s*r9nanoCUsPerSA + i)
				gpu := uint32(g)
				l1.GetPortByName("Top").AcceptHook(portHook(func(ctx sim.HookCtx) {
					if ctx.Pos == sim.HookPosPortMsgRecvd {
						c.onRequest(cu, gpu, ctx.Item)
					}
				}))
			}
		}
	}
	return func() error { return sk.err }, nil
}

func (c *l1Capture) onRequest(cu, gpu uint32, msg any) {
	var (
		op    trace.Op
		addr  uint64
		size  uint64
		write *mem.WriteReq
	)
	switch m := msg.(type) {
	case *mem.ReadReq:
		op, addr, size = trace.Read, m.Address, m.AccessByteSize
	case *mem.WriteReq:
		op, addr, size, write = trace.Write, m.Address, uint64(len(m.Data)), m
	default:
		return
	}
	if size == 0 {
		size = 1
	}
	// One record per line the request touches: with -line below the
	// 64-byte request granularity a request spans several lines.
	now := picoseconds(c.p.Simulation.GetEngine().CurrentTime())
	for line := addr &^ (c.lineSize - 1); line < addr+size; line += c.lineSize {
		data, err := c.p.Storage.Read(line, c.lineSize)
		if err != nil {
			c.sink.fail("l1: reading line %#x from the global storage: %v", line, err)
			return
		}
		if write != nil {
			overlay(data, line, write)
		}
		c.sink.put(trace.Record{Time: now, Src: cu, Dst: gpu, Op: op, Addr: line, Data: data})
	}
}

// overlay lays the bytes a write request marks dirty (all of them when it
// has no mask) over line, which starts at lineAddr; bytes outside the
// line are left to the records of their own lines.
func overlay(line []byte, lineAddr uint64, w *mem.WriteReq) {
	for i, b := range w.Data {
		if w.DirtyMask != nil && !w.DirtyMask[i] {
			continue
		}
		a := w.Address + uint64(i)
		if a >= lineAddr && a < lineAddr+uint64(len(line)) {
			line[a-lineAddr] = b
		}
	}
}
