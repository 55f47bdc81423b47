// Package tracefile is the container shared by linecomp's trace formats
// (package trace for line traffic, package trace/warp for warp instruction
// streams): the magic and version, the header block, CRC-checked data blocks
// that may be deflated, the end marker, the payload dictionary and strict
// varints. The layout is specified in the doc comment of package trace; this
// package only implements it, so that both formats share one block layer and
// one dictionary.
package tracefile

import (
	"errors"
	"fmt"
)

// ErrFormat is the sentinel every malformed-input error wraps. Package trace
// re-exports it as trace.ErrFormat.
var ErrFormat = errors.New("trace: malformed trace")

// FormatError says where and why a trace was rejected.
// errors.Is(err, ErrFormat) holds for every *FormatError.
type FormatError struct {
	Offset int64  // byte offset in the file of the field or block at fault
	Reason string // what was wrong
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("trace: malformed trace at byte %d: %s", e.Offset, e.Reason)
}

// Unwrap makes errors.Is(err, ErrFormat) hold.
func (e *FormatError) Unwrap() error { return ErrFormat }

func formatErr(off int64, format string, args ...any) error {
	return &FormatError{Offset: off, Reason: fmt.Sprintf(format, args...)}
}
