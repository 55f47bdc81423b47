package bpc

import (
	"encoding/binary"
	"math/bits"
)

// slack is the number of planes below plane 0 in decodeFast's array, for
// its stores past the last symbol: raw symbols can take the planes down
// to −3, and the symbol after them stores two zeros below that.
const slack = 5

// decodeFast decodes a well-formed bit-plane stream (flag 1) from 64-bit
// peeks, its plane symbols with parse (a kernel at 64 and 128 bytes on
// amd64, parseGeneric elsewhere). It reports false, having written nothing, on
// anything unusual (any malformed stream among them), and Decompress then
// runs the checked decoder, which finds the exact problem. It reads all of
// enc before it writes to dst.
func (c *Codec) decodeFast(dst, enc []byte) ([]byte, bool) {
	n := c.lineSize
	// Where a kernel decodes the whole stream in one call (reading all
	// of it first), the line goes straight into dst's spare room.
	// hasDecodeKernel, inlined, spares the other line sizes a call.
	if l := len(dst); cap(dst)-l >= n && c.hasDecodeKernel() && c.decodeInto(dst[l:l+n], enc) {
		return dst[:l+n], true
	}
	last, base, pos := streamHead(enc)
	// First the symbols, into the DBX planes (see parseGeneric), then
	// the DBP planes by the XOR chain.
	var planes [slack + planeCount]uint32
	pos, j, flags := c.parse(enc, last, pos, &planes)
	// A run longer than the planes left, or a position out of range (64
	// planes), ends below plane 0.
	if j != -1 {
		return dst, false
	}
	dbx := (*[planeCount]uint32)(planes[slack:])
	if flags&symDBPZero != 0 {
		// A "DBP zero" plane j (1<<31) takes DBX[j] = DBP[j+1], which
		// gives DBP[j] = 0 in the XOR chain: the rebuild then needs no
		// list of such planes, and the vector kernel takes the line.
		var above uint32 // DBP[j+1]
		for j := planeCount - 1; j >= 0; j-- {
			x := dbx[j]
			if x>>31 != 0 {
				x = above
			}
			dbx[j] = x
			above ^= x
		}
	}
	// The stream must end in the last byte, with zero padding.
	if (pos+7)/8 != uint(len(enc)) || pos&7 != 0 && enc[len(enc)-1]<<(pos&7) != 0 {
		return dst, false
	}
	// All of enc has been read: the line can go straight into dst's
	// spare room where a kernel writes exactly its bytes.
	if l := len(dst); cap(dst)-l >= n && c.rebuildInto(dst[l:l+n], dbx, base) {
		return dst[:l+n], true
	}
	var buf [128]byte
	c.rebuild(dbx, 0, base, &buf)
	return append(dst, buf[:n]...), true
}

// streamHead reads the start of a bit-plane stream enc (at least one
// byte): it returns enc's last eight bytes, for peeks near the end (see
// peekAt), the base word and the bit position after its code.
func streamHead(enc []byte) (last uint64, base uint32, pos uint) {
	end := uint(len(enc))
	if end >= 8 {
		last = binary.BigEndian.Uint64(enc[end-8:])
	} else {
		for _, b := range enc {
			last = last<<8 | uint64(b)
		}
	}
	v := peekAt(enc, last, 0) << tagBits
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
	return last, base, pos
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

// peekAt returns 64 bits of enc from bit pos on, big-endian: where enc
// has eight bytes from pos's byte, those; near its end its last eight
// bytes (last, with zeros before the stream if it is shorter), shifted,
// so that bits past the end read as zero, and enc need not be copied into
// a zero-padded array first.
func peekAt(enc []byte, last uint64, pos uint) uint64 {
	end := uint(len(enc))
	i := pos >> 3
	if i+8 <= end {
		return binary.BigEndian.Uint64(enc[i:]) << (pos & 7)
	}
	return last << (8 * (i + 8 - end)) << (pos & 7)
}

// parseGeneric decodes the plane symbols of the bit-plane stream enc from
// bit pos on into planes, DBX[j] at planes[slack+j], a "DBP zero" symbol's
// plane as 1<<31 (no plane has that bit). It returns the bit position
// after the last symbol, the plane below it (−1 for a well-formed stream;
// anything else stands for a run longer than the planes left or a
// position out of range) and symDBPZero if a plane is 1<<31. last is
// enc's last eight bytes, as peekAt takes them.
//
// It is the branchy decoder the kernels replace on amd64 (which take raw
// symbols three at a time and the others from c.symbols without a branch
// on their kind): in Go, that design's longer chain from one peek to the
// next measured slower, most at 128 bytes.
func (c *Codec) parseGeneric(enc []byte, last uint64, pos uint, planes *[slack + planeCount]uint32) (uint, int, uint64) {
	const bad = -2 // a stream decodeFast gives up on
	var flags uint64
	dbx := planes[slack:]
	m := uint(c.planeBits)
	mask := c.planeMask
	posBits := c.posBits
	j := planeCount - 1
	for j >= 0 {
		v := peekAt(enc, last, pos)
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
				if v = peekAt(enc, last, pos); v>>63 == 0 {
					break
				}
			}
		case 1: // 01 + run of 2…33 zero DBX planes
			r := int(v>>(62-runBits)&(1<<runBits-1)) + 2
			if r > j+1 {
				return pos, bad, flags
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
				dbx[j] = 1 << 31
				flags = symDBPZero
				pos += 5
			case 0b10: // 00010 + p: ones at p and p+1
				if p+1 >= m {
					return pos, bad, flags
				}
				dbx[j] = 3 << p
				pos += 5 + posBits
			case 0b11: // 00011 + p: a single one at p
				if p >= m {
					return pos, bad, flags
				}
				dbx[j] = 1 << p
				pos += 5 + posBits
			}
			j--
		}
	}
	return pos, j, flags
}
