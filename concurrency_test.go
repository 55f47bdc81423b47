package linecomp_test

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/linecomptest"
)

// The Codec contract promises that every codec is safe for concurrent use.
// TestConcurrentUse holds every registered codec to it: goroutines share
// one instance and check each result against the one computed alone
// beforehand. Run it under the race detector:
//
//	go test -race -run Concurr .
//
// For a trainable codec, half of the goroutines train (Observe, Rebuild,
// use the new codec) beside the others' use of the shared one. The work is
// kept small (40 sample lines per codec and size, about 7,000 line
// operations per codec and size) so that the whole test takes a few
// seconds under -race in CI.
const (
	concurrentGoroutines = 8
	concurrentRounds     = 3
	concurrentLines      = 40 // sample lines per codec and line size
)

// concurrentSizes are the line sizes each codec is run at: those of
// codectest.LineSizes that it takes, else its smallest.
func concurrentSizes(info linecomp.Info) []int {
	var sizes []int
	for _, n := range codectest.LineSizes {
		if slices.Contains(info.LineSizes, n) {
			sizes = append(sizes, n)
		}
	}
	if len(sizes) == 0 {
		sizes = info.LineSizes[:1]
	}
	return sizes
}

// concurrentData returns count lines of n bytes, back to back: edge lines
// (zeros, repeats, narrow values…) and lines spread over the sample files,
// so that every codec takes several of its encodings.
func concurrentData(n, count int) []byte {
	var data []byte
	for _, l := range linecomptest.EdgeLines(n) {
		if len(data) >= n*count/4 {
			break
		}
		data = append(data, l...)
	}
	files := codectest.Sample()
	for i := 0; len(data) < n*count; i++ {
		f := files[i%len(files)].Data
		lines := len(f) / n
		off := (i * 7919 % lines) * n // a prime stride over the file
		data = append(data, f[off:off+n]...)
	}
	return data
}

// expected is what a codec gives for data when no other goroutine uses it.
type expected struct {
	sizes     []int
	encs      [][]byte
	bits      []int
	encodings []int // EncodingOf each stream, if the codec reports them
	batch     linecomp.Lines
}

func expect(t *testing.T, c linecomp.Codec, data []byte) expected {
	t.Helper()
	var e expected
	n := c.LineSize()
	r, reports := c.(linecomp.EncodingReporter)
	for off := 0; off < len(data); off += n {
		line := data[off : off+n]
		enc, bits, err := c.Compress(nil, line)
		if err != nil {
			t.Fatal(err)
		}
		e.sizes = append(e.sizes, c.Size(line))
		e.encs = append(e.encs, enc)
		e.bits = append(e.bits, bits)
		if reports {
			k, err := r.EncodingOf(enc)
			if err != nil {
				t.Fatal(err)
			}
			e.encodings = append(e.encodings, k)
		}
	}
	if err := linecomp.CompressLines(c, &e.batch, data); err != nil {
		t.Fatal(err)
	}
	return e
}

