// Package guard gives tests byte slices that lie against an inaccessible
// page, so that code which reads or writes even one byte past a slice's
// capacity, or before its first byte, faults at once instead of touching
// whatever memory happens to follow. The codecs' assembly kernels use
// wide and masked loads and stores near the ends of their buffers; the Go
// heap puts other objects there, so an overrun of a few bytes would
// otherwise go unnoticed.
//
// A Region is one mapping: an inaccessible page, the usable pages, and
// another inaccessible page. Tail and Head carve slices from its two ends;
// Catch turns the fault of an overrun into an error.
package guard

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrUnsupported is returned by New on systems where this package cannot
// map guarded memory; tests skip there.
var ErrUnsupported = errors.New("guard: guarded memory is not available on this system")

// ErrFault is wrapped by the error of Catch when its function faulted.
var ErrFault = errors.New("guard: memory fault")

// A Region is a mapping of usable pages between two inaccessible ones. Its
// memory is not the Go heap: it lives until Free, whatever still points
// into it.
type Region struct {
	mapping []byte // the whole mapping, guard pages included
	usable  []byte // the pages between the guards
}

// Size returns the number of usable bytes, the largest n that Tail and
// Head take.
func (r *Region) Size() int { return len(r.usable) }

// Tail returns the last n usable bytes as a slice of length and capacity
// n: the byte after its capacity is in the inaccessible page. It panics
// if n is negative or more than Size.
func (r *Region) Tail(n int) []byte {
	u := r.usable
	return u[len(u)-n : len(u) : len(u)]
}

// Head returns the first n usable bytes as a slice of length and capacity
// n: the byte before its first is in the inaccessible page. It panics if n
// is negative or more than Size.
func (r *Region) Head(n int) []byte { return r.usable[:n:n] }

// Free unmaps the region. No slice of it may be used afterwards.
func (r *Region) Free() error {
	if r.mapping == nil {
		return nil
	}
	err := unmap(r.mapping)
	r.mapping, r.usable = nil, nil
	return err
}

// Catch runs f and returns nil, or an error wrapping ErrFault if f touched
// memory it may not (an inaccessible page, in particular): the fault,
// which would otherwise end the program, becomes an error that names the
// address. Any other panic of f goes on.
func Catch(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if a, ok := p.(interface{ Addr() uintptr }); ok {
				err = fmt.Errorf("%w at address %#x: %v", ErrFault, a.Addr(), p)
				return
			}
			panic(p)
		}
	}()
	f()
	return nil
}
