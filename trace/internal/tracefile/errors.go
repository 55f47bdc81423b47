// Package tracefile is the container shared by linecomp's trace formats
// (package trace for line traffic, package trace/warp for warp instruction
// streams): the magic and version, the header block, CRC-checked data blocks
// that may be deflated, the end marker, the payload dictionary and strict
// varints. The layout is specified in the doc comment of package trace; this
// package only implements it, so that both formats share one block layer and
// one dictionary.
package tracefile

import (
	"compress/flate"
	"errors"
	"fmt"
)

// The sentinels, documented where package trace re-exports them.
var (
	ErrFormat = errors.New("trace: malformed trace")
	ErrHeader = errors.New("trace: invalid header")
	ErrRecord = errors.New("trace: invalid record")
	ErrClosed = errors.New("trace: writer closed")
)

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

// HeaderConfig checks a writer's header and options, shared by both trace
// kinds, and returns the container header (without Extra). dictEntries 0
// chooses DefaultDictBytes worth, a negative value none.
func HeaderConfig(lineSize int, source string, level, dictEntries, maxLineSize int) (Header, error) {
	if lineSize <= 0 || lineSize > maxLineSize {
		return Header{}, fmt.Errorf("%w: line size %d outside 1…%d", ErrHeader, lineSize, maxLineSize)
	}
	if len(source) > MaxSourceLen {
		return Header{}, fmt.Errorf("%w: source of %d bytes exceeds %d", ErrHeader, len(source), MaxSourceLen)
	}
	if level < flate.HuffmanOnly || level > flate.BestCompression {
		return Header{}, fmt.Errorf("%w: compression level %d outside %d…%d", ErrHeader, level, flate.HuffmanOnly, flate.BestCompression)
	}
	switch {
	case dictEntries == 0:
		dictEntries = max(1, DefaultDictBytes/lineSize)
	case dictEntries < 0:
		dictEntries = 0
	case dictEntries > MaxDictBytes/lineSize:
		return Header{}, fmt.Errorf("%w: dictionary of %d entries of %d bytes exceeds %d bytes", ErrHeader, dictEntries, lineSize, MaxDictBytes)
	}
	return Header{LineSize: lineSize, DictEntries: dictEntries, Source: source}, nil
}
