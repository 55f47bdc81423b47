package multi

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/bdi"
	_ "github.com/linecomp/linecomp/bpc" // a member of TestLayout
	"github.com/linecomp/linecomp/cpack"
	"github.com/linecomp/linecomp/fpc"
	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/linecomptest"
)

func mustNew(t testing.TB, name string, n int) linecomp.Codec {
	t.Helper()
	c, err := linecomp.New(name, n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// stride32 is the doc's example: the 32-bit words 0, 3, 6, … of an n-byte
// line.
func stride32(n int) []byte {
	line := make([]byte, n)
	for i := range n / 4 {
		binary.LittleEndian.PutUint32(line[4*i:], uint32(3*i))
	}
	return line
}

// TestDocExample reproduces the worked examples of doc.go.
func TestDocExample(t *testing.T) {
	c := mustNew(t, "tavana-best", 32).(*Codec)
	line := stride32(32)
	// Member sizes: none 8·32 = 256. bdi base4-Δ1: id 4 + mask 8 + base 32
	// + 8 one-byte deltas = 108. cpack-z: flag 1, zero word 01 (2), seven
	// narrow words 1110+byte (12 each) = 1 + 2 + 84 = 87. fpc-tavana: flag
	// 1, zero word 001 (3), 3 and 6 as 4-bit sign-extended 011+4 (7 each),
	// 9 … 21 as 1-byte sign-extended 100+8 (11 each) = 1 + 3 + 14 + 55 = 73.
	for i, want := range []int{256, 108, 73, 87} {
		if got := c.Member(i).Size(line); got != want {
			t.Errorf("%s: %d bits, want %d", c.Member(i).Name(), got, want)
		}
	}
	enc, bits, err := c.Compress(nil, line)
	// Field 10 (fpc-tavana), then the 73 bits:
	// 10 1 001 0110011 0110110 10000001001 10000001100 10000001111
	// 10000010010 10000010101 → 10100101 10011011 01101000 00010011
	// 00000011 00100000 01111100 00010010 10000010 101(00000).
	want := []byte{0xA5, 0x9B, 0x68, 0x13, 0x03, 0x20, 0x7C, 0x12, 0x82, 0xA0}
	if err != nil || bits != 2+73 || !bytes.Equal(enc, want) {
		t.Errorf("stride line: %X, %d bits, %v; want %X, 75 bits", enc, bits, err, want)
	}
	if i, err := c.MemberOf(enc); i != 2 || err != nil {
		t.Errorf("MemberOf = %d, %v; want 2 (fpc-tavana)", i, err)
	}
	// All-zero line: none 256, bdi 4 (id 0000), fpc-tavana 4 (flag 1 and
	// zero-block 000), cpack-z 3 (flag 1 and zero-block 00): field 11, then
	// 100 → 11100000 = E0, 5 bits.
	enc, bits, err = c.Compress(nil, make([]byte, 32))
	if err != nil || bits != 5 || !bytes.Equal(enc, []byte{0xE0}) {
		t.Errorf("zero line: %X, %d bits, %v; want E0, 5 bits", enc, bits, err)
	}
}

func TestConformance(t *testing.T) {
	for _, n := range codectest.LineSizes {
		codectest.CheckAll(t, mustNew(t, "tavana-best", n))
	}
}

// lat is a codec with its latency replaced, for the choice rule.
type lat struct {
	linecomp.Codec
	l linecomp.Latency
}

func (c lat) Latency() linecomp.Latency { return c.l }

// TestChoice: least size, ties to the lower decompression latency (an
// unknown one last), then to the lower index.
func TestChoice(t *testing.T) {
	none := mustNew(t, "none", 64)
	b := mustNew(t, "bdi", 64)
	zero, random := make([]byte, 64), linecomptest.EdgeLines(64)[len(linecomptest.EdgeLines(64))-1]
	unknown := linecomp.Latency{Compress: 0, Decompress: linecomp.LatencyUnknown}
	for _, tc := range []struct {
		name    string
		members []linecomp.Codec
		line    []byte
		want    int
	}{
		{"bdi's 4 bits beat none's 512", []linecomp.Codec{none, b}, zero, 1},
		{"none's 512 bits beat bdi's 516 raw", []linecomp.Codec{b, none}, random, 1},
		{"equal sizes: lower decompression latency", []linecomp.Codec{lat{none, linecomp.Latency{Decompress: 5}}, lat{none, linecomp.Latency{Decompress: 1}}}, zero, 1},
		{"equal sizes and latencies: lower index", []linecomp.Codec{lat{none, linecomp.Latency{Decompress: 1}}, lat{none, linecomp.Latency{Decompress: 1}}}, zero, 0},
		{"unknown latency counts as the highest", []linecomp.Codec{lat{none, unknown}, lat{none, linecomp.Latency{Decompress: 99}}}, zero, 1},
	} {
		c, err := New(tc.members)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Choose(tc.line); got != tc.want {
			t.Errorf("%s: chose %d, want %d", tc.name, got, tc.want)
		}
		enc, _, _ := c.Compress(nil, tc.line)
		if got, _ := c.MemberOf(enc); got != tc.want {
			t.Errorf("%s: the stream names member %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestLayout: at every field width, the stream is the field value (k bits)
// followed by the chosen member's own stream, bit for bit, and the codec
// passes linecomptest. This checks the bit shifting of Compress and
// Decompress against plain string concatenation.
func TestLayout(t *testing.T) {
	for _, n := range codectest.LineSizes {
		b, _ := bdi.New(n)
		f, _ := fpc.New(n)
		z, _ := cpack.New(n, cpack.WithCPackZ())
		all := []linecomp.Codec{mustNew(t, "none", n), b, f, z, mustNew(t, "bpc", n)}
		lines := append(linecomptest.EdgeLines(n), stride32(n))
		for _, f := range codectest.Sample() {
			for off := 0; off+n <= len(f.Data); off += 7 * n {
				lines = append(lines, f.Data[off:off+n])
			}
		}
		for _, tc := range []struct {
			members []linecomp.Codec
			k       int // -1: the default
		}{
			{all[1:2], -1}, // one member, k = 0: the member's stream as it is
			{all[:2], -1},  // k = 1
			{all[:4], 3},
			{all, -1}, // 5 members: k = 3
			{all, 5},
			{all, 7},
			{all, 8}, // a whole byte
		} {
			var opts []Option
			if tc.k >= 0 {
				opts = append(opts, WithFieldBits(tc.k))
			}
			c, err := New(tc.members, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range lines {
				i := c.Choose(line)
				inner, innerBits, _ := c.Member(i).Compress(nil, line)
				enc, bits, err := c.Compress(nil, line)
				field := linecomptest.BitString([]byte{byte(i << (8 - c.TagBits()))}, c.TagBits())
				if want := field + linecomptest.BitString(inner, innerBits); err != nil || linecomptest.BitString(enc, bits) != want {
					t.Fatalf("%s/%d: line %X: stream %s (%v), want %s", c.Name(), n, line, linecomptest.BitString(enc, bits), err, want)
				}
			}
			if err := linecomptest.TestCodec(c, lines); err != nil {
				t.Errorf("%s/%d: %v", c.Name(), n, err)
			}
		}
	}
}

// TestNames: the registered configuration is named by its registry name
// however it is built; others by a description that New rejects.
func TestNames(t *testing.T) {
	b, _ := bdi.New(64, bdi.WithLatency(tavanaLatency("bdi")))
	bSlow, _ := bdi.New(64) // BDI paper latency, 5/1
	f, _ := fpc.New(64, fpc.WithTavanaTable())
	z, _ := cpack.New(64, cpack.WithCPackZ())
	none := mustNew(t, "none", 64)
	for _, tc := range []struct {
		members []linecomp.Codec
		opts    []Option
		want    string
	}{
		{[]linecomp.Codec{none, b, f, z}, nil, "tavana-best"},
		{[]linecomp.Codec{none, b, f, z}, []Option{WithFieldBits(2)}, "tavana-best"},
		{[]linecomp.Codec{none, bSlow, f, z}, nil, "multi(none,bdi,fpc-tavana,cpack-z)"},
		{[]linecomp.Codec{none, b, f, z}, []Option{WithFieldBits(4)}, "multi(none,bdi,fpc-tavana,cpack-z;k=4)"},
		{[]linecomp.Codec{none, b, f, z}, []Option{WithChooser(func([]byte) int { return 0 })}, "multi(none,bdi,fpc-tavana,cpack-z;custom)"},
		{[]linecomp.Codec{none, b, f, z}, []Option{WithLatency(linecomp.Latency{})}, "multi(none,bdi,fpc-tavana,cpack-z)"},
		{[]linecomp.Codec{none, b}, []Option{WithName("mine")}, "mine"},
	} {
		c, err := New(tc.members, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if c.Name() != tc.want {
			t.Errorf("Name() = %q, want %q", c.Name(), tc.want)
		}
	}
	// A description is not a registry name.
	c, _ := New([]linecomp.Codec{none, bSlow})
	if _, err := linecomp.New(c.Name(), 64); !errors.Is(err, linecomp.ErrUnknownCodec) {
		t.Errorf("New(%q): %v, want ErrUnknownCodec", c.Name(), err)
	}
	// The hand-built tavana-best makes the registered one's bits.
	mine, _ := New([]linecomp.Codec{none, b, f, z})
	reg := mustNew(t, mine.Name(), 64)
	for _, fl := range codectest.Sample() {
		for off := 0; off+64 <= len(fl.Data); off += 64 {
			line := fl.Data[off : off+64]
			e1, _, _ := mine.Compress(nil, line)
			e2, _, _ := reg.Compress(nil, line)
			if !bytes.Equal(e1, e2) {
				t.Fatalf("%s at byte %d: built %X, registered %X", fl.Name, off, e1, e2)
			}
		}
	}
}

// TestEncodingsAndLatency: one encoding per member, of fixed size only for
// none; TagBits is the field alone; the latency is the slowest member's,
// and each member keeps its own.
func TestEncodingsAndLatency(t *testing.T) {
	for _, n := range codectest.LineSizes {
		c := mustNew(t, "tavana-best", n).(*Codec)
		want := []linecomp.Encoding{{Name: "none", Bits: 2 + 8*n}, {Name: "bdi", Bits: -1}, {Name: "fpc-tavana", Bits: -1}, {Name: "cpack-z", Bits: -1}}
		if got := c.Encodings(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%d: Encodings %v, want %v", n, got, want)
		}
		if c.TagBits() != 2 || linecomp.TagGivesSize(c) {
			t.Errorf("%d: TagBits %d, TagGivesSize %v", n, c.TagBits(), linecomp.TagGivesSize(c))
		}
		// Table III: none 0/0, BDI 2/1, FPC 3/5, C-Pack+Z 16/9; the
		// slowest are 16 (C-Pack+Z) and 9 (C-Pack+Z).
		if l := c.Latency(); l != (linecomp.Latency{Compress: 16, Decompress: 9}) {
			t.Errorf("%d: Latency %v, want 16/9", n, l)
		}
		for i, l := range []linecomp.Latency{{}, {Compress: 2, Decompress: 1}, {Compress: 3, Decompress: 5}, {Compress: 16, Decompress: 9}} {
			if got := c.Member(i).Latency(); got != l {
				t.Errorf("%d: member %s latency %v, want %v", n, c.Member(i).Name(), got, l)
			}
		}
	}
	none := mustNew(t, "none", 64)
	c, _ := New([]linecomp.Codec{none, lat{none, linecomp.Latency{Compress: linecomp.LatencyUnknown, Decompress: 3}}})
	if l := c.Latency(); l.Compress != linecomp.LatencyUnknown || l.Decompress != 3 {
		t.Errorf("with an unknown member latency: %v, want unknown/3", l)
	}
	c, _ = New([]linecomp.Codec{none, none}, WithLatency(linecomp.Latency{Compress: 7, Decompress: 8}))
	if l := c.Latency(); l != (linecomp.Latency{Compress: 7, Decompress: 8}) {
		t.Errorf("WithLatency: %v", l)
	}
	if names := c.Encodings(); names[0].Name != "none" || names[1].Name != "none#1" {
		t.Errorf("repeated member names: %v", names)
	}
}

func TestConfigErrors(t *testing.T) {
	none32, none64 := mustNew(t, "none", 32), mustNew(t, "none", 64)
	many := make([]linecomp.Codec, 257)
	for i := range many {
		many[i] = none64
	}
	for _, tc := range []struct {
		name    string
		members []linecomp.Codec
		opts    []Option
		want    string
	}{
		{"no members", nil, nil, "no members"},
		{"nil member", []linecomp.Codec{none64, nil}, nil, "member 1 is nil"},
		{"line sizes differ", []linecomp.Codec{none64, none32}, nil, "member 1 (none) takes 32-byte lines, member 0 (none) 64-byte lines"},
		{"field too narrow", []linecomp.Codec{none64, none64, none64}, []Option{WithFieldBits(1)}, "3 members need 2 to 8"},
		{"field too wide", []linecomp.Codec{none64}, []Option{WithFieldBits(9)}, "need 0 to 8"},
		{"too many members", many, nil, "257 members, at most 256"},
		{"latency below unknown", []linecomp.Codec{none64}, []Option{WithLatency(linecomp.Latency{Compress: -2})}, "below LatencyUnknown"},
	} {
		c, err := New(tc.members, tc.opts...)
		if c != nil || !errors.Is(err, linecomp.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v; want an ErrConfig error containing %q", tc.name, c, err, tc.want)
		}
	}
}

// TestCustomChooser: the chooser decides, and an index out of range is an
// error, not a panic.
func TestCustomChooser(t *testing.T) {
	none, b := mustNew(t, "none", 64), mustNew(t, "bdi", 64)
	c, _ := New([]linecomp.Codec{none, b}, WithChooser(func([]byte) int { return 0 }))
	zero := make([]byte, 64)
	// Field 0, then the 512 zero bits of none: 513 bits in 65 zero bytes.
	if enc, bits, err := c.Compress(nil, zero); err != nil || bits != 513 || !bytes.Equal(enc, make([]byte, 65)) {
		t.Errorf("chooser 0: %X, %d bits, %v", enc, bits, err)
	}
	if c.Member(2) != nil || c.Member(-1) != nil {
		t.Error("Member out of range is not nil")
	}
	bad, _ := New([]linecomp.Codec{none, b}, WithChooser(func([]byte) int { return 2 }))
	dst := []byte{9}
	out, _, err := bad.Compress(dst, zero)
	if !errors.Is(err, linecomp.ErrConfig) || !bytes.Equal(out, dst) || bad.Size(zero) != -1 || bad.Choose(zero) != -1 {
		t.Errorf("chooser out of range: %X, %v, Size %d", out, err, bad.Size(zero))
	}
}

// TestCorrupt: streams that tavana-best cannot have made.
func TestCorrupt(t *testing.T) {
	c := mustNew(t, "tavana-best", 64).(*Codec)
	five, _ := New([]linecomp.Codec{c.Member(0), c.Member(1), c.Member(2), c.Member(3), c.Member(0)}) // k = 3
	for _, tc := range []struct {
		name   string
		c      linecomp.Codec
		enc    []byte
		reason string
	}{
		{"empty", c, nil, "tavana-best: corrupt encoding at bit 0: stream ends inside the algorithm field"},
		{"field 5 of 5 members", five, []byte{0b10100000}, "corrupt encoding at bit 0: the algorithm field names no member"},
		// Field 01 (bdi), then id 0000 (zeros) and a spare byte.
		{"trailing byte after bdi's zeros", c, []byte{0x40, 0x00}, "bit 8: stream is not as long as its member's part makes it"},
		// Field 01, then bdi id 1111 (raw), which needs 512 more bits: 2 +
		// 4 + 512 bits make 65 bytes, not 2.
		{"bdi raw, cut short", c, []byte{0x7C, 0x00}, "bit 16: stream is not as long as its member's part makes it"},
		// Field 01, then bdi id 1000, which is no encoding: bdi's own error.
		{"bdi id 1000", c, []byte{0x60}, "linecomp: bdi: corrupt encoding"},
	} {
		out, err := tc.c.Decompress([]byte{7}, tc.enc)
		if !errors.Is(err, linecomp.ErrCorrupt) || !strings.Contains(err.Error(), tc.reason) || !bytes.Equal(out, []byte{7}) {
			t.Errorf("%s: %X, %v; want an error containing %q", tc.name, out, err, tc.reason)
		}
	}
}

// TestLengthOnlyTheCodecSees: a stream whose last byte holds only zero
// bits of the member's stream, cut by that byte, decodes under the member
// (the cut bits read as zeros), and a stream extended by a zero byte can
// too. Decompress must reject both by the length the member's stream has.
func TestLengthOnlyTheCodecSees(t *testing.T) {
	found := 0
	for _, n := range codectest.LineSizes {
		c := mustNew(t, "tavana-best", n).(*Codec)
		lines := linecomptest.EdgeLines(n)
		for _, f := range codectest.Sample() {
			for off := 0; off+n <= len(f.Data); off += n {
				lines = append(lines, f.Data[off:off+n])
			}
		}
		for _, line := range lines {
			enc, _, _ := c.Compress(nil, line)
			if enc[len(enc)-1] != 0 || len(enc) < 2 {
				continue
			}
			found++
			cut := enc[:len(enc)-1]
			if out, err := c.Decompress(nil, cut); !errors.Is(err, linecomp.ErrCorrupt) {
				t.Fatalf("%d: %X cut to %X decoded to %X, %v", n, enc, cut, out, err)
			}
			if out, err := c.Decompress(nil, append(enc, 0)); !errors.Is(err, linecomp.ErrCorrupt) {
				t.Fatalf("%d: %X with a zero byte decoded to %X, %v", n, enc, out, err)
			}
		}
	}
	if found == 0 {
		t.Fatal("no stream ends in a zero byte: the test checks nothing")
	}
	t.Logf("%d streams end in a zero byte", found)
}
