package main

/*
#include <stdint.h>
#include <string.h>
#include "linecomp.h"
*/
import "C"

import (
	"fmt"
	"math"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/linecomp/linecomp"
)

// The functions here are the Go half of the public functions of
// linecomp.h, which capi.c defines by calling them. Each checks every
// argument before using it, reports failure as a status and a message for
// linecomp_last_error, and defers guard so that no panic reaches C. They
// are exported from the library too, but only linecomp.h is the interface.

// maxLength is LINECOMP_MAX_LENGTH, capped where Go's int is narrower.
const maxLength = min(C.LINECOMP_MAX_LENGTH, math.MaxInt)

// maxNameLen is the longest codec name accepted, in bytes.
const maxNameLen = 255

// checkLength rejects a length or capacity argument above maxLength.
func checkLength(what string, n C.size_t) error {
	if uint64(n) > maxLength {
		return argError("%s is %d, above LINECOMP_MAX_LENGTH (a negative or uninitialised value?)", what, uint64(n))
	}
	return nil
}

// inBytes returns the n bytes at p, a caller's input buffer, as a slice of
// C memory. p may be NULL only when n is 0. The names, of the pointer and
// the length parameter, are for the error message only.
func inBytes(pName, nName string, p *C.uint8_t, n C.size_t) ([]byte, error) {
	if err := checkLength(nName, n); err != nil {
		return nil, err
	}
	if p == nil {
		if n != 0 {
			return nil, argError("%s is NULL but %s is %d", pName, nName, uint64(n))
		}
		return nil, nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n)), nil
}

// outBytes returns the caller's output buffer out of capacity outCap as an
// empty slice of C memory with that capacity, for a codec to append to.
func outBytes(out *C.uint8_t, outCap C.size_t) ([]byte, error) {
	if err := checkLength("out_cap", outCap); err != nil {
		return nil, err
	}
	if out == nil {
		if outCap != 0 {
			return nil, argError("out is NULL but out_cap is %d", uint64(outCap))
		}
		return nil, nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(out)), int(outCap))[:0], nil
}

// sameBuffer reports whether b starts at the start of buf's array, i.e.
// an append to buf[:0] did not have to move to a new array.
func sameBuffer(b, buf []byte) bool {
	return cap(buf) > 0 && unsafe.SliceData(b) == unsafe.SliceData(buf)
}

// goName reads a codec name from C: NUL-terminated, at most maxNameLen
// bytes.
func goName(p *C.char) (string, error) {
	if p == nil {
		return "", argError("name is NULL")
	}
	n := C.strnlen(p, maxNameLen+1)
	if n > maxNameLen {
		return "", argError("name is longer than %d bytes or not NUL-terminated", maxNameLen)
	}
	return C.GoStringN(p, C.int(n)), nil
}

// codecOf returns the codec of a handle.
func codecOf(h C.linecomp_codec) (linecomp.Codec, error) {
	c, ok := handles.get(uint64(h))
	if !ok {
		if h == 0 {
			return nil, fmt.Errorf("%w: handle 0 (LINECOMP_NO_CODEC)", errHandle)
		}
		return nil, fmt.Errorf("%w: handle %d was never made or was freed", errHandle, uint64(h))
	}
	return c, nil
}

func nullArg(name string) error { return argError("%s is NULL", name) }

//export linecompgo_version
func linecompgo_version() (v *C.char) {
	defer func() {
		if recover() != nil {
			v = cString("linecomp C API (version unknown)")
		}
	}()
	return version()
}

// version describes the build once: API version, Go version, and the
// source revision when go build recorded one.
var version = sync.OnceValue(func() *C.char {
	s := fmt.Sprintf("linecomp C API %d", C.LINECOMP_API_VERSION)
	if bi, ok := debug.ReadBuildInfo(); ok {
		s += ", " + bi.GoVersion
		var rev, modified string
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				if kv.Value == "true" {
					modified = " (modified)"
				}
			}
		}
		if rev != "" {
			s += ", revision " + rev + modified
		}
	}
	return cString(s)
})

