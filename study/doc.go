// Package study holds the papers' experiments as importable Go: each study
// is a plan of independent jobs and an aggregation of their results into
// the paper's tables.
//
// A job is one simulation: a workload (a trace, identified by the SHA-256
// of its bytes) × a configuration (a policy, a design, a codec or λ, and
// machine parameters). Running a job is a pure, deterministic function from
// its inputs to a result row, so jobs can run in any order, on any number of
// cores or cluster nodes, and a result computed once is never computed
// again while its inputs are unchanged.
//
//	plan, _ := study.Plan("latte", workloads, study.Params{})   // the jobs
//	for _, j := range plan.Jobs {
//		res, _ := study.RunJob(j)                               // one result each
//		…
//	}
//	tab, _ := study.Aggregate(plan, results)                   // the paper's table
//
// [Runner] runs a plan's jobs into a directory, one result file per job
// written atomically, skipping jobs whose result already exists with the
// same input hashes; that is what lets a run resume after a crash or a
// preempted cluster node, and what a Slurm array job ([SlurmScript]) runs,
// a slice of the plan per array task. [Collect] merges a directory's
// results, in plan order, so the merged table is byte-identical however
// the jobs were run.
//
// One file per paper:
//
//   - latte.go: LATTE-CC (Arunkumar et al., HPCA 2018) with its baselines
//     (Static-BDI, Static-SC², Hit-Count, CMP, Kernel-OPT), the variants
//     that reproduce linecomp's earlier rules, the workload classes of
//     §IV-B (C-Sens when a 4× larger uncompressed L1 runs > 20% faster)
//     with their geometric means, the L1 energy, and a sensitivity sweep of
//     the sampling parameters.
//   - caba.go: CABA's designs (§7): base, HW-BDI(-Mem), CABA-BDI/FPC/C-Pack
//     and Ideal-BDI on the GPU model with sim/mem below its L2.
//   - mag.go: MAG-aware BDI's memory study on DRAM traces: bursts per
//     codec, metadata traffic, bursts per request.
//   - link.go: Tavana et al.'s inter-GPU link on rdma traces: the penalty
//     vote per λ and each codec alone.
//   - ratio.go: the codec ratio table on memory images, raw and effective
//     at a memory access granularity.
//
// The studies build the paper machines with the exported constructors of
// machines.go ([LatteMachine]) and caba.go ([CabaMachine]), and the link
// with [LinkSetup]; a user embedding the models directly gets
// the same numbers from them as the command does.
//
// A study is a registered [Study]; a user adds their own (a new policy, a
// new codec) by registering one, or by adding jobs to a plan of an
// existing one: see the examples.
package study
