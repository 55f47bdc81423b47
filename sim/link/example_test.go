package link_test

import (
	"fmt"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/policy/vote"
	"github.com/linecomp/linecomp/sim/link"
)

// Replaying inter-GPU reads through the penalty vote: what the command
// `linecomp sim link` does with each record of an rdma trace.
func Example() {
	var cands []linecomp.Codec
	for _, name := range []string{"none", "bdi", "fpc-tavana", "cpack-z"} {
		c, err := linecomp.New(name, 64)
		if err != nil {
			panic(err)
		}
		cands = append(cands, c)
	}
	r, err := link.NewReplay(link.ReplayConfig{
		Link: link.Config{Candidates: cands},
		NewChooser: func(c []linecomp.Codec) (link.Chooser, error) {
			return vote.New(vote.Config{Candidates: c, Lambda: 6}) // one selector per sending GPU
		},
	})
	if err != nil {
		panic(err)
	}
	zero := make([]byte, 64)
	for i := range 10 { // GPU 1 answers ten reads of GPU 2, 10 ns apart
		rec := link.Transfer{Time: uint64(i) * 10000, Src: 1, Dst: 2, Op: link.Read, Data: zero}
		if err := r.Add(rec); err != nil {
			panic(err)
		}
	}
	res, err := r.Finish()
	if err != nil {
		panic(err)
	}
	for _, c := range cands {
		fmt.Printf("%s: %d bits per zero line\n", c.Name(), c.Size(zero))
	}
	fmt.Println("uses:", res.Uses)
	fmt.Println("payload bits:", res.PayloadBits, "of", res.UncompressedPayloadBits)
	fmt.Println("wire bytes:", res.WireBytes, "bus cycles:", res.BusCycles)
	// At λ = 6 the penalties of a zero line are none 512, bdi 4 + 6·(5+1) =
	// 40 (BDI's default latency is its own paper's 5/1), fpc 4 + 6·(3+5) =
	// 52, cpack-z 3 + 6·(16+9) = 153: BDI wins all seven samples and carries
	// the running phase. Each read is a 16-byte ReadReq (1 cycle) and a
	// DataReady of 4 + ceil(4/8) = 5 bytes (1 cycle).

	// Output:
	// none: 512 bits per zero line
	// bdi: 4 bits per zero line
	// fpc-tavana: 4 bits per zero line
	// cpack-z: 3 bits per zero line
	// uses: map[bdi:10 cpack-z:0 fpc-tavana:0 none:0]
	// payload bits: 40 of 5120
	// wire bytes: 210 bus cycles: 20
}