//export linecompgo_effective_bits
func linecompgo_effective_bits(bits, granularity C.int) (eff C.int) {
	defer func() {
		if recover() != nil {
			eff = -1
		}
	}()
	e := linecomp.EffectiveBits(int(bits), int(granularity))
	if e > math.MaxInt32 {
		return -1 // a granularity of hundreds of megabytes: linecomp.h documents -1
	}
	return C.int(e)
}

//export linecompgo_codec_count
func linecompgo_codec_count(count *C.size_t) (st C.linecomp_status) {
	const fn = "linecomp_codec_count"
	defer guard(fn, &st)
	if count == nil {
		return fail(fn, nullArg("count"))
	}
	*count = C.size_t(len(registry().infos))
	return C.LINECOMP_OK
}

//export linecompgo_codec_info
func linecompgo_codec_info(index C.size_t, info *C.linecomp_info) (st C.linecomp_status) {
	const fn = "linecomp_codec_info"
	defer guard(fn, &st)
	if info == nil {
		return fail(fn, nullArg("info"))
	}
	infos := registry().infos
	if uint64(index) >= uint64(len(infos)) {
		return fail(fn, argError("index %d is out of range: %d codecs are registered", uint64(index), len(infos)))
	}
	*info = infos[index]
	return C.LINECOMP_OK
}

//export linecompgo_lookup
func linecompgo_lookup(name *C.char, info *C.linecomp_info) (st C.linecomp_status) {
	const fn = "linecomp_lookup"
	defer guard(fn, &st)
	if info == nil {
		return fail(fn, nullArg("info"))
	}
	s, err := goName(name)
	if err != nil {
		return fail(fn, err)
	}
	r := registry()
	i, ok := r.byName[s]
	if !ok {
		_, err := linecomp.Lookup(s) // the root's error names the registered codecs
		return fail(fn, err)
	}
	*info = r.infos[i]
	return C.LINECOMP_OK
}

//export linecompgo_new
func linecompgo_new(name *C.char, lineSize C.size_t, codec *C.linecomp_codec) (st C.linecomp_status) {
	const fn = "linecomp_new"
	defer guard(fn, &st)
	if codec == nil {
		return fail(fn, nullArg("codec"))
	}
	s, err := goName(name)
	if err != nil {
		return fail(fn, err)
	}
	if err := checkLength("line_size", lineSize); err != nil {
		return fail(fn, err)
	}
	c, err := linecomp.New(s, int(lineSize))
	if err != nil {
		return fail(fn, err)
	}
	*codec = C.linecomp_codec(handles.add(c))
	return C.LINECOMP_OK
}

//export linecompgo_free
func linecompgo_free(codec C.linecomp_codec) (st C.linecomp_status) {
	const fn = "linecomp_free"
	defer guard(fn, &st)
	if !handles.remove(uint64(codec)) {
		_, err := codecOf(codec)
		return fail(fn, err)
	}
	return C.LINECOMP_OK
}

// codecField is the body of the exports that read one property of a
// codec: it finds the handle's codec, checks the out pointer and stores
// get(codec) there.
func codecField[T any](fn string, codec C.linecomp_codec, out *T, arg string, get func(linecomp.Codec) T) C.linecomp_status {
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if out == nil {
		return fail(fn, nullArg(arg))
	}
	*out = get(c)
	return C.LINECOMP_OK
}

//export linecompgo_name
func linecompgo_name(codec C.linecomp_codec, name **C.char) (st C.linecomp_status) {
	const fn = "linecomp_name"
	defer guard(fn, &st)
	return codecField(fn, codec, name, "name", func(c linecomp.Codec) *C.char { return cString(c.Name()) })
}

