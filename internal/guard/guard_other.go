//go:build !linux

package guard

import "unsafe"

// New returns ErrUnsupported: guarded regions are mapped on Linux only.
func New(size int) (*Region, error) { return nil, ErrUnsupported }

func unmap(m []byte) error { return nil }

func addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
