package suite_test

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/mgpusim/suite"
	"github.com/linecomp/linecomp/mgpusim/suite/bc"
	"github.com/linecomp/linecomp/mgpusim/suite/bfs"
	"github.com/linecomp/linecomp/mgpusim/suite/color"
	"github.com/linecomp/linecomp/mgpusim/suite/km"
	"github.com/linecomp/linecomp/mgpusim/suite/mis"
	"github.com/linecomp/linecomp/mgpusim/suite/pf"
	"github.com/linecomp/linecomp/mgpusim/suite/prk"
	"github.com/linecomp/linecomp/mgpusim/suite/sssp"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

// objects are every committed code object, with the kernels each must
// hold.
var objects = []struct {
	pkg     string
	object  []byte
	kernels []string
}{
	{"bc", bc.Object(), []string{"bc_init", "bc_forward", "bc_backward"}},
	{"bfs", bfs.Object(), []string{"bfs_expand", "bfs_commit"}},
	{"color", color.Object(), []string{"color_select", "color_commit"}},
	{"km", km.Object(), []string{"kmeans_swap", "kmeans_assign"}},
	{"mis", mis.Object(), []string{"mis_select", "mis_commit"}},
	{"pf", pf.Object(), []string{"pathfinder"}},
	{"prk", prk.Object(), []string{"prk_scale", "prk_spmv", "prk_update"}},
	{"sssp", sssp.Object(), []string{"sssp_relax"}},
}

// TestCodeObjects is the instruction checker CI runs: every instruction
// of every kernel decodes with MGPUSim's decoder and is one MGPUSim
// executes.
func TestCodeObjects(t *testing.T) {
	for _, o := range objects {
		counts, err := suite.CheckObject(o.object)
		if err != nil {
			t.Errorf("%s: %v", o.pkg, err)
			continue
		}
		if len(counts) != len(o.kernels) {
			t.Errorf("%s: kernels %v, want %v", o.pkg, counts, o.kernels)
		}
		args, err := suite.KernelArgs(o.object)
		if err != nil {
			t.Fatalf("%s: %v", o.pkg, err)
		}
		for _, k := range o.kernels {
			if counts[k] < 10 {
				t.Errorf("%s: kernel %s has %d instructions", o.pkg, k, counts[k])
			}
			// Every kernel that reads the global offset (all but
			// pathfinder) has the three after its explicit arguments.
			if k == "pathfinder" {
				continue
			}
			n := 0
			for _, a := range args[k] {
				if strings.HasPrefix(a.ValueKind, "HiddenGlobalOffset") {
					n++
				}
			}
			if n != 3 {
				t.Errorf("%s: kernel %s has %d hidden global offsets in %+v", o.pkg, k, n, args[k])
			}
		}
	}
}

// patch returns a copy of the object with the kernel's instruction word
// at byte offset off (after the 256-byte kernel header) replaced.
func patch(t *testing.T, object []byte, kernel string, off int, words ...uint32) []byte {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(object))
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.Symbols()
	text := f.Section(".text")
	for _, s := range syms {
		if s.Name == kernel && s.Size > 0 {
			out := append([]byte(nil), object...)
			at := int(text.Offset+(s.Value-text.Addr)) + 256 + off
			for i, w := range words {
				binary.LittleEndian.PutUint32(out[at+4*i:], w)
			}
			return out
		}
	}
	t.Fatalf("no kernel %s", kernel)
	return nil
}

