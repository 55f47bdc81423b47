// Package linecomp is a library of bit-exact hardware cache-line compression
// codecs for GPU memory-hierarchy research.
//
// Every codec lives in its own package (bdi, fpc, cpack, magbdi, ...) and
// implements the [Codec] contract defined here: it compresses one
// uncompressed line of [Codec.LineSize] bytes into an exactly specified bit
// stream, decompresses that stream back, reports the stream's length in bits
// without producing it ([Codec.Size]), and carries the compression and
// decompression latencies that its source paper gives ([Codec.Latency]).
//
// Codec packages register their names with this package when they are
// imported; import [github.com/linecomp/linecomp/all] to get every codec,
// then look one up with [New]:
//
//	import (
//		"github.com/linecomp/linecomp"
//		_ "github.com/linecomp/linecomp/all"
//	)
//
//	c, err := linecomp.New("bdi", 128)
//	enc, bits, err := c.Compress(nil, line)
//	back, err := c.Decompress(nil, enc)
//
// # Bit convention
//
// Every stream is a sequence of fields written most significant bit first.
// The first bit of a stream is the most significant bit of enc[0]; a
// multi-byte field is written as one integer, most significant bit first;
// the unused low bits of the last byte are zero. Decompress rejects a stream
// whose padding bits are not zero or whose length does not match its
// content, with an error that wraps [ErrCorrupt]. Line data are read as
// little-endian words, as a GPU keeps them in memory.
//
// The leading [Codec.TagBits] bits of every stream are the ones hardware
// keeps outside the data array (in the tag or in a metadata cache); they do
// not travel with the data, which is why [EffectiveBits] is applied to
// Size − TagBits when a study counts memory bursts.
//
// # Batches and kernels
//
// [Sizes], [CompressLines] and [DecompressLines] work on many consecutive
// lines at once and use a codec's batch kernel when it has one (BDI, MAG-aware
// BDI and FPC classify whole batches with AVX2 or AVX-512 assembly, chosen at
// run time from the CPU's features; the pure-Go path is always there and is
// the only one under the purego and noasm build tags). Every kernel level
// produces the same bits.
//
// # Training
//
// A codec whose code book is learned from the data (SC²) implements
// [Trainable]: its NewTrainer observes the lines of a sampling phase and
// builds a new codec with the new code book. A codec never changes, so it
// always decodes what it compressed, and training in one simulation never
// reaches a codec another one uses.
//
// # Concurrency
//
// Every Codec and every Trainer is safe for concurrent use by several
// goroutines; training may run beside use. Compress and Decompress read all of
// their input before writing to dst, so dst may overlap the input.
package linecomp
