package capture

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/trace"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/akita/v4/tracing"
	"github.com/sarchlab/mgpusim/v4/amd/timing/rdma"
)

// tinyFIR is the benchmark every test runs: 1,024 samples, 16 taps.
func tinyFIR(t *testing.T) *Benchmark {
	t.Helper()
	b, err := NewBenchmark("fir")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Set("length", "1024"); err != nil {
		t.Fatal(err)
	}
	return b
}

// readLineTrace reads a whole line trace back.
func readLineTrace(t *testing.T, data []byte) (trace.Header, []trace.Record) {
	t.Helper()
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var recs []trace.Record
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rec.Data = append([]byte(nil), rec.Data...)
		recs = append(recs, rec)
	}
	return r.Header(), recs
}

// taskCounter is an Akita tracer counting the tasks a filter accepts: the
// simulator's own account of the messages a component handled,
// independent of the port hooks the capture uses.
type taskCounter struct {
	accept func(tracing.Task) bool
	n      int
}

func (c *taskCounter) StartTask(task tracing.Task) {
	if c.accept(task) {
		c.n++
	}
}
func (c *taskCounter) StepTask(tracing.Task)          {}
func (c *taskCounter) AddMilestone(tracing.Milestone) {}
func (c *taskCounter) EndTask(tracing.Task)           {}

type hookFunc func(sim.HookCtx)

func (f hookFunc) Func(ctx sim.HookCtx) { f(ctx) }

// TestRDMA captures the FIR's inter-GPU traffic on two discrete GPUs and
// checks it against MGPUSim: every read payload is the line in the
// global storage at the moment it is sent, every write payload agrees
// with the line the benchmark finally leaves in memory, and the numbers
// of reads and writes each RDMA engine sent equal the engine's own traced
// transactions.
func TestRDMA(t *testing.T) {
	var (
		p               *Platform
		readMismatches  []string
		servedReads     [3]*taskCounter // per GPU: remote reads it answered
		sentWrites      [3]*taskCounter // per GPU: remote writes it sent
		readsByGPU      [3]int
		writesByGPU     [3]int
		sawBothGPUsSend = map[uint32]bool{}
	)
	cfg := Config{
		Bench: tinyFIR(t), GPUs: 2, Timing: true, Stream: StreamRDMA,
		Setup: func(pl *Platform) {
			p = pl
			for g := 1; g <= 2; g++ {
				engine := pl.component(fmt.Sprintf("GPU[%d].RDMA", g)).(*rdma.Comp)
				servedReads[g] = &taskCounter{accept: func(task tracing.Task) bool {
					_, isRead := task.Detail.(*mem.ReadReq)
					return task.Kind == "req_in" && isRead && strings.HasSuffix(task.Location, ".OutsideIn")
				}}
				sentWrites[g] = &taskCounter{accept: func(task tracing.Task) bool {
					_, isWrite := task.Detail.(*mem.WriteReq)
					return task.Kind == "req_out" && isWrite && strings.HasSuffix(task.Location, ".InsideOut")
				}}
				tracing.CollectTrace(engine, servedReads[g])
				tracing.CollectTrace(engine, sentWrites[g])
			}
		},
		Observe: func(r trace.Record) {
			sawBothGPUsSend[r.Src] = true
			if r.Op == trace.Read {
				readsByGPU[r.Src]++
				now, err := p.Storage.Read(r.Addr, uint64(len(r.Data)))
				if err != nil || !bytes.Equal(now, r.Data) {
					readMismatches = append(readMismatches, fmt.Sprintf("%#x", r.Addr))
				}
			} else {
				writesByGPU[r.Src]++
			}
			if r.Src == r.Dst || r.Src < 1 || r.Src > 2 || r.Dst < 1 || r.Dst > 2 {
				t.Errorf("record from GPU %d to GPU %d", r.Src, r.Dst)
			}
		},
	}
	var out bytes.Buffer
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(readMismatches) != 0 {
		t.Errorf("%d read payloads differ from the global storage at that moment, e.g. at %s",
			len(readMismatches), readMismatches[0])
	}
	for g := 1; g <= 2; g++ {
		if readsByGPU[g] != servedReads[g].n {
			t.Errorf("GPU[%d]: %d read records, RDMA engine answered %d remote reads", g, readsByGPU[g], servedReads[g].n)
		}
		if writesByGPU[g] != sentWrites[g].n {
			t.Errorf("GPU[%d]: %d write records, RDMA engine sent %d remote writes", g, writesByGPU[g], sentWrites[g].n)
		}
	}
	if res.Reads == 0 || res.Writes == 0 || !sawBothGPUsSend[1] || !sawBothGPUsSend[2] {
		t.Fatalf("expected reads and writes from both GPUs, got %+v (senders %v)", res, sawBothGPUsSend)
	}

	h, recs := readLineTrace(t, out.Bytes())
	if h.LineSize != WireLineSize || !strings.Contains(h.Source, "bench=fir -length=1024 -taps=16") {
		t.Errorf("header %+v", h)
	}
	if len(recs) != res.Records || res.Records != res.Reads+res.Writes {
		t.Fatalf("read back %d records, Run reported %+v", len(recs), res)
	}
	// A remote write carries the whole 64-byte block buffer of the L1
	// that issued it, zero where the block is not dirty. After the run
	// (the benchmark's verification copied the output back, which flushes
	// the L2 caches) every written byte is in the global storage: FIR
	// writes each output once.
	for _, r := range recs {
		if r.Op != trace.Write {
			continue
		}
		final, err := p.Storage.Read(r.Addr, WireLineSize)
		if err != nil {
			t.Fatal(err)
		}
		matched := 0
		for i, b := range r.Data {
			switch {
			case b == final[i] && b != 0:
				matched++
			case b != 0:
				t.Fatalf("write to %#x: byte %d is %#x, memory holds %#x", r.Addr, i, b, final[i])
			}
		}
		if matched == 0 {
			t.Errorf("write to %#x carries no byte of the final output", r.Addr)
		}
	}
}

