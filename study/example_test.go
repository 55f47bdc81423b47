package study_test

import (
	"fmt"
	"os"

	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/study"
)

// Example_newCodec extends the LATTE-CC study with a policy of one's own:
// LATTE-CC with FPC in its low-latency slot, beside the paper's BDI. Any
// registered codec can fill a mode, a user's own included
// (linecomp.Register).
func Example_newCodec() {
	err := study.RegisterLattePolicy(study.LattePolicy{Name: "latte-fpc", Modes: []string{"none", "fpc", "sc2"},
		Kind: latte.LatteCC, Attach: true, Why: "LATTE-CC with FPC as the low-latency codec"})
	if err != nil {
		panic(err)
	}
	ws := study.SampleWorkloads("warps")[:1] // sample/warps-bfs.lct
	plan, err := study.Plan("latte", ws, study.Params{"policies": "none,bdi,latte,latte-fpc", "classes": "off"})
	if err != nil {
		panic(err)
	}
	results, err := study.RunJobs(plan.Jobs, 0, nil)
	if err != nil {
		panic(err)
	}
	tables, err := study.AggregateLatte(plan.Jobs, results)
	if err != nil {
		panic(err)
	}
	for _, r := range tables.Rows {
		fmt.Printf("%-9s %7d cycles, speedup %.3f\n", r.Policy, r.Result.Cycles, r.Speedup)
	}
	// Output:
	// none        59421 cycles, speedup 1.000
	// bdi         58516 cycles, speedup 1.015
	// latte       59302 cycles, speedup 1.002
	// latte-fpc   60546 cycles, speedup 0.981
}

// Example_resume runs a plan into a directory twice: the second run finds
// every result and runs nothing, as after a crash it would run only what is
// missing.
func Example_resume() {
	dir, _ := os.MkdirTemp("", "study")
	defer os.RemoveAll(dir)
	plan, err := study.Plan("latte", study.SampleWorkloads("warps")[:2], study.Params{"policies": "none,latte"})
	if err != nil {
		panic(err)
	}
	r := &study.Runner{Dir: dir}
	first, _ := r.Run(plan, nil)
	again, _ := r.Run(plan, nil)
	fmt.Printf("first run: %d jobs; again: %d run, %d skipped\n", first.Ran, again.Ran, again.Skipped)
	// Output:
	// first run: 6 jobs; again: 0 run, 6 skipped
}
