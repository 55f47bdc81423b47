package memctl

import (
	"github.com/sarchlab/akita/v4/mem/dram"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/sim"
)

// DRAM is the configuration of one akita mem/dram controller (one channel
// per L2 bank). Its access unit, BusWidth/8 × BurstLength bytes, is the
// memory access granularity (MAG): mem/dram splits every request into
// sub-transactions of that size, each a column access of its own
// (close-page policy), so a request that moves fewer bursts takes less
// DRAM time.
type DRAM struct {
	Name     string
	Protocol dram.Protocol
	Freq     sim.Freq

	BusWidth, BurstLength, DeviceWidth int // bits, beats, bits
	BankGroups, Banks, Rows, Cols      int // per rank; Cols counts DeviceWidth-bit columns

	TCL, TCWL, TRCDRD, TRCDWR, TRP, TRAS int
	TRRDS, TRRDL, TCCDS, TCCDL           int
	TWTRS, TWTRL, TWR, TRTP, TRTRS, TPPD int
	TREFI                                int
	TransactionQueue, CommandQueue       int
}

// GDDR5 is the default channel: MAG-aware BDI Table IV's 32-bit bus with
// burst length 8 (a 32-byte MAG), one 2 Gb ×32 device of 16 banks with
// 2 KB rows (8192 rows of 512 ×32 columns: 256 MB, the share of one of the
// R9 Nano model's 16 controllers of a 4 GB GPU), and the timings in
// cycles of GPGPU-Sim's GTX 480 GDDR5 configuration (CL 12, WL 4, RCD 12,
// RP 12, RAS 28, RRD 6, CCD 2, WTR (CDLR) 5, WR 12; one bank group). tRTP,
// which that configuration does not set, is 2 [ours]. The command clock
// is 1 GHz (GDDR5 at 4 Gb/s a pin) rather than GPGPU-Sim's 924 MHz: a
// clock whose ticks are not on the platform's 1 GHz ticks makes Akita's
// connections schedule a tick in the past (Freq.ThisTick rounds to a
// tenth of a cycle) and panic. The queue sizes are MGPUSim's (r9nano
// createDramControllerBuilder).
var GDDR5 = DRAM{
	Name: "gddr5", Protocol: dram.GDDR5, Freq: 1 * sim.GHz,
	BusWidth: 32, BurstLength: 8, DeviceWidth: 32,
	BankGroups: 1, Banks: 16, Rows: 8192, Cols: 512,
	TCL: 12, TCWL: 4, TRCDRD: 12, TRCDWR: 12, TRP: 12, TRAS: 28,
	TRRDS: 6, TRRDL: 6, TCCDS: 2, TCCDL: 2,
	TWTRS: 5, TWTRL: 5, TWR: 12, TRTP: 2, TRTRS: 0, TPPD: 0,
	TREFI:            1755,
	TransactionQueue: 32, CommandQueue: 8,
}

// HBM2 is the option of MAG-aware BDI Table IV: a 128-bit bus with burst
// length 2 (a 32-byte MAG). The organisation and timings are those of
// MGPUSim's own HBM controller builder (r9nano createDramControllerBuilder,
// 500 MHz, 4 bank groups of 4 banks, 16384 rows of 64 columns), whose 256-bit
// bus and burst length 4 are replaced by Table IV's.
var HBM2 = DRAM{
	Name: "hbm2", Protocol: dram.HBM2, Freq: 500 * sim.MHz,
	BusWidth: 128, BurstLength: 2, DeviceWidth: 128,
	BankGroups: 4, Banks: 4, Rows: 16384, Cols: 64,
	TCL: 7, TCWL: 2, TRCDRD: 7, TRCDWR: 7, TRP: 7, TRAS: 17,
	TRRDS: 2, TRRDL: 3, TCCDS: 1, TCCDL: 1,
	TWTRS: 3, TWTRL: 4, TWR: 8, TRTP: 3, TRTRS: 0, TPPD: 2,
	TREFI:            1950,
	TransactionQueue: 32, CommandQueue: 8,
}