// TestCheckObjectRejects shows the checker fails on the instructions the
// kernels were rewritten to avoid.
func TestCheckObjectRejects(t *testing.T) {
	obj := sssp.Object()
	if _, err := suite.CheckObject(obj); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		words []uint32
		want  string
	}{
		// s_orn2_b64 s[4:5], s[4:5], exec: what a break in a loop made
		// clang emit in mis_commit.
		"s_orn2_b64": {[]uint32{0x8A847E04}, "s_orn2_b64: MGPUSim v4.2.0 does not execute it"},
		// s_cselect_b64 s[2:3], -1, 0: what "computed && i < n - 1"
		// made clang emit in pathfinder.
		"s_cselect_b64": {[]uint32{0x858280C1}, "s_cselect_b64: MGPUSim v4.2.0 does not execute it"},
		// flat_atomic_add v0, v[0:1], v2 glc (gfx803 FLAT opcode 66).
		"flat atomic": {[]uint32{0xDD090000, 0x00000200}, "cannot decode"},
		// flat_store_byte v[0:1], v2 (FLAT opcode 24).
		"flat_store_byte": {[]uint32{0xDC600000, 0x00000200}, "flat_store_byte"},
		// buffer_store_dword v0, off, s[0:3], s4 (MUBUF opcode 28): a spill;
		// MGPUSim's decoder has no MUBUF table.
		"mubuf": {[]uint32{0xE0700000, 0x04000000}, "instruction format mubuf"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := suite.CheckObject(patch(t, obj, "sssp_relax", 0, tc.words...))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
	if _, err := suite.CheckObject([]byte("not an ELF file")); err == nil {
		t.Fatal("garbage accepted")
	}
}

type goodArgs struct {
	A, B                driver.Ptr
	N                   int32
	Pad                 int32
	HiddenGlobalOffsetX int64
	HiddenGlobalOffsetY int64
	HiddenGlobalOffsetZ int64
}

type unpaddedArgs struct {
	A, B                driver.Ptr
	N                   int32
	HiddenGlobalOffsetX int64
	HiddenGlobalOffsetY int64
	HiddenGlobalOffsetZ int64
}

type wrongTypeArgs struct {
	A                   uint64
	B                   driver.Ptr
	N                   int32
	Pad                 int32
	HiddenGlobalOffsetX int64
	HiddenGlobalOffsetY int64
	HiddenGlobalOffsetZ int64
}

type unexportedArgs struct {
	A, B driver.Ptr
	N    int32
	//lint:ignore U1000 the unexported field CheckArgStruct must reject
	pad                 int32
	HiddenGlobalOffsetX int64
	HiddenGlobalOffsetY int64
	HiddenGlobalOffsetZ int64
}

type shortArgs struct {
	A, B driver.Ptr
	N    int32
}

func TestCheckArgStruct(t *testing.T) {
	// (global int *a, global int *b, int n) as clang lays it out, with
	// the hidden arguments after the offsets that the struct omits.
	args := []suite.Arg{
		{8, 8, "GlobalBuffer"}, {8, 8, "GlobalBuffer"}, {4, 4, "ByValue"},
		{8, 8, "HiddenGlobalOffsetX"}, {8, 8, "HiddenGlobalOffsetY"}, {8, 8, "HiddenGlobalOffsetZ"},
		{8, 8, "HiddenNone"},
	}
	if err := suite.CheckArgStruct(args, &goodArgs{}); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		v    any
		want string
	}{
		"unpadded":   {&unpaddedArgs{}, "HiddenGlobalOffsetX is at byte 20; the kernel's argument 3 is at 24"},
		"wrong type": {&wrongTypeArgs{}, "A is uint64; the kernel's argument 0 is a buffer"},
		"unexported": {&unexportedArgs{}, "pad is not exported"},
		"short":      {&shortArgs{}, "holds 3 of the kernel's 6"},
		"not struct": {new(int), "not a struct"},
	} {
		t.Run(name, func(t *testing.T) {
			err := suite.CheckArgStruct(args, tc.v)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

func TestNodeValues(t *testing.T) {
	a := suite.NodeValues(1000, 1)
	b := suite.NodeValues(1000, 2)
	seen := map[uint32]bool{}
	same := 0
	for i := range a {
		seen[a[i]] = true
		if a[i] == b[i] {
			same++
		}
	}
	if len(seen) < 995 || same > 5 {
		t.Fatalf("%d distinct values of 1000, %d equal across seeds", len(seen), same)
	}
	if got := suite.NodeValues(3, 1); got[0] != a[0] || got[2] != a[2] {
		t.Fatal("values depend on n")
	}
}
