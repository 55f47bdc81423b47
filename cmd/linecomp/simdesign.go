package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/caba"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/sim/mem"
	"github.com/linecomp/linecomp/study"
)

// gpuDesign is one design of CABA §7: where lines are compressed and who
// decompresses them.
type gpuDesign struct {
	name string
	// memCodec compresses DRAM traffic (bursts); memDecompress is the
	// controller's decompression latency on reads (HW-BDI-Mem).
	memCodec      string
	memDecompress int
	// linkCodec compresses the L2↔SM interconnect; linkDecompress is the
	// SM's hardware decompression; assist makes it CABA's assist warps.
	linkCodec      string
	linkDecompress int
	assist         bool
}

// The designs; HW BDI latencies are CABA §6's 1/5 decompress/compress
// (compression is off every load's path).
var gpuDesigns = []gpuDesign{
	{name: "base", memCodec: "none"},
	{name: "hw-bdi-mem", memCodec: "bdi", memDecompress: 1},
	{name: "hw-bdi", memCodec: "bdi", linkCodec: "bdi", linkDecompress: 1},
	{name: "caba-bdi", memCodec: "caba-bdi", linkCodec: "caba-bdi", assist: true},
	{name: "caba-fpc", memCodec: "caba-fpc", linkCodec: "caba-fpc", assist: true},
	{name: "caba-cpack", memCodec: "caba-cpack", linkCodec: "caba-cpack", assist: true},
	{name: "ideal-bdi", memCodec: "bdi", linkCodec: "bdi"},
}

// designFlitBytes is the interconnect's bytes per cycle per L2 slice in the
// design study [ours: one 32-byte flit, GPGPU-Sim's crossbar flit].
const designFlitBytes = 32

// designRow is one (workload, design) result.
type designRow struct {
	Workload           string  `json:"workload"`
	Design             string  `json:"design"`
	Cycles             uint64  `json:"cycles"`
	IPC                float64 `json:"ipc"`
	Speedup            float64 `json:"speedup"`
	DRAMUtilisation    float64 `json:"dram_bandwidth_utilisation"` // bus-busy cycles over cycles × controllers
	Bursts             uint64  `json:"bursts"`
	UncompressedBursts uint64  `json:"uncompressed_bursts"`
	MetadataBursts     uint64  `json:"metadata_bursts"`
	BurstRatio         float64 `json:"burst_ratio"` // uncompressed bursts over data bursts
	MDHitRate          float64 `json:"md_hit_rate"`
	Flits              uint64  `json:"interconnect_flits"`
	UncompressedFlits  uint64  `json:"uncompressed_flits"`
	AssistDecompress   uint64  `json:"assist_decompress_instructions"`
	AssistCompress     uint64  `json:"assist_compress_instructions"`
	AssistSlotShare    float64 `json:"assist_issue_slot_share"` // of all issue slots used
	UncompressedStores uint64  `json:"uncompressed_stores"`
	MDEnergyPJ         float64 `json:"md_energy_pj"`
	MemReads           uint64  `json:"mem_reads"`
	MemWrites          uint64  `json:"mem_writes"`
}

