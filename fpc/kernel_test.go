package fpc

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/internal/codectest"
)

// lineSummaryByHand classifies line with classify, the switch that
// documents the patterns, and builds the summary field by field.
func lineSummaryByHand(line []byte) ([]uint8, summary) {
	kinds := make([]uint8, len(line)/4)
	var zeros uint32
	codeBits, raw := 0, 0
	for i := range kinds {
		k := classify(binary.LittleEndian.Uint32(line[4*i:]))
		kinds[i] = uint8(k)
		switch k {
		case kZero:
			zeros |= 1 << i
			continue
		case kRaw:
			raw++
		}
		codeBits += prefixBits + int(tableTR.dataBits[k])
	}
	return kinds, makeSummary(zeros, codeBits, raw)
}

// kernelLines returns every line of the sample and corpora, the edge lines
// and random lines built from words of every kind, for line size n.
func kernelLines(t *testing.T, n int) [][]byte {
	var out [][]byte
	for _, f := range codectest.Files(t) {
		for off := 0; off+n <= len(f.Data); off += n {
			out = append(out, f.Data[off:off+n])
		}
	}
	out = append(out, codectest.EdgeLines(n)...)
	// Words at and around every pattern's boundaries, mixed at random.
	pool := []uint32{0, 1, 7, 8, 0xFFFFFFF8, 0xFFFFFFF7, 0x7F, 0x80, 0xFFFFFF80, 0xFFFFFF7F,
		0x7FFF, 0x8000, 0xFFFF8000, 0xFFFF7FFF, 0x12340000, 0xFFFF0000, 0x00010000,
		0x007F0080, 0x007FFF80, 0xFF80007F, 0x00800080, 0xFF7FFF80, 0x5A5A5A5A, 0x80808080,
		0x12345678, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFF}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	for range 2000 {
		line := make([]byte, n)
		for i := 0; i < n/4; i++ {
			w := pool[rng.IntN(len(pool))]
			if rng.IntN(4) == 0 {
				w = rng.Uint32()
			}
			binary.LittleEndian.PutUint32(line[4*i:], w)
		}
		out = append(out, line)
	}
	return out
}

// TestClassifyLevels: the kinds and summary of every line, from every
// kernel level, one line at a time and in batches, equal the pure-Go
// definition, which itself equals classify applied word by word.
func TestClassifyLevels(t *testing.T) {
	for _, n := range codectest.LineSizes {
		lines := kernelLines(t, n)
		data := slices.Concat(lines...)
		words := n / 4
		wantKinds := make([]uint8, len(lines)*words)
		wantSums := make([]uint64, len(lines))
		for i, line := range lines {
			k, s := lineSummaryByHand(line)
			copy(wantKinds[i*words:], k)
			wantSums[i] = uint64(s)
			if got := uint64(classifyLineGeneric(line, make([]uint8, words))); got != wantSums[i] {
				t.Fatalf("%d bytes, line %d: generic summary %#x, by hand %#x\n%X", n, i, got, wantSums[i], line)
			}
		}
		codectest.ForEachLevel(t, func(t *testing.T) {
			c, _ := New(n)
			kinds := make([]uint8, len(wantKinds))
			sums := make([]uint64, len(lines))
			c.classifyLines(data, kinds, sums)
			for i := range lines {
				var one [maxWords]uint8
				var s [1]uint64
				c.classifyLines(lines[i], one[:], s[:])
				if sums[i] != wantSums[i] || s[0] != wantSums[i] ||
					!slices.Equal(kinds[i*words:(i+1)*words], wantKinds[i*words:(i+1)*words]) ||
					!slices.Equal(one[:words], wantKinds[i*words:(i+1)*words]) {
					t.Fatalf("%d bytes, line %d: batch %#x %v, single %#x %v, want %#x %v\n%X", n, i,
						sums[i], kinds[i*words:(i+1)*words], s[0], one[:words], wantSums[i], wantKinds[i*words:(i+1)*words], lines[i])
				}
			}
		})
	}
}

// TestRunCodeStarts checks the bit tricks against counting run positions.
func TestRunCodeStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		z := rng.Uint32() | rng.Uint32() | rng.Uint32() // long zero runs
		if rng.IntN(8) == 0 {
			z = ^uint32(0) >> rng.IntN(32) << rng.IntN(32)
		}
		var want uint32
		run := 0
		for i := range 32 {
			if z>>i&1 == 0 {
				run = 0
				continue
			}
			if run%maxRun == 0 {
				want |= 1 << i
			}
			run++
		}
		if got := runCodeStarts(z); got != want {
			t.Fatalf("runCodeStarts(%032b) = %032b, want %032b (%d codes)", z, got, want, bits.OnesCount32(want))
		}
	}
}

// TestBatch: Sizes and CompressLines through the batch kernels give, line
// for line, what Size and Compress give, at every kernel level.
func TestBatch(t *testing.T) {
	codectest.ForEachLevel(t, func(t *testing.T) {
		for _, name := range []string{"fpc", "fpc-tavana"} {
			for _, n := range codectest.LineSizes {
				c := mustNew(t, name, n)
				for _, f := range codectest.Sample() {
					data := f.Data[:len(f.Data)/n*n]
					sizes, err := linecomp.Sizes(c, nil, data)
					if err != nil {
						t.Fatal(err)
					}
					var lines linecomp.Lines
					if err := linecomp.CompressLines(c, &lines, data); err != nil {
						t.Fatal(err)
					}
					for i := range sizes {
						line := data[i*n : (i+1)*n]
						enc, bits, _ := c.Compress(nil, line)
						if sizes[i] != bits || lines.Bits[i] != bits || !slices.Equal(lines.Line(i), enc) {
							t.Fatalf("%s/%d %s line %d: Sizes %d, CompressLines %d bits %X, Compress %d bits %X",
								name, n, f.Name, i, sizes[i], lines.Bits[i], lines.Line(i), bits, enc)
						}
					}
				}
			}
		}
	})
}

func TestBatchZeroAllocs(t *testing.T) {
	c := mustNew(t, "fpc", 128).(*Codec)
	data := codectest.Sample()[0].Data[:128*200]
	sizes := make([]int, 0, 200)
	var lines linecomp.Lines
	c.CompressLines(&lines, data)
	if a := testing.AllocsPerRun(20, func() { sizes = c.AppendSizes(sizes[:0], data) }); a != 0 {
		t.Errorf("AppendSizes: %v allocs", a)
	}
	if a := testing.AllocsPerRun(20, func() { lines.Reset(); c.CompressLines(&lines, data) }); a != 0 {
		t.Errorf("CompressLines: %v allocs", a)
	}
}
