package main

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/linecomp/linecomp/sim/mem"
	"github.com/linecomp/linecomp/study"
	"github.com/linecomp/linecomp/trace"
)

var simMemCommand = &command{
	name:    "mem",
	args:    "[flags] [TRACE…]",
	summary: "replay DRAM line traces through MAG-aware memory controllers",
	run:     runSimMem,
}

const simMemHelp = `
Replays line traces of the traffic between the L2 and DRAM (Read records
are fills, Write records write-backs) through the memory controllers of
model-spec §5: every line compressed by -codecs (a list, or all: a set of
controllers and a row per codec) and moved in whole bursts of
-mag bytes, its metadata (the codec's tag bits, plus a burst count when the
tag bits do not give the size) cached per controller in an MD cache of
-md-kb KB. Prints, per trace, requests, data bursts, the bursts the same
requests take uncompressed, metadata bursts, MD hits, misses and
write-backs, the effective ratio (uncompressed bursts over data bursts,
then with metadata bursts too), and the distribution of data bursts per
request (MAG-aware BDI Fig. 12). Dirty MD blocks still cached at the end
are not written back. Without traces it replays the committed sample DRAM
traces. With -image the inputs are memory images instead (files,
directories, -; the embedded sample without inputs): each line is read
once, in address order, as a fill of the image laid out from address 0.`

// memRow is the row of a trace replayed through m.
func memRow(trace, codec string, mag int, m *mem.Memory) memJSON {
	s := m.Stats()
	return memJSON{Trace: trace, Codec: codec, MAG: mag, Requests: s.Requests, Reads: s.Reads,
		Writes: s.Writes, Bursts: s.Bursts, UncompressedBursts: s.UncompressedBursts, MetadataBursts: s.MetadataBursts,
		MDHits: s.MDHits, MDMisses: s.MDMisses, MDWriteBacks: s.MDWriteBacks, MetadataBits: m.MetadataBits(),
		EffectiveRatio: s.EffectiveRatio(), RatioWithMetadata: s.EffectiveRatioWithMetadata(), MDHitRate: s.MDHitRate(),
		BurstHistogram: s.BurstHistogram}
}

// memJSON is one trace's row; the counters are integers.
type memJSON struct {
	Trace              string   `json:"trace"`
	Codec              string   `json:"codec"`
	MAG                int      `json:"mag"`
	Requests           uint64   `json:"requests"`
	Reads              uint64   `json:"reads"`
	Writes             uint64   `json:"writes"`
	Bursts             uint64   `json:"bursts"`
	UncompressedBursts uint64   `json:"uncompressed_bursts"`
	MetadataBursts     uint64   `json:"metadata_bursts"`
	MDHits             uint64   `json:"md_hits"`
	MDMisses           uint64   `json:"md_misses"`
	MDWriteBacks       uint64   `json:"md_writebacks"`
	MetadataBits       int      `json:"metadata_bits"`
	EffectiveRatio     float64  `json:"effective_ratio"`
	RatioWithMetadata  float64  `json:"effective_ratio_with_metadata"`
	MDHitRate          float64  `json:"md_hit_rate"`
	BurstHistogram     []uint64 `json:"burst_histogram"`
}

