package capture

import (
	"fmt"
	"io"

	"github.com/linecomp/linecomp/trace/warp"
	"github.com/sarchlab/akita/v4/mem/vm"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/mgpusim/v4/amd/emu"
	"github.com/sarchlab/mgpusim/v4/amd/insts"
	"github.com/sarchlab/mgpusim/v4/amd/kernels"
)

// GCN3WavefrontSize is the number of work-items of a GCN3 wavefront.
const GCN3WavefrontSize = 64

// WarpEvent is one instruction of the warp stream, for Config.ObserveWarp:
// what is written, with the emulator state it came from, at the moment
// the emulator's post-instruction hook runs.
type WarpEvent struct {
	Inst      warp.Inst       // as written (Lines' Data valid during the call only)
	Wavefront *emu.Wavefront  // the wavefront, after the instruction executed
	GCN       *insts.Inst     // the GCN3 instruction
	CU        int             // compute unit: (gpu-1)*64 + index
	Accesses  []StorageAccess // the ALU's storage accesses for this instruction, in order
}

// StorageAccess is one call the emulator's ALU made to its storage
// accessor.
type StorageAccess struct {
	Write bool
	PID   vm.PID
	Addr  uint64 // virtual address
	Size  uint64
}

// warpCapture turns the emulator's execution into a warp trace.
//
// MGPUSim's emulated compute unit (amd/emu/computeunit.go) runs one
// wavefront at a time until it reaches a barrier or ends
// (runWfUntilBarrier), and after every instruction invokes its hooks with
// Item = the *emu.Wavefront and Detail = the *insts.Inst (logInst). The
// ALU reaches memory only through an emu.StorageAccessor, the one given to
// the ALU factory by emu.BuildComputeUnitWithALU; the compute unit fetches
// instructions through its own reference to the unwrapped accessor. So a
// wrapping accessor given to the ALU sees exactly the data accesses, and
// the next post-instruction hook on the same compute unit names the
// wavefront and instruction they belong to.
//
// Instructions map to the warp format as:
//   - FLAT loads and stores (the vector memory instructions GCN3 kernels
//     use) → warp.Load / warp.Store, their lanes' accesses coalesced into
//     the distinct lineSize-byte lines in order of first touch, each with
//     the line's bytes read from the global storage after the instruction
//     (for a load, the bytes read; for a store, the line after the store);
//     Addr is the virtual line address the program used;
//   - S_BARRIER → warp.Barrier, S_ENDPGM → warp.Exit;
//   - everything else → warp.Compute, including scalar memory loads (SMEM:
//     kernel arguments and constants, which go through the scalar cache,
//     not the vector L1 the models study) and LDS instructions (DS).
type warpCapture struct {
	lineSize  uint64
	accessors []*recordingAccessor // by compute unit
	w         *warp.Writer
	observe   func(WarpEvent)
	err       error

	kernel    *kernels.HsaKernelDispatchPacket // the packet of the kernel being written
	open      int                              // warps of that kernel begun and not exited
	begun     map[*emu.Wavefront]bool
	lines     []warp.Line
	lineIndex map[uint64]int

	progress                            *progress
	warps, insts, memInsts, scalarLoads int
	loadLines, storeLines               int
	distinct                            map[string]struct{}
}

func newWarpCapture(lineSize int) *warpCapture {
	return &warpCapture{
		lineSize:  uint64(lineSize),
		begun:     make(map[*emu.Wavefront]bool),
		lineIndex: make(map[uint64]int),
		distinct:  make(map[string]struct{}),
	}
}

// recordingAccessor passes every call to the compute unit's own accessor
// and remembers it until the post-instruction hook collects it.
type recordingAccessor struct {
	inner   emu.StorageAccessor
	pending []StorageAccess
}

func (a *recordingAccessor) Read(pid vm.PID, vAddr, byteSize uint64) []byte {
	a.pending = append(a.pending, StorageAccess{PID: pid, Addr: vAddr, Size: byteSize})
	return a.inner.Read(pid, vAddr, byteSize)
}

