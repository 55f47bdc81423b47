package linecomp

import "slices"

// EnergyOp names what one energy preset is charged for.
type EnergyOp string

// The operations an energy preset can be charged for.
const (
	// EnergyCompress: compressing one line.
	EnergyCompress EnergyOp = "compress"
	// EnergyDecompress: decompressing one line.
	EnergyDecompress EnergyOp = "decompress"
	// EnergyRoundTrip: compressing one line at the sender and
	// decompressing it at the receiver, as one combined figure. A model
	// charges it once per line transferred and never splits it into
	// invented halves.
	EnergyRoundTrip EnergyOp = "compress+decompress"
)

// EnergyPreset is one published energy figure.
type EnergyPreset struct {
	Source    Source
	Algorithm string // a codec's Info.Algorithm
	Op        EnergyOp
	PicoJoule float64 // per Op, for one line of LineBits bits
	LineBits  int     // the line size the figure was given for; 0 = any
}

// EnergyPresets returns every energy figure the source papers give for a
// codec, as a new slice (the table is not a variable an importer could
// change). None is invented or derived. (MAG-aware BDI's figures for the
// memory controller's metadata cache, which is no codec, are sim/mem's.)
//
//	source    algorithm       op                   pJ     line   where
//	latte-cc  bdi             compress             192    –      LATTE-CC §IV-A1 (0.192 nJ)
//	latte-cc  bdi             decompress           56     –      LATTE-CC §IV-A1 (0.056 nJ)
//	latte-cc  sc2             compress             420    –      LATTE-CC §IV-A2 (0.42 nJ)
//	latte-cc  sc2             decompress           336    –      LATTE-CC §IV-A2 (0.336 nJ)
//	tavana    fpc             compress+decompress  36.9   512 b  Tavana Table III
//	tavana    bdi             compress+decompress  1.3    512 b  Tavana Table III
//	tavana    cpack-z         compress+decompress  40.0   512 b  Tavana Table III
func EnergyPresets() []EnergyPreset { return slices.Clone(energyPresets) }

var energyPresets = []EnergyPreset{
	{SourceLatteCC, "bdi", EnergyCompress, 192, 0},
	{SourceLatteCC, "bdi", EnergyDecompress, 56, 0},
	{SourceLatteCC, "sc2", EnergyCompress, 420, 0},
	{SourceLatteCC, "sc2", EnergyDecompress, 336, 0},
	{SourceTavana, "fpc", EnergyRoundTrip, 36.9, 512},
	{SourceTavana, "bdi", EnergyRoundTrip, 1.3, 512},
	{SourceTavana, "cpack-z", EnergyRoundTrip, 40.0, 512},
}

// PresetEnergy returns the figure that source gives for op of algorithm,
// and false if it gives none.
func PresetEnergy(source Source, algorithm string, op EnergyOp) (EnergyPreset, bool) {
	for _, p := range energyPresets {
		if p.Source == source && p.Algorithm == algorithm && p.Op == op {
			return p, true
		}
	}
	return EnergyPreset{}, false
}
