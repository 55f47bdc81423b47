package bpc

import (
	"encoding/binary"
	"math/bits"

	"github.com/linecomp/linecomp/internal/bitstream"
)

// maxStreamBytes is the longest stream of the layout: the flag, a 33-bit
// base and 33 raw planes of at most 1 + 31 bits, 1090 bits.
const maxStreamBytes = (tagBits + 1 + 32 + planeCount*(1+31) + 7) / 8

// decodeFast decodes a well-formed bit-plane stream (flag 1) one symbol
// per step from 64-bit peeks. It reports false, having written nothing, on
// anything unusual (any malformed stream among them), and Decompress then
// runs the checked decoder, which finds the exact problem. It reads all of
// enc before it writes to dst.
func (c *Codec) decodeFast(dst, enc []byte) ([]byte, bool) {
	n := c.lineSize
	if len(enc) > maxStreamBytes {
		return dst, false
	}
	// in is enc zero-padded, so that every peek can load eight bytes: the
	// last symbol starts at bit 1058 at the latest.
	var in [maxStreamBytes + 8]byte
	copy(in[:], enc)

	v := bitstream.Peek(in[:], 0) << tagBits
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

	var rows [32]uint32
	var above uint32 // DBP[j+1]; DBP[33] is taken as zero
	m := uint(c.planeBits)
	mask := c.planeMask
	posBits := c.posBits
	for j := planeCount - 1; j >= 0; {
		v := bitstream.Peek(in[:], pos)
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
