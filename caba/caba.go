package caba

import (
	"github.com/linecomp/linecomp"
)

// paper is the citation every codec of this package registers with.
const paper = "Vijaykumar et al., A Case for Core-Assisted Bottleneck Acceleration in GPUs: Enabling Flexible Data Compression with Assist Warps, ISCA 2015"

// lineSizes are the line sizes every format takes.
var lineSizes = []int{32, 64, 128}

// AssistWarpCoster is implemented by the three codecs of this package: it
// gives the warp instructions an assist warp issues to decompress a stream
// or compress a line, as the lane model of the package doc counts them. A
// simulator charges them as issue slots.
//
// A GPU model must depend on the root contract only, so it declares the
// same two methods in an interface of its own and type-asserts a
// linecomp.Codec to it.
type AssistWarpCoster interface {
	linecomp.Codec
	// DecompressInstructions returns the warp instructions that decompress
	// enc, 0 for a raw line (no assist warp runs). A malformed enc gives
	// the *linecomp.CorruptError that Decompress gives.
	DecompressInstructions(enc []byte) (int, error)
	// CompressInstructions returns the warp instructions that compress
	// line, including the encodings tried and rejected, also when the line
	// ends up raw. A line of the wrong length gives an error wrapping
	// linecomp.ErrLineSize.
	CompressInstructions(line []byte) (int, error)
}

var (
	_ linecomp.EncodingReporter = (*BDI)(nil)
	_ linecomp.EncodingReporter = (*FPC)(nil)
	_ linecomp.EncodingReporter = (*CPack)(nil)
)

// Option configures a codec of this package.
type Option func(*config)

// config is what the options set; each constructor checks that it was given
// only the options that apply to its format.
type config struct {
	latency    linecomp.Latency
	latencySet bool
	segWords   int // caba-fpc words per segment, 0 = default
}

// WithLatency replaces a codec's default latency (see the package doc):
// e.g. a hardware implementation's numbers for a study that does not model
// assist warps. A field may be linecomp.LatencyUnknown; any other negative
// value is an error wrapping linecomp.ErrConfig.
func WithLatency(l linecomp.Latency) Option {
	return func(c *config) { c.latency, c.latencySet = l, true }
}

// WithSegmentWords sets the number of 32-bit words per segment of
// caba-fpc: 2, 4 (the default) or 8. Fewer words per segment let more
// segments take a short pattern, so lines compress better; more words per
// segment mean fewer segments for the assist warp to walk one after the
// other, so lines decompress in fewer instructions. 2 and 8 are registered
// as "caba-fpc-s2" and "caba-fpc-s8". Other formats reject the option.
func WithSegmentWords(s int) Option { return func(c *config) { c.segWords = s } }

// build applies opts over a default latency and checks the latency.
func build(name string, def linecomp.Latency, opts []Option) (config, error) {
	cfg := config{latency: def}
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.latency.Check(name); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// checkLineSize rejects a line size the formats do not take.
func checkLineSize(name string, n int) error {
	if n != 32 && n != 64 && n != 128 {
		return linecomp.LineSizeError(name, n, "32, 64 or 128 bytes")
	}
	return nil
}

// unknownLatency is the latency of a format no source gives numbers for.
var unknownLatency = linecomp.Latency{Compress: linecomp.LatencyUnknown, Decompress: linecomp.LatencyUnknown}

func corrupt(name string, offset int, reason string) error {
	return &linecomp.CorruptError{Codec: name, Offset: offset, Reason: reason}
}
