package magbdi

import "encoding/binary"

// Offsets in the parameter block of the one-call kernels (magCompress,
// magDecompress); _asm/magbdi.go declares the same values. The block is a
// header, one record per level, then each level's pack and unpack tables.
const (
	mpLevels   = 0   // u64: number of levels
	mpTag      = 8   // u64: bits of the encoding field
	mpFull     = 16  // u64: one bit per word of the line
	mpPre      = 24  // u64: nonzero when the kernel runs the prefilter
	mpPreImm   = 32  // u32 off, u32 span: the prefilter's immediate test
	mpPreDif   = 40  // u32 off, u32 span: its test against the first other
	mpBits     = 64  // 8 u64: the stream length in bits of each code
	mpLevel0   = 128 // the first level record
	mpLevelLen = 128 // bytes per level record

	mlOff       = 0  // u32: the fit test's offset: 2^(w−1) signed, else 0
	mlSpan      = 4  // u32: 2^w
	mlWidth     = 8  // u64: w
	mlFieldMask = 16 // u32: 2^w − 1
	mlSignBit   = 20 // u32: 2^(w−1) signed, else 0
	mlPairMask  = 24 // u64: (2^w − 1) << w
	mlPack      = 32 // u64: offset in the block of the level's pack entries
	mlN0        = 40 // u64: pack entries of the first output vector
	mlN1        = 48 // u64: pack entries of the second output vector
	mlUnpack    = 56 // u64: offset in the block of the level's unpack tables
	mlStore     = 64 // 2 u64: the stream's bytes, as masks of two vectors
	mlSteps     = 80 // u64: merge steps after the pairing (0 to 4)
	mlStepW     = 88 // 4 u64: each merge step's field width before it

	packEntryLen = 192 // 8 qword indexes, 8 left shifts, 8 right shifts
)

