// Package suite holds what the linecomp GPU kernel suite's host programs
// share: loading their code objects, a device to allocate, copy and launch
// on through MGPUSim's driver, and the rules their argument structs
// follow.
//
// The suite is the papers' workloads written as OpenCL C kernels of our
// own (one package each: bc, bfs, color, km, mis, pf, prk, sssp), compiled by
// Debian's clang-14 to GCN3 (gfx803) code objects of version 2, which
// MGPUSim v4.2.0 loads and runs in emulation and in its timing model. The
// compiled objects are committed next to their sources; go generate
// rebuilds them (see gen.go) and TestCodeObjects checks that every
// instruction in them is one MGPUSim can execute.
//
// # The kernels
//
// Each package holds kernels.cl, its compiled kernels.hsaco, the host
// program (a benchmark for MGPUSim's driver: inputs, launch sequence) and
// a host reference that Verify compares every result with. None uses
// atomics: where the original pushes along edges with atomic updates, ours
// pulls, so every value has one writer.
//
//	package  row (LATTE-CC Table III)  algorithm, as in                   without atomics because
//	bc       BC                        Brandes, level-synchronous (Pannotia) pull: sigma from the level above, delta from the level below
//	bfs      BFS (capture: gbfs)       frontier masks, two kernels (Rodinia)  same-value writes of a level's cost; int flags
//	color    CLR                       Jones-Plassmann, max (Pannotia)        selection in its own array, applied by a second kernel
//	km       KM                        k-means, swap + assign (Rodinia)       one writer per point; centres moved on the host, as Rodinia does
//	mis      MIS                       Luby (Pannotia)                        selection in its own array; removal by counting chosen neighbours
//	pf       PF                        pathfinder pyramid, local memory (Rodinia) one writer per cell; barriers
//	prk      PRK                       PageRank, SpMV form (Pannotia)        pull SpMV: one writer per row
//	sssp     DJK                       Bellman-Ford, Jacobi rounds (Pannotia's sssp relaxes with atomic min) pull: each node takes the least of its neighbours' offers
//
// Float results (prk, km) must equal the host's bit for bit: the kernels
// are compiled with FP_CONTRACT off where it applies and the references
// round the same operations in the same order. bc divides (a reciprocal
// and a product on the GPU) and is compared with a float64 reference
// within a relative 1e-3.
//
// # Argument structs
//
// MGPUSim's driver copies a launch's argument struct into the kernel's
// argument segment with encoding/binary, so the struct must have the
// segment's layout: the explicit arguments in the kernel's order, each at
// its natural alignment (pointers are driver.Ptr, 8 bytes), padding written
// out as fields, then HiddenGlobalOffsetX/Y/Z (int64, aligned to 8), which
// the kernels' global_id reads (clang declares no hidden arguments for a
// kernel that never reads them, such as pathfinder, and its struct ends
// with the explicit ones). Every field is exported: the driver sets fields
// by reflection and panics on a blank one. Launch checks each struct
// against the code object's metadata (CheckArgStruct).
//
// # What MGPUSim v4.2.0 cannot execute
//
// Its GCN3 decoder has no FLAT atomics (clang emits opcodes 64 and up, its
// table stops at 61), its emulator does not execute LDS atomics, its timing
// memory pipeline accepts only FLAT loads and stores, and it lacks
// flat_store_byte/short, v_cmp_eq_u16, v_ffbl_b32, s_orn2_b64,
// s_cselect_b64, v_alignbit_b32, the VOP3 encoding of v_lshlrev_b32 and every MUBUF
// instruction (so no scratch: no spills, no private arrays). The kernels
// are written to avoid them: int flags instead of bytes, 32-bit indices,
// no bit tricks, no early exits from loops, masks from bitwise rather
// than short-circuit operators, and no atomics (each kernel's comment says
// how).
// Unsupported lists them and TestCodeObjects enforces it.
package suite

import (
	"encoding/binary"
	"fmt"

	"github.com/linecomp/linecomp/mgpusim/suite/graph"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
	"github.com/sarchlab/mgpusim/v4/amd/insts"
)

// WorkGroup is the work-group size of every launch: MGPUSim's emulator
// and R9 Nano model run 64-wide wavefronts, four to a group.
const WorkGroup = 256

// A Kernel is one kernel of a code object, with its argument list.
type Kernel struct {
	Name string
	Code *insts.KernelCodeObject
	Args []Arg
}

// LoadKernel returns the named kernel of a code object. It panics if the
// object has no such kernel or no readable metadata: the objects are
// embedded at build time and TestCodeObjects checks them.
func LoadKernel(object []byte, name string) *Kernel {
	all, err := KernelArgs(object)
	if err != nil {
		panic(err.Error())
	}
	args, ok := all[name]
	if !ok {
		panic(fmt.Sprintf("suite: code object has no kernel %q", name))
	}
	return &Kernel{Name: name, Code: insts.LoadKernelCodeObjectFromBytes(object, name), Args: args}
}

// Device is one GPU (or one unified GPU) of MGPUSim's driver, with the
// context a benchmark allocates in.
type Device struct {
	Driver  *driver.Driver
	Context *driver.Context
	unified bool
	// acquire is a 4-byte buffer Launch copies to before each launch, to
	// make MGPUSim flush its caches (see Launch).
	acquire driver.Ptr
}