func selectDesigns(list string) ([]gpuDesign, error) {
	var names []string
	for _, d := range gpuDesigns {
		names = append(names, d.name)
	}
	if list == "all" {
		return gpuDesigns, nil
	}
	out := []gpuDesign{gpuDesigns[0]} // base: every speedup's reference
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, d := range gpuDesigns {
			if d.name == n {
				found = true
				if n != "base" {
					out = append(out, d)
				}
			}
		}
		if !found {
			return nil, usagef("-design %q: want %s or all", n, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// designConfig builds the machine of design d: an uncompressed L1, sim/mem
// below the L2, and the interconnect and assist warps the design has. The
// assist warps' cost functions cannot return an error; they keep the
// first in *assistErr, which the caller checks after every kernel.
func designConfig(d gpuDesign, over study.Overrides, assistErr *error) (gpu.Config, *mem.Memory, error) {
	l1, err := linecomp.New("none", 128)
	if err != nil {
		return gpu.Config{}, nil, err
	}
	cfg, err := gpu.LatteConfig(l1)
	if err != nil {
		return cfg, nil, err
	}
	if err := over.Apply(&cfg); err != nil {
		return cfg, nil, err
	}
	mc, err := linecomp.New(d.memCodec, 128)
	if err != nil {
		return cfg, nil, err
	}
	dram := mem.GDDR5()
	if o := over.MemLatency; o != nil {
		dram.Latency = *o
	}
	m, err := mem.New(mem.Config{LineSize: 128, Codec: mc, DRAM: dram})
	if err != nil {
		return cfg, nil, err
	}
	cfg.Memory = gpu.MemoryController{Mem: m, DecompressCycles: d.memDecompress}
	cfg.Interconnect = gpu.Interconnect{FlitBytes: designFlitBytes, DecompressCycles: d.linkDecompress}
	if d.linkCodec != "" {
		lc, err := linecomp.New(d.linkCodec, 128)
		if err != nil {
			return cfg, nil, err
		}
		cfg.Interconnect.Codec = lc
		if d.assist {
			coster, ok := lc.(caba.AssistWarpCoster)
			if !ok {
				return cfg, nil, fmt.Errorf("%s has no assist-warp instruction counts", lc.Name())
			}
			cfg.Assist = assistFor(coster, assistErr)
		}
	}
	return cfg, m, nil
}

// assistFor charges CABA's lane-model instruction counts: decompressing a
// line costs what decompressing its stream does. The machine runs on one
// goroutine, so one buffer serves every call. A count that fails (a codec
// that cannot cost its own stream) is kept in *failed, the first one only,
// and costs nothing meanwhile: the run's result is then discarded.
func assistFor(c caba.AssistWarpCoster, failed *error) *gpu.Assist {
	var buf []byte
	fail := func(err error) int {
		if *failed == nil {
			*failed = fmt.Errorf("%s: assist-warp cost: %w", c.Name(), err)
		}
		return 0
	}
	return &gpu.Assist{
		Decompress: func(line []byte) int {
			enc, _, err := c.Compress(buf[:0], line)
			buf = enc
			if err != nil {
				return fail(err)
			}
			n, err := c.DecompressInstructions(enc)
			if err != nil {
				return fail(err)
			}
			return n
		},
		Compress: func(line []byte) int {
			n, err := c.CompressInstructions(line)
			if err != nil {
				return fail(err)
			}
			return n
		},
	}
}

// runDesignStudy runs CABA's designs over every warp trace and prints
// their rows.
func runDesignStudy(e *env, inputs []string, designs []gpuDesign, over study.Overrides, format string) error {
	srcs := warpTraceSources(e, inputs)
	if len(srcs) == 0 {
		return usagef("no trace given, and no sample warp trace is embedded")
	}
	var rows []designRow
	failed := e.eachInput(srcs, func(in *input) error {
		e.progress.show("%s: reading", in.name)
		kernels, err := readKernels(in)
		if err != nil {
			return err
		}
		got, err := runDesigns(e, in.name, kernels, designs, over)
		rows = append(rows, got...)
		return err
	})
	e.progress.clear()
	if err := printDesignRows(e.stdout, rows, format); err != nil {
		return err
	}
	return failed
}

// runDesigns runs every design over the kernels, in parallel.
func runDesigns(e *env, workload string, kernels []*gpu.Kernel, designs []gpuDesign, over study.Overrides) ([]designRow, error) {
	rows := make([]designRow, len(designs))
	errs := make([]error, len(designs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, d := range designs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rows[i], errs[i] = runDesign(workload, kernels, d, over)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	base := rows[0]
	for i := range rows {
		if rows[i].Cycles > 0 {
			rows[i].Speedup = float64(base.Cycles) / float64(rows[i].Cycles)
		}
	}
	e.progress.show("%s: %d designs", workload, len(designs))
	return rows, nil
}

func runDesign(workload string, kernels []*gpu.Kernel, d gpuDesign, over study.Overrides) (designRow, error) {
	var assistErr error
	cfg, m, err := designConfig(d, over, &assistErr)
	if err != nil {
		return designRow{}, err
	}
	g, err := gpu.New(cfg)
	if err != nil {
		return designRow{}, err
	}
	for _, k := range kernels {
		if _, err := g.Run(k); err != nil {
			return designRow{}, fmt.Errorf("%s: %w", d.name, err)
		}
		if assistErr != nil {
			return designRow{}, fmt.Errorf("%s: kernel %s: %w", d.name, k.Name, assistErr)
		}
	}
	s, ms := g.Stats(), m.Stats()
	r := designRow{Workload: workload, Design: d.name, Cycles: s.Cycles, IPC: s.IPC(),
		Bursts: ms.Bursts, UncompressedBursts: ms.UncompressedBursts, MetadataBursts: ms.MetadataBursts,
		BurstRatio: ms.EffectiveRatio(), MDHitRate: ms.MDHitRate(), Flits: s.Flits, UncompressedFlits: s.UncompressedFlits,
		AssistDecompress: s.AssistDecompressInstructions, AssistCompress: s.AssistCompressInstructions,
		UncompressedStores: s.UncompressedStores, MDEnergyPJ: ms.MDEnergyPicoJoules(), MemReads: s.MemReads, MemWrites: s.MemWrites}
	if s.Cycles > 0 {
		r.DRAMUtilisation = float64(ms.BusBusyCycles) / float64(s.Cycles) / float64(m.Config().Controllers)
	}
	if slots := s.Instructions + s.AssistDecompressInstructions + s.AssistCompressInstructions; slots > 0 {
		r.AssistSlotShare = float64(s.AssistDecompressInstructions+s.AssistCompressInstructions) / float64(slots)
	}
	return r, nil
}

func printDesignRows(w io.Writer, rows []designRow, format string) error {
	if format == "json" {
		if rows == nil {
			rows = []designRow{}
		}
		return writeJSON(w, rows)
	}
	t := table{header: []string{"workload", "design", "cycles", "ipc", "speedup", "dram_util", "burst_ratio", "md_hit",
		"flits", "assist_dec", "assist_comp", "assist_share", "raw_stores", "md_pj"}}
	for _, r := range rows {
		t.add(r.Workload, r.Design, utoa(r.Cycles), ffmt(r.IPC, 3), ffmt(r.Speedup, 3), ffmt(r.DRAMUtilisation, 3),
			ffmt(r.BurstRatio, 3), ffmt(r.MDHitRate, 4), utoa(r.Flits), utoa(r.AssistDecompress), utoa(r.AssistCompress),
			ffmt(r.AssistSlotShare, 3), utoa(r.UncompressedStores), ffmt(r.MDEnergyPJ, 0))
	}
	if err := t.write(w, format); err != nil {
		return err
	}
	if format == "text" {
		fmt.Fprintln(w, "\nenergy: metadata cache only, MAG-aware BDI §V-B (0.0014 nJ a read, 0.00097 nJ a write); no paper gives per-operation energy for these designs' compressors or assist warps")
	}
	return nil
}
