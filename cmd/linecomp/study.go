package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/linecomp/linecomp/study"
)

// studyCommand runs the papers' experiments as plans of independent jobs
// (package study): locally on every core, resumably, or as a Slurm array.
var studyCommand = &command{
	name:    "study",
	args:    "plan|run|collect|report|slurm [flags]",
	summary: "the papers' experiments as resumable plans of jobs, run locally or as Slurm array jobs",
	sub:     []*command{studyPlanCommand, studyRunCommand, studyCollectCommand, studyReportCommand, studySlurmCommand},
}

var studyPlanCommand = &command{
	name:    "plan",
	args:    "STUDY -o PLAN [-set KEY=VALUE]… [TRACE…]",
	summary: "write a study's jobs on the traces (default: the embedded samples) as a plan file",
	run:     runStudyPlan,
}

var studyRunCommand = &command{
	name:    "run",
	args:    "-plan PLAN -dir DIR [-job N | -task T -chunk C] [-workers N]",
	summary: "run a plan's jobs (all, one, or an array task's slice), skipping those already done",
	run:     runStudyRun,
}

var studyCollectCommand = &command{
	name:    "collect",
	args:    "-dir DIR [-format F]",
	summary: "merge a run's results, in plan order, into the study's table",
	run:     runStudyCollect,
}

var studyReportCommand = &command{
	name:    "report",
	args:    "-dir DIR [-svg FILE]",
	summary: "print every table of a run and draw its figure",
	run:     runStudyReport,
}

var studySlurmCommand = &command{
	name:    "slurm",
	args:    "[flags] PLAN",
	summary: "write an sbatch script that runs a plan as a Slurm array job",
	run:     runStudySlurm,
}

// paramsFlag collects -set KEY=VALUE.
type paramsFlag study.Params

func (p paramsFlag) String() string { return "" }

func (p paramsFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", s)
	}
	if _, dup := p[k]; dup {
		return fmt.Errorf("%s set twice", k)
	}
	p[k] = v
	return nil
}

func studyParamsHelp() string {
	var b strings.Builder
	for _, n := range study.Names() {
		s, _ := study.Lookup(n)
		fmt.Fprintf(&b, "\n%s:\n", n)
		ps := s.Params()
		var keys []string
		for k := range ps {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "  %-10s %s\n", k, ps[k])
		}
	}
	return b.String()
}

const studyPlanHelp = `
Writes the jobs of STUDY on the traces as a plan: one JSON line a job with
its index, a stable id (a hash of the study, the trace's SHA-256 and the
parameters) and its parameters. Traces are hashed now; running a job on a
trace whose bytes changed is an error. Without traces the embedded sample
traces of the study's stream are used.

  linecomp study plan latte -o latte.plan WARPTRACE…
  linecomp study run -plan latte.plan -dir results
  linecomp study report -dir results

Studies and their parameters (-set KEY=VALUE):`

func runStudyPlan(e *env, c *command, args []string) error {
	fs := newFlags(e, c, studyPlanHelp+"\n"+studyParamsHelp())
	out := fs.String("o", "", "the plan file to write (- for standard output)")
	params := paramsFlag{}
	fs.Var(params, "set", "a study parameter KEY=VALUE (repeatable)")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(inputs) == 0 {
		return usagef("study plan: which study? (%s)", strings.Join(study.Names(), ", "))
	}
	name, traces := inputs[0], inputs[1:]
	if *out == "" {
		return usagef("study plan: -o PLAN is required")
	}
	if err := study.Validate(name, study.Params(params)); err != nil {
		return usagef("study plan %s: %v", name, stripStudy(err))
	}
	var ws []study.Workload
	if len(traces) == 0 {
		s, _ := study.Lookup(name) // Validate found it
		ws = study.SampleWorkloads(s.Stream())
	}
	for _, t := range traces {
		w, err := study.FileWorkload(t)
		if err != nil {
			return usagef("study plan: %v", unwrapPathError(err))
		}
		ws = append(ws, w)
	}
	plan, err := study.Plan(name, ws, study.Params(params))
	if err != nil {
		return usagef("study plan %s: %v", name, stripStudy(err))
	}
	if *out == "-" {
		return plan.Write(e.stdout)
	}
	if err := os.WriteFile(*out, plan.Encode(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "linecomp: %s: %d jobs of %s on %d traces\n", *out, len(plan.Jobs), name, len(ws))
	return nil
}

// readPlanFile reads a plan, as a usage error when it cannot.
func readPlanFile(path string) (*study.PlanFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("-plan: %v", unwrapPathError(err))
	}
	defer f.Close()
	p, err := study.ReadPlan(f)
	if err != nil {
		return nil, usagef("-plan %s: %v", path, stripStudy(err))
	}
	return p, nil
}

