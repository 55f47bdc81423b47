package linecomp

// EffectiveBits rounds a compressed size in bits up to a whole number of
// access units of granularityBytes bytes: a DRAM memory access granularity
// (MAG) burst, a cache sector or a storage segment. It is what the data
// actually costs to move or store; the effective compression ratio is
// lineBits / EffectiveBits(bits − TagBits, g), since tag bits do not travel
// with the data.
//
// A size of zero bits costs nothing (an all-zero line whose encoding lives
// in the tag). A granularity ≤ 1 byte rounds to whole bytes; a negative
// bits value is returned unchanged, so an invalid size is never disguised as
// a valid one.
func EffectiveBits(bits, granularityBytes int) int {
	if bits <= 0 {
		return bits
	}
	unit := 8 * max(granularityBytes, 1)
	return (bits + unit - 1) / unit * unit
}
