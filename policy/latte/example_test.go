package latte_test

import (
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/policy/latte"
	"github.com/linecomp/linecomp/sim/cache"
)

// hostSM stands for the user's own SM model: it knows how many warps were
// ready and how long misses took, and reports them at every EP boundary.
type hostSM struct{ readyWarps, cyclesPerSchedule, missLatency float64 }

func (h *hostSM) EndEP() (float64, float64) {
	return h.readyWarps * h.cyclesPerSchedule, h.missLatency // LATTE-CC Eq. 4
}

// Example drives LATTE-CC's L1 from a host simulator's own loop: every
// call takes the host's cycle, and nothing runs between calls.
func Example() {
	none, _ := linecomp.New("none", 128)
	bdi, _ := linecomp.New("bdi", 128)
	sc2, _ := linecomp.New("sc2", 128)
	l1, err := cache.New(cache.LatteL1(none, bdi, sc2))
	if err != nil {
		panic(err)
	}
	sm := &hostSM{readyWarps: 2, cyclesPerSchedule: 3, missLatency: 220}
	policy, err := latte.New(l1, sm, latte.Config{})
	if err != nil {
		panic(err)
	}

	line := make([]byte, 128)
	for cycle := uint64(0); cycle < 10*256; cycle++ {
		addr := cycle % 200 * 128 // 200 lines: more than 128 fit uncompressed
		binary.LittleEndian.PutUint64(line, addr)
		r := l1.Lookup(cycle, addr)
		if !r.Hit {
			// The host sends the miss down and, when the line returns:
			if _, err := l1.Fill(cycle+220, addr, line); err != nil {
				panic(err)
			}
		}
	}
	st := l1.Stats()
	fmt.Printf("accesses %d, load hits %d, decisions %d, mode now %d\n",
		st.Accesses, st.LoadHits, len(policy.Decisions()), policy.Mode())
	// Output:
	// accesses 2560, load hits 2220, decisions 9, mode now 1
}