const studyRunHelp = `
Runs the jobs of a plan into DIR: each job's result is written atomically
(a temporary file, then a rename), and a job whose result is already in DIR
with the same inputs is skipped, so a run resumes after a crash or a
preempted node; a result file cut short is computed again. Without -job or
-task every job runs, on all cores by default. -job N runs job N (from 0);
-task T -chunk C runs jobs T·C to T·C + C − 1, the slice of Slurm array
task T (see linecomp study slurm). DIR keeps a copy of the plan, which
collect reads; a DIR holding another plan's results is refused.`

func runStudyRun(e *env, c *command, args []string) error {
	fs := newFlags(e, c, studyRunHelp)
	planPath := fs.String("plan", "", "the plan file")
	dir := fs.String("dir", "", "the results directory")
	job := fs.Int("job", -1, "run only this job (from 0)")
	task := fs.Int("task", -1, "run only this array task's jobs (with -chunk)")
	chunk := fs.Int("chunk", 1, "jobs per array task")
	workers := fs.Int("workers", 0, "jobs at once (0: every core)")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := noArgs("study run", inputs); err != nil {
		return err
	}
	if *planPath == "" || *dir == "" {
		return usagef("study run: -plan and -dir are required")
	}
	if *job >= 0 && *task >= 0 {
		return usagef("study run: -job and -task exclude each other")
	}
	if *chunk < 1 || *workers < 0 {
		return usagef("study run: -chunk must be at least 1 and -workers not negative")
	}
	plan, err := readPlanFile(*planPath)
	if err != nil {
		return err
	}
	var jobs []int
	switch {
	case *job >= 0:
		if *job >= len(plan.Jobs) {
			return usagef("study run: -job %d: the plan has jobs 0 to %d", *job, len(plan.Jobs)-1)
		}
		jobs = []int{*job}
	case *task >= 0:
		first := *task * *chunk
		if *task > len(plan.Jobs) || first >= len(plan.Jobs) {
			return usagef("study run: -task %d -chunk %d starts past the plan's %d jobs", *task, *chunk, len(plan.Jobs))
		}
		for i := first; i < min(first+*chunk, len(plan.Jobs)); i++ {
			jobs = append(jobs, i)
		}
	}
	r := &study.Runner{Dir: *dir, Workers: *workers, Progress: func(done, total int, j study.Job, skipped bool) {
		e.progress.show("%d of %d jobs (job %d on %s)", done, total, j.Index, j.Workload.Name)
	}}
	sum, err := r.Run(plan, jobs)
	e.progress.clear()
	fmt.Fprintf(e.stderr, "linecomp: study run: ran %d, skipped %d already done", sum.Ran, sum.Skipped)
	if sum.Rerun > 0 {
		fmt.Fprintf(e.stderr, ", %d of them again because their result file was unusable", sum.Rerun)
	}
	fmt.Fprintln(e.stderr)
	if errors.Is(err, study.ErrPlan) || errors.Is(err, study.ErrParam) {
		return usagef("study run: %v", stripStudy(err))
	}
	return err
}

func collectTables(dir string) ([]study.Table, error) {
	if dir == "" {
		return nil, usagef("-dir is required")
	}
	plan, results, err := study.Collect(dir)
	if err != nil {
		return nil, err
	}
	return study.Aggregate(plan, results)
}

