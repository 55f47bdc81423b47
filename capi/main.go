// Command capi is linecomp's C API: built with -buildmode=c-shared or
// -buildmode=c-archive it is a C library, declared by the hand-written
// header linecomp.h, that gives C and C++ simulators (gem5, GPGPU-Sim,
// Accel-Sim) every registered codec with the same bits as the Go package.
//
//	go build -buildmode=c-shared -o liblinecomp.so .
//	go build -buildmode=c-archive -o liblinecomp.a .
//
// The public functions are C (capi.c), each forwarding to a Go function
// exported under the same name with a linecompgo_ prefix (exports.go);
// those check every argument, keep codecs in a table of opaque handles so
// that C never holds a Go pointer, and turn every error, and any panic,
// into a status code and a per-thread message. README.md says how to use
// the library from a simulator; linecomp.h documents every function.
package main

// main is never called: a c-shared or c-archive build needs a main package.
func main() {}
