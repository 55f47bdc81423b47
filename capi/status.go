package main

/*
// capi.c forwards every public function to a Go export; make a forward
// whose types do not match the export an error, not a warning.
#cgo CFLAGS: -Werror=incompatible-pointer-types -Werror=int-conversion -Werror=implicit-function-declaration

#include <stddef.h>
#include "linecomp.h"

// Defined in capi.c: stores the calling thread's last-error message.
void linecompgo_set_error(const char *msg, size_t n);
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/linecomp/linecomp"
)

// Errors of the C layer itself, for the statuses that have no root
// sentinel.
var (
	errArgument     = errors.New("invalid argument")
	errHandle       = errors.New("not a live codec handle")
	errBufferSmall  = errors.New("output buffer too small")
	errNotSupported = errors.New("not supported by this codec")
	errInternal     = errors.New("internal error (a bug in linecomp; please report it)")
)

// statusOf maps an error to the status linecomp.h documents for it.
func statusOf(err error) C.linecomp_status {
	switch {
	case errors.Is(err, errArgument):
		return C.LINECOMP_ERR_ARGUMENT
	case errors.Is(err, linecomp.ErrUnknownCodec):
		return C.LINECOMP_ERR_UNKNOWN_CODEC
	case errors.Is(err, linecomp.ErrLineSize):
		return C.LINECOMP_ERR_LINE_SIZE
	case errors.Is(err, linecomp.ErrCorrupt):
		return C.LINECOMP_ERR_CORRUPT
	case errors.Is(err, errBufferSmall):
		return C.LINECOMP_ERR_BUFFER_TOO_SMALL
	case errors.Is(err, linecomp.ErrPartialLine):
		return C.LINECOMP_ERR_PARTIAL_LINE
	case errors.Is(err, errHandle):
		return C.LINECOMP_ERR_HANDLE
	case errors.Is(err, errNotSupported):
		return C.LINECOMP_ERR_NOT_SUPPORTED
	case errors.Is(err, linecomp.ErrConfig):
		return C.LINECOMP_ERR_CONFIG
	}
	return C.LINECOMP_ERR_INTERNAL
}

// fail records err as the calling thread's last error, prefixed with the
// public name of the function, and returns its status.
func fail(fn string, err error) C.linecomp_status {
	setError(fn + ": " + err.Error())
	return statusOf(err)
}

// setError stores msg for linecomp_last_error on the calling C thread.
func setError(msg string) {
	C.linecompgo_set_error((*C.char)(unsafe.Pointer(unsafe.StringData(msg))), C.size_t(len(msg)))
}

// guard turns a panic in an exported function into LINECOMP_ERR_INTERNAL,
// so that no Go panic unwinds into C. Every exported function defers it.
func guard(fn string, st *C.linecomp_status) {
	if r := recover(); r != nil {
		*st = fail(fn, fmt.Errorf("%w: %v", errInternal, r))
	}
}

// argError returns an error wrapping errArgument.
func argError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errArgument, fmt.Sprintf(format, args...))
}
