package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/multi"
	"github.com/linecomp/linecomp/policy/vote"
	"github.com/linecomp/linecomp/sim/link"
	"github.com/linecomp/linecomp/trace"
)

// TavanaCandidates builds link candidates by name at lineSize. With tavana
// set, a candidate that is one of tavana-best's members (none, bdi,
// fpc-tavana, cpack-z) is that member, which carries Tavana Table III's
// latencies (BDI 2/1 rather than its own paper's 5/1); any other keeps its
// own. It is the one place that decides the Tavana study's codecs, for
// `linecomp sim link`, the link study and MGPUSim's live link study alike.
func TavanaCandidates(names []string, lineSize int, tavana bool) ([]linecomp.Codec, error) {
	var members []linecomp.Codec
	if tavana {
		best, err := linecomp.New("tavana-best", lineSize)
		if err != nil {
			return nil, err
		}
		members = best.(*multi.Codec).Members()
	}
	var out []linecomp.Codec
	for _, n := range names {
		i := slices.IndexFunc(members, func(m linecomp.Codec) bool { return m.Name() == n })
		if i >= 0 {
			out = append(out, members[i])
			continue
		}
		c, err := linecomp.New(n, lineSize)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// LinkSetup is the inter-GPU link of the Tavana study (model-spec §6): the
// candidates in Comp Alg order (none first), their latencies, the wire's
// energy and the penalty vote's phases.
type LinkSetup struct {
	Candidates []string
	// Own keeps each codec's own latency; by default the candidates take
	// Tavana Table III's (TavanaCandidates).
	Own  bool
	Wire link.WireEnergy
	// Samples, Running and MinVotes of the vote (0: 7, 300, 3); Within
	// samples inside the running phase (7 of every 300).
	Samples, Running, MinVotes int
	Within                     bool
}

// ReplayConfig returns the replay of s at lineSize: with static ≥ 0 every
// transfer uses candidate static, otherwise each sending GPU votes with λ.
func (s LinkSetup) ReplayConfig(lineSize int, lambda float64, static int) (link.ReplayConfig, error) {
	cands, err := TavanaCandidates(s.Candidates, lineSize, !s.Own)
	if err != nil {
		return link.ReplayConfig{}, err
	}
	rc := link.ReplayConfig{Link: link.Config{Candidates: cands, Wire: s.Wire}}
	if static >= 0 {
		if static >= len(cands) {
			return rc, fmt.Errorf("%w: static candidate %d of %d", ErrParam, static, len(cands))
		}
		rc.NewChooser = link.Static(static)
	} else {
		vc := vote.Config{Lambda: lambda, Samples: s.Samples, Running: s.Running, MinVotes: s.MinVotes}
		if s.Within {
			vc.Phases = vote.SampleWithinRun
		}
		rc.NewChooser = func(c []linecomp.Codec) (link.Chooser, error) {
			vc := vc
			vc.Candidates = c
			return vote.New(vc)
		}
		if _, err := rc.NewChooser(cands); err != nil {
			return rc, err
		}
	}
	_, err = link.NewReplay(rc)
	return rc, err
}

// LinkReplays replays one rdma trace through several link configurations
// at once, a batch of records at a time, the configurations in parallel on
// each batch: records are streamed, so memory does not grow with the
// trace.
type LinkReplays struct {
	reps     []*link.Replay
	batch    []link.Transfer
	payloads []byte // the batch's lines, copied: a trace reader reuses its buffer
	done     uint64
}

// linkBatch is how many records a batch holds.
const linkBatch = 4096

// NewLinkReplays starts a replay of every configuration.
func NewLinkReplays(rcs []link.ReplayConfig) (*LinkReplays, error) {
	l := &LinkReplays{}
	for _, rc := range rcs {
		rep, err := link.NewReplay(rc)
		if err != nil {
			return nil, err
		}
		l.reps = append(l.reps, rep)
	}
	return l, nil
}

// Add queues one record (Time, Src, Dst, Op and the payload, copied).
func (l *LinkReplays) Add(r trace.Record) error {
	if l.payloads == nil {
		l.payloads = make([]byte, 0, linkBatch*len(r.Data))
	}
	at := len(l.payloads)
	if at+len(r.Data) > cap(l.payloads) { // a longer line than the first: flush first
		if err := l.flush(); err != nil {
			return err
		}
		l.payloads = make([]byte, 0, linkBatch*len(r.Data))
		at = 0
	}
	l.payloads = append(l.payloads, r.Data...) // within its capacity: earlier lines stay put
	end := len(l.payloads)
	l.batch = append(l.batch, link.Transfer{Time: r.Time, Src: r.Src, Dst: r.Dst, Op: link.Op(r.Op), Data: l.payloads[at:end:end]})
	if len(l.batch) == linkBatch {
		return l.flush()
	}
	return nil
}

// Done returns the records replayed so far.
func (l *LinkReplays) Done() uint64 { return l.done }

func (l *LinkReplays) flush() error {
	errs := make([]error, len(l.reps))
	var wg sync.WaitGroup
	for i, r := range l.reps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j, t := range l.batch {
				if err := r.Add(t); err != nil {
					errs[i] = fmt.Errorf("record %d: %w", l.done+uint64(j), err)
					return
				}
			}
		}()
	}
	wg.Wait()
	l.done += uint64(len(l.batch))
	l.batch, l.payloads = l.batch[:0], l.payloads[:0]
	for _, err := range errs {
		if err != nil {
			return err // the same record fails every configuration: say it once
		}
	}
	return nil
}

