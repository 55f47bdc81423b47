package main

/*
#include <stdlib.h>
*/
import "C"

import (
	"sync"
	"unsafe"
)

// interned holds one C copy of every string the library has handed to C.
// The copies are never freed: linecomp.h promises that returned strings
// stay valid until the process exits, and there are few of them (codec,
// encoding and version names).
var interned struct {
	sync.Mutex
	m map[string]*C.char
}

// cString returns the library's C copy of s, making it on first use.
func cString(s string) *C.char {
	interned.Lock()
	defer interned.Unlock()
	if p, ok := interned.m[s]; ok {
		return p
	}
	if interned.m == nil {
		interned.m = make(map[string]*C.char)
	}
	p := C.CString(s)
	interned.m[s] = p
	return p
}

// cArray allocates a never-freed C array of n elements of type T.
func cArray[T any](n int) []T {
	if n == 0 {
		return nil
	}
	var zero T
	p := C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(zero)))
	if p == nil {
		panic("linecomp: out of C memory")
	}
	return unsafe.Slice((*T)(p), n)
}
