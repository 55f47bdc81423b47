package gpu

import "github.com/linecomp/linecomp/sim/mem"

// MemoryController is a Memory made of sim/mem's memory controllers: DRAM
// bandwidth then limits performance, and the controllers' codec decides
// the bursts each line takes. DecompressCycles is added to every read of a
// line stored compressed (HW-BDI-Mem's decompressor at the controller:
// CABA §6 gives 1 cycle); compression on write-backs is off every load's
// path.
type MemoryController struct {
	Mem              *mem.Memory
	DecompressCycles int
}

// Access implements Memory.
func (c MemoryController) Access(now uint64, req MemRequest) (int, error) {
	op := mem.Read
	if req.Write {
		op = mem.Write
	}
	var r mem.Result
	var err error
	if req.Raw {
		r, err = c.Mem.AccessUncompressed(now, op, req.Addr)
	} else {
		r, err = c.Mem.Access(now, op, req.Addr, req.Line)
	}
	if err != nil {
		return 0, err
	}
	lat := r.Latency
	if !req.Write && r.Bursts < c.Mem.Config().LineSize/c.Mem.Config().MAG {
		lat += c.DecompressCycles
	}
	return lat, nil
}
