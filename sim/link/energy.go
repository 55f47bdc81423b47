package link

import (
	"fmt"
	"slices"

	"github.com/linecomp/linecomp"
)

// WireEnergy is an energy cost per bit carried on the wire, with its source.
type WireEnergy struct {
	Name            string
	PicoJoulePerBit float64
	Source          string
}

// The per-bit wire energies that Tavana et al. §VII-B quotes. The paper
// reports its results for the in-package case, "roughly 1-2 pJ/b"; the
// default, WireInPackage, takes the low end, which makes the codecs' own
// energy weigh most against what compression saves on the wire (a
// conservative reading for compression). WireInPackageHigh is the high end.
// They are functions, not variables, so that no importer can change the
// default of another.
func WireInPackage() WireEnergy { return wirePresets[0] }

// WireInPackageHigh is the high end of the in-package energy.
func WireInPackageHigh() WireEnergy { return wirePresets[1] }

// WireBoard is the energy of a link between boards.
func WireBoard() WireEnergy { return wirePresets[2] }

// WireNode is the energy of a link between nodes.
func WireNode() WireEnergy { return wirePresets[3] }

var wirePresets = [...]WireEnergy{
	{"in-package", 1, "Tavana et al. §VII-B: on-package/inter-die ≈1–2 pJ/b (low end)"},
	{"in-package-high", 2, "Tavana et al. §VII-B: on-package/inter-die ≈1–2 pJ/b (high end)"},
	{"board", 10, "Tavana et al. §VII-B: multiple boards ≈10 pJ/b (its refs [7], [17])"},
	{"node", 250, "Tavana et al. §VII-B: multiple nodes ≈250 pJ/b (its ref [6])"},
}

// WirePresets returns the wire energies, the default first, as a new slice.
func WirePresets() []WireEnergy { return slices.Clone(wirePresets[:]) }

// WirePreset returns the wire energy named name, and false if there is none.
func WirePreset(name string) (WireEnergy, bool) {
	for _, w := range wirePresets {
		if w.Name == name {
			return w, true
		}
	}
	return WireEnergy{}, false
}

// CodecEnergy is what the link charges for one line carried by one
// candidate: the combined compress+decompress figure of the root
// EnergyPresets() (linecomp.EnergyRoundTrip), charged once per payload
// message and never split into a compress and a decompress half.
type CodecEnergy struct {
	PicoJoule float64
	Source    linecomp.Source // empty when Priced is false or the candidate is "none"
	// Priced is false when no preset applies; the link then counts the
	// candidate's messages in Stats.Unpriced instead of charging them.
	Priced bool
	// Note says where the figure comes from, or why there is none.
	Note string
}

// codecEnergy finds the figure of c at source. "none" runs no circuit and
// costs nothing. A figure given for another line size is not scaled: the
// candidate is unpriced [ours: scaling a synthesised circuit's energy by
// line size would invent a number].
func codecEnergy(c linecomp.Codec, source linecomp.Source) CodecEnergy {
	if c.Name() == "none" {
		return CodecEnergy{Priced: true, Note: "none: no compression circuit runs"}
	}
	info, err := linecomp.Lookup(c.Name())
	if err != nil {
		return CodecEnergy{Note: fmt.Sprintf("%s is not a registered codec, so it has no energy preset", c.Name())}
	}
	p, ok := linecomp.PresetEnergy(source, info.Algorithm, linecomp.EnergyRoundTrip)
	if !ok {
		return CodecEnergy{Note: fmt.Sprintf("%s gives no %s energy for %s", source, linecomp.EnergyRoundTrip, info.Algorithm)}
	}
	if p.LineBits != 0 && p.LineBits != 8*c.LineSize() {
		return CodecEnergy{Note: fmt.Sprintf("%s gives %s's energy for %d-bit lines, not %d", source, info.Algorithm, p.LineBits, 8*c.LineSize())}
	}
	return CodecEnergy{PicoJoule: p.PicoJoule, Source: source, Priced: true,
		Note: fmt.Sprintf("%s: %s %s %g pJ per line", source, info.Algorithm, linecomp.EnergyRoundTrip, p.PicoJoule)}
}
