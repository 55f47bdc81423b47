package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/mem"
	"github.com/linecomp/linecomp/trace"
)

// MAGSetup is one memory system of the MAG study (model-spec §5): the codec
// of the lines, the memory access granularity, the controllers and their
// metadata caches. Zero fields take MAG-aware BDI Table IV's values.
type MAGSetup struct {
	Codec       string
	MAG         int // bytes a burst (32: GDDR5's 32-bit bus × burst length 8)
	Controllers int // 6
	Interleave  int // bytes of a controller's stripe (4096)
	MDKB        int // MD cache KB per controller (16)
	MDWays      int // 4
}

// Memory returns the memory controllers of s for lineSize-byte lines.
func (s MAGSetup) Memory(lineSize int) (*mem.Memory, error) {
	c, err := linecomp.New(s.Codec, lineSize)
	if err != nil {
		return nil, err
	}
	cfg := mem.Config{Controllers: s.Controllers, Interleave: s.Interleave, LineSize: lineSize, MAG: s.MAG, Codec: c, MDWays: s.MDWays}
	if s.MDKB < 0 || s.MDKB > 1<<30 {
		return nil, fmt.Errorf("%w: MD cache of %d KB", ErrParam, s.MDKB)
	}
	cfg.MDCacheBytes = s.MDKB << 10
	return mem.New(cfg)
}

// AccessAll replays one record of a DRAM line trace (a Read is a fill, a
// Write a write-back) at cycle now through every memory of ms.
func AccessAll(ms []*mem.Memory, now uint64, r trace.Record) error {
	op := mem.Read
	if r.Op == trace.Write {
		op = mem.Write
	}
	for _, m := range ms {
		if _, err := m.Access(now, op, r.Addr, r.Data); err != nil {
			return err
		}
	}
	return nil
}

// The paper's codecs (MAG-aware BDI Fig. 12): BDI, MAG-aware BDI at a
// 32-byte MAG, FPC and C-Pack.
const magPaperCodecs = "bdi,magbdi-32,fpc,cpack"

// magStudy is MAG-aware BDI's memory study on DRAM line traces: each codec
// at one MAG, the bursts it moves and the metadata traffic.
type magStudy struct{}

func init() { mustRegister(magStudy{}) }

func (magStudy) Name() string { return "mag" }

func (magStudy) Stream() string { return "dram" }

func (magStudy) Params() map[string]string {
	return map[string]string{
		"codecs":      "comma-separated codecs (default " + magPaperCodecs + ")",
		"mag":         "memory access granularity in bytes (32)",
		"controllers": "memory controllers (6)",
		"md_kb":       "MD cache KB per controller (16)",
		"md_ways":     "MD cache ways (4)",
	}
}

func (magStudy) Jobs(ws []Workload, p Params) ([]Job, error) {
	list := p["codecs"]
	if list == "" {
		list = magPaperCodecs
	}
	base := Params{}
	for _, k := range []string{"mag", "controllers", "md_kb", "md_ways"} {
		if v, ok := p[k]; ok {
			if _, err := intParam(p, k, 0); err != nil {
				return nil, err
			}
			base[k] = v
		}
	}
	var codecs []string
	for _, c := range strings.Split(list, ",") {
		c = strings.TrimSpace(c)
		s, err := magSetup(base.with("codec", c))
		if err != nil {
			return nil, err
		}
		// Check the setup at a line size the codec takes.
		info, err := linecomp.Lookup(c)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrParam, err)
		}
		if _, err := s.Memory(info.LineSizes[len(info.LineSizes)-1]); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrParam, c, err)
		}
		codecs = append(codecs, c)
	}
	var jobs []Job
	for _, w := range ws {
		for _, c := range codecs {
			jobs = append(jobs, newJob("mag", w, base.with("codec", c)))
		}
	}
	return jobs, nil
}

func magSetup(p Params) (MAGSetup, error) {
	s := MAGSetup{Codec: p["codec"]}
	var err error
	for _, f := range []struct {
		key string
		dst *int
		def int
	}{{"mag", &s.MAG, 32}, {"controllers", &s.Controllers, 6}, {"md_kb", &s.MDKB, 16}, {"md_ways", &s.MDWays, 4}} {
		if *f.dst, err = intParam(p, f.key, f.def); err != nil {
			return s, err
		}
	}
	return s, nil
}

// MAGResult is one codec's replay of one DRAM trace.
type MAGResult struct {
	LineSize     int       `json:"line_size"`
	MetadataBits int       `json:"metadata_bits"`
	Stats        mem.Stats `json:"stats"`
}

func (magStudy) Run(j Job, tr io.Reader) (json.RawMessage, error) {
	s, err := magSetup(j.Params)
	if err != nil {
		return nil, err
	}
	r, err := RunMAG(s, tr)
	if err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// RunMAG replays a DRAM line trace through the memory of s, at the trace's
// line size, one record a cycle.
func RunMAG(s MAGSetup, tr io.Reader) (MAGResult, error) {
	var res MAGResult
	r, err := trace.NewReader(tr)
	if err != nil {
		return res, err
	}
	res.LineSize = r.Header().LineSize
	m, err := s.Memory(res.LineSize)
	if err != nil {
		return res, err
	}
	ms := []*mem.Memory{m}
	for n := uint64(0); ; n++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return res, err
		}
		if err := AccessAll(ms, n, rec); err != nil {
			return res, fmt.Errorf("record %d: %w", n, err)
		}
	}
	res.MetadataBits, res.Stats = m.MetadataBits(), m.Stats()
	return res, nil
}

func (magStudy) Aggregate(jobs []Job, results []json.RawMessage) ([]Table, error) {
	t := Table{Name: "mag", Title: "MAG-aware BDI's memory study: bursts per codec (effective ratio = uncompressed bursts over data bursts)",
		Columns: []Column{{Name: "workload"}, {Name: "codec"}, {Name: "mag"}, {Name: "requests"}, {Name: "bursts"}, {Name: "uncompressed_bursts"},
			{Name: "metadata_bursts"}, {Name: "effective_ratio", Digits: 3}, {Name: "with_metadata", Digits: 3}, {Name: "md_hit_rate", Digits: 4},
			{Name: "bursts_per_request"}}}
	for i, j := range jobs {
		var r MAGResult
		if err := json.Unmarshal(results[i], &r); err != nil {
			return nil, fmt.Errorf("%w: job %d: %v", ErrResult, i, err)
		}
		s := r.Stats
		hist := make([]string, len(s.BurstHistogram))
		for k, v := range s.BurstHistogram {
			hist[k] = fmt.Sprintf("%d:%.3f", k, float64(v)/float64(max(s.Requests, 1)))
		}
		mag, _ := strconv.Atoi(j.Params["mag"])
		if mag == 0 {
			mag = 32
		}
		t.Rows = append(t.Rows, []any{j.Workload.Name, j.Params["codec"], mag, s.Requests, s.Bursts, s.UncompressedBursts,
			s.MetadataBursts, s.EffectiveRatio(), s.EffectiveRatioWithMetadata(), s.MDHitRate(), strings.Join(hist, " ")})
	}
	return []Table{t}, nil
}
