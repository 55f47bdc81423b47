package study

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// Study is one paper's experiment: how its jobs are planned, run and
// aggregated. Run must be a pure, deterministic function of the job and
// the trace's bytes, so that its result can be cached and reused.
type Study interface {
	// Name is the study's registry name, e.g. "latte".
	Name() string
	// Stream is the kind of trace the study reads: "warps", "dram",
	// "rdma" or "l1" (what the capture's -stream wrote).
	Stream() string
	// Params documents the plan parameters the study takes, by name.
	Params() map[string]string
	// Jobs returns the jobs on the workloads (indexes are set by Plan).
	Jobs(workloads []Workload, p Params) ([]Job, error)
	// Run runs one job on its trace and returns its result row as JSON.
	Run(j Job, trace io.Reader) (json.RawMessage, error)
	// Aggregate turns the results of a plan's jobs, in plan order, into
	// the paper's tables.
	Aggregate(jobs []Job, results []json.RawMessage) ([]Table, error)
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Study{}
)

// Register adds a study under its name; registering a name twice is an
// error.
func Register(s Study) error {
	registryMu.Lock()
	defer registryMu.Unlock()
	if s == nil || s.Name() == "" {
		return fmt.Errorf("%w: a study needs a name", ErrParam)
	}
	if _, ok := registry[s.Name()]; ok {
		return fmt.Errorf("%w: study %q is registered already", ErrParam, s.Name())
	}
	registry[s.Name()] = s
	return nil
}

// Lookup returns the registered study of that name, or an error wrapping
// ErrUnknownStudy that lists the known ones.
func Lookup(name string) (Study, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	if s, ok := registry[name]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("%w %q; known: %s", ErrUnknownStudy, name, strings.Join(namesLocked(), ", "))
}

// Names returns the registered studies' names, sorted.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

func mustRegister(s Study) {
	if err := Register(s); err != nil {
		panic(err) // a built-in study registered twice: a programming error
	}
}

// RunJob runs one job: it opens the workload, runs the job's study on it
// and checks that the trace still hashes to what the plan recorded (an
// error wrapping ErrChanged otherwise, whatever the job itself returned).
func RunJob(j Job) (json.RawMessage, error) {
	s, err := Lookup(j.Study)
	if err != nil {
		return nil, err
	}
	r, err := j.Workload.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	res, runErr := s.Run(j, r)
	if err := r.verify(); err != nil {
		return nil, err
	}
	if runErr != nil {
		return nil, fmt.Errorf("job %d (%s on %s): %w", j.Index, formatParams(j.Params), j.Workload.Name, runErr)
	}
	return res, nil
}

// Aggregate turns the results of every job of a plan, in plan order, into
// the study's tables.
func Aggregate(p *PlanFile, results []json.RawMessage) ([]Table, error) {
	s, err := Lookup(p.Study)
	if err != nil {
		return nil, err
	}
	if len(results) != len(p.Jobs) {
		return nil, errors.New("study: Aggregate needs one result per job")
	}
	return s.Aggregate(p.Jobs, results)
}

// formatParams renders parameters as k=v pairs in key order.
func formatParams(p Params) string {
	var keys []string
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s", k, p[k])
	}
	return b.String()
}

// Validate checks a study's plan parameters without any workload, so that
// a command can reject them before it reads a trace.
func Validate(study string, p Params) error {
	s, err := Lookup(study)
	if err != nil {
		return err
	}
	if err := checkParams(s, p); err != nil {
		return err
	}
	_, err = s.Jobs(nil, p)
	return err
}

// RunJobs runs jobs in memory on workers goroutines (0: every core) and
// returns their results in order; progress, if set, is called after each
// job from one goroutine at a time. It stops at nothing: every job runs,
// and the errors of those that failed are joined.
func RunJobs(jobs []Job, workers int, progress func(done, total int)) ([]json.RawMessage, error) {
	results := make([]json.RawMessage, len(jobs))
	errs := make([]error, len(jobs))
	var mu sync.Mutex
	done := 0
	parallel(len(jobs), workers, func(i int) {
		results[i], errs[i] = RunJob(jobs[i])
		mu.Lock()
		done++
		if progress != nil {
			progress(done, len(jobs))
		}
		mu.Unlock()
	})
	return results, errors.Join(errs...)
}

// Execute runs every job of a plan in memory, on workers goroutines (0:
// every core), and aggregates the results into the study's tables: the
// whole study in one call, for a script or a test; Runner keeps results on
// disk instead, to resume and to share the work among machines.
func Execute(p *PlanFile, workers int) ([]Table, error) {
	results, err := RunJobs(p.Jobs, workers, nil)
	if err != nil {
		return nil, err
	}
	return Aggregate(p, results)
}

// parallel calls fn(0) … fn(n−1) on workers goroutines (0: GOMAXPROCS) and
// waits for them.
func parallel(n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
