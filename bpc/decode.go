package bpc

import (
	"encoding/binary"
	"math/bits"
)

// peek returns the stream from bit pos on, left-aligned in 64 bits (at
// least 57 valid bits), with zeros past the end of enc.
func peek(enc []byte, pos uint) uint64 {
	i := pos >> 3
	var v uint64
	if i+8 <= uint(len(enc)) {
		v = binary.BigEndian.Uint64(enc[i:])
	} else {
		for k := uint(0); k < 8; k++ {
			v <<= 8
			if i+k < uint(len(enc)) {
				v |= uint64(enc[i+k])
			}
		}
	}
	return v << (pos & 7)
}

// decodeFast decodes a well-formed stream one symbol per step from 64-bit
// peeks. It reports false, having written nothing, on anything unusual
// (any malformed stream among them), and Decompress then runs the checked
// decoder, which finds the exact problem.
func (c *Codec) decodeFast(dst, enc []byte) ([]byte, bool) {
	n := c.lineSize
	if len(enc) == 0 {
		return dst, false
	}
	if enc[0]>>7 == 0 {
		// Raw: the line shifted right by one bit behind the flag.
		if len(enc) != n+1 || enc[n]&0x7F != 0 {
			return dst, false
		}
		start := len(dst)
		dst = append(dst, enc[1:]...)
		out := dst[start:]
		for i := 0; i < n; i += 8 {
			v := binary.BigEndian.Uint64(enc[i:])
			binary.BigEndian.PutUint64(out[i:], v<<1|uint64(enc[i+8]>>7))
		}
		return dst, true
	}

	v := peek(enc, 0) << flagBits
	var base uint32
	var pos uint
	switch {
	case v>>63 != 0:
		base = uint32(v >> 31)
		pos = flagBits + 1 + 32
	default:
		width := [4]uint{0, 4, 8, 16}[v>>61&3]
		pos = flagBits + 3 + width
		if width > 0 {
			base = uint32(int32(v<<3>>(64-width)<<(32-width)) >> (32 - width))
		}
	}

	var rows [32]uint32
	var above uint32 // DBP[j+1]; DBP[33] is taken as zero
	m := uint(c.planeBits)
	mask := c.planeMask
	posBits := c.posBits
	for j := planeCount - 1; j >= 0; {
		v := peek(enc, pos)
		var dbp uint32
		switch bits.LeadingZeros64(v) {
		case 0: // 1 + raw DBX
			dbp = uint32(v>>(63-m))&mask ^ above
			pos += 1 + m
		case 1: // 01 + run of 2…33 zero DBX planes
			r := int(v>>(62-runBits)&(1<<runBits-1)) + 2
			if r > j+1 {
				return dst, false
			}
			pos += 2 + runBits
			for ; r > 0; r-- {
				if j < 32 {
					rows[j] = above
				}
				j--
			}
			continue
		case 2: // 001: one zero DBX plane
			dbp = above
			pos += 3
		default:
			p := uint(v >> (64 - 5 - posBits) & (1<<posBits - 1))
			switch v >> 59 & 3 {
			case 0b00: // 00000: DBX all ones
				dbp = mask ^ above
				pos += 5
			case 0b01: // 00001: DBP zero
				pos += 5
			case 0b10: // 00010 + p: ones at p and p+1
				if p+1 >= m {
					return dst, false
				}
				dbp = 3<<p ^ above
				pos += 5 + posBits
			case 0b11: // 00011 + p: a single one at p
				if p >= m {
					return dst, false
				}
				dbp = 1<<p ^ above
				pos += 5 + posBits
			}
		}
		if j < 32 {
			rows[j] = dbp
		}
		above = dbp
		j--
	}
	// The stream must end in the last byte, with zero padding.
	if (pos+7)/8 != uint(len(enc)) || pos&7 != 0 && enc[len(enc)-1]<<(pos&7) != 0 {
		return dst, false
	}

	c.untranspose(&rows)
	var buf [128]byte
	w := base
	binary.LittleEndian.PutUint32(buf[:], w)
	for k := 0; k < c.planeBits; k++ {
		w += rows[k]
		binary.LittleEndian.PutUint32(buf[4*k+4:], w)
	}
	return append(dst, buf[:n]...), true
}
