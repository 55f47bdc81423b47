package mem_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/sim/mem"
)

func codec(t testing.TB, name string, n int) linecomp.Codec {
	t.Helper()
	c, err := linecomp.New(name, n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newMem(t testing.TB, cfg mem.Config) *mem.Memory {
	t.Helper()
	m, err := mem.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func rawLine(seed int) []byte {
	var b []byte
	for i := 0; len(b) < 128; i++ {
		h := sha256.Sum256([]byte(fmt.Sprint(seed, i)))
		b = append(b, h[:]...)
	}
	return b[:128]
}

func access(t testing.TB, m *mem.Memory, now uint64, op mem.Op, addr uint64, line []byte) mem.Result {
	t.Helper()
	r, err := m.Access(now, op, addr, line)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMetadataBits: the tag bits when they give the size (bdi's 4-bit id,
// magbdi-32's 2-bit level at 128 bytes), the tag bits plus a burst count of
// ceil(log2(128/32 + 1)) = 3 bits when they do not (fpc's 1-bit flag: 4),
// and nothing for "none".
func TestMetadataBits(t *testing.T) {
	for name, want := range map[string]int{"bdi": 4, "magbdi-32": 2, "fpc": 4, "cpack": 4, "none": 0} {
		if got := mem.MetadataBits(codec(t, name, 128), 32); got != want {
			t.Errorf("%s: %d metadata bits, want %d", name, got, want)
		}
	}
	// At a 16-byte MAG the count needs ceil(log2(9)) = 4 bits.
	if got := mem.MetadataBits(codec(t, "fpc", 128), 16); got != 5 {
		t.Errorf("fpc at a 16-byte MAG: %d bits, want 5", got)
	}
}

// TestMDBlockOf512Lines: at 2 bits a line, one 128-byte MD block holds
// 1024 / 2 = 512 lines. Controller 0's local lines 0..511 are its first 16
// stripes of 32 lines (addresses k·6·4096 + j·128 for k < 16, j < 32): the
// first request misses and fetches the block (128 / 32 = 4 bursts), the
// other 511 hit; local line 512 (stripe 16 of controller 0) misses again.
func TestMDBlockOf512Lines(t *testing.T) {
	m := newMem(t, mem.Config{LineSize: 128, Codec: codec(t, "magbdi-32", 128)})
	if m.LinesPerMDBlock() != 512 {
		t.Fatalf("%d lines per MD block", m.LinesPerMDBlock())
	}
	line := make([]byte, 128)
	for k := uint64(0); k < 16; k++ {
		for j := uint64(0); j < 32; j++ {
			addr := k*6*4096 + j*128
			if c, local := m.Place(addr); c != 0 || local != k*32+j {
				t.Fatalf("Place(%#x) = %d, %d", addr, c, local)
			}
			r := access(t, m, 0, mem.Read, addr, line)
			if r.MDMiss != (k == 0 && j == 0) {
				t.Fatalf("local line %d: MD miss %v", k*32+j, r.MDMiss)
			}
		}
	}
	if r := access(t, m, 0, mem.Read, 16*6*4096, line); !r.MDMiss {
		t.Error("local line 512 should need a second MD block")
	}
	s := m.Stats()
	if s.MDHits != 511 || s.MDMisses != 2 || s.MetadataBursts != 8 || s.MDWriteBacks != 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestDirtyMDEviction: with a one-block MD cache, a write that misses
// fetches block 0 and dirties it (4 bursts); a read of a line of block 1
// fetches it (4) and evicts block 0, written back (4): 12 metadata bursts.
// A later read of block 0 fetches it clean; evicting it costs nothing.
func TestDirtyMDEviction(t *testing.T) {
	m := newMem(t, mem.Config{Controllers: 1, LineSize: 128, Codec: codec(t, "bdi", 128), MDCacheBytes: 128, MDWays: 1})
	per := uint64(m.LinesPerMDBlock()) // 1024 / 4 = 256 lines
	if per != 256 {
		t.Fatalf("%d lines per block", per)
	}
	line := make([]byte, 128)
	if r := access(t, m, 0, mem.Write, 0, line); !r.MDMiss || r.MDWriteBack {
		t.Fatalf("write: %+v", r)
	}
	if r := access(t, m, 0, mem.Read, per*128, line); !r.MDMiss || !r.MDWriteBack {
		t.Fatalf("read of block 1: %+v", r)
	}
	if r := access(t, m, 0, mem.Read, 0, line); !r.MDMiss || r.MDWriteBack {
		t.Fatalf("read of block 0: %+v", r)
	}
	s := m.Stats()
	if s.MetadataBursts != 16 || s.MDWriteBacks != 1 || s.MDMisses != 3 || s.MDReads != 3 || s.MDWrites != 1 {
		t.Errorf("stats %+v", s)
	}
	// Flush writes back nothing: block 0 is clean now.
	if n := m.Flush(0); n != 0 {
		t.Errorf("Flush wrote back %d blocks", n)
	}
	access(t, m, 0, mem.Write, 0, line)
	if n := m.Flush(0); n != 1 || m.Stats().MetadataBursts != 20 {
		t.Errorf("Flush after a write: %d blocks, %d metadata bursts", n, m.Stats().MetadataBursts)
	}
}

// TestInterleave: 4 KB stripes dealt to 6 controllers.
func TestInterleave(t *testing.T) {
	m := newMem(t, mem.Config{LineSize: 128, Codec: codec(t, "none", 128)})
	for _, tc := range []struct {
		addr  uint64
		ctrl  int
		local uint64
	}{
		{0, 0, 0}, {127, 0, 0}, {128, 0, 1}, {4095, 0, 31}, {4096, 1, 0}, {5 * 4096, 5, 0},
		{6 * 4096, 0, 32}, {6*4096 + 5*128, 0, 37}, {13*4096 + 128, 1, 65},
	} {
		if c, l := m.Place(tc.addr); c != tc.ctrl || l != tc.local {
			t.Errorf("Place(%#x) = %d, %d; want %d, %d", tc.addr, c, l, tc.ctrl, tc.local)
		}
	}
}

// TestBursts: bdi's all-zero line has a 0-bit payload (no burst; one with
// MinBursts 1); a line of one repeated 8-byte value has 64 bits (1 burst); a
// hash-like line is raw, 1024 bits (4 bursts), as "none" always is.
func TestBursts(t *testing.T) {
	rep := make([]byte, 128)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint64(rep[8*i:], 0xDEADBEEF12345678)
	}
	for _, tc := range []struct {
		codec string
		min   int
		line  []byte
		want  int
	}{
		{"bdi", 0, make([]byte, 128), 0}, {"bdi", 1, make([]byte, 128), 1},
		{"bdi", 0, rep, 1}, {"bdi", 0, rawLine(1), 4}, {"none", 0, make([]byte, 128), 4},
	} {
		m := newMem(t, mem.Config{LineSize: 128, Codec: codec(t, tc.codec, 128), MinBursts: tc.min})
		if r := access(t, m, 0, mem.Read, 0, tc.line); r.Bursts != tc.want {
			t.Errorf("%s MinBursts %d: %d bursts, want %d", tc.codec, tc.min, r.Bursts, tc.want)
		}
	}
}

// TestTiming: GDDR5 (latency 100, 2 cycles a burst). Two raw reads arriving
// together on one channel: the first 100 cycles, the second waits for the
// first's 4 bursts (8 cycles): 108. With bdi metadata, a first read looks up
// the MD cache (1 cycle), misses, fetches the block (100 cycles, bus free),
// then reads the data (100): 201.
func TestTiming(t *testing.T) {
	m := newMem(t, mem.Config{LineSize: 128, Codec: codec(t, "none", 128)})
	if r := access(t, m, 0, mem.Read, 0, rawLine(1)); r.Latency != 100 {
		t.Errorf("first: %+v", r)
	}
	if r := access(t, m, 0, mem.Read, 128, rawLine(2)); r.Latency != 108 {
		t.Errorf("second: %+v", r)
	}
	if s := m.Stats(); s.BusBusyCycles != 16 || s.MDHits+s.MDMisses != 0 {
		t.Errorf("stats %+v", s)
	}
	m = newMem(t, mem.Config{LineSize: 128, Codec: codec(t, "bdi", 128)})
	if r := access(t, m, 0, mem.Read, 0, rawLine(1)); r.Latency != 201 {
		t.Errorf("with an MD miss: %+v", r)
	}
}

// TestBadConfig: each configuration that cannot work names its field.
func TestBadConfig(t *testing.T) {
	good := mem.Config{LineSize: 128, Codec: codec(t, "bdi", 128)}
	for field, mut := range map[string]func(*mem.Config){
		"Codec":        func(c *mem.Config) { c.Codec = nil },
		"LineSize":     func(c *mem.Config) { c.LineSize = 64 },
		"MAG":          func(c *mem.Config) { c.MAG = 48 },
		"Interleave":   func(c *mem.Config) { c.Interleave = 1000 },
		"MDCacheBytes": func(c *mem.Config) { c.MDCacheBytes = 1000 },
		"MDBlock":      func(c *mem.Config) { c.MDBlock = 100 },
		"Controllers":  func(c *mem.Config) { c.Controllers = -1 },
		"MinBursts":    func(c *mem.Config) { c.MinBursts = 2 },
	} {
		cfg := good
		mut(&cfg)
		if _, err := mem.New(cfg); !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: %v", field, err)
		}
	}
	m := newMem(t, good)
	if _, err := m.Access(0, mem.Read, 0, make([]byte, 64)); !errors.Is(err, linecomp.ErrLineSize) {
		t.Errorf("short line: %v", err)
	}
	if _, err := m.Access(0, 3, 0, make([]byte, 128)); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("op 3: %v", err)
	}
	if s := m.Stats(); s.Requests != 0 {
		t.Errorf("rejected requests counted: %+v", s)
	}
}

// refMem is an independent plain model of model-spec §5's counters: MD
// caches as maps from set to MRU-first slices of blocks.
type refMem struct {
	ctrls, interleave, line, mag, sets, ways int
	perBlock                                 uint64
	codec                                    linecomp.Codec
	md                                       map[[2]int][]refBlock
	st                                       mem.Stats
}

type refBlock struct {
	n     uint64
	dirty bool
}

func (r *refMem) access(op mem.Op, addr uint64, line []byte) {
	stripe := addr / uint64(r.interleave)
	ctrl := int(stripe % uint64(r.ctrls))
	local := stripe/uint64(r.ctrls)*uint64(r.interleave/r.line) + addr%uint64(r.interleave)/uint64(r.line)
	payload := r.codec.Size(line) - r.codec.TagBits()
	bursts := (payload + 8*r.mag - 1) / (8 * r.mag)
	bursts = min(bursts, r.line/r.mag)
	r.st.Requests++
	r.st.Bursts += uint64(bursts)
	r.st.UncompressedBursts += uint64(r.line / r.mag)
	block := local / r.perBlock
	key := [2]int{ctrl, int(block % uint64(r.sets))}
	set := r.md[key]
	at := slices.IndexFunc(set, func(b refBlock) bool { return b.n == block })
	if at >= 0 {
		r.st.MDHits++
		b := set[at]
		b.dirty = b.dirty || op == mem.Write
		set = slices.Delete(set, at, at+1)
		r.md[key] = slices.Insert(set, 0, b)
		return
	}
	r.st.MDMisses++
	r.st.MetadataBursts += 4
	if len(set) == r.ways {
		if set[len(set)-1].dirty {
			r.st.MDWriteBacks++
			r.st.MetadataBursts += 4
		}
		set = set[:len(set)-1]
	}
	r.md[key] = slices.Insert(set, 0, refBlock{block, op == mem.Write})
}

// TestAgainstReference replays the corpora laid out as memory images (each
// file read line by line at its own base address, every fourth line written
// back after it is read) through the model and the reference, for the
// paper's codecs, and requires the same counters, plus the invariants that
// tie them together.
func TestAgainstReference(t *testing.T) {
	files := codectest.Files(t)
	for _, name := range []string{"magbdi-32", "bdi", "fpc", "cpack"} {
		for _, mdKB := range []int{16, 8, 1} {
			c := codec(t, name, 128)
			m := newMem(t, mem.Config{LineSize: 128, Codec: c, MDCacheBytes: mdKB << 10})
			ref := &refMem{ctrls: 6, interleave: 4096, line: 128, mag: 32, sets: (mdKB << 10) / 128 / 4, ways: 4,
				perBlock: uint64(m.LinesPerMDBlock()), codec: c, md: map[[2]int][]refBlock{}}
			base := uint64(0)
			for _, f := range files {
				for off := 0; off+128 <= len(f.Data); off += 128 {
					addr := base + uint64(off)
					line := f.Data[off : off+128]
					access(t, m, 0, mem.Read, addr, line)
					ref.access(mem.Read, addr, line)
					if off%512 == 384 {
						access(t, m, 0, mem.Write, addr, line)
						ref.access(mem.Write, addr, line)
					}
				}
				base += uint64(len(f.Data)+1<<20) &^ (1<<20 - 1) // next file at the next MiB
			}
			s := m.Stats()
			w := ref.st
			if s.Requests != w.Requests || s.Bursts != w.Bursts || s.UncompressedBursts != w.UncompressedBursts ||
				s.MetadataBursts != w.MetadataBursts || s.MDHits != w.MDHits || s.MDMisses != w.MDMisses || s.MDWriteBacks != w.MDWriteBacks {
				t.Errorf("%s, %d KB MD cache:\n got %+v\nwant %+v", name, mdKB, s, w)
			}
			var n, b uint64
			for i, h := range s.BurstHistogram {
				n += h
				b += uint64(i) * h
			}
			if n != s.Requests || b != s.Bursts || s.MDHits+s.MDMisses != s.Requests ||
				s.BusBusyCycles != 2*(s.Bursts+s.MetadataBursts) {
				t.Errorf("%s: invariants broken: %+v", name, s)
			}
			t.Logf("%-9s MD %2d KB: %d requests, effective ratio %.3f (%.3f with metadata), MD hit rate %.4f",
				name, mdKB, s.Requests, s.EffectiveRatio(), s.EffectiveRatioWithMetadata(), s.MDHitRate())
		}
	}
}

// TestAccessUncompressed: a line stored uncompressed moves 128/32 = 4
// bursts whatever its content, and its metadata is looked up as any line's.
func TestAccessUncompressed(t *testing.T) {
	m := newMem(t, mem.Config{LineSize: 128, Codec: codec(t, "bdi", 128)})
	r, err := m.AccessUncompressed(0, mem.Write, 0)
	if err != nil || r.Bursts != 4 || !r.MDMiss {
		t.Fatalf("%+v, %v", r, err)
	}
	if r := access(t, m, 0, mem.Read, 128, make([]byte, 128)); r.Bursts != 0 || !r.MDHit {
		t.Errorf("a zero line after it: %+v", r)
	}
	if s := m.Stats(); s.Bursts != 4 || s.UncompressedBursts != 8 || s.Requests != 2 {
		t.Errorf("stats %+v", s)
	}
	if _, err := m.AccessUncompressed(0, 9, 0); !errors.Is(err, linecomp.ErrConfig) {
		t.Errorf("op 9: %v", err)
	}
}
