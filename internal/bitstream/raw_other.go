//go:build !amd64 || !gc || purego || noasm

package bitstream

// appendRawKernel reports that there is no raw kernel: AppendRaw takes
// its Go path.
func appendRawKernel(dst, raw []byte) ([]byte, bool) { return dst, false }

// readRawKernel reports that there is no raw kernel: ReadRaw takes its Go
// path.
func readRawKernel(line, enc []byte) bool { return false }
