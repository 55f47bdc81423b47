package caba

// The assist-warp subroutines of CABA's Algorithms 1–6 on the lane model
// of warp_test.go. Each takes the stream after its tag (decompression) or
// the line (compression) and returns the line or the stream with the warp
// instructions it issued. Comments cite the algorithm lines.

import "math/bits"

// ---- caba-bdi: Algorithms 1 and 2 ----

// bdiWarpDecompress runs the subroutine of encoding e (Algorithm 1) on
// payload p, the stream after the 4-bit id.
func bdiWarpDecompress(c *BDI, e int, p []byte) (line []byte, issued int) {
	L := c.lineSize
	line = make([]byte, L)
	var w warp
	switch e {
	case 0: // zeros: every lane stores the zero register
		w.shape(L / 4)
		var zero vec
		w.st(line, 4, memory, &zero, stride(0, 4))
	case 1: // repeated: one 8-byte value for every lane
		w.shape(L / 8)
		r := w.uld(p, 0, 8, stream)
		var v vec
		w.alu(&v, func(int) uint64 { return r }) // mov v, r
		w.st(line, 8, memory, &v, stride(0, 8))
	case bdiRaw: // not compressed: no assist warp runs
		copy(line, p[:L])
	default:
		k, d := bdiShape[e].k, bdiShape[e].d
		n := L / k
		mb := (n + 7) / 8
		w.shape(n)
		mask := w.uld(p, 0, mb, stream) // 1: load the encoding's base-select mask,
		base := w.uld(p, mb, k, stream) //    the base
		var v vec
		w.ld(&v, p, d, stream, true, stride(mb+k, d)) // and the deltas, sign-extended
		var explicit pred
		for i := range n {
			explicit |= pred(mask>>(8*mb-1-i)&1) << i
		}
		w.setmask(explicit)                                  // skip the lanes with the implicit zero base
		w.alu(&v, func(i int) uint64 { return v[i] + base }) // 2: base + deltas
		w.setmask(elems(n))
		w.st(line, k, memory, &v, stride(0, k)) // 3: store
	}
	return line, w.issued
}

// bdiWarpCompress runs Algorithm 2: it tries the encodings in the codec's
// order (shortest first) and stores the first that fits. It returns the
// stream, id and payload.
func bdiWarpCompress(c *BDI, line []byte) (enc []byte, issued int) {
	L := c.lineSize
	var w warp
	p := make([]byte, L+8)
	for _, e := range c.order {
		e := int(e)
		switch e {
		case 0:
			w.shape(L / 4)
			var v vec
			w.ld(&v, line, 4, memory, false, stride(0, 4))
			z := w.setp(func(i int) bool { return v[i] == 0 })
			ok := w.all(z)
			w.bra()
			if ok {
				return withTag(uint64(bdiIDs[e]), bdiTagBits, p[:0]), w.issued
			}
		case 1:
			w.shape(L / 8)
			var v vec
			w.ld(&v, line, 8, memory, false, stride(0, 8))
			r := w.bcast(&v, 0)
			eq := w.setp(func(i int) bool { return v[i] == r })
			ok := w.all(eq)
			w.bra()
			if ok {
				w.ust(p, 0, 8, stream, r)
				return withTag(uint64(bdiIDs[e]), bdiTagBits, p[:8]), w.issued
			}
		case bdiRaw:
			// Every encoding failed: the line goes out as it is.
			return withTag(uint64(bdiIDs[e]), bdiTagBits, line), w.issued
		default:
			k, d := bdiShape[e].k, bdiShape[e].d
			n := L / k
			mb := (n + 7) / 8
			keep := ^uint64(0) >> (64 - 8*k) // k-byte arithmetic
			off, span := uint64(1)<<(8*d-1), uint64(1)<<(8*d)
			w.shape(n)
			var v, t, delta vec
			w.ld(&v, line, k, memory, false, stride(0, k)) // 2: load values
			w.alu(&t, func(i int) uint64 { return v[i] + off })
			needBase := w.setp(func(i int) bool { return t[i]&keep >= span }) // no immediate
			b := w.ballot(needBase)
			j := int(w.u(uint64(bits.TrailingZeros64(b) % 64)))      // the first element needing the base
			base := w.bcast(&v, j)                                   // becomes the base,
			base = w.u(sel(b != 0, base, 0))                         // or zero if none does (selp)
			w.alu(&delta, func(i int) uint64 { return v[i] - base }) // 4: values − base
			w.alu(&t, func(i int) uint64 { return delta[i] + off })
			fitsBase := w.setp(func(i int) bool { return t[i]&keep < span }) // 5: fits d bytes
			fits := w.plop(fitsBase | ^needBase)
			ok := w.all(fits)
			w.bra()
			if ok { // 6: store base, deltas
				var field uint64
				for i := range n {
					field |= b >> i & 1 << (8*mb - 1 - i)
				}
				w.ust(p, 0, mb, stream, field)
				w.ust(p, mb, k, stream, base)
				w.alu(&delta, func(i int) uint64 { // selp: zero-base elements keep their value
					if needBase>>i&1 == 1 {
						return delta[i]
					}
					return v[i]
				})
				w.st(p, d, stream, &delta, stride(mb+k, d))
				return withTag(uint64(bdiIDs[e]), bdiTagBits, p[:c.payload[e]]), w.issued
			}
		}
	}
	panic("not reached: raw is in the order")
}