// use runs every method that reads c over data and compares with want.
func use(c linecomp.Codec, data []byte, want *expected) error {
	n := c.LineSize()
	r, reports := c.(linecomp.EncodingReporter)
	var enc, dec []byte
	for i := range want.encs {
		line := data[i*n : (i+1)*n]
		if got := c.Size(line); got != want.sizes[i] {
			return fmt.Errorf("line %d: Size %d, alone %d", i, got, want.sizes[i])
		}
		var bits int
		var err error
		enc, bits, err = c.Compress(enc[:0], line)
		if err != nil || bits != want.bits[i] || !bytes.Equal(enc, want.encs[i]) {
			return fmt.Errorf("line %d: Compress %X (%d bits, %v), alone %X (%d bits)", i, enc, bits, err, want.encs[i], want.bits[i])
		}
		if dec, err = c.Decompress(dec[:0], enc); err != nil || !bytes.Equal(dec, line) {
			return fmt.Errorf("line %d: Decompress %X, %v; want %X", i, dec, err, line)
		}
		if reports {
			if k, err := r.EncodingOf(enc); err != nil || k != want.encodings[i] {
				return fmt.Errorf("line %d: EncodingOf %d, %v; alone %d", i, k, err, want.encodings[i])
			}
		}
	}
	sizes, err := linecomp.Sizes(c, nil, data)
	if err != nil || !slices.Equal(sizes, want.sizes) {
		return fmt.Errorf("Sizes %v, %v; alone %v", sizes, err, want.sizes)
	}
	var batch linecomp.Lines
	if err := linecomp.CompressLines(c, &batch, data); err != nil ||
		!bytes.Equal(batch.Enc, want.batch.Enc) || !slices.Equal(batch.End, want.batch.End) || !slices.Equal(batch.Bits, want.batch.Bits) {
		return fmt.Errorf("CompressLines differs from the lines compressed alone (%v)", err)
	}
	if out, err := linecomp.DecompressLines(c, nil, &batch); err != nil || !bytes.Equal(out, data) {
		return fmt.Errorf("DecompressLines: %v", err)
	}
	return nil
}

// train feeds data to tr and returns the codec that Build makes, having
// checked that it round-trips data.
func train(tr linecomp.Trainer, n int, data []byte) (linecomp.Trainable, error) {
	for off := 0; off+n <= len(data); off += n {
		tr.Observe(data[off : off+n])
	}
	next, err := tr.Build()
	if err != nil {
		return nil, err
	}
	var enc, dec []byte
	for off := 0; off+n <= len(data); off += n {
		line := data[off : off+n]
		enc, _, err = next.Compress(enc[:0], line)
		if err == nil {
			dec, err = next.Decompress(dec[:0], enc)
		}
		if err != nil || !bytes.Equal(dec, line) {
			return nil, fmt.Errorf("a built codec does not round-trip line %d: %v", off/n, err)
		}
	}
	return next, nil
}

func TestConcurrentUse(t *testing.T) {
	infos := linecomp.Infos()
	if len(infos) < 2 {
		t.Fatalf("only %d codecs registered", len(infos))
	}
	for _, info := range infos {
		for _, n := range concurrentSizes(info) {
			t.Run(fmt.Sprintf("%s/%d", info.Name, n), func(t *testing.T) {
				c, err := linecomp.New(info.Name, n)
				if err != nil {
					t.Fatal(err)
				}
				data := concurrentData(n, concurrentLines)
				tc, trainable := c.(linecomp.Trainable)
				if trainable != info.Trainable {
					t.Fatalf("implements Trainable: %v; Info says %v", trainable, info.Trainable)
				}
				var tr linecomp.Trainer // one trainer shared by the training goroutines
				if trainable {
					// Use a trained code book, so that the shared codec
					// takes its coded paths, not only raw lines.
					if tc, err = train(tc.NewTrainer(), n, data); err != nil {
						t.Fatal(err)
					}
					c = tc
					tr = tc.NewTrainer()
				}
				want := expect(t, c, data)

				var wg sync.WaitGroup
				errs := make(chan error, concurrentGoroutines)
				start := make(chan struct{}) // so that the goroutines overlap
				for g := range concurrentGoroutines {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						for round := range concurrentRounds {
							var err error
							if trainable && g%2 == 1 {
								// Training beside use: observe a few lines,
								// build, use the codec Build made, and again,
								// so that the goroutines share the trainer.
								for off := 0; off < len(data) && err == nil; off += 8 * n {
									_, err = train(tr, n, data[off:min(off+8*n, len(data))])
								}
							} else {
								err = use(c, data, &want)
							}
							if err != nil {
								errs <- fmt.Errorf("goroutine %d round %d: %v", g, round, err)
								return
							}
						}
					}()
				}
				close(start)
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Error(err)
				}
				// The shared codec still gives what it gave alone.
				if err := use(c, data, &want); err != nil {
					t.Errorf("after the goroutines: %v", err)
				}
			})
		}
	}
}
