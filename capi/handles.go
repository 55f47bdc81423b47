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
//
// A handle of a trainable codec (SC²) also holds its trainer, made with
// the handle, which linecomp_observe feeds and linecomp_rebuild builds the
// next handle's codec from: the C API's training belongs to the handle,
// while the codec itself never changes.
type codecTable struct {
	codecs sync.Map // uint64 → *handle
	last   atomic.Uint64
}

// handle is what one C handle stands for.
type handle struct {
	codec   linecomp.Codec
	trainer linecomp.Trainer // nil unless the codec is Trainable
}

var handles codecTable

// add stores c, with a new trainer if it is trainable, and returns its new
// handle.
func (t *codecTable) add(c linecomp.Codec) uint64 {
	h := t.last.Add(1)
	e := &handle{codec: c}
	if tc, ok := c.(linecomp.Trainable); ok {
		e.trainer = tc.NewTrainer()
	}
	t.codecs.Store(h, e)
	return h
}

// get returns the codec of handle h, or false if h is not live.
func (t *codecTable) get(h uint64) (linecomp.Codec, bool) {
	e, ok := t.entry(h)
	if !ok {
		return nil, false
	}
	return e.codec, true
}

// entry returns what handle h stands for, or false if h is not live.
func (t *codecTable) entry(h uint64) (*handle, bool) {
	v, ok := t.codecs.Load(h)
	if !ok {
		return nil, false
	}
	return v.(*handle), true
}

// remove forgets handle h and reports whether it was live.
func (t *codecTable) remove(h uint64) bool {
	_, ok := t.codecs.LoadAndDelete(h)
	return ok
}
