//go:build !amd64 || !gc || purego || noasm

package magbdi

// fitLevels writes the level of each line of data to out.
func (c *Codec) fitLevels(data []byte, out []uint8) { c.fitLevelsGeneric(data, out) }

// rawKernel reports that no raw-stream kernel applies.
func (c *Codec) rawKernel(dst, line []byte) ([]byte, bool) { return dst, false }

// oneCallKernels reports that there are no one-call kernels.
const oneCallKernels = false

// magCompress64 is never called: oneCallKernels is false.
func magCompress64(out *[65]byte, line *[64]byte, p *byte) uint64 {
	panic("magbdi: no one-call kernel")
}

// magCompress128 is never called: oneCallKernels is false.
func magCompress128(out *[129]byte, line *[128]byte, p *byte) uint64 {
	panic("magbdi: no one-call kernel")
}

// magCompressLines64 is never called: oneCallKernels is false.
func magCompressLines64(out []byte, at int, data []byte, ends []int, bits []int, p *byte) (end int) {
	panic("magbdi: no one-call kernel")
}

// magCompressLines128 is never called: oneCallKernels is false.
func magCompressLines128(out []byte, at int, data []byte, ends []int, bits []int, p *byte) (end int) {
	panic("magbdi: no one-call kernel")
}

// magDecompress64 is never called: oneCallKernels is false.
func magDecompress64(out *[64]byte, enc []byte, p *byte, code uint64) {
	panic("magbdi: no one-call kernel")
}

// magDecompress128 is never called: oneCallKernels is false.
func magDecompress128(out *[128]byte, enc []byte, p *byte, code uint64) {
	panic("magbdi: no one-call kernel")
}
