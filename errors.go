package linecomp

import (
	"errors"
	"fmt"
)

var (
	// ErrLineSize means a line is not of a size the codec takes: either a
	// line slice of the wrong length, or a codec asked for a line size it
	// has no encoding for.
	ErrLineSize = errors.New("linecomp: unsupported line size")

	// ErrCorrupt means an encoding cannot have been produced by the codec:
	// it is truncated, too long, has non-zero padding or an impossible code.
	// The error is a *CorruptError, which carries the bit offset.
	ErrCorrupt = errors.New("linecomp: corrupt encoding")

	// ErrUnknownCodec means no codec is registered under the requested
	// name. Typically the package that registers it was not imported:
	// import github.com/linecomp/linecomp/all.
	ErrUnknownCodec = errors.New("linecomp: unknown codec")

	// ErrPartialLine means a batch of data is not a whole number of lines.
	ErrPartialLine = errors.New("linecomp: data is not a whole number of lines")

	// ErrConfig means a configuration or argument cannot work: an option
	// out of range (a MAG that is not a power of two below the line size,
	// a negative latency field other than LatencyUnknown), a nil *Lines, a
	// set of codecs of different line sizes. The error names the field.
	ErrConfig = errors.New("linecomp: invalid configuration")
)

// CorruptError reports where and why an encoding was rejected.
// errors.Is(err, ErrCorrupt) is true for every *CorruptError.
type CorruptError struct {
	Codec  string // registry name of the codec that rejected the stream
	Offset int    // bit offset in the stream at which the problem was found
	Reason string // what was wrong, e.g. "non-zero padding"
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("linecomp: %s: corrupt encoding at bit %d: %s", e.Codec, e.Offset, e.Reason)
}

// Unwrap makes errors.Is(err, ErrCorrupt) hold.
func (e *CorruptError) Unwrap() error { return ErrCorrupt }

// LineSizeError returns an error wrapping ErrLineSize that names the codec,
// the size it got and the sizes it takes. Codec packages use it so that every
// codec words this error the same way.
func LineSizeError(codec string, got int, want string) error {
	return fmt.Errorf("%w: %s takes %s, got %d bytes", ErrLineSize, codec, want, got)
}

// ConfigError returns an error wrapping ErrConfig that names the codec (or
// component) and says what is wrong with which field.
func ConfigError(component, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrConfig, component, fmt.Sprintf(format, args...))
}
