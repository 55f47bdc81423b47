//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS returns the peak resident set of an ended process in bytes, or 0
// where it is not known.
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes on macOS
	}
	return int64(ru.Maxrss) * 1024 // kilobytes elsewhere
}
