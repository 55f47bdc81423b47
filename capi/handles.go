package main

import (
	"sync"
	"sync/atomic"

	"github.com/linecomp/linecomp"
)

// codecTable maps the opaque handles given to C to the codecs they stand
// for. C holds only the number; the codec stays reachable from here until
// linecomp_free, so the garbage collector never frees one in use.
//
// Handles count up from 1 and are never reused, so a stale handle is
// reported, not confused with a newer codec. A handle freed while another
// thread uses it is safe: that call already holds the codec.
type codecTable struct {
	codecs sync.Map // uint64 → linecomp.Codec
	last   atomic.Uint64
}

var handles codecTable

// add stores c and returns its new handle.
func (t *codecTable) add(c linecomp.Codec) uint64 {
	h := t.last.Add(1)
	t.codecs.Store(h, c)
	return h
}

// get returns the codec of handle h, or false if h is not live.
func (t *codecTable) get(h uint64) (linecomp.Codec, bool) {
	v, ok := t.codecs.Load(h)
	if !ok {
		return nil, false
	}
	return v.(linecomp.Codec), true
}

// remove forgets handle h and reports whether it was live.
func (t *codecTable) remove(h uint64) bool {
	_, ok := t.codecs.LoadAndDelete(h)
	return ok
}