// ---- caba-fpc: Algorithms 3 and 4 ----

// fpcWarpDecompress runs Algorithm 3 on payload p, the stream after the
// flag. Lanes 0…S−1 decode one segment at a time.
func fpcWarpDecompress(c *FPC, raw bool, p []byte) (line []byte, issued int) {
	L, S := c.lineSize, c.seg
	line = make([]byte, L)
	if raw {
		copy(line, p[:L])
		return line, 0
	}
	var w warp
	w.shape(S)
	head := w.uld(p, 0, c.headBytes, stream) // the prefixes, at the head
	addr := int(w.u(uint64(c.headBytes)))    // segment-base-address
	for s := range c.segs {                  // 1: for each segment
		pfx := int(w.u(head >> (8*c.headBytes - 3*(s+1)) & 7)) // bfe
		w.bra()                                                // to the pattern's code
		var v vec
		switch pfx { // 2: load compressed words, 3: pattern-specific decompression
		case FPCZeroSegment:
		case FPCSignExt4:
			w.ld(&v, p, 1, stream, false, func(i int) int { return addr + i/2 })
			w.alu(&v, func(i int) uint64 { return sext(v[i]>>(4*(1-i%2)), 4) }) // bfe.s at the lane's nibble
		case FPCSignExt8:
			w.ld(&v, p, 1, stream, true, stride(addr, 1))
		case FPCSignExt16:
			w.ld(&v, p, 2, stream, true, stride(addr, 2))
		case FPCZeroLowHalf:
			w.ld(&v, p, 2, stream, false, stride(addr, 2))
			w.alu(&v, func(i int) uint64 { return v[i] << 16 })
		case FPCTwoHalves:
			var hi, lo vec
			w.ld(&v, p, 2, stream, false, stride(addr, 2))
			w.alu(&hi, func(i int) uint64 { return sext(v[i]>>8, 8) }) // bfe.s
			w.alu(&lo, func(i int) uint64 { return sext(v[i], 8) })    // bfe.s
			w.alu(&hi, func(i int) uint64 { return hi[i] << 16 })
			w.alu(&lo, func(i int) uint64 { return lo[i] & 0xFFFF })
			w.alu(&v, func(i int) uint64 { return hi[i] | lo[i] })
		case FPCRepeatedBytes:
			w.ld(&v, p, 1, stream, false, stride(addr, 1))
			w.alu(&v, func(i int) uint64 { return v[i] * 0x01010101 })
		case FPCUncompressed:
			w.ld(&v, p, 4, stream, false, stride(addr, 4))
		}
		w.st(line, 4, memory, &v, stride(4*S*s, 4)) // 4: store decompressed words
		if pfx != FPCZeroSegment {
			addr = int(w.u(uint64(addr + S*fpcWidth[pfx]/8))) // 5: next segment
		}
		w.bra() // back to the segment loop
	}
	return line, w.issued
}

