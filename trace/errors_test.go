package trace

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// block builds one block with a correct checksum, so that the tests below
// reach the checks behind the CRC.
func block(typ byte, body ...byte) []byte {
	b := []byte{typ}
	b = binary.AppendUvarint(b, uint64(len(body)))
	b = append(b, body...)
	return binary.LittleEndian.AppendUint32(b, crc32c(b))
}

func file(blocks ...[]byte) []byte {
	f := []byte("LCTRACE" + "L" + "\x01")
	for _, b := range blocks {
		f = append(f, b...)
	}
	return f
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// hdr8 is the header block of an 8-byte-line trace with a 4-entry
// dictionary: bytes 9…18 of a file, so the first data block starts at 19,
// its body at 21 and its first record at 22.
var hdr8 = block('H', 0, 8, 4, 0)

func deflate(t *testing.T, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	fw.Write(raw)
	fw.Close()
	return buf.Bytes()
}

func TestMalformed(t *testing.T) {
	lit := []byte{0x00, 0x02, 1, 2, 3, 4, 5, 6, 7, 8} // Read, ΔLine +1, literal
	okData := block('D', append([]byte{1}, lit...)...)
	okEnd := block('E', 1, 1)
	zraw := append([]byte{1}, lit...)
	for _, tc := range []struct {
		name   string
		in     []byte
		offset int64  // where the error must point
		reason string // a piece of its text
	}{
		{"empty", nil, 0, "empty input"},
		{"short magic", []byte("LCTR"), 4, "inside the magic"},
		{"not a trace", []byte("GIF89a\x00\x00\x00"), 0, "not a linecomp trace"},
		{"warp kind", []byte("LCTRACEW\x01"), 7, "not a line-traffic trace"},
		{"version 3", []byte("LCTRACEL\x03"), 8, "unsupported version"},
		{"no header", file(), 9, "without its end marker"},
		{"data before header", file(okData), 9, "want the header"},
		{"header flags", file(block('H', 1, 8, 4, 0)), 11, "flags"},
		{"line size 0", file(block('H', 0, 0, 4, 0)), 12, "line size 0"},
		{"line size 2^20+1", file(block('H', 0, 0x81, 0x80, 0x40, 4, 0)), 12, "line size 1048577"},
		{"dictionary 64 MiB + 8", file(block('H', 0, 8, 0x81, 0x80, 0x80, 0x04, 0)), 13, "exceeds 67108864 bytes"},
		{"source 64 KiB + 1", file(block('H', 0, 8, 4, 0x81, 0x80, 0x04)), 14, "source of 65537 bytes"},
		{"source cut", file(block('H', 0, 8, 4, 5, 'a')), 15, "cut short"},
		{"header extra bytes", file(block('H', 0, 8, 4, 0, 9)), 15, "after the block's last item"},
		{"overlong varint", file(block('H', 0, 0x88, 0x00, 4, 0)), 12, "malformed varint"},
		{"block length 2 MiB + 1", file(hdr8, []byte{'D', 0x81, 0x80, 0x80, 0x01}), 20, "exceeds 2097152"},
		{"block length overlong", file(hdr8, []byte{'D', 0x81, 0x00}), 20, "malformed block length"},
		{"block length 2^70", file(hdr8, []byte{'D', 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}), 20, "malformed block length"},
		{"bad checksum", file(hdr8, okData[:len(okData)-1], []byte{0}), 19, "checksum"},
		{"unknown block", file(hdr8, block('X')), 19, "unexpected block type"},
		{"second header", file(hdr8, block('H', 0, 8, 4, 0)), 19, "unexpected block type"},
		{"no end", file(hdr8, okData), 36, "without its end marker"},
		{"empty data block", file(hdr8, block('D', 0), okEnd), 21, "no items"},
		{"reserved tag bit", file(hdr8, block('D', 1, 0x20, 2, 1, 2, 3, 4, 5, 6, 7, 8), okEnd), 22, "undefined bits"},
		{"source unchanged", file(hdr8, block('D', 1, 0x04, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8), okEnd), 23, "source flagged"},
		{"destination unchanged", file(hdr8, block('D', 1, 0x08, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8), okEnd), 23, "destination flagged"},
		{"source beyond 32 bits", file(hdr8, block('D', 1, 0x04, 0x80, 0x80, 0x80, 0x80, 0x10, 2, 1, 2, 3, 4, 5, 6, 7, 8), okEnd), 23, "does not fit 32 bits"},
		{"time delta 0", file(hdr8, block('D', 1, 0x10, 0, 2, 1, 2, 3, 4, 5, 6, 7, 8), okEnd), 23, "delta of 0"},
		{"reference into empty dictionary", file(hdr8, block('D', 1, 0x02, 2, 0), okEnd), 24, "older than the dictionary"},
		{"reference too old", file(hdr8, block('D', 2, 0x00, 2, 1, 2, 3, 4, 5, 6, 7, 8, 0x02, 0, 1), block('E', 2, 1)), 34, "older than the dictionary"},
		{"literal cut", file(hdr8, block('D', 1, 0x00, 2, 1, 2, 3), okEnd), 24, "cut short"},
		{"fewer records than counted", file(hdr8, block('D', append([]byte{2}, lit...)...), block('E', 2, 1)), 32, "cut short"},
		{"bytes after the last record", file(hdr8, block('D', append(append([]byte{1}, lit...), 0)...), okEnd), 32, "after the block's last item"},
		{"line beyond 2^64", file(hdr8, block('D', 1, 0x00, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 1, 2, 3, 4, 5, 6, 7, 8), okEnd), 23, "beyond the 64-bit"},
		{"end counts too many records", file(hdr8, okData, block('E', 2, 1)), 36, "end marker counts 2 items"},
		{"end counts too many blocks", file(hdr8, okData, block('E', 1, 2)), 36, "in 2 blocks"},
		{"end block trailing bytes", file(hdr8, okData, block('E', 1, 1, 0)), 40, "trailing bytes"},
		{"data after end", cat(file(hdr8, okData, okEnd), []byte{0x45}), 44, "after the end marker"},
		{"deflate length mismatch", file(hdr8, block('Z', append([]byte{byte(len(zraw) + 1)}, deflate(t, zraw)...)...), okEnd), 21, "decodes to 11 bytes, its header says 12"},
		{"deflate decodes to more", file(hdr8, block('Z', append([]byte{byte(len(zraw) - 1)}, deflate(t, zraw)...)...), okEnd), 21, "more than the 10 bytes"},
		{"bytes after deflate stream", file(hdr8, block('Z', append(append([]byte{byte(len(zraw))}, deflate(t, zraw)...), 0)...), okEnd), 21, "after the deflate stream"},
		{"deflate garbage", file(hdr8, block('Z', 11, 0xFF, 0xFF, 0xFF), okEnd), 21, "deflate"},
		{"deflate length 2 MiB + 1", file(hdr8, block('Z', 0x81, 0x80, 0x80, 0x01, 0x03, 0x00), okEnd), 21, "exceeds 2097152"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := readsCleanly(tc.in)
			var fe *FormatError
			if !errors.Is(err, ErrFormat) || !errors.As(err, &fe) {
				t.Fatalf("%v, want a *FormatError", err)
			}
			if fe.Offset != tc.offset || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("%v; want offset %d and %q", err, tc.offset, tc.reason)
			}
		})
	}
	// The well-formed neighbours of the cases above read cleanly, so the
	// errors come from the one thing each case changes.
	for _, good := range [][]byte{
		file(hdr8, okData, okEnd),
		file(hdr8, block('Z', append([]byte{byte(len(zraw))}, deflate(t, zraw)...)...), okEnd),
		file(block('H', 0, 0x80, 0x80, 0x40, 64, 0), block('E', 0, 0)), // 1 MiB lines, 64 entries = 64 MiB
	} {
		if err := readsCleanly(good); err != nil {
			t.Fatalf("well-formed file: %v", err)
		}
	}
}

