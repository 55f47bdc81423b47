package study

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/caba"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/sim/mem"
)

// CabaDesign is one design of CABA §7: where lines are compressed and who
// decompresses them.
type CabaDesign struct {
	Name string
	// MemCodec compresses DRAM traffic (bursts); MemDecompress is the
	// controller's decompression latency on reads (HW-BDI-Mem).
	MemCodec      string
	MemDecompress int
	// LinkCodec compresses the L2↔SM interconnect; LinkDecompress is the
	// SM's hardware decompression; Assist makes it CABA's assist warps.
	LinkCodec      string
	LinkDecompress int
	Assist         bool
}

// cabaDesigns are CABA §7's; HW BDI latencies are CABA §6's 1/5
// decompress/compress (compression is off every load's path).
var cabaDesigns = []CabaDesign{
	{Name: "base", MemCodec: "none"},
	{Name: "hw-bdi-mem", MemCodec: "bdi", MemDecompress: 1},
	{Name: "hw-bdi", MemCodec: "bdi", LinkCodec: "bdi", LinkDecompress: 1},
	{Name: "caba-bdi", MemCodec: "caba-bdi", LinkCodec: "caba-bdi", Assist: true},
	{Name: "caba-fpc", MemCodec: "caba-fpc", LinkCodec: "caba-fpc", Assist: true},
	{Name: "caba-cpack", MemCodec: "caba-cpack", LinkCodec: "caba-cpack", Assist: true},
	{Name: "ideal-bdi", MemCodec: "bdi", LinkCodec: "bdi"},
}

// CabaDesigns returns CABA §7's designs (a copy), base first.
func CabaDesigns() []CabaDesign { return append([]CabaDesign(nil), cabaDesigns...) }

// CabaFlitBytes is the interconnect's bytes per cycle per L2 slice in the
// design study [ours: one 32-byte flit, GPGPU-Sim's crossbar flit].
const CabaFlitBytes = 32

// CabaRig is CABA's machine for one design: the GPU's configuration, the
// memory controllers below its L2 (whose counters give the bursts), and
// the first error of an assist warp's cost function, which cannot return
// one itself (check it after every kernel).
type CabaRig struct {
	Config    gpu.Config
	Mem       *mem.Memory
	assistErr error
}

// AssistErr returns the first error an assist warp's cost met (a codec that
// cannot cost its own stream), or nil; a run with one is to be discarded.
func (r *CabaRig) AssistErr() error { return r.assistErr }

// CabaMachine builds the machine of design d on LATTE-CC's Table II GPU
// with overrides o: an uncompressed L1, sim/mem's six GDDR5 controllers
// below the L2, a CabaFlitBytes interconnect, and the design's codecs and
// assist warps. It is what `linecomp sim gpu -design` and the caba study
// run.
func CabaMachine(d CabaDesign, o Overrides) (*CabaRig, error) {
	cfg, err := LatteMachine("none")
	if err != nil {
		return nil, err
	}
	if err := o.Apply(&cfg); err != nil {
		return nil, err
	}
	mc, err := linecomp.New(d.MemCodec, 128)
	if err != nil {
		return nil, err
	}
	dram := mem.GDDR5()
	if o.MemLatency != nil {
		dram.Latency = *o.MemLatency
	}
	m, err := mem.New(mem.Config{LineSize: 128, Codec: mc, DRAM: dram})
	if err != nil {
		return nil, err
	}
	rig := &CabaRig{Mem: m}
	cfg.Memory = gpu.MemoryController{Mem: m, DecompressCycles: d.MemDecompress}
	cfg.Interconnect = gpu.Interconnect{FlitBytes: CabaFlitBytes, DecompressCycles: d.LinkDecompress}
	if d.LinkCodec != "" {
		lc, err := linecomp.New(d.LinkCodec, 128)
		if err != nil {
			return nil, err
		}
		cfg.Interconnect.Codec = lc
		if d.Assist {
			coster, ok := lc.(caba.AssistWarpCoster)
			if !ok {
				return nil, fmt.Errorf("%w: %s has no assist-warp instruction counts", ErrParam, lc.Name())
			}
			cfg.Assist = assistFor(coster, &rig.assistErr)
		}
	}
	rig.Config = cfg
	return rig, nil
}

