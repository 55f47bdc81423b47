package ref

import "fmt"

// MAG-aware BDI per the magbdi package doc (Lal et al.): a 4-byte base, an
// implicit zero base, a one-bit-per-word mask, and for every multiple of the
// memory access granularity (MAG) below the line size, a delta width of
// floor((size − header)/words) bits (Eq. 1).

func init() {
	for _, mag := range []int{16, 32, 64} {
		register(fmt.Sprintf("magbdi-%d", mag), func(l []byte) string { return magbdi(l, mag, false) })
		register(fmt.Sprintf("magbdi-%d-signed", mag), func(l []byte) string { return magbdi(l, mag, true) })
	}
}

func magbdi(line []byte, mag int, signedDeltas bool) string {
	L := len(line)
	n := L / 4
	header := 32 + n
	var sizes []int // compressed sizes in bytes, ascending
	for s := mag; s < L; s += mag {
		sizes = append(sizes, s)
	}
	tagBits := 0
	for 1<<tagBits < len(sizes)+1 {
		tagBits++
	}
	uncompressed := 1<<tagBits - 1

	for code, size := range sizes {
		w := (8*size - header) / n
		fitsZero := func(v uint64) bool {
			if signedDeltas {
				return fitsSigned(signed(v, 4), w)
			}
			return v < 1<<w
		}
		fitsBase := func(v, base uint64) bool {
			if signedDeltas {
				return fitsSigned(signed((v-base)&0xFFFFFFFF, 4), w)
			}
			return v >= base && v-base < 1<<w
		}
		values := words(line, 4)
		useBase, base, ok := twoBases(values, fitsZero, fitsBase)
		if !ok {
			continue
		}
		var s bits
		s.put(uint64(code), tagBits)
		s.put(base, 32)
		s.flags(useBase)
		s.deltas(values, useBase, base, w)
		s.zeros(tagBits + 8*size - s.Len())
		return s.String()
	}
	var s bits
	s.put(uint64(uncompressed), tagBits)
	s.raw(line)
	return s.String()
}