// Finish replays what is queued and returns each configuration's result.
func (l *LinkReplays) Finish() ([]link.Result, error) {
	if len(l.batch) > 0 {
		if err := l.flush(); err != nil {
			return nil, err
		}
	}
	out := make([]link.Result, len(l.reps))
	for i, r := range l.reps {
		res, err := r.Finish()
		if err != nil {
			return nil, err
		}
		out[i] = res
	}
	return out, nil
}

// The Tavana study's defaults: the paper's candidates and λs (§VI-B: 0, 6
// and 32; 6 is its best).
const (
	linkPaperCandidates = "none,bdi,fpc-tavana,cpack-z"
	linkPaperLambdas    = "0,6,32"
)

// linkStudy is Tavana et al.'s link study on rdma traces: the penalty vote
// at each λ, and each candidate alone.
type linkStudy struct{}

func init() { mustRegister(linkStudy{}) }

func (linkStudy) Name() string { return "link" }

func (linkStudy) Stream() string { return "rdma" }

func (linkStudy) Params() map[string]string {
	return map[string]string{
		"candidates": "the vote's candidates in Comp Alg order, none first (default " + linkPaperCandidates + ")",
		"lambdas":    "λ of the penalty vote, comma-separated (default " + linkPaperLambdas + ")",
		"statics":    "on (default): also each candidate alone; off",
		"latency":    "tavana (default: Table III's) or own (each codec's own)",
	}
}

func (linkStudy) Jobs(ws []Workload, p Params) ([]Job, error) {
	cands := p["candidates"]
	if cands == "" {
		cands = linkPaperCandidates
	}
	names := strings.Split(cands, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
		if slices.Index(names[:i], names[i]) >= 0 {
			return nil, fmt.Errorf("%w: candidates list %s twice", ErrParam, names[i])
		}
	}
	lambdas := p["lambdas"]
	if lambdas == "" {
		lambdas = linkPaperLambdas
	}
	var ls []string
	for _, s := range strings.Split(lambdas, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%w: lambdas %q: want numbers ≥ 0", ErrParam, lambdas)
		}
		ls = append(ls, strconv.FormatFloat(v, 'g', -1, 64))
	}
	switch p["latency"] {
	case "", "tavana", "own":
	default:
		return nil, fmt.Errorf("%w: latency %q: want tavana or own", ErrParam, p["latency"])
	}
	switch p["statics"] {
	case "", "on", "off":
	default:
		return nil, fmt.Errorf("%w: statics %q: want on or off", ErrParam, p["statics"])
	}
	base := Params{"candidates": strings.Join(names, ",")}
	if p["latency"] == "own" {
		base["latency"] = "own"
	}
	setup, err := linkSetup(base)
	if err != nil {
		return nil, err
	}
	if _, err := setup.ReplayConfig(64, 0, -1); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrParam, err)
	}
	var jobs []Job
	for _, w := range ws {
		for _, l := range ls {
			jobs = append(jobs, newJob("link", w, base.with("lambda", l)))
		}
		if p["statics"] != "off" {
			for _, n := range names {
				jobs = append(jobs, newJob("link", w, base.with("static", n)))
			}
		}
	}
	return jobs, nil
}