// kernelParams returns the parameter block of the one-call kernels for
// c's 64- or 128-byte lines.
//
// Compress packs the deltas in steps (see magCompress in
// _asm/magbdi.go): each pair of words becomes one W = 2w-bit field
// d₂ₖ << w | d₂ₖ₊₁ in qword lane k; while two fields fit a qword
// (2W ≤ 64), a merge step halves the fields and doubles W, field k then in
// lane k·2^steps. Each big-endian 64-bit word m of the packed deltas
// (stream bits 64m to 64m+63 after the header) is the OR of the fields
// that overlap it, field k shifted left by s = 64(m+1) − W(k+1) when
// s ≥ 0, else right by −s. A pack entry gives, for the 8 words of one
// output vector, one such field per word (lane, left count, right count;
// counts of 64 give nothing).
//
// Decompress reads delta i, at bit pos = header + i·w of the stream
// without its code, from the eight bytes from pos/8 on (big-endian, so
// lane byte b holds stream byte pos/8 + 7 − b) shifted right by
// 64 − pos%8 − w; its unpack tables are those byte indexes (words/8
// vectors), then those shift counts (words/8 vectors).
func (c *Codec) kernelParams() []byte {
	le := binary.LittleEndian
	halves := c.lineSize / 64
	p := make([]byte, mpLevel0+len(c.levels)*mpLevelLen)
	le.PutUint64(p[mpLevels:], uint64(len(c.levels)))
	le.PutUint64(p[mpTag:], uint64(c.tagBits))
	le.PutUint64(p[mpFull:], 1<<c.words-1)
	for code := range 1 << c.tagBits {
		le.PutUint64(p[mpBits+8*code:], uint64(c.encodedBits(code)))
	}
	// The prefilter, for codecs of two levels or more: a word y that is
	// no immediate at the widest level, wmax, is none at any level, so it
	// is within 2^w of the level's base b: y − b in [0, 2^w) unsigned,
	// [−2^(w−1), 2^(w−1)) signed. Two such words y and r then differ by
	// less than 2^w ≤ 2^wmax either way: (y − r + 2^wmax) mod 2^32 <
	// 2^(wmax+1). A line where that fails, r the first such word, fits no
	// level (most lines that fit none fail it), and the kernel writes it
	// raw without testing each level.
	if wmax := c.levels[len(c.levels)-1].width; len(c.levels) > 1 {
		var off uint32
		if c.signed {
			off = 1 << (wmax - 1)
		}
		le.PutUint64(p[mpPre:], 1)
		le.PutUint32(p[mpPreImm:], off)
		le.PutUint32(p[mpPreImm+4:], 1<<wmax)
		le.PutUint32(p[mpPreDif:], 1<<wmax)
		le.PutUint32(p[mpPreDif+4:], 1<<(wmax+1))
	}
	header := baseBits + c.words
	for i, l := range c.levels {
		rec := p[mpLevel0+i*mpLevelLen:]
		w := l.width
		var off uint32
		if c.signed {
			off = 1 << (w - 1)
		}
		le.PutUint32(rec[mlOff:], off)
		le.PutUint32(rec[mlSpan:], 1<<w)
		le.PutUint64(rec[mlWidth:], uint64(w))
		le.PutUint32(rec[mlFieldMask:], 1<<w-1)
		le.PutUint32(rec[mlSignBit:], off)
		le.PutUint64(rec[mlPairMask:], (1<<w-1)<<w)
		// The stream is the code bits and l.bytes bytes: l.bytes+1 bytes.
		for h := range halves {
			bytes := min(max(l.bytes+1-64*h, 0), 64)
			le.PutUint64(rec[mlStore+8*h:], uint64(1)<<bytes-1)
		}

		// Pack entries, output vector by output vector.
		le.PutUint64(rec[mlPack:], uint64(len(p)))
		fieldBits, fields, steps := 2*int(w), c.words/2, 0
		for 2*fieldBits <= 64 && fields > 1 {
			le.PutUint64(rec[mlStepW+8*steps:], uint64(fieldBits))
			fieldBits, fields, steps = 2*fieldBits, fields/2, steps+1
		}
		le.PutUint64(rec[mlSteps:], uint64(steps))
		outWords := (fields*fieldBits + 63) / 64
		for o := range halves {
			var lanes [8][][2]int // per output word: (field, shift s)
			n := 0
			for lane := range lanes {
				m := 8*o + lane
				if m >= outWords {
					continue
				}
				for k := range fields {
					if k*fieldBits < 64*(m+1) && (k+1)*fieldBits > 64*m {
						lanes[lane] = append(lanes[lane], [2]int{k, 64*(m+1) - fieldBits*(k+1)})
					}
				}
				n = max(n, len(lanes[lane]))
			}
			le.PutUint64(rec[mlN0+8*o:], uint64(n))
			for e := range n {
				var entry [packEntryLen]byte
				for lane, cands := range lanes {
					idx, left, right := 0, 64, 64
					if e < len(cands) {
						idx = cands[e][0] << steps // the lane of merged field k
						if s := cands[e][1]; s >= 0 {
							left = s
						} else {
							right = -s
						}
					}
					le.PutUint64(entry[8*lane:], uint64(idx))
					le.PutUint64(entry[64+8*lane:], uint64(left))
					le.PutUint64(entry[128+8*lane:], uint64(right))
				}
				p = append(p, entry[:]...)
				rec = p[mpLevel0+i*mpLevelLen:] // p may have moved
			}
		}

		// Unpack tables.
		le.PutUint64(rec[mlUnpack:], uint64(len(p)))
		idx := make([]byte, 8*c.words)
		shifts := make([]byte, 8*c.words)
		for d := range c.words {
			pos := header + d*int(w)
			for b := range 8 {
				idx[8*d+b] = byte(pos/8 + 7 - b)
			}
			le.PutUint64(shifts[8*d:], uint64(64-pos%8-int(w)))
		}
		p = append(p, idx...)
		p = append(p, shifts...)
	}
	return p
}
