package linecomp

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
	// EnergyMDRead, EnergyMDWrite: one read or write of a memory
	// controller's metadata cache.
	EnergyMDRead  EnergyOp = "md-read"
	EnergyMDWrite EnergyOp = "md-write"
)

// MetadataCache is the Algorithm of the metadata-cache energy presets,
// which belong to no codec.
const MetadataCache = "metadata-cache"

// EnergyPreset is one published energy figure.
type EnergyPreset struct {
	Source    Source
	Algorithm string // a codec's Info.Algorithm, or MetadataCache
	Op        EnergyOp
	PicoJoule float64 // per Op, for one line of LineBits bits
	LineBits  int     // the line size the figure was given for; 0 = any
}

// EnergyPresets lists every energy figure the source papers give. None is
// invented or derived.
//
//	source    algorithm       op                   pJ     line   where
//	latte-cc  bdi             compress             192    –      LATTE-CC §IV-A1 (0.192 nJ)
//	latte-cc  bdi             decompress           56     –      LATTE-CC §IV-A1 (0.056 nJ)
//	latte-cc  sc2             compress             420    –      LATTE-CC §IV-A2 (0.42 nJ)
//	latte-cc  sc2             decompress           336    –      LATTE-CC §IV-A2 (0.336 nJ)
//	tavana    fpc             compress+decompress  36.9   512 b  Tavana Table III
//	tavana    bdi             compress+decompress  1.3    512 b  Tavana Table III
//	tavana    cpack-z         compress+decompress  40.0   512 b  Tavana Table III
//	mag-bdi   metadata-cache  md-read              1.4    –      MAG-aware BDI §V-B (0.0014 nJ)
//	mag-bdi   metadata-cache  md-write             0.97   –      MAG-aware BDI §V-B (0.00097 nJ)
var EnergyPresets = []EnergyPreset{
	{SourceLatteCC, "bdi", EnergyCompress, 192, 0},
	{SourceLatteCC, "bdi", EnergyDecompress, 56, 0},
	{SourceLatteCC, "sc2", EnergyCompress, 420, 0},
	{SourceLatteCC, "sc2", EnergyDecompress, 336, 0},
	{SourceTavana, "fpc", EnergyRoundTrip, 36.9, 512},
	{SourceTavana, "bdi", EnergyRoundTrip, 1.3, 512},
	{SourceTavana, "cpack-z", EnergyRoundTrip, 40.0, 512},
	{SourceMAG, MetadataCache, EnergyMDRead, 1.4, 0},
	{SourceMAG, MetadataCache, EnergyMDWrite, 0.97, 0},
}

// PresetEnergy returns the figure that source gives for op of algorithm,
// and false if it gives none.
func PresetEnergy(source Source, algorithm string, op EnergyOp) (EnergyPreset, bool) {
	for _, p := range EnergyPresets {
		if p.Source == source && p.Algorithm == algorithm && p.Op == op {
			return p, true
		}
	}
	return EnergyPreset{}, false
}