//export linecompgo_line_size
func linecompgo_line_size(codec C.linecomp_codec, lineSize *C.size_t) (st C.linecomp_status) {
	const fn = "linecomp_line_size"
	defer guard(fn, &st)
	return codecField(fn, codec, lineSize, "line_size", func(c linecomp.Codec) C.size_t { return C.size_t(c.LineSize()) })
}

//export linecompgo_tag_bits
func linecompgo_tag_bits(codec C.linecomp_codec, tagBits *C.int) (st C.linecomp_status) {
	const fn = "linecomp_tag_bits"
	defer guard(fn, &st)
	return codecField(fn, codec, tagBits, "tag_bits", func(c linecomp.Codec) C.int { return C.int(c.TagBits()) })
}

//export linecompgo_codec_latency
func linecompgo_codec_latency(codec C.linecomp_codec, latency *C.linecomp_latency) (st C.linecomp_status) {
	const fn = "linecomp_codec_latency"
	defer guard(fn, &st)
	return codecField(fn, codec, latency, "latency", func(c linecomp.Codec) C.linecomp_latency { return cLatency(c.Latency()) })
}

// lineSizeError reports a line of n bytes given to c.
func lineSizeError(c linecomp.Codec, n int) error {
	return fmt.Errorf("line_len is %d: %w", n, linecomp.LineSizeError(c.Name(), n, fmt.Sprintf("%d-byte lines", c.LineSize())))
}

//export linecompgo_size
func linecompgo_size(codec C.linecomp_codec, line *C.uint8_t, lineLen C.size_t, bits *C.int) (st C.linecomp_status) {
	const fn = "linecomp_size"
	defer guard(fn, &st)
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if bits == nil {
		return fail(fn, nullArg("bits"))
	}
	in, err := inBytes("line", "line_len", line, lineLen)
	if err != nil {
		return fail(fn, err)
	}
	n := c.Size(in)
	if n < 0 {
		return fail(fn, lineSizeError(c, len(in)))
	}
	*bits = C.int(n)
	return C.LINECOMP_OK
}

//export linecompgo_compress
func linecompgo_compress(codec C.linecomp_codec, line *C.uint8_t, lineLen C.size_t, out *C.uint8_t, outCap C.size_t, outLen *C.size_t, bits *C.int) (st C.linecomp_status) {
	const fn = "linecomp_compress"
	defer guard(fn, &st)
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if outLen == nil {
		return fail(fn, nullArg("out_len"))
	}
	if bits == nil {
		return fail(fn, nullArg("bits"))
	}
	in, err := inBytes("line", "line_len", line, lineLen)
	if err != nil {
		return fail(fn, err)
	}
	if len(in) != c.LineSize() {
		return fail(fn, lineSizeError(c, len(in)))
	}
	dst, err := outBytes(out, outCap)
	if err != nil {
		return fail(fn, err)
	}
	// The codec appends straight into the caller's buffer; if it does not
	// fit, append moves the stream to a Go array, which tells us the size
	// needed, and nothing past out_cap has been written.
	enc, n, err := c.Compress(dst, in)
	if err != nil {
		return fail(fn, err)
	}
	if len(enc) > 0 && !sameBuffer(enc, dst) {
		*outLen = C.size_t(len(enc))
		return fail(fn, fmt.Errorf("%w: the %d-bit stream takes %d bytes, out_cap is %d", errBufferSmall, n, len(enc), uint64(outCap)))
	}
	*outLen = C.size_t(len(enc))
	*bits = C.int(n)
	return C.LINECOMP_OK
}