func linkSetup(p Params) (LinkSetup, error) {
	s := LinkSetup{Candidates: strings.Split(p["candidates"], ","), Own: p["latency"] == "own", Wire: link.WireInPackage()}
	for _, n := range s.Candidates {
		if _, err := linecomp.Lookup(n); err != nil {
			return s, fmt.Errorf("%w: %w", ErrParam, err)
		}
	}
	return s, nil
}

func (linkStudy) Run(j Job, tr io.Reader) (json.RawMessage, error) {
	s, err := linkSetup(j.Params)
	if err != nil {
		return nil, err
	}
	static, lambda := -1, 0.0
	if n, ok := j.Params["static"]; ok {
		static = slices.Index(s.Candidates, n)
		if static < 0 {
			return nil, fmt.Errorf("%w: static %s is not a candidate", ErrParam, n)
		}
	} else if lambda, err = strconv.ParseFloat(j.Params["lambda"], 64); err != nil {
		return nil, fmt.Errorf("%w: lambda %q", ErrParam, j.Params["lambda"])
	}
	r, err := trace.NewReader(tr)
	if err != nil {
		return nil, err
	}
	rc, err := s.ReplayConfig(r.Header().LineSize, lambda, static)
	if err != nil {
		return nil, err
	}
	reps, err := NewLinkReplays([]link.ReplayConfig{rc})
	if err != nil {
		return nil, err
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := reps.Add(rec); err != nil {
			return nil, err
		}
	}
	if reps.Done()+uint64(len(reps.batch)) == 0 {
		return nil, errors.New("the trace has no record")
	}
	res, err := reps.Finish()
	if err != nil {
		return nil, err
	}
	return json.Marshal(res[0])
}

func (linkStudy) Aggregate(jobs []Job, results []json.RawMessage) ([]Table, error) {
	t := Table{Name: "link", Title: "Tavana et al.'s inter-GPU link: the penalty vote per λ and each codec alone (ratio = uncompressed payload over payload bits)",
		Columns: []Column{{Name: "workload"}, {Name: "config"}, {Name: "transfers"}, {Name: "payload_bits"}, {Name: "uncompressed_bits"},
			{Name: "ratio", Digits: 3}, {Name: "wire_bytes"}, {Name: "bus_cycles"}, {Name: "completion_cycle"}, {Name: "wire_pj", Digits: 0},
			{Name: "codec_pj", Digits: 0}, {Name: "uses"}}}
	for i, j := range jobs {
		var r link.Result
		if err := json.Unmarshal(results[i], &r); err != nil {
			return nil, fmt.Errorf("%w: job %d: %v", ErrResult, i, err)
		}
		cfg := "static " + j.Params["static"]
		if l, ok := j.Params["lambda"]; ok {
			cfg = "vote λ=" + l
		}
		var uses []string
		for _, n := range strings.Split(j.Params["candidates"], ",") {
			uses = append(uses, fmt.Sprintf("%s:%d", n, r.Uses[n]))
		}
		t.Rows = append(t.Rows, []any{j.Workload.Name, cfg, r.Transfers, r.PayloadBits, r.UncompressedPayloadBits,
			ratio(r.UncompressedPayloadBits, r.PayloadBits), r.WireBytes, r.BusCycles, r.CompletionCycle, r.WireEnergyPJ,
			r.CodecEnergyPJ, strings.Join(uses, " ")})
	}
	return []Table{t}, nil
}
