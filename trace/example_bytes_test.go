package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// workedExample is the trace of the package doc's worked example, byte by
// byte, with the arithmetic in the comments. Its CRCs are checked
// independently of hash/crc32 by crc32c below.
var workedExample = []byte{
	0x4C, 0x43, 0x54, 0x52, 0x41, 0x43, 0x45, // "LCTRACE"
	'L', 0x02, // kind, version
	// header block: type 'H', 6 bytes: flags 0, LineSize 8, DictEntries 4,
	// Source length 2, "ex"
	0x48, 0x06, 0x00, 0x08, 0x04, 0x02, 0x65, 0x78,
	0x23, 0x59, 0x2A, 0x76, // CRC-32C of the 8 bytes above, little-endian
	// data block: type 'D', 32 bytes: 3 records
	0x44, 0x20, 0x03,
	// record 1: tag 0x14 = Src (bit 2) | Time (bit 4); Src 1;
	// ΔTime 1000 → zigzag 2000 = 15·128 + 80 → 0x80|80, 15;
	// ΔLine 0x1000/8 = 512 → zigzag 1024 = 8·128 + 0 → 0x80, 8; literal
	0x14, 0x01, 0xD0, 0x0F, 0x80, 0x08, 1, 2, 3, 4, 5, 6, 7, 8,
	// record 2: tag 0; ΔLine 0x1008/8 − 512 = 1 → zigzag 2; literal zeros
	0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0,
	// record 3: tag 0x1F = Write | ref | Src | Dst | Time; Src 0; Dst 1;
	// ΔTime −100 → zigzag 199 = 1·128 + 71 → 0x80|71, 1; ΔLine −1 → 1;
	// distance 1 (newest is the zero line, entry 1; the 01…08 line is entry 0)
	0x1F, 0x00, 0x01, 0xC7, 0x01, 0x01, 0x01,
	0x6A, 0x26, 0x13, 0x82, // CRC-32C continued from the header's over the 34 bytes from 0x44
	// end block: type 'E', 2 bytes: 3 records, 1 data block
	0x45, 0x02, 0x03, 0x01,
	0x63, 0xE2, 0xFF, 0xA1, // continued from the data block's
}

// workedExampleV1 is the same trace in version 1, as the committed sample
// traces are: every block's CRC-32C starts from 0, so the order of blocks
// is checked only by the end marker's counts.
var workedExampleV1 = func() []byte {
	b := slices.Clone(workedExample)
	b[8] = 0x01
	copy(b[55:], []byte{0xB1, 0x7B, 0x61, 0xC9}) // CRC-32C of the 34 bytes from 0x44 alone
	copy(b[63:], []byte{0xFC, 0xF6, 0x45, 0xCC}) // of the end block alone
	return b
}()

var workedHeader = Header{LineSize: 8, Source: "ex"}

var workedRecords = []Record{
	{Time: 1000, Src: 1, Dst: 0, Op: Read, Addr: 0x1000, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}},
	{Time: 1000, Src: 1, Dst: 0, Op: Read, Addr: 0x1008, Data: make([]byte, 8)},
	{Time: 900, Src: 0, Dst: 1, Op: Write, Addr: 0x1000, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}},
}

// crc32c is a bit-at-a-time CRC-32C (reflected polynomial 0x82F63B78),
// written from the definition as a check on the table-driven library one.
func crc32c(b []byte) uint32 {
	crc := ^uint32(0)
	for _, c := range b {
		crc ^= uint32(c)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x82F63B78
			} else {
				crc >>= 1
			}
		}
	}
	return ^crc
}

func TestCRC32CDefinition(t *testing.T) {
	// The CRC-32C check value (RFC 3720, B.4): "123456789" → 0xE3069283.
	if got := crc32c([]byte("123456789")); got != 0xE3069283 {
		t.Fatalf("crc32c check value %08x", got)
	}
}

func TestWorkedExampleBytes(t *testing.T) {
	// The example's checksums, recomputed over its own spans: in version
	// 2 each continues the previous one, which is the CRC-32C of the
	// concatenation of the block's span and every earlier block's; in
	// version 1 each covers its own span alone.
	var chained []byte
	for _, span := range []struct{ from, to int }{{9, 17}, {21, 55}, {59, 63}} {
		chained = append(chained, workedExample[span.from:span.to]...)
		want := binary.LittleEndian.Uint32(workedExample[span.to:])
		if got := crc32c(chained); got != want {
			t.Errorf("CRC over bytes %d…%d and the blocks before: computed %08x, example has %08x", span.from, span.to, got, want)
		}
		want = binary.LittleEndian.Uint32(workedExampleV1[span.to:])
		if got := crc32c(workedExampleV1[span.from:span.to]); got != want {
			t.Errorf("version 1: CRC over bytes %d…%d: computed %08x, example has %08x", span.from, span.to, got, want)
		}
	}
	if len(workedExample) != 67 {
		t.Fatalf("example is %d bytes, the doc says 67", len(workedExample))
	}
	got := encode(t, workedHeader, Options{DictEntries: 4}, workedRecords)
	if !bytes.Equal(got, workedExample) {
		t.Fatalf("encoding\n got % X\nwant % X", got, workedExample)
	}
	h, recs, err := decodeAll(bytes.NewReader(workedExample))
	if err != nil {
		t.Fatal(err)
	}
	if h != workedHeader {
		t.Fatalf("header %+v", h)
	}
	sameRecords(t, recs, workedRecords)
	h, recs, err = decodeAll(bytes.NewReader(workedExampleV1))
	if err != nil {
		t.Fatalf("version 1: %v", err)
	}
	if h != workedHeader {
		t.Fatalf("version 1: header %+v", h)
	}
	sameRecords(t, recs, workedRecords)
}

