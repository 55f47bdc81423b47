package study

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Errors of the study layer; each is wrapped with the cause.
var (
	// ErrUnknownStudy: no registered study has the name.
	ErrUnknownStudy = errors.New("study: unknown study")
	// ErrParam: a parameter is unknown to the study or has a bad value.
	ErrParam = errors.New("study: bad parameter")
	// ErrPlan: a plan file cannot be read, or does not fit the directory
	// or the study.
	ErrPlan = errors.New("study: bad plan")
	// ErrChanged: a workload's bytes no longer hash to what the plan
	// recorded.
	ErrChanged = errors.New("study: workload changed since the plan")
	// ErrResult: a result file is cut short, malformed, or of another job.
	ErrResult = errors.New("study: bad result")
	// ErrMissing: a plan's job has no result yet.
	ErrMissing = errors.New("study: results missing")
)

// Params are a job's or a plan's parameters by name, all strings so that a
// plan file states them exactly. encoding/json writes a map's keys in
// sorted order, so a job's encoding, and its ID, do not depend on the order
// parameters were set in.
type Params map[string]string

// clone returns a copy of p with kv (key, value, key, value, …) set.
func (p Params) with(kv ...string) Params {
	out := Params{}
	for k, v := range p {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// Job is one independent simulation of a study.
type Job struct {
	// Index is the job's position in its plan, counting from 0.
	Index int `json:"index"`
	// ID is stable: a hash of the study, the workload's content hash and
	// the parameters. Equal IDs mean equal inputs.
	ID       string   `json:"id"`
	Study    string   `json:"study"`
	Workload Workload `json:"workload"`
	Params   Params   `json:"params"`
}

// jobID returns the stable ID of a job's inputs.
func jobID(study string, w Workload, p Params) string {
	enc, _ := json.Marshal(p) // a map of strings always encodes
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s\n", study, w.SHA256, enc)
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// newJob returns the job of study on w with p; Index is set by the plan.
func newJob(study string, w Workload, p Params) Job {
	return Job{ID: jobID(study, w, p), Study: study, Workload: w, Params: p}
}

// PlanFile is a study's jobs, in order.
type PlanFile struct {
	Study string
	Jobs  []Job
}

// Write writes the plan as JSON lines, one job a line.
func (p *PlanFile) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, j := range p.Jobs {
		b, err := json.Marshal(j)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Encode returns the plan's JSON-lines bytes.
func (p *PlanFile) Encode() []byte {
	var b bytes.Buffer
	p.Write(&b) // writing to a bytes.Buffer cannot fail
	return b.Bytes()
}

// ReadPlan reads a plan written by Write. Every job must belong to one
// registered study, carry its index in order and the ID of its inputs.
func ReadPlan(r io.Reader) (*PlanFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	p := &PlanFile{}
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var j Job
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&j); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrPlan, line, err)
		}
		switch {
		case j.Index != len(p.Jobs):
			return nil, fmt.Errorf("%w: line %d: job index %d, want %d (jobs in order from 0)", ErrPlan, line, j.Index, len(p.Jobs))
		case p.Study != "" && j.Study != p.Study:
			return nil, fmt.Errorf("%w: line %d: study %q in a plan of %q", ErrPlan, line, j.Study, p.Study)
		case j.ID != jobID(j.Study, j.Workload, j.Params):
			return nil, fmt.Errorf("%w: line %d: job %d's id %s does not match its inputs (edited by hand?)", ErrPlan, line, j.Index, j.ID)
		}
		if _, err := Lookup(j.Study); err != nil {
			return nil, fmt.Errorf("%w: line %d: %w", ErrPlan, line, err)
		}
		p.Study = j.Study
		p.Jobs = append(p.Jobs, j)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: line %d: %v", ErrPlan, line+1, err)
	}
	if len(p.Jobs) == 0 {
		return nil, fmt.Errorf("%w: no job in it", ErrPlan)
	}
	return p, nil
}

// Plan returns study's jobs on the workloads with the given parameters
// (each study documents its own; unknown ones are an error wrapping
// ErrParam).
func Plan(study string, workloads []Workload, p Params) (*PlanFile, error) {
	s, err := Lookup(study)
	if err != nil {
		return nil, err
	}
	if len(workloads) == 0 {
		return nil, fmt.Errorf("%w: %s needs at least one workload", ErrParam, study)
	}
	if err := checkParams(s, p); err != nil {
		return nil, err
	}
	jobs, err := s.Jobs(workloads, p)
	if err != nil {
		return nil, err
	}
	for i := range jobs {
		jobs[i].Index = i
	}
	return &PlanFile{Study: study, Jobs: jobs}, nil
}

// checkParams rejects a parameter the study does not know.
func checkParams(s Study, p Params) error {
	known := s.Params()
	for k := range p {
		if _, ok := known[k]; !ok {
			var names []string
			for n := range known {
				names = append(names, n)
			}
			sort.Strings(names)
			return fmt.Errorf("%w: %s has no parameter %q; it takes %s", ErrParam, s.Name(), k, strings.Join(names, ", "))
		}
	}
	return nil
}
