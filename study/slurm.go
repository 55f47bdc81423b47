package study

import (
	"fmt"
	"strings"
)

// SlurmOptions configure SlurmScript.
type SlurmOptions struct {
	Plan     *PlanFile
	PlanPath string // as the nodes see it
	Dir      string // the results directory, as the nodes see it
	Linecomp string // the linecomp binary the nodes run
	// Chunk is the number of jobs per array task; 0 means as few as keep
	// the array within MaxArray tasks.
	Chunk    int
	MaxArray int      // the most array tasks the cluster allows (default 1000)
	Extra    []string // more sbatch options, each "--name=value"
}

// SlurmScript returns an sbatch script that runs the plan as one array job:
// array task T runs `linecomp study run -task T -chunk C`, one job at a
// time (each task asks for one CPU; Slurm spreads the tasks). Its output
// goes to DIR/slurm-JOBID_TASK.out. Resubmitting it after a failure runs
// only the jobs without a result.
func SlurmScript(o SlurmOptions) ([]byte, error) {
	if o.Plan == nil || len(o.Plan.Jobs) == 0 {
		return nil, fmt.Errorf("%w: an empty plan", ErrPlan)
	}
	if o.MaxArray <= 0 {
		o.MaxArray = 1000
	}
	n := len(o.Plan.Jobs)
	chunk := o.Chunk
	if chunk <= 0 {
		chunk = (n + o.MaxArray - 1) / o.MaxArray
	}
	tasks := (n + chunk - 1) / chunk
	if tasks > o.MaxArray {
		return nil, fmt.Errorf("%w: %d jobs in chunks of %d make %d array tasks, more than the %d allowed; raise -chunk", ErrParam, n, chunk, tasks, o.MaxArray)
	}
	for _, x := range o.Extra {
		if !strings.HasPrefix(x, "-") || strings.ContainsAny(x, "\n\r") {
			return nil, fmt.Errorf("%w: sbatch option %q: want --name=value", ErrParam, x)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# %s study: %d jobs in %d array tasks of at most %d jobs each.\n", o.Plan.Study, n, tasks, chunk)
	fmt.Fprintf(&b, "# Submit with sbatch (sbatch --wait to block until every task ends), then:\n")
	fmt.Fprintf(&b, "#   %s study collect -dir %s\n", shellQuote(o.Linecomp), shellQuote(o.Dir))
	fmt.Fprintf(&b, "# Resubmitting runs only the jobs without a result.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=linecomp-%s\n", o.Plan.Study)
	fmt.Fprintf(&b, "#SBATCH --array=0-%d\n", tasks-1)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n")
	fmt.Fprintf(&b, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", strings.TrimSuffix(o.Dir, "/"))
	for _, x := range o.Extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", x)
	}
	fmt.Fprintf(&b, "set -eu\n")
	fmt.Fprintf(&b, "mkdir -p %s\n", shellQuote(o.Dir))
	fmt.Fprintf(&b, "exec %s study run -plan %s -dir %s -task \"$SLURM_ARRAY_TASK_ID\" -chunk %d -workers 1\n",
		shellQuote(o.Linecomp), shellQuote(o.PlanPath), shellQuote(o.Dir), chunk)
	return []byte(b.String()), nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
