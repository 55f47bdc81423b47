//go:build !amd64 || !gc || purego || noasm

package magbdi

import "github.com/linecomp/linecomp"

// fitLevels writes the level of each line of data to out.
func (c *Codec) fitLevels(data []byte, out []uint8) { c.fitLevelsGeneric(data, out) }

// rawKernel reports that no raw-stream kernel applies.
func (c *Codec) rawKernel(dst, line []byte) ([]byte, bool) { return dst, false }

// oneCallKernels reports that there are no one-call kernels.
const oneCallKernels = false

// The one-call kernels' hooks report that there are none.
func (c *Codec) compress64(out *[65]byte, line *[64]byte) (bits uint64, ok bool)    { return 0, false }
func (c *Codec) compress128(out *[129]byte, line *[128]byte) (bits uint64, ok bool) { return 0, false }
func (c *Codec) decompress64(out *[64]byte, enc []byte, code uint64) (ok bool)      { return false }
func (c *Codec) decompress128(out *[128]byte, enc []byte, code uint64) (ok bool)    { return false }
func (c *Codec) compressLinesKernel(dst *linecomp.Lines, data []byte) bool          { return false }
