//go:build !amd64 || !gc || purego || noasm

package bdi

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

// bdiCompress64AVX512 is never called: oneCallLine is always −1.
func bdiCompress64AVX512(out *[65]byte, line *[64]byte, tables *[2560]byte) (bits int) {
	panic("bdi: no one-call compress kernel")
}

// bdiCompress128AVX512 is never called: oneCallLine is always −1.
func bdiCompress128AVX512(out *[129]byte, line *[128]byte, tables *[2560]byte) (bits int) {
	panic("bdi: no one-call compress kernel")
}

// bdiCompressLines64AVX512 is never called: oneCallLine is always −1.
func bdiCompressLines64AVX512(out []byte, at int, data []byte, ends []int, bits []int, tables *[2560]byte) (end int) {
	panic("bdi: no one-call compress kernel")
}

// bdiCompressLines128AVX512 is never called: oneCallLine is always −1.
func bdiCompressLines128AVX512(out []byte, at int, data []byte, ends []int, bits []int, tables *[2560]byte) (end int) {
	panic("bdi: no one-call compress kernel")
}

// bdiDecompressLines64AVX512 is never called: oneCallDecode is always false.
func bdiDecompressLines64AVX512(out []byte, enc []byte, start int, ends []int, dec *[6][248]byte, idBits *[16]uint16) (lines int) {
	panic("bdi: no one-call decompress kernel")
}

// bdiDecompressLines128AVX512 is never called: oneCallDecode is always false.
func bdiDecompressLines128AVX512(out []byte, enc []byte, start int, ends []int, dec *[6][248]byte, idBits *[16]uint16) (lines int) {
	panic("bdi: no one-call decompress kernel")
}

// decodeKernel reports that no decode kernel applies.
func (c *Codec) decodeKernel(dst, enc []byte, id int) ([]byte, bool) { return dst, false }

// unrawKernel reports that no raw-decoding kernel applies.
func (c *Codec) unrawKernel(dst, enc []byte) ([]byte, bool) { return dst, false }

// sizesKernel reports that no kernel writes sizes.
func (c *Codec) sizesKernel(data []byte, out []int) bool { return false }

// bdiDecompress64AVX512 is never called: oneCallDecode is always false.
func bdiDecompress64AVX512(out *[64]byte, enc []byte, dec *[6][248]byte, idBits *[16]uint16) (ok bool) {
	panic("bdi: no one-call decompress kernel")
}

// bdiDecompress128AVX512 is never called: oneCallDecode is always false.
func bdiDecompress128AVX512(out *[128]byte, enc []byte, dec *[6][248]byte, idBits *[16]uint16) (ok bool) {
	panic("bdi: no one-call decompress kernel")
}
