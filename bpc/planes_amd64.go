//go:build amd64 && gc && !purego && !noasm

package bpc

import "github.com/linecomp/linecomp/internal/cpu"

// transform computes the planes of line, a line of the codec's size, with
// the best kernel the CPU has: the AVX-512 ones need VBMI and GFNI for
// their in-register bit transpose. The kernels read a short line where it
// is.
func (c *Codec) transform(line []byte, ps *planeSet) {
	if cpu.Active() < cpu.AVX2 {
		c.transformPadded(line, ps)
		return
	}
	if cpu.Active() >= cpu.AVX512 && cpu.ByteOps {
		switch c.lineSize {
		case 128:
			bpcPlanes128AVX512((*[128]byte)(line), c.flip(), c.planeMask, &ps.dbx, &ps.cls)
		case 64:
			bpcPlanes64AVX512((*[64]byte)(line), c.flip(), c.planeMask, &ps.dbx, &ps.cls)
		default:
			bpcPlanes32AVX512((*[32]byte)(line), c.flip(), c.planeMask, &ps.dbx, &ps.cls)
		}
		return
	}
	switch c.lineSize {
	case 128:
		bpcPlanesAVX2((*[128]byte)(line), c.flip(), c.planeMask, &ps.dbx, &ps.cls)
	case 64:
		bpcPlanes64AVX2((*[64]byte)(line), c.flip(), c.planeMask, &ps.dbx, &ps.cls)
	default:
		bpcPlanes32AVX2((*[32]byte)(line), c.flip(), c.planeMask, &ps.dbx, &ps.cls)
	}
}

// untranspose turns the DBP planes 0…31 into the deltas: a transpose.
func (c *Codec) untranspose(rows *[32]uint32) {
	if cpu.Active() >= cpu.AVX2 {
		bpcTransposeAVX2(rows)
		return
	}
	transpose32(rows)
}

// rebuild writes the words of the line whose DBX planes are dbx to line,
// as rebuildScalar does. The AVX-512 kernel (which needs VBMI's byte
// permutes) takes the streams without a "DBP zero" symbol, nearly all:
// their DBP planes are a plain suffix XOR of the DBX planes.
func (c *Codec) rebuild(dbx *[planeCount]uint32, dbpZero uint64, base uint32, line *[128]byte) {
	if dbpZero == 0 && cpu.Active() >= cpu.AVX512 && cpu.ByteOps {
		bpcRebuildAVX512(dbx, base, line)
		return
	}
	c.rebuildScalar(dbx, dbpZero, base, line)
}

// encodeKernel writes the bit-plane stream (flag 1) of line to out with
// the one-call AVX-512 kernel of its size and returns its length in bits
// with the flag; ok is false when the level or the line size has no such
// kernel (32-byte lines), and the caller encodes in Go. A stream that
// loses to the raw line is not written at 128 bytes; at 64 bytes the raw
// stream is written in its place (513 bits). out must have room for the
// kernel's writes: encodeBuf bytes at 128 bytes; at 64 bytes 65, of which
// the kernel writes the stream's bytes only, so that out may be the spare
// capacity of Compress's dst.
func (c *Codec) encodeKernel(line, out []byte) (bits int, ok bool) {
	if !c.hasEncodeKernel() {
		return 0, false
	}
	switch c.lineSize {
	case 128:
		return bpcEncode128AVX512((*[128]byte)(line), c.flip(), (*[encodeBuf]byte)(out)), true
	case 64:
		return c.encode64((*[64]byte)(line), (*[65]byte)(out))
	}
	return 0, false
}

// hasEncodeKernel reports whether the level has the one-call encode
// kernels (AVX-512 with ByteOps, which includes CD's VPLZCNTD); the line
// size may still have none.
func (c *Codec) hasEncodeKernel() bool {
	return cpu.Active() >= cpu.AVX512 && cpu.ByteOps
}

// encode64 is encodeKernel's kernel call at 64 bytes, for a codec that
// hasEncodeKernel says has it: it returns the stream's bits and true.
func (c *Codec) encode64(line *[64]byte, out *[65]byte) (bits int, ok bool) {
	return bpcEncode64AVX512(line, c.flip(), out), true
}