// MAG is the channel's access unit in bytes.
func (d DRAM) MAG() int { return d.BusWidth / 8 * d.BurstLength }

// rankBytes is the capacity of one rank.
func (d DRAM) rankBytes() uint64 {
	return uint64(d.Cols) * uint64(d.Rows) * uint64(d.DeviceWidth) / 8 *
		uint64(d.Banks) * uint64(d.BankGroups) * uint64(d.BusWidth/d.DeviceWidth)
}

// check says what in d cannot hold capacity bytes per controller.
func (d DRAM) check(capacity uint64) error {
	pow2 := func(n int) bool { return n > 0 && n&(n-1) == 0 }
	switch {
	case d.Freq <= 0:
		return configError("DRAM %q: Freq must be positive", d.Name)
	case !pow2(d.BusWidth) || !pow2(d.DeviceWidth) || d.DeviceWidth > d.BusWidth || !pow2(d.BurstLength):
		return configError("DRAM %q: BusWidth (%d), DeviceWidth (%d) and BurstLength (%d) must be powers of two, DeviceWidth ≤ BusWidth",
			d.Name, d.BusWidth, d.DeviceWidth, d.BurstLength)
	case !pow2(d.BankGroups) || !pow2(d.Banks) || !pow2(d.Rows) || !pow2(d.Cols) || d.Cols < d.BurstLength:
		return configError("DRAM %q: BankGroups, Banks, Rows and Cols must be powers of two and Cols ≥ BurstLength", d.Name)
	case d.TransactionQueue <= 2 || d.CommandQueue <= 0:
		return configError("DRAM %q: queue sizes must be positive (TransactionQueue > 2)", d.Name)
	}
	if r := d.rankBytes(); r == 0 || capacity%r != 0 || !pow2(int(capacity/r)) {
		return configError("DRAM %q: a rank of %d bytes does not divide a controller's %d bytes into a power of two of ranks", d.Name, r, capacity)
	}
	return nil
}

// build makes a channel holding capacity bytes on storage, addressed by
// global physical address as MGPUSim's own (unused) DRAM builder does
// (r9nano createDramControllerBuilder: a global storage and no address
// conversion; with a conversion mem/dram would read the storage at the
// converted address). The channel's address mapping keeps the bits of the
// address it needs (column, bank, row) and drops the rest.
func (d DRAM) build(engine sim.Engine, name string, capacity uint64, storage *mem.Storage) *dram.Comp {
	return dram.MakeBuilder().
		WithEngine(engine).
		WithFreq(d.Freq).
		WithProtocol(d.Protocol).
		WithBusWidth(d.BusWidth).
		WithBurstLength(d.BurstLength).
		WithDeviceWidth(d.DeviceWidth).
		WithNumChannel(1).
		WithNumRank(int(capacity / d.rankBytes())).
		WithNumBankGroup(d.BankGroups).
		WithNumBank(d.Banks).
		WithNumRow(d.Rows).
		WithNumCol(d.Cols).
		WithTransactionQueueSize(d.TransactionQueue).
		WithCommandQueueSize(d.CommandQueue).
		WithTCL(d.TCL).WithTCWL(d.TCWL).
		WithTRCDRD(d.TRCDRD).WithTRCDWR(d.TRCDWR).
		WithTRP(d.TRP).WithTRAS(d.TRAS).
		WithTRRDS(d.TRRDS).WithTRRDL(d.TRRDL).
		WithTCCDS(d.TCCDS).WithTCCDL(d.TCCDL).
		WithTWTRS(d.TWTRS).WithTWTRL(d.TWTRL).
		WithTWR(d.TWR).WithTRTP(d.TRTP).WithTRTRS(d.TRTRS).WithTPPD(d.TPPD).
		WithTREFI(d.TREFI).
		WithGlobalStorage(storage).
		Build(name)
}
