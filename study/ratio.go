package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/linecomp/linecomp"
)

// The codecs of the papers, for the ratio study's default.
const ratioPaperCodecs = "bdi,fpc,cpack,cpack-z,bpc,sc2,magbdi-32,caba-bdi,caba-fpc,caba-cpack"

// ratioStudy is the codec ratio table: every codec on memory images, the
// raw ratio (line bits over compressed bits) and the effective ratio at a
// memory access granularity (line bits over the bits moved in whole bursts
// of the payload, tag bits travelling as metadata), the quantities
// behind MAG-aware BDI Fig. 12 and Tavana Table V.
type ratioStudy struct{}

func init() { mustRegister(ratioStudy{}) }

func (ratioStudy) Name() string   { return "ratio" }
func (ratioStudy) Stream() string { return "images" }

func (ratioStudy) Params() map[string]string {
	return map[string]string{
		"codecs": "comma-separated codecs (default " + ratioPaperCodecs + ")",
		"line":   "line size in bytes (128); a codec that does not take it is an error",
		"mag":    "memory access granularity of the effective ratio, in bytes (32)",
	}
}

func (ratioStudy) Jobs(ws []Workload, p Params) ([]Job, error) {
	list := p["codecs"]
	if list == "" {
		list = ratioPaperCodecs
	}
	line, err := intParam(p, "line", 128)
	if err != nil {
		return nil, err
	}
	if _, err := intParam(p, "mag", 32); err != nil {
		return nil, err
	}
	base := Params{}
	for _, k := range []string{"line", "mag"} {
		if v, ok := p[k]; ok {
			base[k] = v
		}
	}
	var codecs []string
	for _, c := range strings.Split(list, ",") {
		c = strings.TrimSpace(c)
		if _, err := linecomp.New(c, line); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrParam, err)
		}
		codecs = append(codecs, c)
	}
	var jobs []Job
	for _, w := range ws {
		for _, c := range codecs {
			jobs = append(jobs, newJob("ratio", w, base.with("codec", c)))
		}
	}
	return jobs, nil
}

// RatioResult is one codec on one memory image.
type RatioResult struct {
	Lines         int64 `json:"lines"`
	Bits          int64 `json:"bits"`           // compressed bits, tag bits included
	EffectiveBits int64 `json:"effective_bits"` // payload bits moved in whole bursts
	Compressed    int64 `json:"compressed"`     // lines smaller than the line
	Trained       int64 `json:"trained"`        // lines a trainable codec learned from
}

func (ratioStudy) Run(j Job, r io.Reader) (json.RawMessage, error) {
	line, err := intParam(j.Params, "line", 128)
	if err != nil {
		return nil, err
	}
	mag, err := intParam(j.Params, "mag", 32)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	res, err := RunRatio(j.Params["codec"], line, mag, data)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// RunRatio measures codec on the whole lines of an image. A trainable codec
// (SC²) first learns from the first tenth of the lines, at least 256, as
// `linecomp ratio` does for a file.
func RunRatio(codec string, lineSize, mag int, data []byte) (RatioResult, error) {
	var res RatioResult
	c, err := linecomp.New(codec, lineSize)
	if err != nil {
		return res, err
	}
	lines := len(data) / lineSize
	if lines == 0 {
		return res, errors.New("the image holds no whole line")
	}
	if _, ok := c.(linecomp.Trainable); ok {
		res.Trained = int64(min(lines, max(lines/10, 256)))
		if c, err = linecomp.Train(c, data[:int(res.Trained)*lineSize]); err != nil {
			return res, err
		}
	}
	for i := range lines {
		bits := c.Size(data[i*lineSize : (i+1)*lineSize])
		res.Bits += int64(bits)
		res.EffectiveBits += int64(linecomp.EffectiveBits(bits-c.TagBits(), mag))
		if bits < 8*lineSize {
			res.Compressed++
		}
	}
	res.Lines = int64(lines)
	return res, nil
}

func (ratioStudy) Aggregate(jobs []Job, results []json.RawMessage) ([]Table, error) {
	t := Table{Name: "ratio", Title: "Codec ratios on memory images (raw = line bits over compressed bits; effective = over the payload's whole bursts)",
		Columns: []Column{{Name: "workload"}, {Name: "codec"}, {Name: "lines"}, {Name: "ratio", Digits: 3}, {Name: "effective_ratio", Digits: 3},
			{Name: "compressed_share", Digits: 3}, {Name: "trained_lines"}}}
	for i, j := range jobs {
		var r RatioResult
		if err := json.Unmarshal(results[i], &r); err != nil {
			return nil, fmt.Errorf("%w: job %d: %v", ErrResult, i, err)
		}
		line, _ := intParam(j.Params, "line", 128)
		lineBits := uint64(r.Lines) * uint64(8*line)
		t.Rows = append(t.Rows, []any{j.Workload.Name, j.Params["codec"], uint64(r.Lines), ratio(lineBits, uint64(r.Bits)),
			ratio(lineBits, uint64(r.EffectiveBits)), ratio(uint64(r.Compressed), uint64(r.Lines)), uint64(r.Trained)})
	}
	return []Table{t}, nil
}