// parse decodes the plane symbols of enc, as parseGeneric does, with the
// kernel of the line size (plain amd64 with BMI2 and LZCNT) where there is
// one.
func (c *Codec) parse(enc []byte, last uint64, pos uint, planes *[slack + planeCount]uint32) (uint, int, uint64) {
	if cpu.Active() >= cpu.AVX2 { // the AVX2 level includes LZCNT
		switch c.lineSize {
		case 128:
			return bpcParse128(&enc[0], len(enc)-8, last, pos, &c.symbols, planes)
		case 64:
			return bpcParse64(&enc[0], len(enc)-8, last, pos, &c.symbols, planes)
		}
	}
	return c.parseGeneric(enc, last, pos, planes)
}

// rebuildInto writes the line whose DBX planes are dbx (no "DBP zero"
// plane) and whose first word is base to out, the line's n bytes, with
// the AVX-512 kernel that writes n bytes exactly, and reports whether
// there is one for the level and line size.
func (c *Codec) rebuildInto(out []byte, dbx *[planeCount]uint32, base uint32) bool {
	if cpu.Active() < cpu.AVX512 || !cpu.ByteOps {
		return false
	}
	switch c.lineSize {
	case 128:
		bpcRebuildAVX512(dbx, base, (*[128]byte)(out))
		return true
	case 64:
		bpcRebuild64AVX512(dbx, base, (*[64]byte)(out))
		return true
	}
	return false
}

// decodeInto decodes the bit-plane stream enc (flag 1, at least one
// byte) into out, the line's n bytes, with the one-call kernel of the
// line size, and reports whether it did. It reports false, having written
// nothing, where the level or the line size has no such kernel and for
// any stream decodeFast gives up on: decodeFast then takes its general
// path, which finds the same.
func (c *Codec) decodeInto(out, enc []byte) bool {
	if !c.hasDecodeKernel() {
		return false
	}
	return c.decode64((*[64]byte)(out), enc)
}

// decode64 is the one-call kernel, for a codec that hasDecodeKernel says
// has it: enc is a stream of at least one byte, which it decodes as
// bitstream.ReadRaw does a raw one (flag 0) and as decodeFast does a
// bit-plane one, or reports false having written nothing.
func (c *Codec) decode64(out *[64]byte, enc []byte) bool {
	return bpcDecode64AVX512(&enc[0], len(enc), &decode64Symbols, out)
}

// decodeLines decodes the streams of enc that start at start and end at
// each of ends in turn into out with the lines kernel, for a codec that
// hasDecodeKernel says has it, and returns how many it decoded (see
// DecompressLines).
func (c *Codec) decodeLines(out, enc []byte, start int, ends []int) int {
	return bpcDecompressLines64AVX512(out, enc, start, ends, &decode64Symbols)
}

// decode64Symbols is the symbol table of bpcDecode64AVX512, by a
// symbol's first ten bits as the codec's symbols (a 64-byte line's: the
// same for both plane-32 variants): each entry holds the symbol's 16-bit
// field in bits 48…63, its plane or 0x8000 for a "DBP zero" symbol (no
// 15-bit plane has that bit), and the planes it covers in bits 0…7 (64
// for a position out of range); a raw symbol's entry is zero. The kernel
// takes the field with a shift and the planes with a byte move, and
// needs no symbol's length: it has the stream's own table of step
// lengths.
var decode64Symbols = func() (t [symbolTable]uint64) {
	c, _ := New(64)
	for i, e := range c.symbols {
		field := e & 0x7FFF
		if e&symDBPZero != 0 {
			field = 0x8000
		}
		t[i] = field<<48 | e>>symPlanesShift&0xFF
	}
	return t
}()

// hasDecodeKernel reports whether decodeInto has a kernel for the level
// and the line size (64 bytes, AVX-512 with VBMI and GFNI).
func (c *Codec) hasDecodeKernel() bool {
	return c.lineSize == 64 && cpu.Active() >= cpu.AVX512 && cpu.ByteOps
}
