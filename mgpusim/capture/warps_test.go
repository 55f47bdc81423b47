package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/linecomp/linecomp/trace/warp"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/mgpusim/v4/amd/emu"
	"github.com/sarchlab/mgpusim/v4/amd/insts"
)

// flatWidth is the bytes a GCN3 FLAT instruction moves per lane, as the
// emulator does it (alu_flat.go: byte and short loads read 4 bytes and
// keep the low ones), and how many of them land in the destination.
func flatWidth(op insts.Opcode) (touched, kept int, store bool) {
	switch op {
	case 16, 17:
		return 4, 1, false
	case 18:
		return 4, 2, false
	case 20:
		return 4, 4, false
	case 21:
		return 8, 8, false
	case 23:
		return 16, 16, false
	case 28:
		return 4, 4, true
	case 29:
		return 8, 8, true
	case 30:
		return 12, 12, true
	case 31:
		return 16, 16, true
	}
	return 0, 0, false
}

// overlaps reports whether two vector-register operands share a register.
func overlaps(a, b *insts.Operand) bool {
	if a == nil || b == nil || a.Register == nil || b.Register == nil ||
		!a.Register.IsVReg() || !b.Register.IsVReg() {
		return false
	}
	a0, b0 := a.Register.RegIndex(), b.Register.RegIndex()
	return a0 < b0+max(b.RegCount, 1) && b0 < a0+max(a.RegCount, 1)
}

// TestWarps captures the FIR's warp stream in emulation and checks it
// against the wavefronts' registers, seen by a hook of the test's own on
// every compute unit: each active lane's address falls in one of the
// instruction's lines, the line's bytes there are the lane's loaded
// destination register (or stored data register), the lines are exactly
// the distinct lines the lanes touch, and the trace reads back with as
// many warps, memory instructions and lines as the emulator executed.
func TestWarps(t *testing.T) {
	const lineSize = 128
	var (
		last                 WarpEvent
		lastLines            map[uint64][]byte
		flatInsts, lanes     int
		skippedLanes         int
		lineCount            int
		laneMismatches       int
		lineSetMismatches    int
		exits                int
		unexpectedFlatFields int
	)
	cfg := Config{
		Bench: tinyFIR(t), GPUs: 1, Stream: StreamWarps, LineSize: lineSize,
		ObserveWarp: func(e WarpEvent) {
			last = e
			lastLines = map[uint64][]byte{}
			for _, l := range e.Inst.Lines {
				lastLines[l.Addr] = append([]byte(nil), l.Data...)
			}
		},
		Setup: func(p *Platform) {
			for i := 0; i < emuCUsPerGPU; i++ {
				cu := p.component(fmt.Sprintf("GPU[1].CU%d", i)).(*emu.ComputeUnit)
				cu.AcceptHook(hookFunc(func(ctx sim.HookCtx) {
					wf, ok := ctx.Item.(*emu.Wavefront)
					if !ok {
						return
					}
					in := ctx.Detail.(*insts.Inst)
					if in.FormatType == insts.SOPP && in.Opcode == 1 {
						exits++
					}
					if in.FormatType != insts.FLAT {
						return
					}
					touched, kept, store := flatWidth(in.Opcode)
					if touched == 0 {
						t.Errorf("FLAT opcode %d not in the test's table", in.Opcode)
						return
					}
					if last.GCN != in || last.Wavefront != wf {
						t.Errorf("no warp event for %s", in.InstName)
						return
					}
					if in.SAddr != nil && in.SAddr.IntValue != 0 && in.SAddr.IntValue != 0x7F || in.Offset0 != 0 {
						unexpectedFlatFields++ // GCN3 kernels address through VGPR pairs only
						return
					}
					flatInsts++
					wantLines := map[uint64]bool{}
					for lane := 0; lane < GCN3WavefrontSize; lane++ {
						if wf.EXEC()&(1<<lane) == 0 {
							continue
						}
						lanes++
						value := in.Dst
						if store {
							value = in.Data
						}
						if !store && overlaps(in.Dst, in.Addr) {
							skippedLanes++ // the address register was overwritten
							continue
						}
						addr := wf.ReadOperand(in.Addr, lane)
						for a := addr &^ (lineSize - 1); a < addr+uint64(touched); a += lineSize {
							wantLines[a] = true
						}
						regs := wf.ReadOperandBytes(value, lane, max(kept, 4))[:kept]
						line := addr &^ (lineSize - 1)
						data, ok := lastLines[line]
						off := addr - line
						if !ok || off+uint64(kept) > lineSize || !bytes.Equal(data[off:off+uint64(kept)], regs) {
							laneMismatches++
						}
					}
					lineCount += len(wantLines)
					if len(wantLines) != len(last.Inst.Lines) {
						lineSetMismatches++
					}
					for _, l := range last.Inst.Lines {
						if !wantLines[l.Addr] {
							lineSetMismatches++
						}
					}
				}))
			}
		},
	}
	var out bytes.Buffer
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	if unexpectedFlatFields != 0 {
		t.Fatalf("%d FLAT instructions use a scalar base or offset the test does not model", unexpectedFlatFields)
	}
	if flatInsts == 0 || flatInsts != res.MemInstructions || lineCount != res.Records {
		t.Errorf("emulator ran %d FLAT instructions touching %d lines; capture reports %+v", flatInsts, lineCount, res)
	}
	if laneMismatches != 0 || lineSetMismatches != 0 {
		t.Errorf("%d of %d lanes disagree with their registers, %d instructions with other lines than their lanes touch",
			laneMismatches, lanes-skippedLanes, lineSetMismatches)
	}
	if exits != res.Warps || res.Warps != 1024/GCN3WavefrontSize {
		t.Errorf("%d wavefronts ended; capture saw %d warps; FIR on 1,024 samples has 16", exits, res.Warps)
	}

	r, err := warp.NewReader(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header(); h.LineSize != lineSize || h.WarpSize != GCN3WavefrontSize {
		t.Errorf("header %+v", h)
	}
	var kernels, memInsts, lines, readExits, computeInsts int
	for {
		k, err := r.NextKernel()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		kernels++
		// fir.go enqueueKernel: Length/numGPUs work-items in blocks of 256.
		if k.Name != "FIR" || k.Grid != [3]uint32{1024, 1, 1} || k.Block != [3]uint32{256, 1, 1} {
			t.Errorf("kernel %+v, want FIR over 1,024 work-items in blocks of 256", k)
		}
		for {
			in, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			switch in.Kind {
			case warp.Load, warp.Store:
				memInsts++
				lines += len(in.Lines)
			case warp.Exit:
				readExits++
			case warp.Compute:
				computeInsts += int(in.Count)
			}
		}
	}
	if memInsts != res.MemInstructions || lines != res.Records || readExits != res.Warps ||
		memInsts+readExits+computeInsts != res.Instructions {
		t.Errorf("read back %d kernels, %d memory instructions, %d lines, %d exits, %d compute; capture reported %+v",
			kernels, memInsts, lines, readExits, computeInsts, res)
	}
}