// assistFor charges CABA's lane-model instruction counts: decompressing a
// line costs what decompressing its stream does. The machine runs on one
// goroutine, so one buffer serves every call. A count that fails is kept
// in *failed, the first one only, and costs nothing meanwhile: the run's
// result is then discarded.
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

// ExpandCabaDesigns resolves a "designs" parameter (names or "all") into
// designs, base first as every speedup's reference.
func ExpandCabaDesigns(list string) ([]CabaDesign, error) {
	if list == "" || list == "all" {
		return CabaDesigns(), nil
	}
	var names []string
	for _, d := range cabaDesigns {
		names = append(names, d.Name)
	}
	out := []CabaDesign{cabaDesigns[0]}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, d := range cabaDesigns {
			if d.Name == n {
				found = true
				if n != "base" {
					out = append(out, d)
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("%w: design %q: want %s or all", ErrParam, n, strings.Join(names, ", "))
		}
	}
	return out, nil
}

// cabaStudy is CABA's design study (§7). Plan parameters: designs (names
// or "all", the default) and config (machine overrides, as the latte
// study's).
type cabaStudy struct{}

func init() { mustRegister(cabaStudy{}) }

func (cabaStudy) Name() string { return "caba" }

func (cabaStudy) Stream() string { return "warps" }

func (cabaStudy) Params() map[string]string {
	return map[string]string{
		"designs": "comma-separated designs or all (default): base, hw-bdi-mem, hw-bdi, caba-bdi, caba-fpc, caba-cpack, ideal-bdi",
		"config":  "machine overrides, a JSON object (linecomp sim gpu -h lists the keys)",
	}
}

func (cabaStudy) Jobs(ws []Workload, p Params) ([]Job, error) {
	ds, err := ExpandCabaDesigns(p["designs"])
	if err != nil {
		return nil, err
	}
	base := Params{}
	if c := p["config"]; c != "" {
		o, err := ParseOverrides([]byte(c))
		if err != nil {
			return nil, err
		}
		rig, err := CabaMachine(ds[0], o)
		if err == nil {
			_, err = gpu.New(rig.Config)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: config: %w", ErrParam, err)
		}
		if cc := o.canonical(); cc != "" {
			base["config"] = cc
		}
	}
	var jobs []Job
	for _, w := range ws {
		for _, d := range ds {
			jobs = append(jobs, newJob("caba", w, base.with("design", d.Name)))
		}
	}
	return jobs, nil
}

// CabaResult is one design on one workload.
type CabaResult struct {
	Cycles             uint64  `json:"cycles"`
	Instructions       uint64  `json:"instructions"`
	BusBusyCycles      uint64  `json:"bus_busy_cycles"`
	Controllers        int     `json:"controllers"`
	Bursts             uint64  `json:"bursts"`
	UncompressedBursts uint64  `json:"uncompressed_bursts"`
	MetadataBursts     uint64  `json:"metadata_bursts"`
	BurstRatio         float64 `json:"burst_ratio"` // uncompressed bursts over data bursts (sim/mem's EffectiveRatio)
	MDHitRate          float64 `json:"md_hit_rate"`
	Flits              uint64  `json:"interconnect_flits"`
	UncompressedFlits  uint64  `json:"uncompressed_flits"`
	AssistDecompress   uint64  `json:"assist_decompress_instructions"`
	AssistCompress     uint64  `json:"assist_compress_instructions"`
	UncompressedStores uint64  `json:"uncompressed_stores"`
	MDEnergyPJ         float64 `json:"md_energy_pj"`
	MemReads           uint64  `json:"mem_reads"`
	MemWrites          uint64  `json:"mem_writes"`
}

func (cabaStudy) Run(j Job, trace io.Reader) (json.RawMessage, error) {
	var d CabaDesign
	for _, x := range cabaDesigns {
		if x.Name == j.Params["design"] {
			d = x
		}
	}
	if d.Name == "" {
		return nil, fmt.Errorf("%w: design %q", ErrParam, j.Params["design"])
	}
	var o Overrides
	if c := j.Params["config"]; c != "" {
		var err error
		if o, err = ParseOverrides([]byte(c)); err != nil {
			return nil, err
		}
	}
	r, err := RunCaba(d, o, trace)
	if err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// RunCaba runs design d with overrides o on a warp trace, streaming its
// kernels.
func RunCaba(d CabaDesign, o Overrides, trace io.Reader) (CabaResult, error) {
	var r CabaResult
	rig, err := CabaMachine(d, o)
	if err != nil {
		return r, err
	}
	g, err := gpu.New(rig.Config)
	if err != nil {
		return r, err
	}
	err = runTrace(g, trace, func(ks gpu.KernelStats) error {
		if err := rig.AssistErr(); err != nil {
			return fmt.Errorf("kernel %s: %w", ks.Name, err)
		}
		return nil
	})
	if err != nil {
		return r, fmt.Errorf("%s: %w", d.Name, err)
	}
	s, ms := g.Stats(), rig.Mem.Stats()
	return CabaResult{Cycles: s.Cycles, Instructions: s.Instructions, BusBusyCycles: ms.BusBusyCycles, Controllers: rig.Mem.Config().Controllers,
		Bursts: ms.Bursts, UncompressedBursts: ms.UncompressedBursts, MetadataBursts: ms.MetadataBursts, BurstRatio: ms.EffectiveRatio(), MDHitRate: ms.MDHitRate(),
		Flits: s.Flits, UncompressedFlits: s.UncompressedFlits, AssistDecompress: s.AssistDecompressInstructions,
		AssistCompress: s.AssistCompressInstructions, UncompressedStores: s.UncompressedStores, MDEnergyPJ: ms.MDEnergyPicoJoules(),
		MemReads: s.MemReads, MemWrites: s.MemWrites}, nil
}

func (cabaStudy) Aggregate(jobs []Job, results []json.RawMessage) ([]Table, error) {
	t := Table{Name: "caba", Title: "CABA §7's designs (speedup over base; DRAM bandwidth utilisation; compression ratio in bursts)",
		Columns: []Column{{Name: "workload"}, {Name: "design"}, {Name: "cycles"}, {Name: "ipc", Digits: 3}, {Name: "speedup", Digits: 3},
			{Name: "dram_util", Digits: 3}, {Name: "burst_ratio", Digits: 3}, {Name: "md_hit", Digits: 4}, {Name: "flits"},
			{Name: "assist_dec"}, {Name: "assist_comp"}, {Name: "assist_share", Digits: 3}, {Name: "raw_stores"}, {Name: "md_pj", Digits: 0}},
		Notes: []string{"energy: metadata cache only, MAG-aware BDI §V-B (0.0014 nJ a read, 0.00097 nJ a write); no paper gives per-operation energy for these designs' compressors or assist warps"}}
	base := map[string]uint64{}
	rs := make([]CabaResult, len(jobs))
	for i, j := range jobs {
		if err := json.Unmarshal(results[i], &rs[i]); err != nil {
			return nil, fmt.Errorf("%w: job %d: %v", ErrResult, i, err)
		}
		if j.Params["design"] == "base" {
			base[j.Workload.Name] = rs[i].Cycles
		}
	}
	for i, j := range jobs {
		r := rs[i]
		b, ok := base[j.Workload.Name]
		if !ok {
			return nil, fmt.Errorf("%w: workload %s has no base design", ErrMissing, j.Workload.Name)
		}
		util := math.NaN()
		if r.Cycles > 0 && r.Controllers > 0 {
			util = float64(r.BusBusyCycles) / float64(r.Cycles) / float64(r.Controllers)
		}
		share := 0.0
		if slots := r.Instructions + r.AssistDecompress + r.AssistCompress; slots > 0 {
			share = float64(r.AssistDecompress+r.AssistCompress) / float64(slots)
		}
		t.Rows = append(t.Rows, []any{j.Workload.Name, j.Params["design"], r.Cycles, ratio(r.Instructions, r.Cycles), ratio(b, r.Cycles),
			util, r.BurstRatio, r.MDHitRate, r.Flits, r.AssistDecompress, r.AssistCompress, share,
			r.UncompressedStores, r.MDEnergyPJ})
	}
	return []Table{t}, nil
}
