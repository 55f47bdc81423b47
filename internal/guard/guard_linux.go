package guard

import (
	"fmt"
	"os"
	"syscall"
)

// New maps a region of at least size usable bytes (whole pages) between
// two inaccessible pages.
func New(size int) (*Region, error) {
	if size < 0 {
		return nil, fmt.Errorf("guard: negative size %d", size)
	}
	page := os.Getpagesize()
	usable := (size + page - 1) / page * page
	m, err := syscall.Mmap(-1, 0, usable+2*page, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("guard: mapping %d bytes: %w", usable+2*page, err)
	}
	r := &Region{mapping: m, usable: m[page : page+usable]}
	if usable > 0 {
		if err := syscall.Mprotect(r.usable, syscall.PROT_READ|syscall.PROT_WRITE); err != nil {
			syscall.Munmap(m)
			return nil, fmt.Errorf("guard: making %d bytes accessible: %w", usable, err)
		}
	}
	return r, nil
}

func unmap(m []byte) error { return syscall.Munmap(m) }
