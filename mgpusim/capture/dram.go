package capture

import (
	"fmt"

	"github.com/linecomp/linecomp/trace"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
)

// dramCapture records every line moving between an L2 bank
// (akita mem/cache/writeback.Comp, "GPU[g].L2Cache[b]") and its DRAM
// controller ("GPU[g].DRAM[b]"; the R9 Nano model pairs bank b of L2 with
// controller b, r9nano/builder.go connectL2AndDRAM), seen at the L2's
// Bottom port:
//
//   - a fill is the *mem.DataReadyRsp arriving at Bottom (recorded as
//     trace.Read from the controller to the L2 bank, at its arrival), its
//     address taken from the *mem.ReadReq the L2 sent for it;
//   - a write-back is a *mem.WriteReq the L2 sends from Bottom (recorded
//     as trace.Write from the L2 bank to the controller).
//
// Src and Dst number banks across GPUs: (g-1)*banks + b, so GPU[1]'s
// banks are 0..15 and GPU[2]'s 16..31 with the R9 Nano's 16 banks. An L2
// bank and its controller share the number; Op tells the direction.
// DMA copies and page migrations reach DRAM without passing an L2 and
// are not part of this stream.
type dramCapture struct {
	p       *Platform
	sink    *sink
	pending map[string]uint64 // fill request ID → address
}

// r9nanoBanks is the R9 Nano model's number of L2 banks and DRAM
// controllers per GPU (r9nano.MakeBuilder: numMemoryBank 16).
const r9nanoBanks = 16

func attachDRAM(p *Platform, sk *sink) (finish func() error, err error) {
	c := &dramCapture{p: p, sink: sk, pending: make(map[string]uint64)}
	for g := 1; g <= p.GPUs; g++ {
		for b := 0; b < r9nanoBanks; b++ {
			l2 := p.component(fmt.Sprintf("GPU[%d].L2Cache[%d]", g, b))
			index := uint32((g-1)*r9nanoBanks + b)
			l2.GetPortByName("Bottom").AcceptHook(portHook(func(ctx sim.HookCtx) {
				c.onBottom(index, ctx)
			}))
		}
	}
	return func() error {
		if len(c.pending) != 0 && sk.err == nil {
			sk.fail("dram: %d fills never arrived", len(c.pending))
		}
		return sk.err
	}, nil
}

func (c *dramCapture) onBottom(bank uint32, ctx sim.HookCtx) {
	now := picoseconds(c.p.Simulation.GetEngine().CurrentTime())
	switch ctx.Pos {
	case sim.HookPosPortMsgSend:
		switch m := ctx.Item.(type) {
		case *mem.ReadReq:
			if m.AccessByteSize != WireLineSize || m.Address%WireLineSize != 0 {
				c.sink.fail("dram: L2 bank %d read %d bytes at %#x, not one aligned line", bank, m.AccessByteSize, m.Address)
				return
			}
			c.pending[m.ID] = m.Address
		case *mem.WriteReq:
			c.put(trace.Write, bank, m.Address, m.Data, now)
		}
	case sim.HookPosPortMsgRecvd:
		if m, ok := ctx.Item.(*mem.DataReadyRsp); ok {
			addr, ok := c.pending[m.RespondTo]
			if !ok {
				c.sink.fail("dram: L2 bank %d got data for unknown read %s", bank, m.RespondTo)
				return
			}
			delete(c.pending, m.RespondTo)
			c.put(trace.Read, bank, addr, m.Data, now)
		}
	}
}

func (c *dramCapture) put(op trace.Op, bank uint32, addr uint64, data []byte, now uint64) {
	if len(data) != WireLineSize || addr%WireLineSize != 0 {
		c.sink.fail("dram: bank %d moved %d bytes at %#x, not one aligned %d-byte line",
			bank, len(data), addr, WireLineSize)
		return
	}
	c.sink.put(trace.Record{Time: now, Src: bank, Dst: bank, Op: op, Addr: addr, Data: data})
}
