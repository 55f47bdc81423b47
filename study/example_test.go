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
	ws := sampleNamed("warps", "warps-bfs.lct")
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

// sampleNamed returns the embedded trace of that name as a workload.
func sampleNamed(stream, name string) []study.Workload {
	for _, w := range study.SampleWorkloads(stream) {
		if w.Name == "sample/"+name {
			return []study.Workload{w}
		}
	}
	panic("no sample " + name)
}

// Example_mag runs MAG-aware BDI's memory study on the embedded DRAM trace
// of k-means: the bursts each codec moves at a 32-byte granularity.
func Example_mag() {
	ws := sampleNamed("dram", "dram-kmeans.lct")
	plan, err := study.Plan("mag", ws, study.Params{})
	if err != nil {
		panic(err)
	}
	tables, err := study.Execute(plan, 0)
	if err != nil {
		panic(err)
	}
	for _, r := range tables[0].Rows {
		fmt.Printf("%-10s %5d of %5d bursts, ratio %.3f\n", r[1], r[4], r[5], r[7])
	}
	// Output:
	// bdi        29192 of 29540 bursts, ratio 1.012
	// magbdi-32  29205 of 29540 bursts, ratio 1.011
	// fpc        29189 of 29540 bursts, ratio 1.012
	// cpack      29189 of 29540 bursts, ratio 1.012
}

// Example_link runs Tavana et al.'s link study on the embedded rdma trace
// of simple convolution: the penalty vote at λ = 0 and 6.
func Example_link() {
	ws := sampleNamed("rdma", "rdma-simpleconvolution.lct")
	plan, err := study.Plan("link", ws, study.Params{"lambdas": "0,6", "statics": "off"})
	if err != nil {
		panic(err)
	}
	tables, err := study.Execute(plan, 0)
	if err != nil {
		panic(err)
	}
	for _, r := range tables[0].Rows {
		fmt.Printf("%s: ratio %.3f, %d wire bytes, uses %s\n", r[1], r[5], r[6], r[11])
	}
	// Output:
	// vote λ=0: ratio 7.489, 414226 wire bytes, uses none:0 bdi:14570 fpc-tavana:0 cpack-z:2
	// vote λ=6: ratio 7.488, 414242 wire bytes, uses none:0 bdi:14572 fpc-tavana:0 cpack-z:0
}

// Example_caba runs CABA's designs on the embedded bfs warp trace.
func Example_caba() {
	ws := sampleNamed("warps", "warps-bfs.lct")
	plan, err := study.Plan("caba", ws, study.Params{"designs": "hw-bdi,caba-bdi,ideal-bdi"})
	if err != nil {
		panic(err)
	}
	tables, err := study.Execute(plan, 0)
	if err != nil {
		panic(err)
	}
	for _, r := range tables[0].Rows {
		fmt.Printf("%-9s speedup %.3f, burst ratio %.3f\n", r[1], r[4], r[6])
	}
	// Output:
	// base      speedup 1.000, burst ratio 1.000
	// hw-bdi    speedup 0.988, burst ratio 1.429
	// caba-bdi  speedup 0.863, burst ratio 1.429
	// ideal-bdi speedup 0.996, burst ratio 1.429
}

// Example_ratio measures codecs on an embedded memory image (a real road
// network's BFS levels): the raw ratio and the effective ratio at a 32-byte
// memory access granularity.
func Example_ratio() {
	ws := sampleNamed("images", "graph_road_li.bfs.i32")
	plan, err := study.Plan("ratio", ws, study.Params{"codecs": "bdi,magbdi-32,bpc"})
	if err != nil {
		panic(err)
	}
	tables, err := study.Execute(plan, 0)
	if err != nil {
		panic(err)
	}
	for _, r := range tables[0].Rows {
		fmt.Printf("%-9s ratio %.3f, effective %.3f\n", r[1], r[3], r[4])
	}
	// Output:
	// bdi       ratio 2.968, effective 1.921
	// magbdi-32 ratio 2.160, effective 2.169
	// bpc       ratio 4.811, effective 3.170
}
