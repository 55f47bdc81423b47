package main

/*
#include "linecomp.h"
*/
import "C"

import (
	"sync"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all" // registers every codec
)

// registry is linecomp.Infos() as C structs in C memory, built once: codecs
// register only from Go init functions, so the list is fixed by the time C
// can call in, and linecomp.h promises the strings and arrays live until
// the process exits.
var registry = sync.OnceValue(func() (r struct {
	infos  []C.linecomp_info
	byName map[string]int
}) {
	r.byName = make(map[string]int)
	for i, in := range linecomp.Infos() {
		r.infos = append(r.infos, cInfo(in))
		r.byName[in.Name] = i
	}
	return r
})

// cInfo copies in to C memory.
func cInfo(in linecomp.Info) C.linecomp_info {
	sizes := cArray[C.size_t](len(in.LineSizes))
	for i, n := range in.LineSizes {
		sizes[i] = C.size_t(n)
	}
	tags := cArray[C.int](len(in.TagBits))
	for i, n := range in.TagBits {
		tags[i] = C.int(n)
	}
	encs := cArray[*C.char](len(in.Encodings))
	for i, e := range in.Encodings {
		encs[i] = cString(e)
	}
	out := C.linecomp_info{
		name:            cString(in.Name),
		algorithm:       cString(in.Algorithm),
		paper:           cString(in.Paper),
		variant:         cString(in.Variant),
		line_size_count: C.size_t(len(in.LineSizes)),
		tag_bits:        first(tags),
		latency:         cLatency(in.Latency),
		trainable:       cBool(in.Trainable),
		encoding_count:  C.size_t(len(in.Encodings)),
		encodings:       first(encs),
	}
	out.line_sizes = first(sizes)
	return out
}

// first returns a pointer to s[0], or nil for an empty s.
func first[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

func cLatency(l linecomp.Latency) C.linecomp_latency {
	c, cok := l.CompressCycles()
	d, dok := l.DecompressCycles()
	if !cok {
		c = linecomp.LatencyUnknown
	}
	if !dok {
		d = linecomp.LatencyUnknown
	}
	return C.linecomp_latency{
		compress_cycles:   C.int(c),
		decompress_cycles: C.int(d),
		compress_known:    cBool(cok),
		decompress_known:  cBool(dok),
	}
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
