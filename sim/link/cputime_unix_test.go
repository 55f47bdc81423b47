//go:build unix

package link_test

import "syscall"

// cpuSeconds is the process's CPU time (user + system). On a machine
// shared with other work, throughput per CPU second is the figure that
// does not depend on how much of a core the benchmark got.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