func runStudyCollect(e *env, c *command, args []string) error {
	fs := newFlags(e, c, `
Merges the results in DIR, in the plan's order, into the study's table:
the same plan gives the same bytes whatever order, slices and machines its
jobs ran in. A job without a result, or a result file cut short, is an
error naming it. CSV and JSON hold the per-row table; text holds all of
the study's tables (as report prints them).`)
	dir := fs.String("dir", "", "the results directory")
	format := fs.String("format", "csv", "output: csv, json or text")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := noArgs("study collect", inputs); err != nil {
		return err
	}
	if err := parseFormat(*format); err != nil {
		return err
	}
	tables, err := collectTables(*dir)
	if err != nil {
		return err
	}
	return study.WriteTables(e.stdout, tables, *format)
}

func runStudyReport(e *env, c *command, args []string) error {
	fs := newFlags(e, c, `
Prints every table of the study in DIR (for LATTE-CC: the per-workload
table, the classes, the geometric means per class and the sensitivity
sweep) and, with -svg, draws its figure: each table's speedup per workload
and policy as grouped bars, the shape of the papers' speedup figures.`)
	dir := fs.String("dir", "", "the results directory")
	svg := fs.String("svg", "", "draw the study's speedups into this SVG file")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := noArgs("study report", inputs); err != nil {
		return err
	}
	tables, err := collectTables(*dir)
	if err != nil {
		return err
	}
	if *svg != "" {
		if err := os.WriteFile(*svg, study.SpeedupSVG(tables[0]), 0o644); err != nil {
			return err
		}
	}
	return study.WriteTables(e.stdout, tables, "text")
}

const studySlurmHelp = `
Writes an sbatch script that runs PLAN as a Slurm array job: task T runs
jobs T·C to T·C + C − 1 (C from -chunk, or the fewest jobs per task that
keep the array within -max-array tasks). Results land in DIR, which every
node must see (a shared file system), and collect reads it:

  linecomp study plan latte -o latte.plan TRACE…
  linecomp study slurm -dir results -o latte.sbatch latte.plan
  sbatch latte.sbatch            # or sbatch --wait …
  linecomp study collect -dir results

A task that fails or is preempted leaves the results it finished; submit
the script again and only the missing jobs run.`

func runStudySlurm(e *env, c *command, args []string) error {
	fs := newFlags(e, c, studySlurmHelp)
	dir := fs.String("dir", "", "the results directory (absolute, or relative to where sbatch runs)")
	out := fs.String("o", "-", "the script to write (- for standard output)")
	chunk := fs.Int("chunk", 0, "jobs per array task (0: as few as -max-array allows)")
	maxArray := fs.Int("max-array", 1000, "most array tasks the cluster allows (Slurm's MaxArraySize − 1)")
	exe := fs.String("linecomp", "", "the linecomp binary the nodes run (default: this one, or linecomp on PATH under go run)")
	sbatchArgs := fs.String("sbatch", "", "more #SBATCH options, e.g. \"--partition=short --time=00:30:00\"")
	inputs, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(inputs) != 1 {
		return usagef("study slurm: give one PLAN")
	}
	if *dir == "" {
		return usagef("study slurm: -dir is required")
	}
	if *chunk < 0 || *maxArray < 1 {
		return usagef("study slurm: -chunk must not be negative and -max-array must be positive")
	}
	plan, err := readPlanFile(inputs[0])
	if err != nil {
		return err
	}
	bin := *exe
	if bin == "" {
		bin = "linecomp"
		if p, err := os.Executable(); err == nil && !strings.Contains(p, "go-build") {
			bin = p
		}
	}
	planAbs, err := filepath.Abs(inputs[0])
	if err != nil {
		return err
	}
	script, err := study.SlurmScript(study.SlurmOptions{Plan: plan, PlanPath: planAbs, Dir: *dir, Linecomp: bin,
		Chunk: *chunk, MaxArray: *maxArray, Extra: strings.Fields(*sbatchArgs)})
	if err != nil {
		return usagef("study slurm: %v", stripStudy(err))
	}
	if *out == "-" {
		_, err := e.stdout.Write(script)
		return err
	}
	if err := os.WriteFile(*out, script, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "linecomp: %s: an array job over %d jobs; submit it with sbatch\n", *out, len(plan.Jobs))
	return nil
}
