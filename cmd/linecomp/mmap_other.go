//go:build !unix

package main

import "os"

func mapFile(f *os.File, size int64) ([]byte, func(), error) { return readAll(f, size) }
