//go:build !unix

package main

import "os"

// maxRSS returns 0: the peak resident set is not known here.
func maxRSS(*os.ProcessState) int64 { return 0 }
