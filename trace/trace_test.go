package trace

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// synthRecords makes n records over lineSize-byte payloads drawn from a
// small pool (so that back-references happen), with times that go back as
// well as forward and addresses anywhere in the 64-bit space.
func synthRecords(seed uint64, n, lineSize, pool int) []Record {
	rng := rand.New(rand.NewPCG(seed, 1))
	payloads := make([][]byte, pool)
	for i := range payloads {
		payloads[i] = make([]byte, lineSize)
		for j := range payloads[i] {
			payloads[i][j] = byte(rng.UintN(4)) // low entropy, so deflate has work
		}
	}
	recs := make([]Record, n)
	t := uint64(1000)
	for i := range recs {
		t += uint64(rng.IntN(200)) - 50
		op := Read
		if rng.IntN(3) == 0 {
			op = Write
		}
		addr := rng.Uint64() / uint64(lineSize) * uint64(lineSize)
		if rng.IntN(2) == 0 {
			addr = uint64(rng.IntN(1<<20)) * uint64(lineSize)
		}
		recs[i] = Record{Time: t, Src: uint32(rng.IntN(4)), Dst: uint32(rng.IntN(4)), Op: op, Addr: addr,
			Data: payloads[rng.IntN(pool)]}
	}
	return recs
}

func encode(t testing.TB, h Header, o Options, recs []Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriterOptions(&buf, h, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decodeAll reads a whole trace; it returns the records (with their data
// copied) and the first error other than io.EOF.
func decodeAll(in io.Reader) (Header, []Record, error) {
	r, err := NewReader(in)
	if err != nil {
		return Header{}, nil, err
	}
	var recs []Record
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return r.Header(), recs, nil
		}
		if err != nil {
			return r.Header(), recs, err
		}
		rec.Data = bytes.Clone(rec.Data)
		recs = append(recs, rec)
	}
}

func sameRecords(t *testing.T, got, want []Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Time != w.Time || g.Src != w.Src || g.Dst != w.Dst || g.Op != w.Op || g.Addr != w.Addr || !bytes.Equal(g.Data, w.Data) {
			t.Fatalf("record %d: got %+v, want %+v", i, g, w)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lineSize int
		o        Options
		n, pool  int
	}{
		{"default-64", 64, Options{Level: DefaultLevel}, 5000, 300},
		{"raw-128", 128, Options{}, 5000, 300},
		{"nodict-32", 32, Options{Level: 6, DictEntries: -1}, 3000, 50},
		{"tinydict-evicting", 16, Options{DictEntries: 3}, 3000, 8},
		{"odd-line-size", 24, Options{Level: DefaultLevel}, 2000, 100},
		{"huffman-only", 64, Options{Level: -2}, 2000, 100},
		{"one-byte-lines", 1, Options{Level: DefaultLevel}, 2000, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Header{LineSize: tc.lineSize, Source: "test " + tc.name}
			recs := synthRecords(uint64(tc.lineSize), tc.n, tc.lineSize, tc.pool)
			file := encode(t, h, tc.o, recs)
			gotH, got, err := decodeAll(bytes.NewReader(file))
			if err != nil {
				t.Fatal(err)
			}
			if gotH != h {
				t.Fatalf("header %+v, want %+v", gotH, h)
			}
			sameRecords(t, got, recs)
			t.Logf("%d records, %d bytes, %.1f bytes/record", len(recs), len(file), float64(len(file))/float64(len(recs)))
		})
	}
}

func TestReadAfterEOF(t *testing.T) {
	file := encode(t, Header{LineSize: 8}, Options{}, synthRecords(1, 3, 8, 2))
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := r.Read(); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		if _, err := r.Read(); err != io.EOF {
			t.Fatalf("Read after the end: %v, want io.EOF itself", err)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	_, err := NewReader(bytes.NewReader(nil))
	if !errors.Is(err, ErrFormat) {
		t.Fatalf("empty input: %v, want ErrFormat", err)
	}
}