// TestSwappedBlocks: data blocks exchanged, each with its own intact CRC,
// fail the checksum of the first block out of place in version 2 (the end
// marker's counts do not depend on order); version 1 cannot tell.
func TestSwappedBlocks(t *testing.T) {
	recs := synthRecords(11, 3*4096, 16, 7)
	for _, level := range []int{0, DefaultLevel} {
		file := encode(t, Header{LineSize: 16, Source: "swap"}, Options{Level: level}, recs)
		blocks := splitBlocks(t, file)
		if len(blocks) < 4 { // header, two data blocks or more, end
			t.Fatalf("level %d: %d blocks", level, len(blocks))
		}
		swapped := slices.Clone(file[:blocks[1].from])
		swapped = append(swapped, file[blocks[2].from:blocks[2].to]...)
		swapped = append(swapped, file[blocks[1].from:blocks[1].to]...)
		swapped = append(swapped, file[blocks[2].to:]...)
		err := readsCleanly(swapped)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Offset != int64(blocks[1].from) || !strings.Contains(fe.Reason, "out of order") {
			t.Errorf("level %d: blocks 1 and 2 swapped: %v; want a checksum error at byte %d", level, err, blocks[1].from)
		}
	}
}

// splitBlocks returns the byte spans of the blocks of a trace file, after
// its 9-byte magic.
func splitBlocks(t *testing.T, file []byte) []struct{ from, to int } {
	t.Helper()
	var spans []struct{ from, to int }
	for at := 9; at < len(file); {
		length, n := binary.Uvarint(file[at+1:])
		if n <= 0 {
			t.Fatalf("bad block length at %d", at)
		}
		end := at + 1 + n + int(length) + 4
		spans = append(spans, struct{ from, to int }{at, end})
		at = end
	}
	return spans
}

// readsCleanly reads a whole trace and reports nil, or the first error.
// Every error must wrap ErrFormat.
func readsCleanly(in []byte) error {
	_, _, err := decodeAll(bytes.NewReader(in))
	return err
}

func TestTruncatedAtEveryOffset(t *testing.T) {
	for _, file := range [][]byte{
		workedExample,
		encode(t, Header{LineSize: 16, Source: "deflated"}, Options{Level: DefaultLevel}, synthRecords(7, 40, 16, 5)),
	} {
		for n := 0; n < len(file); n++ {
			err := readsCleanly(file[:n])
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("cut to %d of %d bytes: %v, want ErrFormat", n, len(file), err)
			}
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(n) {
				t.Fatalf("cut to %d bytes: offset in %v out of range", n, err)
			}
		}
		if err := readsCleanly(file); err != nil {
			t.Fatalf("whole file: %v", err)
		}
	}
}

func TestEveryByteFlipped(t *testing.T) {
	files := [][]byte{
		workedExample,
		encode(t, Header{LineSize: 16, Source: "deflated"}, Options{Level: DefaultLevel}, synthRecords(7, 40, 16, 5)),
	}
	for fi, file := range files {
		// Every change of every byte of the worked example; three per byte
		// of the longer file.
		masks := []byte{0x01, 0x80, 0xFF}
		if fi == 0 {
			masks = masks[:0]
			for x := 1; x < 256; x++ {
				masks = append(masks, byte(x))
			}
		}
		for i := range file {
			for _, x := range masks {
				bad := bytes.Clone(file)
				bad[i] ^= x
				if err := readsCleanly(bad); !errors.Is(err, ErrFormat) {
					t.Fatalf("file %d, byte %d ^ %#02x: %v, want ErrFormat", fi, i, x, err)
				}
			}
		}
	}
}

func TestTrailingGarbage(t *testing.T) {
	err := readsCleanly(append(bytes.Clone(workedExample), 0))
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Offset != int64(len(workedExample)) {
		t.Fatalf("a byte after the end marker: %v, want ErrFormat at %d", err, len(workedExample))
	}
}

func TestPipe(t *testing.T) {
	recs := synthRecords(3, 20000, 64, 500)
	pr, pw := io.Pipe()
	go func() {
		w, err := NewWriter(pw, Header{LineSize: 64, Source: "pipe"})
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(w.Close())
	}()
	// io.Pipe hands over at most what the reader asks for: this reader sees
	// the stream in whatever pieces the writer's blocks make.
	_, got, err := decodeAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	sameRecords(t, got, recs)
}

// TestPipeFlush: after Flush, the records written so far are readable at
// the other end of a pipe while the writer is still open.
func TestPipeFlush(t *testing.T) {
	pr, pw := io.Pipe()
	defer pr.Close()
	recs := synthRecords(4, 3, 8, 3)
	done := make(chan error, 1)
	var w *Writer
	go func() {
		var err error
		w, err = NewWriter(pw, Header{LineSize: 8})
		if err == nil {
			for _, r := range recs {
				if err = w.Write(r); err != nil {
					break
				}
			}
		}
		if err == nil {
			err = w.Flush()
		}
		done <- err
	}()
	r, err := NewReader(pr)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		got, err := r.Read()
		if err != nil {
			t.Fatalf("record %d before Close: %v", i, err)
		}
		sameRecords(t, []Record{got}, recs[i:i+1])
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	go func() { pw.CloseWithError(w.Close()) }()
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("after Close: %v, want io.EOF", err)
	}
}