// TestDRAM captures the L2↔DRAM lines of the FIR on one GPU: every fill
// is the line in the global storage when it arrives, and the numbers of
// fills and write-backs equal the requests the DRAM controllers received
// from L2 caches, counted at the controllers.
func TestDRAM(t *testing.T) {
	var (
		p                     *Platform
		fillMismatches        int
		dramReads, dramWrites int
	)
	cfg := Config{
		Bench: tinyFIR(t), GPUs: 1, Timing: true, Stream: StreamDRAM,
		Setup: func(pl *Platform) {
			p = pl
			for b := 0; b < r9nanoBanks; b++ {
				dram := pl.component(fmt.Sprintf("GPU[1].DRAM[%d]", b))
				dram.GetPortByName("Top").AcceptHook(hookFunc(func(ctx sim.HookCtx) {
					if ctx.Pos != sim.HookPosPortMsgRecvd {
						return
					}
					msg := ctx.Item.(sim.Msg)
					if !strings.Contains(string(msg.Meta().Src), ".L2Cache[") {
						return // DMA copies
					}
					switch msg.(type) {
					case *mem.ReadReq:
						dramReads++
					case *mem.WriteReq:
						dramWrites++
					}
				}))
			}
		},
		Observe: func(r trace.Record) {
			if r.Src != r.Dst || r.Src >= r9nanoBanks {
				t.Errorf("record between bank %d and bank %d", r.Src, r.Dst)
			}
			if r.Op != trace.Read {
				return
			}
			now, err := p.Storage.Read(r.Addr, uint64(len(r.Data)))
			if err != nil || !bytes.Equal(now, r.Data) {
				fillMismatches++
			}
		},
	}
	var out bytes.Buffer
	res, err := Run(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	if fillMismatches != 0 {
		t.Errorf("%d of %d fills differ from the global storage", fillMismatches, res.Reads)
	}
	if res.Reads != dramReads || res.Writes != dramWrites {
		t.Errorf("captured %d fills and %d write-backs; the DRAM controllers received %d reads and %d writes from L2",
			res.Reads, res.Writes, dramReads, dramWrites)
	}
	if res.Reads == 0 || res.Writes == 0 {
		t.Errorf("expected fills and write-backs, got %+v", res)
	}
	if _, recs := readLineTrace(t, out.Bytes()); len(recs) != res.Records {
		t.Errorf("read back %d records of %d", len(recs), res.Records)
	}
}

// TestL1 captures the FIR's accesses to the L1 vector caches on one GPU:
// the number of records of each compute unit equals the requests its L1
// traced itself, and for every read the bytes the L1 returned to the
// compute unit are the bytes of the record's payload at that offset.
func TestL1(t *testing.T) {
	type pendingRead struct {
		rec  trace.Record
		addr uint64
		size uint64
	}
	var (
		l1Requests [r9nanoCUsPerGPU]*taskCounter
		recsByCU   [r9nanoCUsPerGPU]int
		lastRecord trace.Record
		pending    = map[string]pendingRead{}
		checked    int
		mismatches int
	)
	cfg := Config{
		Bench: tinyFIR(t), GPUs: 1, Timing: true, Stream: StreamL1, LineSize: 64,
		Setup: func(pl *Platform) {
			for cu := 0; cu < r9nanoCUsPerGPU; cu++ {
				l1 := pl.component(fmt.Sprintf("GPU[1].SA[%d].L1VCache[%d]", cu/r9nanoCUsPerSA, cu%r9nanoCUsPerSA))
				l1Requests[cu] = &taskCounter{accept: func(task tracing.Task) bool {
					switch task.Detail.(type) {
					case *mem.ReadReq, *mem.WriteReq:
						return task.Kind == "req_in"
					}
					return false
				}}
				tracing.CollectTrace(l1.(tracing.NamedHookable), l1Requests[cu])
				// Registered after the capture's hook: at a request's
				// arrival the capture's record for it is the last one.
				l1.GetPortByName("Top").AcceptHook(hookFunc(func(ctx sim.HookCtx) {
					switch m := ctx.Item.(type) {
					case *mem.ReadReq:
						if ctx.Pos == sim.HookPosPortMsgRecvd {
							pending[m.ID] = pendingRead{lastRecord, m.Address, m.AccessByteSize}
						}
					case *mem.DataReadyRsp:
						if ctx.Pos != sim.HookPosPortMsgSend {
							return
						}
						pr, ok := pending[m.RespondTo]
						if !ok {
							t.Errorf("L1 answered a read it was not asked")
							return
						}
						delete(pending, m.RespondTo)
						off := pr.addr - pr.rec.Addr
						checked++
						if pr.rec.Addr > pr.addr || !bytes.Equal(pr.rec.Data[off:off+pr.size], m.Data) {
							mismatches++
						}
					}
				}))
			}
		},
		Observe: func(r trace.Record) {
			r.Data = append([]byte(nil), r.Data...)
			lastRecord = r
			if r.Dst != 1 || r.Src >= r9nanoCUsPerGPU {
				t.Errorf("record from CU %d of GPU %d", r.Src, r.Dst)
				return
			}
			recsByCU[r.Src]++
		},
	}
	res, err := Run(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for cu := range recsByCU {
		if recsByCU[cu] != l1Requests[cu].n {
			t.Errorf("CU %d: %d records, its L1 traced %d requests", cu, recsByCU[cu], l1Requests[cu].n)
		}
		total += l1Requests[cu].n
	}
	if total != res.Records || res.Reads == 0 || res.Writes == 0 {
		t.Errorf("L1s traced %d requests; Run reported %+v", total, res)
	}
	if checked != res.Reads || mismatches != 0 {
		t.Errorf("%d of %d read responses differ from the record's payload (%d reads)", mismatches, checked, res.Reads)
	}
}
