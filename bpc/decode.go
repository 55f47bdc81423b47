package bpc

import (
	"encoding/binary"
	"math/bits"
)

// decodeFast decodes a well-formed bit-plane stream (flag 1) one symbol
// per step from 64-bit peeks. It reports false, having written nothing, on
// anything unusual (any malformed stream among them), and Decompress then
// runs the checked decoder, which finds the exact problem. It reads all of
// enc before it writes to dst.
func (c *Codec) decodeFast(dst, enc []byte) ([]byte, bool) {
	n := c.lineSize
	// Peeks load eight bytes of enc where it has them. Near its end they
	// take its last eight bytes, held in a register (with zeros before
	// the stream if it is shorter), shifted: bits past the end read as
	// zero. So enc is not copied into a zero-padded array first.
	end := uint(len(enc))
	var last uint64
	if end >= 8 {
		last = binary.BigEndian.Uint64(enc[end-8:])
	} else {
		for _, b := range enc {
			last = last<<8 | uint64(b)
		}
	}
	peek := func(pos uint) uint64 {
		i := pos >> 3
		if i+8 <= end {
			return binary.BigEndian.Uint64(enc[i:]) << (pos & 7)
		}
		return last << (8 * (i + 8 - end)) << (pos & 7)
	}

	v := peek(0) << tagBits
	var base uint32
	var pos uint
	switch {
	case v>>63 != 0:
		base = uint32(v >> 31)
		pos = tagBits + 1 + 32
	default:
		width := [4]uint{0, 4, 8, 16}[v>>61&3]
		pos = tagBits + 3 + width
		if width > 0 {
			base = uint32(int32(v<<3>>(64-width)<<(32-width)) >> (32 - width))
		}
	}

	// First the symbols, into the DBX planes (a run leaves its planes
	// zero) and the planes whose DBP a symbol sets to zero; then the DBP
	// planes by the XOR chain. Parsing without the chain keeps each
	// symbol's work short.
	var dbx [planeCount]uint32
	var dbpZero uint64 // bit j: DBP[j] = 0 (symbol 00001)
	m := uint(c.planeBits)
	mask := c.planeMask
	posBits := c.posBits
	for j := planeCount - 1; j >= 0; {
		v := peek(pos)
		switch bits.LeadingZeros64(v) {
		case 0: // 1 + raw DBX
			// Raw planes come in stretches (the low planes of a line are
			// the noisy ones): take the whole stretch here, with one
			// well-predicted branch per plane instead of the symbol
			// switch's.
			for {
				dbx[j] = uint32(v>>(63-m)) & mask
				pos += 1 + m
				if j--; j < 0 {
					break
				}
				if v = peek(pos); v>>63 == 0 {
					break
				}
			}
		case 1: // 01 + run of 2…33 zero DBX planes
			r := int(v>>(62-runBits)&(1<<runBits-1)) + 2
			if r > j+1 {
				return dst, false
			}
			pos += 2 + runBits
			j -= r
		case 2: // 001: one zero DBX plane
			pos += 3
			j--
		default:
			p := uint(v >> (64 - 5 - posBits) & (1<<posBits - 1))
			switch v >> 59 & 3 {
			case 0b00: // 00000: DBX all ones
				dbx[j] = mask
				pos += 5
			case 0b01: // 00001: DBP zero
				dbpZero |= 1 << uint(j)
				pos += 5
			case 0b10: // 00010 + p: ones at p and p+1
				if p+1 >= m {
					return dst, false
				}
				dbx[j] = 3 << p
				pos += 5 + posBits
			case 0b11: // 00011 + p: a single one at p
				if p >= m {
					return dst, false
				}
				dbx[j] = 1 << p
				pos += 5 + posBits
			}
			j--
		}
	}
	// The stream must end in the last byte, with zero padding.
	if (pos+7)/8 != uint(len(enc)) || pos&7 != 0 && enc[len(enc)-1]<<(pos&7) != 0 {
		return dst, false
	}
	var buf [128]byte
	c.rebuild(&dbx, dbpZero, base, &buf)
	return append(dst, buf[:n]...), true
}

// rebuildScalar writes the words of the line whose DBX planes are dbx,
// with DBP[j] = 0 for the planes j set in dbpZero, and whose first word is
// base, to line (all 32 words; those past the codec's line size are
// meaningless). The transpose is the level's.
func (c *Codec) rebuildScalar(dbx *[planeCount]uint32, dbpZero uint64, base uint32, line *[128]byte) {
	// DBP[32] = DBX[32] (DBP[33] is taken as zero), DBP[j] = DBX[j] ^
	// DBP[j+1], or zero where a symbol said so; rows receives DBP[0…31]
	// for the inverse transpose.
	var rows [32]uint32
	above := dbx[32] &^ -uint32(dbpZero>>32)
	for j := 31; j >= 0; j-- {
		above = (dbx[j] ^ above) &^ -uint32(dbpZero>>uint(j)&1)
		rows[j] = above
	}
	// After the transpose rows[k] holds Δ_{k+1} mod 2^32; the words are
	// its prefix sums from w_0.
	c.untranspose(&rows)
	w := base
	binary.LittleEndian.PutUint32(line[:], w)
	for k := range 31 {
		w += rows[k]
		binary.LittleEndian.PutUint32(line[4*k+4:], w)
	}
}
