package multi

import (
	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/cpack"
	"github.com/linecomp/linecomp/fpc"
)

// preset is a registered configuration: its members by name and latency,
// its field width, and the default chooser. A codec built by New with the
// same configuration makes the same bits, so it takes the registry name.
type preset struct {
	name      string
	fieldBits int
	members   []presetMember
}

type presetMember struct {
	name    string
	latency linecomp.Latency
}

func (p preset) matches(c *Codec) bool {
	if c.k != p.fieldBits || len(c.members) != len(p.members) {
		return false
	}
	for i, m := range c.members {
		if m.Name() != p.members[i].name || m.Latency() != p.members[i].latency {
			return false
		}
	}
	return true
}

// tavanaLatency is Tavana et al.'s Table III latency of algorithm.
func tavanaLatency(algorithm string) linecomp.Latency {
	l, ok := linecomp.PresetLatency(linecomp.SourceTavana, algorithm)
	if !ok {
		panic("multi: no Tavana latency for " + algorithm)
	}
	return l
}

// registered lists the registered configurations. "tavana-best" is the
// per-transfer best of Tavana et al. §V: every algorithm runs on the line
// and the smallest result is sent, behind the paper's 2-bit field with 0
// for "not compressed".
var registered = []preset{{
	name:      "tavana-best",
	fieldBits: 2,
	members: []presetMember{
		{"none", linecomp.Latency{}},
		{"bdi", tavanaLatency("bdi")},
		{"fpc-tavana", tavanaLatency("fpc")},
		{"cpack-z", tavanaLatency("cpack-z")},
	},
}}

// newTavanaBest builds "tavana-best" for lineSize-byte lines. BDI's
// default latency is its own paper's 5/1 cycles, so it is given Tavana's
// 2/1; fpc-tavana and cpack-z default to Tavana's numbers already, and are
// given them explicitly all the same.
func newTavanaBest(lineSize int) (*Codec, error) {
	none, err := linecomp.New("none", lineSize)
	if err != nil {
		return nil, err
	}
	b, err := bdi.New(lineSize, bdi.WithLatency(tavanaLatency("bdi")))
	if err != nil {
		return nil, err
	}
	f, err := fpc.New(lineSize, fpc.WithTavanaTable(), fpc.WithLatency(tavanaLatency("fpc")))
	if err != nil {
		return nil, err
	}
	z, err := cpack.New(lineSize, cpack.WithCPackZ(), cpack.WithLatency(tavanaLatency("cpack-z")))
	if err != nil {
		return nil, err
	}
	return New([]linecomp.Codec{none, b, f, z}, WithFieldBits(2))
}

func init() {
	linecomp.RegisterNew(linecomp.Info{
		Name:      "tavana-best",
		Paper:     "Tavana et al., Exploiting Adaptive Data Compression to Improve Performance and Energy-Efficiency of Compute Workloads in Multi-GPU Systems, IPDPS 2019, §V (the per-transfer best of none, BDI, FPC and C-Pack+Z behind a 2-bit field)",
		LineSizes: []int{32, 64, 128},
	}, newTavanaBest)
}
