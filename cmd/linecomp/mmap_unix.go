//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// mmapThreshold is the size from which a file is mapped rather than read:
// below it a read is as cheap as setting up the mapping.
const mmapThreshold = 1 << 20

func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	if size < mmapThreshold || int64(int(size)) != size {
		return readAll(f, size)
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return readAll(f, size) // e.g. a pipe or a file system without mmap
	}
	return data, func() { unix.Munmap(data) }, nil
}
