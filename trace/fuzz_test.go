package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// FuzzReader: arbitrary bytes never panic; they read as a whole trace or
// fail with ErrFormat (a bytes.Reader has no I/O errors). A trace that reads
// cleanly re-encodes to one that reads back the same records.
func FuzzReader(f *testing.F) {
	f.Add(workedExample)
	f.Add(encode(f, Header{LineSize: 16, Source: "deflated"}, Options{Level: DefaultLevel}, synthRecords(7, 40, 16, 5)))
	f.Add(encode(f, Header{LineSize: 4}, Options{DictEntries: 2}, synthRecords(8, 30, 4, 6)))
	f.Add(encode(f, Header{LineSize: 32}, Options{DictEntries: -1, Level: 9}, synthRecords(9, 10, 32, 3)))
	f.Add([]byte("LCTRACEL\x01"))
	f.Fuzz(func(t *testing.T, in []byte) {
		h, recs, err := decodeAll(bytes.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error not wrapping ErrFormat: %v", err)
			}
			return
		}
		again := encode(t, h, Options{}, recs)
		h2, recs2, err := decodeAll(bytes.NewReader(again))
		if err != nil || h2 != h {
			t.Fatalf("re-encoded trace: %v, header %+v vs %+v", err, h2, h)
		}
		sameRecords(t, recs2, recs)
	})
}

// FuzzRoundTrip: any sequence of valid records, under any options, reads
// back exactly as written.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{8, 4, 0, 0x14, 1, 2, 3})
	f.Add([]byte{64, 0, 1, 0xFF, 0xFE, 0x01, 0x80, 0x7F, 0x00})
	f.Add(bytes.Repeat([]byte{3, 1, 0x55, 0xAA}, 40))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 3 {
			return
		}
		lineSize := int(in[0]%64) + 1
		o := Options{DictEntries: int(in[1]%8) - 1, Level: int(in[2]%12) - 2}
		in = in[3:]
		recs := recordsFrom(in, lineSize)
		h := Header{LineSize: lineSize, Source: string(in[:min(len(in), 5)])}
		file := encode(t, h, o, recs)
		gotH, got, err := decodeAll(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		if gotH != h {
			t.Fatalf("header %+v, want %+v", gotH, h)
		}
		sameRecords(t, got, recs)
	})
}

// recordsFrom turns fuzz bytes into valid records: each control byte picks
// the op, whether Src, Dst and Time move and whether the payload repeats an
// earlier one; the bytes after it supply the values.
func recordsFrom(in []byte, lineSize int) []Record {
	var recs []Record
	var prev Record
	next := func(n int) []byte {
		if len(in) < n {
			in = append(in, make([]byte, n-len(in))...)
		}
		b := in[:n]
		in = in[n:]
		return b
	}
	for len(in) > 0 {
		c := next(1)[0]
		r := prev
		r.Op = Read + Op(c&1)
		if c&2 != 0 {
			r.Src = binary.LittleEndian.Uint32(next(4))
		}
		if c&4 != 0 {
			r.Dst = uint32(next(1)[0])
		}
		if c&8 != 0 {
			r.Time += uint64(int64(int8(next(1)[0])) * 1000)
		}
		if c&16 != 0 {
			r.Addr = binary.LittleEndian.Uint64(next(8)) / uint64(lineSize) * uint64(lineSize)
		} else {
			r.Addr += uint64(int64(int8(c)>>5)) * uint64(lineSize)
			r.Addr = r.Addr / uint64(lineSize) * uint64(lineSize)
		}
		if c&0x60 == 0x60 && len(recs) > 0 {
			r.Data = recs[int(c)%len(recs)].Data
		} else {
			r.Data = bytes.Clone(next(lineSize))
		}
		recs = append(recs, r)
		prev = r
	}
	return recs
}
