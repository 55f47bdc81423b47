package study

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// planName is the copy of the plan a run keeps in its directory, which
// Collect reads.
const planName = "plan.jsonl"

// resultFile is what a result file holds: the job's identity, to check it
// belongs to the job, and its result row.
type resultFile struct {
	ID     string          `json:"id"`
	Index  int             `json:"index"`
	Study  string          `json:"study"`
	SHA256 string          `json:"workload_sha256"`
	Params Params          `json:"params"`
	Result json.RawMessage `json:"result"`
}

// Runner runs a plan's jobs into a directory.
type Runner struct {
	Dir string
	// Workers run jobs at once; 0 means every core (GOMAXPROCS).
	Workers int
	// Progress, if set, is called after every job that ran or was
	// skipped, from one goroutine at a time.
	Progress func(done, total int, j Job, skipped bool)
}

// Summary says what a run did.
type Summary struct {
	Ran, Skipped int
	// Rerun counts jobs whose result file was there but unusable (cut
	// short, or of other inputs) and was computed again.
	Rerun int
}

// Run runs the jobs of plan whose indexes are in jobs (every job when jobs
// is nil), skipping those whose result is already in the directory with
// the same inputs. It writes each result atomically (a temporary file,
// then a rename), so a run killed at any moment leaves whole results or
// none. It keeps a copy of the plan in the directory, and refuses a
// directory that holds another plan's results. Jobs that fail do not stop
// the others; their errors are joined.
func (r *Runner) Run(plan *PlanFile, jobs []int) (Summary, error) {
	var sum Summary
	if err := r.keepPlan(plan); err != nil {
		return sum, err
	}
	if jobs == nil {
		for i := range plan.Jobs {
			jobs = append(jobs, i)
		}
	}
	for _, i := range jobs {
		if i < 0 || i >= len(plan.Jobs) {
			return sum, fmt.Errorf("%w: no job %d (the plan has jobs 0 to %d)", ErrParam, i, len(plan.Jobs)-1)
		}
	}
	var (
		mu   sync.Mutex
		errs []error
		done int
	)
	parallel(len(jobs), r.Workers, func(k int) {
		j := plan.Jobs[jobs[k]]
		skipped, rerun, err := r.runOne(j)
		mu.Lock()
		defer mu.Unlock()
		done++
		switch {
		case err != nil:
			errs = append(errs, err)
		case skipped:
			sum.Skipped++
		default:
			sum.Ran++
			if rerun {
				sum.Rerun++
			}
		}
		if r.Progress != nil {
			r.Progress(done, len(jobs), j, skipped)
		}
	})
	return sum, errors.Join(errs...)
}

// keepPlan writes the plan into the directory, or checks that the one
// there is the same.
func (r *Runner) keepPlan(plan *PlanFile) error {
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return err
	}
	enc := plan.Encode()
	path := filepath.Join(r.Dir, planName)
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, enc):
		return nil
	case err == nil:
		return fmt.Errorf("%w: %s holds the results of another plan (its %s differs); use another directory", ErrPlan, r.Dir, planName)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return writeAtomic(path, enc)
}

// resultPath is where job j's result lives.
func (r *Runner) resultPath(j Job) string { return resultPath(r.Dir, j) }

func resultPath(dir string, j Job) string {
	return filepath.Join(dir, fmt.Sprintf("%05d-%s.json", j.Index, j.ID))
}

// runOne runs j unless its result is there; rerun reports a result file
// that was there but unusable.
func (r *Runner) runOne(j Job) (skipped, rerun bool, err error) {
	path := r.resultPath(j)
	if _, err := readResult(path, j); err == nil {
		return true, false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		rerun = true
	}
	res, err := RunJob(j)
	if err != nil {
		return false, rerun, err
	}
	b, err := json.Marshal(resultFile{ID: j.ID, Index: j.Index, Study: j.Study, SHA256: j.Workload.SHA256, Params: j.Params, Result: res})
	if err != nil {
		return false, rerun, err
	}
	return false, rerun, writeAtomic(path, append(b, '\n'))
}

// writeAtomic writes data to a temporary file beside path, then renames it
// over path, so that readers see the old file or the whole new one.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// readResult reads j's result file: fs.ErrNotExist when there is none, an
// error wrapping ErrResult when it is cut short, malformed or of other
// inputs.
func readResult(path string, j Job) (json.RawMessage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rf resultFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rf); err != nil || !bytes.HasSuffix(b, []byte("}\n")) || len(rf.Result) == 0 {
		if err == nil {
			err = errors.New("no end")
		}
		return nil, fmt.Errorf("%w: %s is cut short or malformed (%v)", ErrResult, path, err)
	}
	if rf.ID != j.ID || rf.Index != j.Index || rf.SHA256 != j.Workload.SHA256 || rf.Study != j.Study {
		return nil, fmt.Errorf("%w: %s is the result of other inputs (id %s, workload %s), not of job %d (id %s)", ErrResult, path, rf.ID, rf.SHA256, j.Index, j.ID)
	}
	return rf.Result, nil
}

// Collect reads the plan a run kept in dir and every job's result, in plan
// order. A job without a result is an error wrapping ErrMissing naming
// them; a cut-short or foreign result file, one wrapping ErrResult.
func Collect(dir string) (*PlanFile, []json.RawMessage, error) {
	f, err := os.Open(filepath.Join(dir, planName))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s has no %s (run the plan into it first): %v", ErrPlan, dir, planName, err)
	}
	plan, err := ReadPlan(f)
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", filepath.Join(dir, planName), err)
	}
	results := make([]json.RawMessage, len(plan.Jobs))
	var missing []string
	var bad []error
	for i, j := range plan.Jobs {
		res, err := readResult(resultPath(dir, j), j)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing = append(missing, fmt.Sprint(i))
		case err != nil:
			bad = append(bad, err)
		}
		results[i] = res
	}
	if len(bad) > 0 {
		return nil, nil, errors.Join(bad...)
	}
	if len(missing) > 0 {
		list := missing
		if len(list) > 20 {
			list = append(list[:20:20], "…")
		}
		return nil, nil, fmt.Errorf("%w: %d of %d jobs have no result in %s (jobs %s); run the plan again to finish them",
			ErrMissing, len(missing), len(plan.Jobs), dir, strings.Join(list, ", "))
	}
	return plan, results, nil
}
