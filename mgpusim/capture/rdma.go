package capture

import (
	"fmt"

	"github.com/linecomp/linecomp/trace"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/mgpusim/v4/amd/timing/rdma"
)

// rdmaCapture records what every GPU's RDMA engine (amd/timing/rdma.Comp)
// sends to another GPU. A remote access leaves the requesting GPU's engine
// through RDMARequestOutside and reaches the owning GPU's engine at
// RDMADataOutside; the owner's L2 answers and the answer leaves through
// RDMADataOutside again. So the payload-carrying messages on the link are
//
//   - a *mem.DataReadyRsp sent on RDMADataOutside (the owner answering a
//     remote read; comp.go processRspFromL2), recorded as trace.Read from
//     the owner to the requester, and
//   - a *mem.WriteReq sent on RDMARequestOutside (a remote write leaving
//     the writer; comp.go processReqFromL1), recorded as trace.Write from
//     the writer to the owner.
//
// A data-ready response carries no address, so the read requests arriving
// at RDMADataOutside are remembered by message ID until answered.
type rdmaCapture struct {
	p       *Platform
	sink    *sink
	gpuOf   map[sim.RemotePort]uint32 // RDMA outside port → GPU number
	pending map[string]uint64         // read request ID → address
}

type portHook func(ctx sim.HookCtx)

func (f portHook) Func(ctx sim.HookCtx) { f(ctx) }

func attachRDMA(p *Platform, sk *sink) (finish func() error, err error) {
	c := &rdmaCapture{
		p:       p,
		sink:    sk,
		gpuOf:   make(map[sim.RemotePort]uint32),
		pending: make(map[string]uint64),
	}
	engines := make([]*rdma.Comp, p.GPUs+1)
	for g := 1; g <= p.GPUs; g++ {
		engines[g] = p.component(fmt.Sprintf("GPU[%d].RDMA", g)).(*rdma.Comp)
		c.gpuOf[engines[g].RDMARequestOutside.AsRemote()] = uint32(g)
		c.gpuOf[engines[g].RDMADataOutside.AsRemote()] = uint32(g)
	}
	for g := 1; g <= p.GPUs; g++ {
		src := uint32(g)
		engines[g].RDMADataOutside.AcceptHook(portHook(func(ctx sim.HookCtx) {
			c.onDataOutside(src, ctx)
		}))
		engines[g].RDMARequestOutside.AcceptHook(portHook(func(ctx sim.HookCtx) {
			c.onRequestOutside(src, ctx)
		}))
	}
	return func() error {
		if len(c.pending) != 0 && sk.err == nil {
			sk.fail("rdma: %d remote reads never answered", len(c.pending))
		}
		return sk.err
	}, nil
}

func (c *rdmaCapture) onDataOutside(src uint32, ctx sim.HookCtx) {
	switch ctx.Pos {
	case sim.HookPosPortMsgRecvd:
		if req, ok := ctx.Item.(*mem.ReadReq); ok {
			c.pending[req.ID] = req.Address
		}
	case sim.HookPosPortMsgSend:
		rsp, ok := ctx.Item.(*mem.DataReadyRsp)
		if !ok {
			return // write-done responses carry no data
		}
		addr, ok := c.pending[rsp.RespondTo]
		if !ok {
			c.sink.fail("rdma: GPU[%d] answered unknown read %s", src, rsp.RespondTo)
			return
		}
		delete(c.pending, rsp.RespondTo)
		c.record(trace.Read, src, rsp.Dst, addr, rsp.Data)
	}
}

func (c *rdmaCapture) onRequestOutside(src uint32, ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosPortMsgSend {
		return
	}
	if req, ok := ctx.Item.(*mem.WriteReq); ok {
		c.record(trace.Write, src, req.Dst, req.Address, req.Data)
	}
}

func (c *rdmaCapture) record(op trace.Op, src uint32, dstPort sim.RemotePort, addr uint64, data []byte) {
	dst, ok := c.gpuOf[dstPort]
	if !ok {
		c.sink.fail("rdma: GPU[%d] sent to %s, which is no GPU's RDMA engine", src, dstPort)
		return
	}
	// MGPUSim's L1 and L2 caches move whole 64-byte blocks, and the RDMA
	// engine forwards them unchanged; anything else is a surprise worth
	// stopping for rather than a record to bend into shape.
	if len(data) != WireLineSize || addr%WireLineSize != 0 {
		c.sink.fail("rdma: GPU[%d]→GPU[%d] %d bytes at %#x, not one aligned %d-byte line",
			src, dst, len(data), addr, WireLineSize)
		return
	}
	c.sink.put(trace.Record{
		Time: picoseconds(c.p.Simulation.GetEngine().CurrentTime()),
		Src:  src,
		Dst:  dst,
		Op:   op,
		Addr: addr,
		Data: data,
	})
}