func (a *recordingAccessor) Write(pid vm.PID, vAddr uint64, data []byte) {
	a.pending = append(a.pending, StorageAccess{Write: true, PID: pid, Addr: vAddr, Size: uint64(len(data))})
	a.inner.Write(pid, vAddr, data)
}

// aluFactory is the ALU factory of compute unit cu: MGPUSim's GCN3 ALU on
// a recording accessor.
func (c *warpCapture) aluFactory(cu int) emu.ALUFactory {
	return func(sa emu.StorageAccessor) emu.ALU {
		for len(c.accessors) <= cu {
			c.accessors = append(c.accessors, nil)
		}
		c.accessors[cu] = &recordingAccessor{inner: sa}
		return emu.NewALU(c.accessors[cu])
	}
}

type cuHook func(ctx sim.HookCtx)

func (f cuHook) Func(ctx sim.HookCtx) { f(ctx) }

func (c *warpCapture) attach(p *Platform, out io.Writer, source string, observe func(WarpEvent)) (finish func() error, err error) {
	if p.GPUs != 1 {
		// Kernels on several GPUs run at the same time (discrete) or as
		// one packet per GPU (unified); the warp format holds one kernel
		// at a time with all of its warps.
		return nil, configError("stream warps captures one GPU (-gpus 1); got -gpus=%d", p.GPUs)
	}
	c.observe = observe
	c.w, err = warp.NewWriter(out, warp.Header{
		LineSize: int(c.lineSize),
		WarpSize: GCN3WavefrontSize,
		Source:   source,
	})
	if err != nil {
		return nil, err
	}
	for g := 1; g <= p.GPUs; g++ {
		for i := 0; i < emuCUsPerGPU; i++ {
			cu := (g-1)*emuCUsPerGPU + i
			comp := p.component(fmt.Sprintf("GPU[%d].CU%d", g, i)).(*emu.ComputeUnit)
			comp.AcceptHook(cuHook(func(ctx sim.HookCtx) { c.onInst(p, cu, ctx) }))
		}
	}
	return func() error {
		if c.err != nil {
			return c.err
		}
		return c.w.Close()
	}, nil
}

func (c *warpCapture) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

func (c *warpCapture) counts() (records, reads, writes int) {
	return c.loadLines + c.storeLines, c.loadLines, c.storeLines
}

// GCN3 FLAT opcodes: loads 16..23, stores 24..31 (insts/gcn3 opcode
// table; the emulator implements 16-18, 20, 21, 23 and 28-31).
func flatKind(op insts.Opcode) (warp.Kind, bool) {
	switch {
	case op >= 16 && op <= 23:
		return warp.Load, true
	case op >= 24 && op <= 31:
		return warp.Store, true
	}
	return 0, false
}

func (c *warpCapture) onInst(p *Platform, cu int, ctx sim.HookCtx) {
	wf, ok := ctx.Item.(*emu.Wavefront)
	if !ok {
		return
	}
	gcn, ok := ctx.Detail.(*insts.Inst)
	if !ok {
		return
	}
	acc := c.accessors[cu]
	accesses := acc.pending
	acc.pending = acc.pending[:0]
	if c.err != nil {
		return
	}
	c.insts++
	c.progress.tick()

	id, err := c.warpOf(wf)
	if err != nil {
		c.fail(err)
		return
	}

	in := warp.Inst{Warp: id}
	isBarrier := gcn.FormatType == insts.SOPP && gcn.Opcode == 10
	isEnd := gcn.FormatType == insts.SOPP && gcn.Opcode == 1
	kind, isMem := warp.Kind(0), false
	if gcn.FormatType == insts.FLAT {
		kind, isMem = flatKind(gcn.Opcode)
	}
	switch {
	case isBarrier:
		in.Kind = warp.Barrier
	case isEnd:
		in.Kind = warp.Exit
	case isMem:
		in.Kind = kind
		// The hook runs after the PC moved past the instruction.
		in.PC = wf.PC() - uint64(gcn.ByteSize)
		in.Lines, err = c.coalesce(kind, accesses)
		if err != nil {
			c.fail(err)
			return
		}
		c.memInsts++
	default:
		if gcn.FormatType == insts.SMEM {
			c.scalarLoads++
		} else if len(accesses) != 0 {
			c.fail(fmt.Errorf("%w: warps: %s (format %s) reached memory %d times; only FLAT and SMEM instructions should",
				ErrCapture, gcn.InstName, gcn.Format.FormatName, len(accesses)))
			return
		}
		in.Kind, in.Count = warp.Compute, 1
	}
	if c.observe != nil {
		c.observe(WarpEvent{Inst: in, Wavefront: wf, GCN: gcn, CU: cu, Accesses: accesses})
	}
	if err := c.w.Write(in); err != nil {
		c.fail(err)
		return
	}
	if in.Kind == warp.Exit {
		delete(c.begun, wf)
		c.open--
	}
}