func runSimMem(e *env, c *command, args []string) error {
	fs := newFlags(e, c, simMemHelp)
	codecList := fs.String("codecs", "magbdi-32", "codecs of the lines, comma-separated, or all: one set of controllers and row per codec")
	fs.StringVar(codecList, "codec", "magbdi-32", "the same as -codecs")
	mag := fs.Int("mag", 32, "memory access granularity in bytes")
	line := fs.Int("line", 0, "line size in bytes (default: the trace's; another value is an error)")
	controllers := fs.Int("controllers", 6, "memory controllers")
	interleave := fs.Int("interleave", 4096, "bytes of a controller's stripe")
	mdKB := fs.Int("md-kb", 16, "MD cache KB per controller")
	mdWays := fs.Int("md-ways", 4, "MD cache ways")
	format := fs.String("format", "text", "output: text, csv or json")
	image := fs.Bool("image", false, "the inputs are memory images, not traces: every line is read once, in order, at its offset")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := parseFormat(*format); err != nil {
		return err
	}
	codecs, err := parseReplayCodecs(*codecList)
	if err != nil {
		return err
	}
	newMem := func(codec string, n int) (*mem.Memory, error) {
		s := study.MAGSetup{Codec: codec, MAG: *mag, Controllers: *controllers, Interleave: *interleave, MDKB: *mdKB, MDWays: *mdWays}
		return s.Memory(n)
	}
	if *image && *line == 0 {
		if *line = codecs.commonSize(); *line == 0 {
			return usagef("-image: the codecs of -codecs %s take no line size in common; give -line", *codecList)
		}
	}
	if *controllers <= 0 || *mdKB <= 0 || *mdWays <= 0 || *mag <= 0 || *interleave <= 0 {
		return usagef("-controllers, -md-kb, -md-ways, -mag and -interleave must be positive")
	}
	if *mdKB > math.MaxInt>>10 {
		return usagef("-md-kb %d: more bytes than an int holds", *mdKB) // not wrapped to 0, the default
	}
	// A bad flag is a usage error before any trace is read.
	if err := codecs.check(*line, func(codec string, n int) error {
		_, err := newMem(codec, n)
		return err
	}); err != nil {
		return usageError{err}
	}
	srcs := lineTraceSources(e, inputs, "dram")
	if *image && len(inputs) == 0 {
		srcs = sampleSources()
	}
	if len(srcs) == 0 {
		return usagef("no trace given, and no sample DRAM trace is embedded")
	}
	var rows []memJSON
	failed := e.eachInput(srcs, func(in *input) error {
		var names []string
		var mems []*mem.Memory
		var n uint64
		each := func(fn func(h trace.Header, r trace.Record) error) error {
			if !*image {
				_, err := eachRecord(in, *line, []string{"dram"}, fn)
				return err
			}
			lr := e.newLineReader(in, *line)
			h := trace.Header{LineSize: *line}
			for {
				chunk, err := lr.next()
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return err
				}
				for off := 0; off < len(chunk); off += *line {
					addr := uint64(n) * uint64(*line)
					if err := fn(h, trace.Record{Op: trace.Read, Addr: addr, Data: chunk[off : off+*line]}); err != nil {
						return err
					}
				}
			}
		}
		err := each(func(h trace.Header, r trace.Record) error {
			if mems == nil {
				var err error
				if names, mems, err = buildReplays(e, codecs, h.LineSize, newMem); err != nil {
					return err
				}
			}
			if err := study.AccessAll(mems, n, r); err != nil {
				return err
			}
			if n++; n%(1<<16) == 0 {
				e.progress.show("%s: %d records", in.name, n)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if mems == nil {
			return fmt.Errorf("the trace has no record")
		}
		for i, m := range mems {
			rows = append(rows, memRow(in.name, names[i], *mag, m))
		}
		return nil
	})
	e.progress.clear()
	if *format == "json" {
		if rows == nil {
			rows = []memJSON{}
		}
		if err := writeJSON(e.stdout, rows); err != nil {
			return err
		}
		return failed
	}
	t := table{header: []string{"trace", "codec", "mag", "requests", "bursts", "uncompressed_bursts", "metadata_bursts",
		"md_hits", "md_misses", "md_writebacks", "effective_ratio", "with_metadata", "md_hit_rate", "bursts_per_request"}}
	for _, r := range rows {
		hist := make([]string, len(r.BurstHistogram))
		for i, v := range r.BurstHistogram {
			hist[i] = fmt.Sprintf("%d:%.3f", i, float64(v)/float64(max(r.Requests, 1)))
		}
		t.add(r.Trace, r.Codec, fmt.Sprint(r.MAG), utoa(r.Requests), utoa(r.Bursts), utoa(r.UncompressedBursts), utoa(r.MetadataBursts),
			utoa(r.MDHits), utoa(r.MDMisses), utoa(r.MDWriteBacks), ffmt(r.EffectiveRatio, 3), ffmt(r.RatioWithMetadata, 3),
			ffmt(r.MDHitRate, 4), strings.Join(hist, " "))
	}
	if err := t.write(e.stdout, *format); err != nil {
		return err
	}
	return failed
}
