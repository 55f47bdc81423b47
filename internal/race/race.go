//go:build race

// Package race tells whether the race detector is on. Allocation checks
// need it: under the detector sync.Pool drops items at random, so code
// that reuses pooled buffers allocates now and then.
package race

// Enabled is true when the program is built with -race.
const Enabled = true