// NewDevice initialises a driver context for a benchmark. Call Select
// before allocating.
func NewDevice(d *driver.Driver) *Device {
	return &Device{Driver: d, Context: d.Init()}
}

// Select makes the given GPU the one the device allocates on and launches
// on. The suite's kernels run on one GPU at a time; capture spreads them
// over several with a unified GPU, which is one id.
func (d *Device) Select(gpus []int) {
	if len(gpus) != 1 {
		panic(fmt.Sprintf("suite: a benchmark runs on one GPU (a unified GPU spreads it over several), got %d", len(gpus)))
	}
	d.Driver.SelectGPU(d.Context, gpus[0])
}

// SetUnifiedMemory makes later allocations unified memory.
func (d *Device) SetUnifiedMemory() { d.unified = true }

// Alloc allocates bytes of device memory.
func (d *Device) Alloc(bytes int) driver.Ptr {
	if bytes <= 0 {
		bytes = 4 // a kernel argument must still point somewhere
	}
	if d.unified {
		return d.Driver.AllocateUnifiedMemory(d.Context, uint64(bytes))
	}
	return d.Driver.AllocateMemory(d.Context, uint64(bytes))
}

// Upload allocates memory for a slice of fixed-size values and copies it
// there.
func (d *Device) Upload(data any) driver.Ptr {
	p := d.Alloc(binary.Size(data))
	if binary.Size(data) > 0 {
		d.Driver.MemCopyH2D(d.Context, p, data)
	}
	return p
}

// Download copies device memory into dst, a slice or a pointer to a
// fixed-size value.
func (d *Device) Download(dst any, src driver.Ptr) {
	d.Driver.MemCopyD2H(d.Context, dst, src)
}

// Copy writes a value or slice to device memory.
func (d *Device) Copy(dst driver.Ptr, src any) {
	d.Driver.MemCopyH2D(d.Context, dst, src)
}

// Rounds runs round until a pass leaves the 4-byte flag at zero: before
// each pass it clears the flag, which a kernel of the round sets when the
// round changed something, and it reads the flag back after. It returns the
// passes run (the last one changed nothing). The frontier loops of the
// graph kernels (levels, Luby rounds, colours, relaxations) are all this.
func (d *Device) Rounds(flag driver.Ptr, round func(pass int32)) int {
	for pass := int32(0); ; pass++ {
		d.Copy(flag, int32(0))
		round(pass)
		var set int32
		d.Download(&set, flag)
		if set == 0 {
			return int(pass) + 1
		}
	}
}

// Launch runs a one-dimensional kernel over n work-items (rounded up to
// whole work-groups; the kernels check their id against n) and waits for
// it. args must point to the kernel's argument struct (see the package
// documentation); a struct that does not match the kernel's metadata
// (CheckArgStruct) is a programming error and panics.
//
// A GPU invalidates its L1 caches when a kernel starts, so a kernel reads
// what the kernels before it wrote. MGPUSim's timing model does not: its
// compute units keep L1 lines from one launch to the next, and its driver
// flushes and invalidates every cache only for a memory copy after a
// kernel has run (amd/driver/memorycopy.go, needFlushing; the driver marks
// every buffer dirty at each launch). Without that, a kernel reading an
// array its predecessor wrote can read stale lines: prk failed its
// verification so in timing on a 20,000-node graph, and MGPUSim's own
// pagerank fails the same way. So Launch first copies 4 bytes to a buffer
// of its own, which makes the driver flush exactly as for any copy; in
// emulation (no caches) the copy is all it costs.
func (d *Device) Launch(k *Kernel, n int, args any) {
	if err := CheckArgStruct(k.Args, args); err != nil {
		panic(fmt.Sprintf("suite: kernel %s: %v", k.Name, err))
	}
	if d.acquire == 0 {
		d.acquire = d.Alloc(4)
	}
	d.Copy(d.acquire, uint32(0))
	groups := (n + WorkGroup - 1) / WorkGroup
	if groups == 0 {
		groups = 1
	}
	d.Driver.LaunchKernel(d.Context, k.Code,
		[3]uint32{uint32(groups * WorkGroup), 1, 1},
		[3]uint16{WorkGroup, 1, 1}, args)
}

// GraphBuffers are a graph's CSR arrays in device memory.
type GraphBuffers struct {
	RowPtr, Col, Weight driver.Ptr
}

// UploadGraph copies a graph's CSR arrays to the device.
func (d *Device) UploadGraph(g *graph.Graph) GraphBuffers {
	return GraphBuffers{
		RowPtr: d.Upload(g.RowPtr),
		Col:    d.Upload(g.Col),
		Weight: d.Upload(g.Weight),
	}
}

// NodeValues returns the pseudo-random node values Luby's MIS and
// Jones-Plassmann colouring order nodes by: a fixed function of the seed
// and the node number (a SplitMix64 step), so that host and reference
// agree and a trace can be reproduced from its parameters.
func NodeValues(n int, seed uint64) []uint32 {
	out := make([]uint32, n)
	for v := range out {
		z := seed + uint64(v+1)*0x9e3779b97f4a7c15
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		out[v] = uint32((z ^ z>>31) >> 32)
	}
	return out
}

// Mismatch reports the first of a result's entries that differs from the
// reference, or "" if they agree; what names the array.
func Mismatch[T comparable](what string, got, want []T) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%s: %d entries, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Sprintf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
	return ""
}
