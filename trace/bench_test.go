package trace

import (
	"bytes"
	"compress/flate"
	"io"
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
)

// corpusRecords turns a memory image into a payload stream with SYNTHETIC
// addresses, times and ends: record i carries line i of the image, at
// address i·lineSize, time i ns, from component i mod 4 to (i+1) mod 4, one
// write in four. Only the payloads are real; this measures the format, not
// real traffic (real traffic repeats lines far more, so the dictionary
// gains more on captured traces).
func corpusRecords(data []byte, lineSize int) []Record {
	n := len(data) / lineSize
	recs := make([]Record, n)
	for i := range recs {
		op := Read
		if i%4 == 3 {
			op = Write
		}
		recs[i] = Record{Time: uint64(i) * 1000, Src: uint32(i % 4), Dst: uint32((i + 1) % 4), Op: op,
			Addr: uint64(i * lineSize), Data: data[i*lineSize : (i+1)*lineSize]}
	}
	return recs
}

var benchOptions = []struct {
	name string
	o    Options
}{
	{"raw", Options{}},
	{"deflate1", Options{Level: flate.BestSpeed}},
	{"deflate6", Options{Level: flate.DefaultCompression}},
	{"nodict-deflate1", Options{Level: flate.BestSpeed, DictEntries: -1}},
}

// TestCorpusPayloadStreams round-trips every corpus file as a payload
// stream (synthetic addresses, see corpusRecords) and logs the bytes per
// record of each option, the numbers quoted in the package's report.
func TestCorpusPayloadStreams(t *testing.T) {
	for _, lineSize := range []int{64, 128} {
		var total [4]int
		records := 0
		for _, f := range codectest.Files(t) {
			recs := corpusRecords(f.Data, lineSize)
			records += len(recs)
			for i, bo := range benchOptions {
				enc := encode(t, Header{LineSize: lineSize}, bo.o, recs)
				_, got, err := decodeAll(bytes.NewReader(enc))
				if err != nil {
					t.Fatalf("%s %d %s: %v", f.Name, lineSize, bo.name, err)
				}
				sameRecords(t, got, recs)
				total[i] += len(enc)
			}
		}
		for i, bo := range benchOptions {
			t.Logf("%d-byte lines, %s: %d records, %.2f bytes/record (payload %d)", lineSize, bo.name, records, float64(total[i])/float64(records), lineSize)
		}
	}
}

// sampleStream is the embedded sample, all files one after the other, as
// one payload stream (synthetic addresses, see corpusRecords).
func sampleStream(lineSize int) []Record {
	var data []byte
	for _, f := range codectest.Sample() {
		data = append(data, f.Data...)
	}
	return corpusRecords(data, lineSize)
}

func BenchmarkWrite(b *testing.B) {
	for _, lineSize := range []int{64, 128} {
		recs := sampleStream(lineSize)
		for _, bo := range benchOptions {
			b.Run(bo.name+"/"+itoa(lineSize), func(b *testing.B) {
				var buf bytes.Buffer
				b.SetBytes(int64(len(recs) * lineSize))
				b.ReportAllocs()
				for b.Loop() {
					buf.Reset()
					w, err := NewWriterOptions(&buf, Header{LineSize: lineSize}, bo.o)
					if err != nil {
						b.Fatal(err)
					}
					for _, r := range recs {
						if err := w.Write(r); err != nil {
							b.Fatal(err)
						}
					}
					if err := w.Close(); err != nil {
						b.Fatal(err)
					}
				}
				reportRecords(b, len(recs), buf.Len())
			})
		}
	}
}

func BenchmarkRead(b *testing.B) {
	for _, lineSize := range []int{64, 128} {
		recs := sampleStream(lineSize)
		for _, bo := range benchOptions {
			enc := encode(b, Header{LineSize: lineSize}, bo.o, recs)
			b.Run(bo.name+"/"+itoa(lineSize), func(b *testing.B) {
				b.SetBytes(int64(len(recs) * lineSize))
				b.ReportAllocs()
				for b.Loop() {
					r, err := NewReader(bytes.NewReader(enc))
					if err != nil {
						b.Fatal(err)
					}
					for {
						if _, err := r.Read(); err == io.EOF {
							break
						} else if err != nil {
							b.Fatal(err)
						}
					}
				}
				reportRecords(b, len(recs), len(enc))
			})
		}
	}
}

// reportRecords adds records/s and the file's bytes per record.
func reportRecords(b *testing.B, records, fileBytes int) {
	b.ReportMetric(float64(records)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(fileBytes)/float64(records), "B/record")
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