//export linecompgo_decompress
func linecompgo_decompress(codec C.linecomp_codec, enc *C.uint8_t, encLen C.size_t, out *C.uint8_t, outCap C.size_t, outLen *C.size_t) (st C.linecomp_status) {
	const fn = "linecomp_decompress"
	defer guard(fn, &st)
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if outLen == nil {
		return fail(fn, nullArg("out_len"))
	}
	in, err := inBytes("enc", "enc_len", enc, encLen)
	if err != nil {
		return fail(fn, err)
	}
	dst, err := outBytes(out, outCap)
	if err != nil {
		return fail(fn, err)
	}
	n := c.LineSize()
	if cap(dst) < n {
		*outLen = C.size_t(n)
		return fail(fn, fmt.Errorf("%w: a line takes %d bytes, out_cap is %d", errBufferSmall, n, uint64(outCap)))
	}
	// On error the codec has written nothing past len(dst) = 0.
	line, err := c.Decompress(dst, in)
	if err != nil {
		return fail(fn, err)
	}
	if len(line) != n || !sameBuffer(line, dst) {
		return fail(fn, fmt.Errorf("%w: %s decompressed %d bytes for a %d-byte line", errInternal, c.Name(), len(line), n))
	}
	*outLen = C.size_t(n)
	return C.LINECOMP_OK
}

// sizesChunk is how many lines linecomp_sizes measures per call of
// linecomp.Sizes, so that its scratch space stays small whatever the batch.
const sizesChunk = 1024

var sizesScratch = sync.Pool{New: func() any {
	s := make([]int, 0, sizesChunk)
	return &s
}}

//export linecompgo_sizes
func linecompgo_sizes(codec C.linecomp_codec, data *C.uint8_t, dataLen C.size_t, bits *C.int, bitsCap C.size_t, nLines *C.size_t) (st C.linecomp_status) {
	const fn = "linecomp_sizes"
	defer guard(fn, &st)
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if nLines == nil {
		return fail(fn, nullArg("n_lines"))
	}
	in, err := inBytes("data", "data_len", data, dataLen)
	if err != nil {
		return fail(fn, err)
	}
	if err := checkLength("bits_cap", bitsCap); err != nil {
		return fail(fn, err)
	}
	if bits == nil && bitsCap != 0 {
		return fail(fn, argError("bits is NULL but bits_cap is %d", uint64(bitsCap)))
	}
	ls := c.LineSize()
	if r := len(in) % ls; r != 0 {
		return fail(fn, fmt.Errorf("%w: data_len %d is %d %d-byte lines and %d bytes over", linecomp.ErrPartialLine, len(in), len(in)/ls, ls, r))
	}
	lines := len(in) / ls
	if uint64(bitsCap) < uint64(lines) {
		*nLines = C.size_t(lines)
		return fail(fn, fmt.Errorf("%w: %d lines, bits_cap is %d", errBufferSmall, lines, uint64(bitsCap)))
	}
	if lines > 0 {
		out := unsafe.Slice((*C.int)(unsafe.Pointer(bits)), lines)
		scratch := sizesScratch.Get().(*[]int)
		defer sizesScratch.Put(scratch)
		step := sizesChunk * ls
		for off, i := 0, 0; off < len(in); off += step {
			got, err := linecomp.Sizes(c, (*scratch)[:0], in[off:min(off+step, len(in))])
			if err != nil {
				return fail(fn, err) // cannot happen: whole lines were checked
			}
			for _, b := range got {
				out[i] = C.int(b)
				i++
			}
			*scratch = got[:0]
		}
	}
	*nLines = C.size_t(lines)
	return C.LINECOMP_OK
}

// reporter returns c's encodings interface, or errNotSupported.
func reporter(c linecomp.Codec) (linecomp.EncodingReporter, error) {
	r, ok := c.(linecomp.EncodingReporter)
	if !ok {
		return nil, fmt.Errorf("%w: %s does not name its encodings", errNotSupported, c.Name())
	}
	return r, nil
}

//export linecompgo_encoding_count
func linecompgo_encoding_count(codec C.linecomp_codec, count *C.size_t) (st C.linecomp_status) {
	const fn = "linecomp_encoding_count"
	defer guard(fn, &st)
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if count == nil {
		return fail(fn, nullArg("count"))
	}
	r, err := reporter(c)
	if err != nil {
		return fail(fn, err)
	}
	*count = C.size_t(len(r.Encodings()))
	return C.LINECOMP_OK
}

