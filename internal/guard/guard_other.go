//go:build !linux

package guard

// New returns ErrUnsupported: guarded regions are mapped on Linux only.
func New(size int) (*Region, error) { return nil, ErrUnsupported }

func unmap(m []byte) error { return nil }
