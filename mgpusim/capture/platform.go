package capture

import (
	"fmt"

	"github.com/sarchlab/akita/v4/mem/idealmemcontroller"
	"github.com/sarchlab/akita/v4/mem/mem"
	"github.com/sarchlab/akita/v4/mem/vm"
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/akita/v4/sim/directconnection"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
	"github.com/sarchlab/mgpusim/v4/amd/emu"
	"github.com/sarchlab/mgpusim/v4/amd/insts"
	"github.com/sarchlab/mgpusim/v4/amd/samples/runner/timingconfig"
	"github.com/sarchlab/mgpusim/v4/amd/sampling"
	"github.com/sarchlab/mgpusim/v4/amd/timing/cp"
)

// buildTiming builds MGPUSim's R9 Nano multi-GPU platform with the sample
// runner's own builder, unchanged.
func (p *Platform) buildTiming() {
	// The timing CUs and dispatchers consult the sampling engine; the
	// runner initialises it the same way before building.
	sampling.InitSampledEngine()

	timingconfig.MakeBuilder().
		WithSimulation(p.Simulation).
		WithNumGPUs(p.GPUs).
		WithGPUType("r9nano").
		Build()

	p.Driver = p.Simulation.GetComponentByName("Driver").(*driver.Driver)
	// The builder keeps the global storage to itself; every DRAM
	// controller holds it.
	dram := p.component("GPU[1].DRAM[0]").(*idealmemcontroller.Comp)
	p.Storage = dram.Storage
}

// Emulated GPUs have the shape of amd/samples/runner/emusystem: 64 compute
// units, 4 GB of DRAM each in one global storage, 4 KB pages, 1 GHz.
const (
	emuCUsPerGPU    = 64
	emuLog2PageSize = 12
	emuDRAMSize     = 4 * mem.GB
)

// buildEmulation builds an emulation platform equivalent to the sample
// runner's (amd/samples/runner/emusystem and emugpu), but with compute
// units made by emu.BuildComputeUnitWithALU from our ALU factory, so that
// the warp capture sees every data access of every ALU. The runner's
// builder makes its compute units internally and offers no such option.
func (p *Platform) buildEmulation(aluFactory func(cuIndex int) emu.ALUFactory) {
	s := p.Simulation
	engine := s.GetEngine()

	p.Storage = mem.NewStorage(uint64(p.GPUs+1) * emuDRAMSize)
	pageTable := vm.NewPageTable(emuLog2PageSize)

	p.Driver = driver.MakeBuilder().
		WithMagicMemoryCopyMiddleware().
		WithEngine(engine).
		WithPageTable(pageTable).
		WithLog2PageSize(emuLog2PageSize).
		WithGlobalStorage(p.Storage).
		Build("Driver")
	s.RegisterComponent(p.Driver)

	external := directconnection.MakeBuilder().
		WithEngine(engine).
		WithFreq(1 * sim.GHz).
		Build("ExternalConn")
	s.RegisterComponent(external)
	external.PlugIn(p.Driver.GetPortByName("GPU"))

	disassembler := insts.NewDisassembler()
	for g := 1; g <= p.GPUs; g++ {
		name := fmt.Sprintf("GPU[%d]", g)

		gpuMem := idealmemcontroller.MakeBuilder().
			WithStorage(p.Storage).
			WithEngine(engine).
			WithFreq(1 * sim.GHz).
			WithLatency(1).
			Build(name + ".GlobalMem")
		s.RegisterComponent(gpuMem)

		commandProcessor := cp.MakeBuilder().
			WithEngine(engine).
			WithFreq(1 * sim.GHz).
			Build(name + ".CommandProcessor")
		s.RegisterComponent(commandProcessor)
		commandProcessor.Driver = p.Driver.GetPortByName("GPU")

		dma := cp.NewDMAEngine(name+".DMA", engine,
			&mem.SinglePortMapper{Port: gpuMem.GetPortByName("Top").AsRemote()})
		s.RegisterComponent(dma)
		commandProcessor.DMAEngine = dma.ToCP

		internal := directconnection.MakeBuilder().
			WithEngine(engine).
			WithFreq(1 * sim.GHz).
			Build(name + ".IntraGPUConn")
		s.RegisterComponent(internal)
		internal.PlugIn(commandProcessor.ToDMA)
		internal.PlugIn(commandProcessor.ToCUs)
		internal.PlugIn(gpuMem.GetPortByName("Top"))
		internal.PlugIn(dma.ToCP)
		internal.PlugIn(dma.ToMem)

		for i := 0; i < emuCUsPerGPU; i++ {
			cuIndex := (g-1)*emuCUsPerGPU + i
			cu := emu.BuildComputeUnitWithALU(
				fmt.Sprintf("%s.CU%d", name, i),
				engine, disassembler, pageTable, emuLog2PageSize,
				p.Storage, nil, aluFactory(cuIndex), false)
			s.RegisterComponent(cu)
			commandProcessor.RegisterCU(cu)
			internal.PlugIn(cu.ToDispatcher)
		}

		p.Driver.RegisterGPU(commandProcessor.ToDriver, driver.DeviceProperties{
			DRAMSize: emuDRAMSize,
			CUCount:  emuCUsPerGPU,
		})
		external.PlugIn(commandProcessor.ToDriver)
	}
}

// component returns the named component; Akita's lookup returns the first
// component for an unknown name, so check the name.
func (p *Platform) component(name string) sim.Component {
	c := p.Simulation.GetComponentByName(name)
	if c == nil || c.Name() != name {
		panic(fmt.Sprintf("capture: MGPUSim platform has no component %q", name))
	}
	return c
}