// warpOf names the wavefront in the warp format, starting its kernel
// when it is the first wavefront of a new dispatch packet.
func (c *warpCapture) warpOf(wf *emu.Wavefront) (warp.Warp, error) {
	pkt := wf.Packet
	if pkt != c.kernel {
		if c.open != 0 {
			return warp.Warp{}, fmt.Errorf("%w: warps: a kernel started while %d wavefronts of the previous one run; the warp format holds one kernel at a time",
				ErrCapture, c.open)
		}
		name := ""
		if wf.CodeObject != nil && wf.CodeObject.Symbol != nil {
			name = wf.CodeObject.Symbol.Name
		}
		k := warp.Kernel{
			Name:  name,
			Grid:  [3]uint32{pkt.GridSizeX, pkt.GridSizeY, pkt.GridSizeZ},
			Block: [3]uint32{uint32(pkt.WorkgroupSizeX), uint32(pkt.WorkgroupSizeY), uint32(pkt.WorkgroupSizeZ)},
		}
		if err := c.w.BeginKernel(k); err != nil {
			return warp.Warp{}, err
		}
		c.kernel = pkt
	}
	if !c.begun[wf] {
		c.begun[wf] = true
		c.open++
		c.warps++
	}
	wg := wf.WG
	blocksX := (pkt.GridSizeX + uint32(pkt.WorkgroupSizeX) - 1) / uint32(pkt.WorkgroupSizeX)
	blocksY := (pkt.GridSizeY + uint32(pkt.WorkgroupSizeY) - 1) / uint32(pkt.WorkgroupSizeY)
	block := uint32(wg.IDX) + blocksX*(uint32(wg.IDY)+blocksY*uint32(wg.IDZ))
	return warp.Warp{Block: block, Index: uint32(wf.FirstWiFlatID / GCN3WavefrontSize)}, nil
}

// coalesce turns a memory instruction's accesses into its distinct lines
// in order of first touch, each with its bytes as they are now.
func (c *warpCapture) coalesce(kind warp.Kind, accesses []StorageAccess) ([]warp.Line, error) {
	lines := c.lines[:0]
	clear(c.lineIndex)
	var pid vm.PID
	for _, a := range accesses {
		if a.Write != (kind == warp.Store) {
			return nil, fmt.Errorf("%w: warps: a %v instruction made a storage access with write=%v", ErrCapture, kind, a.Write)
		}
		pid = a.PID
		last := (a.Addr + a.Size - 1) &^ (c.lineSize - 1)
		for line := a.Addr &^ (c.lineSize - 1); line <= last; line += c.lineSize {
			if _, seen := c.lineIndex[line]; seen {
				continue
			}
			c.lineIndex[line] = len(lines)
			lines = append(lines, warp.Line{Addr: line})
		}
	}
	if len(lines) > warp.MaxLines {
		return nil, fmt.Errorf("%w: warps: one instruction touched %d lines, more than the format's %d", ErrCapture, len(lines), warp.MaxLines)
	}
	acc := c.accessors[0].inner // every accessor reads the same storage and page table
	for i := range lines {
		lines[i].Data = acc.Read(pid, lines[i].Addr, c.lineSize)
		if _, seen := c.distinct[string(lines[i].Data)]; !seen {
			c.distinct[string(lines[i].Data)] = struct{}{}
		}
	}
	if kind == warp.Load {
		c.loadLines += len(lines)
	} else {
		c.storeLines += len(lines)
	}
	c.lines = lines
	return lines, nil
}