// fpcWarpCompress runs Algorithm 4. Each segment tries the patterns in
// prefix order on its lanes.
func fpcWarpCompress(c *FPC, line []byte) (enc []byte, issued int) {
	L, S := c.lineSize, c.seg
	var w warp
	p := make([]byte, L+8)
	w.shape(L / 4)
	var v vec
	w.ld(&v, line, 4, memory, false, stride(0, 4)) // 1: load words
	addr := int(w.u(uint64(c.headBytes)))          // segment-base-address
	head := w.u(0)                                 // the prefixes
	for s := range c.segs {                        // 2: for each segment
		first := s * S
		w.setmask(elems(first+S) &^ elems(first))
		pfx := FPCUncompressed
		for q := range fpcPatterns - 1 { // 3: for each encoding (the word always fits)
			var t, u vec
			var fit pred
			switch q { // 4: test encoding
			case FPCZeroSegment:
				fit = w.setp(func(i int) bool { return v[i] == 0 })
			case FPCSignExt4, FPCSignExt8, FPCSignExt16:
				half := uint64(1) << (fpcWidth[q] - 1)
				w.alu(&t, func(i int) uint64 { return (v[i] + half) & 0xFFFFFFFF })
				fit = w.setp(func(i int) bool { return t[i] < 2*half })
			case FPCZeroLowHalf:
				w.alu(&t, func(i int) uint64 { return v[i] & 0xFFFF })
				fit = w.setp(func(i int) bool { return t[i] == 0 })
			case FPCTwoHalves:
				w.alu(&t, func(i int) uint64 { return v[i] + 0x80 })
				w.alu(&t, func(i int) uint64 { return t[i] & 0xFF00 })
				lo := w.setp(func(i int) bool { return t[i] == 0 })
				w.alu(&u, func(i int) uint64 { return v[i] >> 16 })
				w.alu(&u, func(i int) uint64 { return u[i] + 0x80 })
				w.alu(&u, func(i int) uint64 { return u[i] & 0xFF00 })
				hi := w.setp(func(i int) bool { return u[i] == 0 })
				fit = w.plop(lo & hi)
			case FPCRepeatedBytes:
				w.alu(&t, func(i int) uint64 { return v[i] & 0xFF })
				w.alu(&t, func(i int) uint64 { return t[i] * 0x01010101 })
				fit = w.setp(func(i int) bool { return v[i] == t[i] })
			}
			ok := w.all(fit)
			w.bra()
			if ok { // 5: compressible
				pfx = q
				break
			}
		}
		// 6–7: store the compressed words at segment-base-address, and
		// step it by the segment's size.
		at := func(width int) func(int) int { return func(i int) int { return addr + (i-first)*width } }
		var t vec
		switch pfx {
		case FPCZeroSegment:
		case FPCSignExt4: // two words per byte, the even lane's in the high nibble
			w.shflDown(&t, &v, 1)
			w.alu(&t, func(i int) uint64 { return v[i]<<4&0xF0 | t[i]&0xF }) // bfi
			w.stIf(evenLanes, p, 1, stream, &t, func(i int) int { return addr + (i-first)/2 })
		case FPCSignExt8, FPCRepeatedBytes:
			w.st(p, 1, stream, &v, at(1))
		case FPCSignExt16:
			w.st(p, 2, stream, &v, at(2))
		case FPCZeroLowHalf:
			w.alu(&t, func(i int) uint64 { return v[i] >> 16 })
			w.st(p, 2, stream, &t, at(2))
		case FPCTwoHalves: // bytes 2 and 0 of the word
			w.alu(&t, func(i int) uint64 { return v[i] >> 8 })
			w.alu(&t, func(i int) uint64 { return t[i]&^0xFF | v[i]&0xFF }) // bfi
			w.st(p, 2, stream, &t, at(2))
		case FPCUncompressed:
			w.st(p, 4, stream, &v, at(4))
		}
		if pfx != FPCZeroSegment {
			addr = int(w.u(uint64(addr + S*fpcWidth[pfx]/8)))
		}
		head = w.u(head | uint64(pfx)<<(8*c.headBytes-3*(s+1))) // bfi the prefix
	}
	shorter := w.u(sel(addr < L, 1, 0)) != 0 // setp: shorter than the line?
	w.bra()
	if !shorter {
		return withTag(flagRaw, fpcTagBits, line), w.issued
	}
	w.ust(p, 0, c.headBytes, stream, head)
	return withTag(flagPacked, fpcTagBits, p[:addr]), w.issued
}

// ---- caba-cpack: Algorithms 5 and 6 ----