// TestHostileLengthsAllocateLittle: a block that announces 2 MiB but
// supplies a few bytes, and a huge dictionary that is never filled, cost
// memory in proportion to the input, not to the length fields.
func TestHostileLengthsAllocateLittle(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"2 MiB block, 10 bytes given", file(hdr8, []byte{'D', 0x80, 0x80, 0x80, 0x01}, make([]byte, 10))},
		{"64 MiB dictionary, 1 MiB lines", file(block('H', 0, 0x80, 0x80, 0x40, 64, 0), block('D', 1, 0x02, 0))},
		{"2 MiB deflated block of 1 byte", file(hdr8, block('Z', 0x80, 0x80, 0x80, 0x01, 0x03, 0x00), block('E', 0, 0))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			err := readsCleanly(tc.in)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("%v, want ErrFormat", err)
			}
			// bufio's 4 KiB, one 64 KiB chunk of block buffer, and the
			// decompressor's state (about 45 KiB) — far below 1 MiB.
			if got := after.TotalAlloc - before.TotalAlloc; got > 512<<10 {
				t.Fatalf("allocated %d bytes", got)
			}
		})
	}
}

type failingWriter struct {
	n   int // bytes accepted before failing
	err error
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, f.err
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriterRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    Header
		o    Options
	}{
		{"line size 0", Header{LineSize: 0}, Options{}},
		{"line size -64", Header{LineSize: -64}, Options{}},
		{"line size 1 MiB + 1", Header{LineSize: MaxLineSize + 1}, Options{}},
		{"source too long", Header{LineSize: 64, Source: strings.Repeat("x", MaxSourceLen+1)}, Options{}},
		{"level 10", Header{LineSize: 64}, Options{Level: 10}},
		{"level -3", Header{LineSize: 64}, Options{Level: -3}},
		{"dictionary too big", Header{LineSize: 64}, Options{DictEntries: MaxDictBytes/64 + 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if _, err := NewWriterOptions(&buf, tc.h, tc.o); !errors.Is(err, ErrHeader) {
				t.Fatalf("%v, want ErrHeader", err)
			}
			if buf.Len() != 0 {
				t.Fatalf("wrote %d bytes", buf.Len())
			}
		})
	}
	if _, err := NewWriter(io.Discard, Header{LineSize: 0}); !errors.Is(err, ErrHeader) {
		t.Fatalf("NewWriter, line size 0: %v, want ErrHeader", err)
	}

	var buf bytes.Buffer
	w, err := NewWriterOptions(&buf, Header{LineSize: 8}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 8)
	for _, bad := range []Record{
		{Op: 0, Data: line},
		{Op: 3, Data: line},
		{Op: Read, Addr: 4, Data: line},
		{Op: Write, Addr: 8, Data: line[:7]},
		{Op: Write, Addr: 8, Data: nil},
		{Op: Write, Addr: 8, Data: make([]byte, 9)},
	} {
		if err := w.Write(bad); !errors.Is(err, ErrRecord) {
			t.Fatalf("%+v: %v, want ErrRecord", bad, err)
		}
	}
	if err := w.Write(Record{Op: Read, Addr: 16, Data: line}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := w.Write(Record{Op: Read, Data: line}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Write after Close: %v, want ErrClosed", err)
	}
	// The rejected records left no trace: only the good one is there.
	_, recs, err := decodeAll(bytes.NewReader(buf.Bytes()))
	if err != nil || len(recs) != 1 || recs[0].Addr != 16 {
		t.Fatalf("read back %v, %+v", err, recs)
	}
}

