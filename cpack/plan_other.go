//go:build !amd64 || !gc || purego || noasm

package cpack

// planOps codes every word of line into ops and returns the length in bits
// of the word codes.
func (c *Codec) planOps(line []byte, ops *[maxWords]op) int { return c.planGeneric(line, ops) }