// cpackWarpDecompress runs Algorithm 5 on payload p, the stream after the
// flag: every lane decodes its word's 12-bit code at bit 12i.
func cpackWarpDecompress(c *CPack, raw bool, p []byte) (line []byte, issued int) {
	L, W := c.lineSize, c.words
	line = make([]byte, L)
	if raw {
		copy(line, p[:L])
		return line, 0
	}
	dictBase := W * cpackCodeBits / 8
	var w warp
	w.shape(W)
	var code, cc, idx, b, a, r vec
	w.ld(&code, p, 2, stream, false, func(i int) int { return 3 * i / 2 })
	w.alu(&code, func(i int) uint64 { return code[i] >> (4 * (1 - i%2)) & 0xFFF }) // bfe at the lane's offset
	w.alu(&cc, func(i int) uint64 { return code[i] >> 10 })
	w.alu(&idx, func(i int) uint64 { return code[i] >> 8 & 3 })
	w.alu(&b, func(i int) uint64 { return code[i] & 0xFF })
	w.alu(&a, func(i int) uint64 { return uint64(dictBase) + 4*idx[i] }) // 1: base-address + index
	var used [4]uint64                                                   // the lanes of each encoding
	for e := range uint64(4) {
		pe := w.setp(func(i int) bool { return cc[i] == e })
		used[e] = w.ballot(pe)
	}
	for e := range uint64(4) { // 3: for each encoding
		w.bra()
		if used[e] == 0 {
			continue // not used in this line
		}
		w.setmask(pred(used[e]))
		switch e { // 4: pattern-specific decompression
		case CPackZZZZ:
			w.alu(&r, func(int) uint64 { return 0 })
		case CPackZZZX:
			w.alu(&r, func(i int) uint64 { return b[i] })
		case CPackMMMM: // 2: load the dictionary word
			w.ld(&r, p, 4, stream, false, func(i int) int { return int(a[i]) })
		case CPackMMMX:
			w.ld(&r, p, 4, stream, false, func(i int) int { return int(a[i]) })
			w.alu(&r, func(i int) uint64 { return r[i] &^ 0xFF })
			w.alu(&r, func(i int) uint64 { return r[i] | b[i] })
		}
	}
	w.setmask(elems(W))
	w.st(line, 4, memory, &r, stride(0, 4)) // 6: store uncompressed words
	return line, w.issued
}

// cpackWarpCompress runs Algorithm 6: zero, then up to four dictionary
// values, each the first word still uncovered.
func cpackWarpCompress(c *CPack, line []byte) (enc []byte, issued int) {
	L, W := c.lineSize, c.words
	dictBase := W * cpackCodeBits / 8
	p := make([]byte, L+8)
	var w warp
	w.shape(W)
	var v, cc, idx, b vec
	w.ld(&v, line, 4, memory, false, stride(0, 4)) // 1: load words
	// 2: the dictionary value zero: zzzz and zzzx.
	zero := w.setp(func(i int) bool { return v[i] == 0 })
	uncovered := w.setp(func(i int) bool { return v[i] >= 0x100 })
	w.alu(&cc, func(i int) uint64 { // selp
		if zero>>i&1 == 1 {
			return CPackZZZZ
		}
		return CPackZZZX
	})
	w.alu(&b, func(i int) uint64 { return v[i] & 0xFF })
	w.alu(&idx, func(int) uint64 { return 0 })
	more := w.any(uncovered)
	w.bra()
	values := 0
	for more { // 2: for each dictionary value, at most four
		if values == cpackDict {
			return withTag(flagRaw, cpackTagBits, line), w.issued // 9: not all lanes compressible
		}
		u := w.ballot(uncovered)
		f := int(w.u(uint64(bits.TrailingZeros64(u))))
		dv := w.bcast(&v, f) // the first word not yet covered
		w.ust(p, dictBase+4*values, 4, stream, dv)
		w.setmask(pred(u))
		var t vec
		full := w.setp(func(i int) bool { return v[i] == dv }) // 3: test match,
		w.alu(&t, func(i int) uint64 { return v[i] ^ dv })
		part := w.setp(func(i int) bool { return t[i] < 0x100 }) // partial match
		j := uint64(values)
		w.aluIf(part, &cc, func(i int) uint64 { // 5: store encoding (selp)
			if full>>i&1 == 1 {
				return CPackMMMM
			}
			return CPackMMMX
		})
		w.aluIf(part, &idx, func(int) uint64 { return j })
		w.aluIf(full, &b, func(int) uint64 { return 0 }) // and mismatching byte (none for mmmm)
		uncovered = w.plop(uncovered &^ part)
		w.setmask(elems(W))
		more = w.any(uncovered)
		w.bra()
		values++
	}
	// 10: store the compressed line: two 12-bit codes in three bytes.
	var code, t vec
	w.alu(&code, func(i int) uint64 { return b[i] | idx[i]<<8 })    // bfi
	w.alu(&code, func(i int) uint64 { return code[i] | cc[i]<<10 }) // bfi
	w.shflDown(&t, &code, 1)
	w.alu(&code, func(i int) uint64 { return code[i] << 12 })
	w.alu(&code, func(i int) uint64 { return code[i] | t[i] })
	w.alu(&t, func(i int) uint64 { return code[i] >> 8 })
	w.stIf(evenLanes, p, 2, stream, &t, func(i int) int { return 3 * i / 2 })
	w.stIf(evenLanes, p, 1, stream, &code, func(i int) int { return 3*i/2 + 2 })
	return withTag(flagPacked, cpackTagBits, p[:dictBase+4*values]), w.issued
}
