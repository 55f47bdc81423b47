//go:build !amd64 || !gc || purego || noasm

package bdi

import "github.com/linecomp/linecomp"

// fitMasks writes the fit mask of each line of data to out.
func (c *Codec) fitMasks(data []byte, out []uint8) { c.fitMasksGeneric(data, out) }

// singleIDs writes the id of the B+Δ encoding of each line of data to ids.
func (c *Codec) singleIDs(data []byte, ids []uint8) { c.idsFromFitMasks(data, ids) }

// twoBaseIDs writes the id of the two-base encoding of each line of data
// to ids.
func (c *Codec) twoBaseIDs(data []byte, ids []uint8) { c.idsFromFitMasks(data, ids) }

// encodeKernel reports that no encode kernel applies.
func (c *Codec) encodeKernel(dst, line []byte, id int) ([]byte, bool) { return dst, false }

// oneCallKernels reports that there is no one-call compress kernel.
const oneCallKernels = false

// compress64 and compress128 report that there is no one-call compress
// kernel.
func (c *Codec) compress64(out *[65]byte, line *[64]byte) (bits int, ok bool)    { return 0, false }
func (c *Codec) compress128(out *[129]byte, line *[128]byte) (bits int, ok bool) { return 0, false }

// decompress64 and decompress128 report that there is no one-call
// decompress kernel.
func (c *Codec) decompress64(out *[64]byte, enc []byte) (ok bool)   { return false }
func (c *Codec) decompress128(out *[128]byte, enc []byte) (ok bool) { return false }

// compressLinesKernel reports that there is no one-call compress kernel.
func (c *Codec) compressLinesKernel(dst *linecomp.Lines, data []byte) bool { return false }

// decodeLines decodes no line: there is no one-call decompress kernel.
func (c *Codec) decodeLines(out, enc []byte, start int, ends []int) int { return 0 }

// decodeKernel reports that no decode kernel applies.
func (c *Codec) decodeKernel(dst, enc []byte, id int) ([]byte, bool) { return dst, false }

// unrawKernel reports that no raw-decoding kernel applies.
func (c *Codec) unrawKernel(dst, enc []byte) ([]byte, bool) { return dst, false }

// sizesKernel reports that no kernel writes sizes.
func (c *Codec) sizesKernel(data []byte, out []int) bool { return false }
