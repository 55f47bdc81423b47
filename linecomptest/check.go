package linecomptest

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/race"
)

// Scratch holds the reusable buffers of RoundTrip, so that checking many
// lines allocates nothing per line. The zero value is ready to use.
type Scratch struct{ enc, dec []byte }

// RoundTrip compresses line with c and checks the stream: Size equals the
// bits Compress reports, the stream takes (bits+7)/8 bytes, starts with at
// least TagBits bits and has zero padding, and Decompress returns line. It
// returns the stream (valid until the next call) and its length in bits,
// also when a later check fails, and a description of the first problem.
func (s *Scratch) RoundTrip(c linecomp.Codec, line []byte) (enc []byte, bits int, err error) {
	size := c.Size(line)
	enc, bits, err = c.Compress(s.enc[:0], line)
	s.enc = enc
	if err != nil {
		return nil, 0, fmt.Errorf("compressing: %w", err)
	}
	switch {
	case size != bits:
		return enc, bits, fmt.Errorf("size %d from Size, but Compress wrote %d bits", size, bits)
	case len(enc) != (bits+7)/8:
		return enc, bits, fmt.Errorf("%d bytes from Compress for %d bits", len(enc), bits)
	case bits < c.TagBits():
		return enc, bits, fmt.Errorf("%d bits from Compress, fewer than the %d tag bits", bits, c.TagBits())
	case bits%8 != 0 && enc[len(enc)-1]<<(bits%8) != 0:
		return enc, bits, fmt.Errorf("stream %X of %d bits has non-zero padding", enc, bits)
	}
	dec, err := c.Decompress(s.dec[:0], enc)
	s.dec = dec
	if err != nil {
		return enc, bits, fmt.Errorf("decompressing its own stream %X: %w", enc, err)
	}
	if !bytes.Equal(dec, line) {
		return enc, bits, fmt.Errorf("round trip changed the line:\n got %X\nwant %X", dec, line)
	}
	return enc, bits, nil
}

// CheckGarbage decompresses enc, which need not be a valid stream, into a
// dst that holds data and whose spare capacity is filled with sentinel
// bytes. It returns an error if Decompress panics, modifies enc, rejects
// enc with an error that does not wrap linecomp.ErrCorrupt or changes dst
// when it does, returns a line of the wrong length, does not append to dst,
// or writes past what it returns. If c reports encodings, EncodingOf must
// not panic either, must name an encoding or fail with ErrCorrupt, and
// must accept every stream that Decompress accepts, naming an encoding
// whose fixed size, if it has one, is the stream's.
func CheckGarbage(c linecomp.Codec, enc []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%X: panic: %v", enc, p)
		}
	}()
	prefix := []byte{1, 2, 3}
	buf := guarded(prefix, c.LineSize()+64)
	in := slices.Clone(enc)
	out, derr := c.Decompress(buf, enc)
	if !bytes.Equal(in, enc) {
		return fmt.Errorf("%X: Decompress modified its input", in)
	}
	want := len(prefix)
	if derr == nil {
		want += c.LineSize()
	} else if !errors.Is(derr, linecomp.ErrCorrupt) {
		return fmt.Errorf("%X: rejected with %v, which does not wrap ErrCorrupt", enc, derr)
	}
	if len(out) != want {
		return fmt.Errorf("%X: Decompress returned %d bytes (error %v), want %d", enc, len(out), derr, want)
	}
	if !bytes.Equal(out[:len(prefix)], prefix) || &out[0] != &buf[0] {
		return fmt.Errorf("%X: Decompress did not append to dst (error %v)", enc, derr)
	}
	if p := writtenPast(buf, want); p >= 0 {
		return fmt.Errorf("%X: Decompress wrote byte %d past the %d it returned (error %v)", enc, p, want, derr)
	}
	if rep, ok := c.(linecomp.EncodingReporter); ok {
		e, err := rep.EncodingOf(enc)
		switch {
		case err != nil && !errors.Is(err, linecomp.ErrCorrupt):
			return fmt.Errorf("%X: EncodingOf failed with %v, which does not wrap ErrCorrupt", enc, err)
		case err == nil && (e < 0 || e >= len(rep.Encodings())):
			return fmt.Errorf("%X: EncodingOf = %d, of %d encodings", enc, e, len(rep.Encodings()))
		case err != nil && derr == nil:
			return fmt.Errorf("%X: Decompress accepts it, EncodingOf says %v", enc, err)
		case err == nil && derr == nil && rep.Encodings()[e].Bits >= 0 && len(enc) != (rep.Encodings()[e].Bits+7)/8:
			return fmt.Errorf("%X: Decompress accepts it as encoding %s of %d bits, but it is %d bytes", enc, rep.Encodings()[e].Name, rep.Encodings()[e].Bits, len(enc))
		}
	}
	return nil
}

// CheckZeroAllocs returns an error if Size, Compress into a reused dst,
// Decompress into a reused dst or, for a linecomp.EncodingReporter,
// EncodingOf allocates for line. It measures with
// testing.AllocsPerRun, so other goroutines must not allocate meanwhile.
// Under the race detector, which changes allocation (sync.Pool drops
// items at random), it checks nothing and returns nil.
func CheckZeroAllocs(c linecomp.Codec, line []byte) error {
	if race.Enabled {
		return nil
	}
	enc := make([]byte, 0, 2*c.LineSize()+64)
	dec := make([]byte, 0, c.LineSize())
	e, _, err := c.Compress(nil, line)
	if err != nil {
		return fmt.Errorf("compressing: %w", err)
	}
	var errs []error
	if a := testing.AllocsPerRun(50, func() { c.Size(line) }); a != 0 {
		errs = append(errs, fmt.Errorf("%v allocations per line in Size", a))
	}
	if a := testing.AllocsPerRun(50, func() { c.Compress(enc[:0], line) }); a != 0 {
		errs = append(errs, fmt.Errorf("%v allocations per line in Compress into a reused dst", a))
	}
	if a := testing.AllocsPerRun(50, func() { c.Decompress(dec[:0], e) }); a != 0 {
		errs = append(errs, fmt.Errorf("%v allocations per line in Decompress into a reused dst", a))
	}
	if rep, ok := c.(linecomp.EncodingReporter); ok {
		if a := testing.AllocsPerRun(50, func() { rep.EncodingOf(e) }); a != 0 {
			errs = append(errs, fmt.Errorf("%v allocations per line in EncodingOf", a))
		}
	}
	return errors.Join(errs...)
}
