package linecomp

import "github.com/linecomp/linecomp/internal/bound"

// Latency is a codec's hardware latency in cycles, as a source paper gives
// it. A field is [LatencyUnknown] where the paper gives only the other one.
//
// A model that charges a latency as a cost must read it through
// [Latency.CompressCycles] and [Latency.DecompressCycles], which report
// whether it is known, and reject an unknown one when it is configured: the
// fields are plain integers so that presets can be written as literals.
type Latency struct{ Compress, Decompress int }

// LatencyUnknown marks a latency that no source paper gives. It is negative
// so that a simulator that forgets to check cannot mistake it for a cost.
const LatencyUnknown = -1

// CompressCycles returns the compression latency and whether it is known.
func (l Latency) CompressCycles() (int, bool) { return l.Compress, l.Compress >= 0 }

// DecompressCycles returns the decompression latency and whether it is
// known.
func (l Latency) DecompressCycles() (int, bool) { return l.Decompress, l.Decompress >= 0 }

// Known reports whether both latencies are known.
func (l Latency) Known() bool { return l.Compress >= 0 && l.Decompress >= 0 }

// Codec is one configured cache-line compressor: a fixed algorithm, variant
// and line size. All lengths are exact: a study counts bits, not bytes.
//
// Every Codec is safe for concurrent use by several goroutines, and
// Compress and Decompress read all of their input before they write to dst,
// so dst may overlap the input (e.g. Decompress(enc[:0], enc)).
type Codec interface {
	// Name is the registry name of the configuration, e.g.
	// "bdi-symmetric", however the codec was built: New(Name(),
	// LineSize()) makes a codec that produces the same bits.
	Name() string
	// LineSize is the uncompressed line size in bytes that this instance takes.
	LineSize() int
	// TagBits is the number of leading bits of every encoding that hardware
	// keeps outside the data array (tag or metadata cache).
	TagBits() int
	// Compress appends the encoding of line to dst and returns the extended
	// buffer and the exact length of the encoding in bits. The encoding
	// occupies (bits+7)/8 bytes. len(line) must be LineSize(), otherwise the
	// error wraps ErrLineSize and dst is returned unchanged.
	Compress(dst, line []byte) (enc []byte, bits int, err error)
	// Decompress appends the LineSize() bytes that enc encodes to dst. A
	// malformed enc gives an error wrapping ErrCorrupt; then dst is returned
	// unchanged and nothing past len(dst) has been written.
	Decompress(dst, enc []byte) ([]byte, error)
	// Size returns the number of bits that Compress would produce for line,
	// without producing them. It returns -1 if len(line) != LineSize().
	Size(line []byte) int
	// Latency returns the compression and decompression latency in cycles.
	Latency() Latency
}

// Trainable is implemented by codecs whose code book is learned from the
// data (SC²). The codec itself never changes: its code book is fixed when
// it is made, and training happens in a separate [Trainer], which observes
// lines and builds new codecs. So nothing one simulation does to train can
// change a codec that another simulation, or another cache, uses.
type Trainable interface {
	Codec
	// NewTrainer returns a trainer with nothing observed yet, which
	// builds codecs configured as this one.
	NewTrainer() Trainer
}

// Trainer learns a code book: Observe the lines of a sampling phase, then
// Build a codec with the code book made from them. A Trainer is safe for
// concurrent use.
type Trainer interface {
	// Observe counts the words of line (of any length) for the next code
	// book.
	Observe(line []byte)
	// Build returns a new codec whose code book is built from every line
	// observed so far. The trainer keeps its counts; a new sampling phase
	// starts with the new codec's NewTrainer.
	Build() (Trainable, error)
}

// Check returns an error wrapping ErrConfig, naming component, if a field
// of l is negative but not LatencyUnknown, or above 2^30 cycles (a second
// at 1 GHz, beyond which a model's sums of cycles could wrap): a latency no
// paper and no simulator can mean. Codec packages check their WithLatency
// option with it, and the models check every codec they are given.
func (l Latency) Check(component string) error {
	for _, f := range []struct {
		field  string
		cycles int
	}{{"compression", l.Compress}, {"decompression", l.Decompress}} {
		if f.cycles < 0 && f.cycles != LatencyUnknown {
			return ConfigError(component, "%s latency %d is negative and not LatencyUnknown", f.field, f.cycles)
		}
		if f.cycles > bound.MaxCycles {
			return ConfigError(component, "%s latency %d exceeds %d cycles", f.field, f.cycles, bound.MaxCycles)
		}
	}
	return nil
}

// Train returns the codec that a new trainer of c builds from data, every
// whole c.LineSize() bytes of it a line, or c itself when c is not
// Trainable: what a tool does to give SC² a code book learned from a
// sample before measuring it.
func Train(c Codec, data []byte) (Codec, error) {
	t, ok := c.(Trainable)
	if !ok {
		return c, nil
	}
	tr := t.NewTrainer()
	n := c.LineSize()
	for off := 0; off+n <= len(data); off += n {
		tr.Observe(data[off : off+n])
	}
	return tr.Build()
}
