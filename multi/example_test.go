package multi_test

import (
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/multi"
)

// The per-transfer best of Tavana et al.: the stream tells which algorithm
// stored the line, and so the latency of decoding it.
func Example() {
	c, _ := linecomp.New("tavana-best", 64)
	line := make([]byte, 64)
	for i := range 16 {
		binary.LittleEndian.PutUint32(line[4*i:], uint32(3*i))
	}
	enc, bits, _ := c.Compress(nil, line)
	m := c.(*multi.Codec)
	i, _ := m.MemberOf(enc)
	fmt.Println(bits, "bits, stored by", m.Member(i).Name(), "decoded in", m.Member(i).Latency().Decompress, "cycles")
	// Output:
	// 163 bits, stored by fpc-tavana decoded in 5 cycles
}

// A custom chooser: Tavana et al.'s penalty P = N + λ(Lc + Ld). The line
// of words 0, 9, 18, … costs BDI 180 bits and FPC 177; at λ = 0 FPC's 3
// bits win, at λ = 6 BDI's 2 + 1 cycles beat FPC's 3 + 5 (180 + 18 < 177
// + 48).
func ExampleWithChooser() {
	var members []linecomp.Codec
	for _, name := range []string{"none", "bdi", "fpc-tavana"} {
		c, _ := linecomp.New(name, 64)
		members = append(members, c)
	}
	tavana := map[string]linecomp.Latency{"none": {}, "bdi": {Compress: 2, Decompress: 1}, "fpc-tavana": {Compress: 3, Decompress: 5}}
	penalty := func(lambda float64) multi.Chooser {
		return func(line []byte) int {
			best, bestP := 0, 0.0
			for i, m := range members {
				l := tavana[m.Name()]
				p := float64(m.Size(line)) + lambda*float64(l.Compress+l.Decompress)
				if i == 0 || p < bestP {
					best, bestP = i, p
				}
			}
			return best
		}
	}
	line := make([]byte, 64)
	for i := range 16 {
		binary.LittleEndian.PutUint32(line[4*i:], 9*uint32(i))
	}
	for _, lambda := range []float64{0, 6} {
		c, err := multi.New(members, multi.WithChooser(penalty(lambda)))
		if err != nil {
			panic(err)
		}
		fmt.Printf("λ=%v: %s chose %s\n", lambda, c.Name(), c.Member(c.Choose(line)).Name())
	}
	// Output:
	// λ=0: multi(none,bdi,fpc-tavana;custom) chose fpc-tavana
	// λ=6: multi(none,bdi,fpc-tavana;custom) chose bdi
}