func TestWriterErrorIsSticky(t *testing.T) {
	boom := errors.New("disk full")
	if _, err := NewWriter(&failingWriter{n: 3, err: boom}, Header{LineSize: 8}); !errors.Is(err, boom) {
		t.Fatalf("NewWriter: %v, want the writer's error", err)
	}
	fw := &failingWriter{n: 100, err: boom}
	w, err := NewWriterOptions(fw, Header{LineSize: 64}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs := synthRecords(5, 2000, 64, 1000) // more than one 64 KiB block
	var got error
	for _, r := range recs {
		if got = w.Write(r); got != nil {
			break
		}
	}
	if !errors.Is(got, boom) {
		t.Fatalf("Write: %v, want the writer's error", got)
	}
	if err := w.Write(recs[0]); !errors.Is(err, boom) {
		t.Fatalf("Write after the failure: %v", err)
	}
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close after the failure: %v", err)
	}
}

type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// TestReaderIOError: an error of the underlying reader is passed on (it is
// not a format error), and stays.
func TestReaderIOError(t *testing.T) {
	boom := errors.New("network down")
	r, err := NewReader(&failingReader{data: workedExample[:30], err: boom})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Read()
	if !errors.Is(err, boom) || errors.Is(err, ErrFormat) {
		t.Fatalf("%v, want the reader's error and not ErrFormat", err)
	}
	if _, err2 := r.Read(); err2 != err {
		t.Fatalf("second Read: %v, want %v again", err2, err)
	}
}

// TestBlocksSplitAndDeflate: a long trace spans several blocks, deflated
// ones among them, and reads back whole.
func TestBlocksSplitAndDeflate(t *testing.T) {
	recs := synthRecords(9, 30000, 128, 20000)
	f := encode(t, Header{LineSize: 128}, Options{Level: DefaultLevel}, recs)
	types := blockTypes(t, f)
	if types['D']+types['Z'] < 3 || types['Z'] == 0 || types['H'] != 1 || types['E'] != 1 {
		t.Fatalf("block types %v", types)
	}
	_, got, err := decodeAll(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	sameRecords(t, got, recs)
}

// blockTypes walks a well-formed file's blocks and counts their types.
func blockTypes(t *testing.T, f []byte) map[byte]int {
	t.Helper()
	types := map[byte]int{}
	for p := 9; p < len(f); {
		n, k := binary.Uvarint(f[p+1:])
		if k <= 0 {
			t.Fatalf("bad block at %d", p)
		}
		types[f[p]]++
		p += 1 + k + int(n) + 4
	}
	return types
}
