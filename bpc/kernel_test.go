package bpc

import (
	"math/rand/v2"
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
)

// TestPlanesLevels checks the planes kernel of every level against
// planesGeneric, the pure-Go definition, on every line of every corpus
// file and on random lines, at every line size and for both plane-32
// variants.
func TestPlanesLevels(t *testing.T) {
	files := codectest.Files(t)
	rng := rand.New(rand.NewPCG(7, 8))
	random := make([]byte, 1<<16)
	for i := range random {
		// Mostly small values, so that every symbol kind turns up.
		random[i] = byte(rng.Uint32() >> (rng.Uint32() % 32))
	}
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, n := range codectest.LineSizes {
			for _, opts := range [][]Option{nil, {WithUnsignedPlane()}} {
				c, _ := New(n, opts...)
				check := func(name string, data []byte) {
					for off := 0; off+n <= len(data); off += n {
						var buf [128]byte
						copy(buf[:], data[off:off+n])
						var got, want planeSet
						c.planes(&buf, &got)
						planesGeneric(&buf, c.flip(), c.planeMask, &want)
						if got != want {
							t.Fatalf("%s, %d B line at %d, unsigned %v: kernel %+v, pure Go %+v", name, n, off, c.unsigned, got, want)
						}
					}
				}
				for _, f := range files {
					check(f.Name, f.Data)
				}
				check("random", random)
			}
		}
	})
}

// TestTransposeLevels checks the decoder's transpose at every level against
// transpose32 on random and sparse matrices.
func TestTransposeLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	codectest.ForEachLevel(t, func(t *testing.T) {
		c, _ := New(128)
		for range 10000 {
			var a [32]uint32
			for i := range a {
				a[i] = rng.Uint32() & rng.Uint32() & rng.Uint32()
			}
			got, want := a, a
			c.untranspose(&got)
			transpose32(&want)
			if got != want {
				t.Fatalf("%08X: kernel %08X, pure Go %08X", a, got, want)
			}
		}
	})
}
