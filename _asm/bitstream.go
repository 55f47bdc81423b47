package main

//go:generate go run . -kernels bitstream -out ../internal/bitstream/raw_amd64.s -stubs ../internal/bitstream/raw_stub_amd64.go -pkg bitstream

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
)

func init() {
	generators["bitstream"] = func() {
		for _, size := range []int{64, 128} {
			rawAppendKernel(size)
			rawReadKernel(size)
		}
	}
}

// rawAppendKernel emits rawAppend<size>AVX512(out *[size+1]byte, line
// *[size]byte), bitstream.AppendRaw's stream with a one-bit tag of 0 (the
// raw encoding of bpc, fpc, sc and cpack) written as fpc's kernels write
// it (rawStream).
func rawAppendKernel(size int) {
	name := fmt.Sprintf("rawAppend%dAVX512", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(out *[%d]byte, line *[%d]byte)", size+1, size))
	Pragma("noescape")
	Doc(name+" writes flag 0, then line, then zero padding to out, as AppendRaw with",
		"a one-bit tag of 0 does. It reads all of line before it writes out.")
	rawStream(Load(Param("out"), GP64()), Load(Param("line"), GP64()), size)
	VZEROUPPER()
	RET()
}

// rawReadKernel emits rawRead<size>AVX512(line *[size]byte, enc
// *[size+1]byte) bool, bitstream.ReadRaw of a stream with a one-bit tag
// and of the length it must have (fpcRawLine).
func rawReadKernel(size int) {
	name := fmt.Sprintf("rawRead%dAVX512", size)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(line *[%d]byte, enc *[%d]byte) bool", size, size+1))
	Pragma("noescape")
	Doc(name+" reads the line after the one-bit tag of enc into line and reports true,",
		"as ReadRaw does; it reports false, having written nothing, if the padding",
		"after the line is not zero. It reads all of enc before it writes line.")
	fpcRawLine(Load(Param("enc"), GP64()), Load(Param("line"), GP64()), size, name+"_bad")
	fpcReturnBool(1)
	VZEROUPPER()
	RET()
	Label(name + "_bad")
	fpcReturnBool(0)
	VZEROUPPER()
	RET()
}