//export linecompgo_encoding_info
func linecompgo_encoding_info(codec C.linecomp_codec, index C.size_t, encoding *C.linecomp_encoding) (st C.linecomp_status) {
	const fn = "linecomp_encoding_info"
	defer guard(fn, &st)
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if encoding == nil {
		return fail(fn, nullArg("encoding"))
	}
	r, err := reporter(c)
	if err != nil {
		return fail(fn, err)
	}
	encs := r.Encodings()
	if uint64(index) >= uint64(len(encs)) {
		return fail(fn, argError("index %d is out of range: %s has %d encodings", uint64(index), c.Name(), len(encs)))
	}
	e := encs[index]
	*encoding = C.linecomp_encoding{name: cString(e.Name), bits: C.int(e.Bits)}
	return C.LINECOMP_OK
}

//export linecompgo_encoding_of
func linecompgo_encoding_of(codec C.linecomp_codec, enc *C.uint8_t, encLen C.size_t, index *C.size_t) (st C.linecomp_status) {
	const fn = "linecomp_encoding_of"
	defer guard(fn, &st)
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if index == nil {
		return fail(fn, nullArg("index"))
	}
	r, err := reporter(c)
	if err != nil {
		return fail(fn, err)
	}
	in, err := inBytes("enc", "enc_len", enc, encLen)
	if err != nil {
		return fail(fn, err)
	}
	i, err := r.EncodingOf(in)
	if err != nil {
		return fail(fn, err)
	}
	if i < 0 || i >= len(r.Encodings()) {
		return fail(fn, fmt.Errorf("%w: %s reported encoding %d of %d", errInternal, c.Name(), i, len(r.Encodings())))
	}
	*index = C.size_t(i)
	return C.LINECOMP_OK
}

//export linecompgo_tag_gives_size
func linecompgo_tag_gives_size(codec C.linecomp_codec, yes *C.int) (st C.linecomp_status) {
	const fn = "linecomp_tag_gives_size"
	defer guard(fn, &st)
	c, err := codecOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	if yes == nil {
		return fail(fn, nullArg("yes"))
	}
	*yes = cBool(linecomp.TagGivesSize(c))
	return C.LINECOMP_OK
}

// trainerOf returns the trainer of a handle, or errNotSupported.
func trainerOf(h C.linecomp_codec) (linecomp.Trainer, error) {
	c, err := codecOf(h)
	if err != nil {
		return nil, err
	}
	e, ok := handles.entry(uint64(h))
	if !ok || e.trainer == nil {
		return nil, fmt.Errorf("%w: %s is not trainable", errNotSupported, c.Name())
	}
	return e.trainer, nil
}

//export linecompgo_observe
func linecompgo_observe(codec C.linecomp_codec, data *C.uint8_t, dataLen C.size_t) (st C.linecomp_status) {
	const fn = "linecomp_observe"
	defer guard(fn, &st)
	t, err := trainerOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	in, err := inBytes("data", "data_len", data, dataLen)
	if err != nil {
		return fail(fn, err)
	}
	t.Observe(in)
	return C.LINECOMP_OK
}

//export linecompgo_rebuild
func linecompgo_rebuild(codec C.linecomp_codec, trained *C.linecomp_codec) (st C.linecomp_status) {
	const fn = "linecomp_rebuild"
	defer guard(fn, &st)
	if _, err := codecOf(codec); err != nil {
		return fail(fn, err)
	}
	if trained == nil {
		return fail(fn, nullArg("trained"))
	}
	t, err := trainerOf(codec)
	if err != nil {
		return fail(fn, err)
	}
	next, err := t.Build()
	if err != nil {
		return fail(fn, err)
	}
	*trained = C.linecomp_codec(handles.add(next))
	return C.LINECOMP_OK
}
