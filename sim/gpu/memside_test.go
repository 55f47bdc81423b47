package gpu_test

import (
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/cache"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/sim/mem"
	"github.com/linecomp/linecomp/trace/warp"
)

// machine is small(...) with changes.
func machine(t testing.TB, change func(*gpu.Config)) *gpu.GPU {
	t.Helper()
	cfg, err := gpu.LatteConfig(none(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.SMs, cfg.Schedulers = 1, 1
	change(&cfg)
	g, err := gpu.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func zeroLoad(addr uint64) gpu.Inst {
	return gpu.Inst{Kind: warp.Load, Lines: []gpu.Line{{Addr: addr, Data: make([]byte, 128)}}}
}

func store(addr uint64, data []byte) gpu.Inst {
	return gpu.Inst{Kind: warp.Store, Lines: []gpu.Line{{Addr: addr, Data: data}}}
}

// TestInterconnectBandwidth: 32-byte flits. w0's line A enters the L1 at
// cycle 1 and reaches its L2 slice's port at 1 + 220 = 221, occupying it
// for 4 flits (221–224); w1's line B, in the same slice, enters at 2 and is
// ready at 222 but waits for the port until 225. w0 exits at 221, w1 at 225:
// 226 cycles; with unlimited bandwidth, 223. Compressed with BDI, an
// all-zero line takes one flit: A holds the port for 221 only, B goes at
// 222: 223 cycles, and 2 flits moved instead of 8.
func TestInterconnectBandwidth(t *testing.T) {
	k := kernel([]gpu.Inst{zeroLoad(0), exit}, []gpu.Inst{zeroLoad(128), exit})
	bd, err := linecomp.New("bdi", 128)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name         string
		ic           gpu.Interconnect
		cycles       uint64
		flits, uflit uint64
	}{
		{"unlimited", gpu.Interconnect{}, 223, 8, 8},
		{"32-byte flits", gpu.Interconnect{FlitBytes: 32}, 226, 8, 8},
		{"bdi", gpu.Interconnect{FlitBytes: 32, Codec: bd}, 223, 2, 8},
		{"bdi + 1-cycle decompression", gpu.Interconnect{FlitBytes: 32, Codec: bd, DecompressCycles: 1}, 224, 2, 8},
	} {
		g := machine(t, func(c *gpu.Config) { c.Interconnect = tc.ic })
		ks := run(t, g, k)
		s := g.Stats()
		if ks.Cycles != tc.cycles || s.Flits != tc.flits || s.UncompressedFlits != tc.uflit {
			t.Errorf("%s: %d cycles, %d of %d flits; want %d cycles, %d of %d", tc.name, ks.Cycles, s.Flits, s.UncompressedFlits, tc.cycles, tc.flits, tc.uflit)
		}
	}
}

// assist charges 10 instructions to decompress and 5 to compress any line.
func assist(buffer int) *gpu.Assist {
	return &gpu.Assist{Decompress: func([]byte) int { return 10 }, Compress: func([]byte) int { return 5 }, StoreBuffer: buffer}
}

// TestAssistDecompression: the line arrives at 221 compressed; the
// high-priority assist warp issues its 10 instructions in cycles 221–230
// and only then does the load return: the warp exits at 231, 232 cycles.
func TestAssistDecompression(t *testing.T) {
	bd, _ := linecomp.New("bdi", 128)
	g := machine(t, func(c *gpu.Config) {
		c.Interconnect = gpu.Interconnect{FlitBytes: 32, Codec: bd}
		c.Assist = assist(8)
	})
	if ks := run(t, g, kernel([]gpu.Inst{zeroLoad(0), exit})); ks.Cycles != 232 {
		t.Errorf("%d cycles, want 232", ks.Cycles)
	}
	if s := g.Stats(); s.AssistDecompressInstructions != 10 || s.Instructions != 2 {
		t.Errorf("stats %+v", s)
	}
}

// TestAssistCompression: with a one-line store buffer, three stores in a
// row: the first waits for compression, the next two find the buffer full
// and go out uncompressed. The warp issues in every cycle until it exits at
// 3, so the low-priority assist warp's 5 instructions take the idle slots
// 4–8: 9 cycles.
func TestAssistCompression(t *testing.T) {
	bd, _ := linecomp.New("bdi", 128)
	g := machine(t, func(c *gpu.Config) {
		c.Interconnect = gpu.Interconnect{FlitBytes: 32, Codec: bd}
		c.Assist = assist(1)
	})
	z := make([]byte, 128)
	ks := run(t, g, kernel([]gpu.Inst{store(0, z), store(128, z), store(256, z), exit}))
	s := g.Stats()
	if ks.Cycles != 9 || s.AssistCompressInstructions != 5 || s.UncompressedStores != 2 {
		t.Errorf("%d cycles, stats %+v; want 9 cycles, 5 compression instructions, 2 uncompressed stores", ks.Cycles, s)
	}
	// Flits: the compressed store 1, the two raw ones 4 each.
	if s.Flits != 9 || s.UncompressedFlits != 12 {
		t.Errorf("flits %d of %d, want 9 of 12", s.Flits, s.UncompressedFlits)
	}
}

// TestMemoryController: L2 misses and write-backs go through sim/mem. A
// one-set, one-way L2 slice makes every store's line evict the previous
// dirty one: write-backs reach the memory with the stores' content
// (bursts of BDI-compressed lines), and a line stored uncompressed by
// CABA's overflow moves 4 bursts.
func TestMemoryController(t *testing.T) {
	bd, _ := linecomp.New("bdi", 128)
	m, err := mem.New(mem.Config{LineSize: 128, Codec: bd})
	if err != nil {
		t.Fatal(err)
	}
	g := machine(t, func(c *gpu.Config) {
		c.L2 = cache.Config{Sets: 1, Ways: 1, LineSize: 128, Write: cache.WriteBack, Modes: c.L2.Modes}
		c.L2Slices = 1
		c.Memory = gpu.MemoryController{Mem: m, DecompressCycles: 1}
	})
	z := make([]byte, 128)
	run(t, g, kernel([]gpu.Inst{store(0, z), store(128, z), store(256, z), zeroLoad(512), exit}))
	s := m.Stats()
	// Stores 0, 128, 256 allocate in turn (write-allocate, no read);
	// 128 evicts 0, 256 evicts 128, the load's fill of 512 evicts 256:
	// 3 write-backs of zero lines (0 bursts) and 1 read of a zero line.
	if gs := g.Stats(); gs.MemWrites != 3 || gs.MemReads != 1 || s.Writes != 3 || s.Reads != 1 || s.Bursts != 0 {
		t.Errorf("gpu %+v\nmem %+v", gs, s)
	}
}

// eventCounter is a user's tracer of a cache.
type eventCounter struct{ n *int }

func (c eventCounter) FillMode(int) int    { return 0 }
func (c eventCounter) Observe(cache.Event) { *c.n++ }

// TestL2Hooks: a user who sets the L2's policy and attaches a tracer to it
// sees its events, and the write-backs still reach the memory (sim/gpu's
// routing is an observer of its own, not the cache's one policy slot): the
// same three write-backs as TestMemoryController's.
func TestL2Hooks(t *testing.T) {
	bd, _ := linecomp.New("bdi", 128)
	m, err := mem.New(mem.Config{LineSize: 128, Codec: bd})
	if err != nil {
		t.Fatal(err)
	}
	g := machine(t, func(c *gpu.Config) {
		c.L2 = cache.Config{Sets: 1, Ways: 1, LineSize: 128, Write: cache.WriteBack, Modes: c.L2.Modes}
		c.L2Slices = 1
		c.Memory = gpu.MemoryController{Mem: m}
	})
	var byPolicy, byObserver int
	g.L2(0).SetPolicy(eventCounter{&byPolicy})
	tracer := eventCounter{&byObserver}
	g.L2(0).AddObserver(tracer)
	z := make([]byte, 128)
	run(t, g, kernel([]gpu.Inst{store(0, z), store(128, z), store(256, z), zeroLoad(512), exit}))
	if gs := g.Stats(); gs.MemWrites != 3 || m.Stats().Writes != 3 {
		t.Errorf("write-backs: gpu %d, memory %d; want 3", gs.MemWrites, m.Stats().Writes)
	}
	if byPolicy == 0 || byObserver != byPolicy {
		t.Errorf("the user's policy saw %d events, its tracer %d", byPolicy, byObserver)
	}
	if !g.L2(0).RemoveObserver(tracer) || g.L2(0).RemoveObserver(tracer) {
		t.Error("RemoveObserver: the tracer should go once")
	}
}
