package bpc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
)

// TestPlanesLevels checks the planes kernel of every level (each line size
// has its own, which reads the line where it is) against
// planesGeneric, the pure-Go definition, on every line of every corpus
// file and on random lines, at every line size and for both plane-32
// variants.
func TestPlanesLevels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	random := make([]byte, 1<<16)
	for i := range random {
		// Mostly small values, so that every symbol kind turns up.
		random[i] = byte(rng.Uint32() >> (rng.Uint32() % 32))
	}
	for _, n := range codectest.LineSizes {
		var extra [][]byte
		for off := 0; off+n <= len(random); off += n {
			extra = append(extra, random[off:off+n])
		}
		for _, opts := range [][]Option{nil, {WithUnsignedPlane()}} {
			c, _ := New(n, opts...)
			kernel := func(data []byte, out []planeSet) {
				for i := range out {
					c.transform(data[i*n:(i+1)*n], &out[i])
				}
			}
			generic := func(line []byte) (ps planeSet) {
				var buf [128]byte
				copy(buf[:], line)
				planesGeneric(&buf, c.flip(), c.planeMask, &ps)
				return ps
			}
			t.Run(fmt.Sprintf("%s/%d", c.Name(), n), func(t *testing.T) {
				codectest.CrossCheck(t, n, extra, kernel, generic)
			})
		}
	}
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
				// The AND of three random words: one bit in eight set.
				x, y, z := rng.Uint32(), rng.Uint32(), rng.Uint32()
				a[i] = x & y & z
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
