package warp

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/linecomp/linecomp/trace"
)

// Header describes a whole warp trace.
type Header struct {
	LineSize int    // bytes of every line payload
	WarpSize int    // threads per warp: 64 for a GCN wavefront, 32 for an NVIDIA warp
	Source   string // free text: simulator, version, benchmark and its parameters
}

// Kernel is one kernel launch. Sizes count threads (work-items), as in
// HSA and OpenCL: the grid need not be a multiple of the block, and the
// blocks at its far edges are then partial.
type Kernel struct {
	Name  string    // at most MaxNameLen bytes
	Grid  [3]uint32 // threads along x, y, z; each ≥ 1
	Block [3]uint32 // threads of a block (workgroup) along x, y, z; each ≥ 1
}

// Kind is what an Inst is.
type Kind uint8

const (
	Compute Kind = 1 // Count non-memory instructions
	Load    Kind = 2 // a memory instruction reading Lines
	Store   Kind = 3 // a memory instruction writing Lines
	Barrier Kind = 4 // the block's warps wait for each other
	Exit    Kind = 5 // the warp's last instruction: it has finished
)

func (k Kind) String() string {
	switch k {
	case Compute:
		return "compute"
	case Load:
		return "load"
	case Store:
		return "store"
	case Barrier:
		return "barrier"
	case Exit:
		return "exit"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Warp names a warp of the current kernel.
type Warp struct {
	Block uint32 // linear block id: x + bx·(y + by·z) over the kernel's blocks per dimension bx, by
	Index uint32 // the warp's index within its block: threads Index·WarpSize … in the block's x-fastest order
}

// Line is one line-level access of a memory instruction.
type Line struct {
	Addr uint64 // line-aligned byte address
	Data []byte // Header.LineSize bytes: for a load the bytes read, for a store the line after the store
}

// Inst is one step of a warp's instruction stream.
type Inst struct {
	Warp  Warp
	Kind  Kind
	Count uint32 // Compute: how many non-memory instructions (≥ 1); otherwise 0
	PC    uint64 // Load, Store: the memory instruction's program counter; otherwise 0
	Lines []Line // Load, Store: the accesses after coalescing (possibly none); otherwise empty
}

// Sentinels, shared with package trace.
var (
	ErrFormat = trace.ErrFormat // malformed input; a *trace.FormatError with the byte offset
	ErrHeader = trace.ErrHeader // NewWriter: a header or options out of range
	ErrRecord = trace.ErrRecord // BeginKernel, Write, Close: a kernel or instruction that breaks the rules
	ErrClosed = trace.ErrClosed // Write, BeginKernel after Close
)

// Options are package trace's writer options: compression level and
// dictionary size.
type Options = trace.Options

// Limits of the format, beyond those of package trace.
const (
	MaxLineSize = 1 << 10 // bytes of a line payload
	MaxWarpSize = 1 << 10 // threads per warp
	MaxNameLen  = 1 << 12 // bytes of a kernel name
	MaxLines    = 1 << 10 // lines of one memory instruction
	MaxWarps    = 1 << 24 // a kernel's blocks × warps in its largest block
)

// blocksAlong is the number of blocks along dimension d.
func (k Kernel) blocksAlong(d int) uint64 {
	return (uint64(k.Grid[d]) + uint64(k.Block[d]) - 1) / uint64(k.Block[d])
}

// Blocks is the number of blocks of the grid. It is meaningful for a kernel
// a Writer accepted or a Reader returned.
func (k Kernel) Blocks() int {
	return int(k.blocksAlong(0) * k.blocksAlong(1) * k.blocksAlong(2))
}

// BlockThreads is the number of threads of a block: the product of the
// block's sizes, less at the grid's far edges; 0 for a block id out of range.
func (k Kernel) BlockThreads(block int) int {
	if block < 0 || block >= k.Blocks() {
		return 0
	}
	n := uint64(1)
	rest := uint64(block)
	for d := range 3 {
		along := k.blocksAlong(d)
		b := rest % along
		rest /= along
		n *= min(uint64(k.Block[d]), uint64(k.Grid[d])-b*uint64(k.Block[d]))
	}
	return int(n)
}

// Warps is the number of warps of a block for a warp size: its threads
// divided by warpSize, rounded up.
func (k Kernel) Warps(block, warpSize int) int {
	return (k.BlockThreads(block) + warpSize - 1) / warpSize
}

// MaxWarpsPerBlock is the number of warps of a full block.
func (k Kernel) MaxWarpsPerBlock(warpSize int) int {
	full := uint64(1)
	for d := range 3 {
		hi, lo := bits.Mul64(full, uint64(min(k.Block[d], k.Grid[d])))
		if hi != 0 {
			return math.MaxInt // saturated: check rejects it
		}
		full = lo
	}
	ws := uint64(warpSize)
	return int(min(full/ws+min(full%ws, 1), math.MaxInt))
}

// check returns why a kernel cannot be written or read, or "".
func (k Kernel) check(warpSize int) string {
	if len(k.Name) > MaxNameLen {
		return fmt.Sprintf("kernel name of %d bytes exceeds %d", len(k.Name), MaxNameLen)
	}
	for d := range 3 {
		if k.Grid[d] == 0 || k.Block[d] == 0 {
			return fmt.Sprintf("kernel %q has a zero size: grid %v, block %v", k.Name, k.Grid, k.Block)
		}
	}
	// blocks × warps per block ≤ 2^24, computed without overflow: each
	// factor is at most 2^32.
	space := uint64(1)
	for _, f := range []uint64{k.blocksAlong(0), k.blocksAlong(1), k.blocksAlong(2), uint64(k.MaxWarpsPerBlock(warpSize))} {
		if f > MaxWarps || space*f > MaxWarps {
			return fmt.Sprintf("kernel %q (grid %v, block %v) has more than %d warps", k.Name, k.Grid, k.Block, MaxWarps)
		}
		space *= f
	}
	return ""
}

// warpSet tracks which warps of a kernel have started and which have
// exited, as two bitmaps indexed by block × MaxWarpsPerBlock + index. They
// grow with the highest warp seen, so at most 2 × MaxWarps/8 bytes.
type warpSet struct {
	perBlock uint64
	started  []uint64
	exited   []uint64
	open     int // started and not yet exited
}

func (s *warpSet) reset(perBlock int) {
	clear(s.started)
	clear(s.exited)
	s.started, s.exited = s.started[:0], s.exited[:0]
	s.perBlock = uint64(perBlock)
	s.open = 0
}

func (s *warpSet) index(w Warp) (word int, bit uint64) {
	i := uint64(w.Block)*s.perBlock + uint64(w.Index)
	return int(i / 64), 1 << (i % 64)
}

func grow(b []uint64, word int) []uint64 {
	if word < len(b) {
		return b
	}
	if word < cap(b) {
		return b[:word+1]
	}
	nb := make([]uint64, word+1, max(word+1, 2*cap(b)))
	copy(nb, b)
	return nb
}

// step records an instruction of w; it returns why w cannot run it, or "".
func (s *warpSet) step(w Warp, k Kind) string {
	word, bit := s.index(w)
	if word < len(s.exited) && s.exited[word]&bit != 0 {
		return fmt.Sprintf("warp %d of block %d has exited already", w.Index, w.Block)
	}
	s.started = grow(s.started, word)
	if s.started[word]&bit == 0 {
		s.started[word] |= bit
		s.open++
	}
	if k == Exit {
		s.exited = grow(s.exited, word)
		s.exited[word] |= bit
		s.open--
	}
	return ""
}

// checkWarp returns why w is not a warp of k, or "".
func checkWarp(k *Kernel, w Warp, warpSize int) string {
	if int64(w.Block) >= int64(k.Blocks()) {
		return fmt.Sprintf("block %d outside the kernel's %d blocks", w.Block, k.Blocks())
	}
	if n := k.Warps(int(w.Block), warpSize); int64(w.Index) >= int64(n) {
		return fmt.Sprintf("warp %d outside block %d's %d warps", w.Index, w.Block, n)
	}
	return ""
}

// Item tags (see the package doc).
const (
	kindKernel  = 0
	kindMask    = 0x07
	tagWarp     = 0x08
	tagReserved = 0xF0
)
