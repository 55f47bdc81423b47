package link

import (
	"fmt"

	"github.com/sarchlab/akita/v4/noc/networking/networkconnector"
	"github.com/sarchlab/akita/v4/sim"
)

// fabricBufferSize is the flit capacity of the buffers at both ends of a
// fabric link, as MGPUSim's PCIe network has them (akita
// noc/networking/pcie/pcie.go, PlugInDevice).
const fabricBufferSize = 16

// buildFabric builds the inter-GPU network with Akita's network connector:
// one switch, one endpoint per group of ports (all the stages' proxies for
// the bus, one GPU's for the crossbar), links of one flit per cycle each
// way at 1 GHz. Akita's endpoint turns a message of b TrafficBytes into
// ceil((b + ceil(b/4)) / flit) flits (25% line coding,
// noc/networking/switching/endpoint/endpoint.go, msgToFlits); with a flit
// of 5/4 × BytesPerCycle bytes that is exactly ceil(b / BytesPerCycle)
// (see the package doc). counter sees every flit the switch receives.
func buildFabric(engine sim.Engine, cfg *resolved, groups [][]sim.Port, counter sim.Hook) {
	c := networkconnector.MakeConnector().
		WithEngine(engine).
		WithDefaultFreq(stageFreq).
		WithFlitSize(cfg.flitBytes)
	c.NewNetwork("InterGPU")
	sw := c.AddSwitch()
	param := networkconnector.DeviceToSwitchLinkParameter{
		DeviceEndParam: networkconnector.LinkEndDeviceParameter{
			IncomingBufSize:  fabricBufferSize,
			OutgoingBufSize:  fabricBufferSize,
			NumInputChannel:  1,
			NumOutputChannel: 1,
		},
		SwitchEndParam: networkconnector.LinkEndSwitchParameter{
			IncomingBufSize:  fabricBufferSize,
			OutgoingBufSize:  fabricBufferSize,
			Latency:          cfg.Fabric.Latency,
			NumInputChannel:  1,
			NumOutputChannel: 1,
		},
		LinkParam: networkconnector.LinkParameter{IsIdeal: true, Frequency: stageFreq},
	}
	for i, ports := range groups {
		name := "Bus"
		if cfg.Fabric.Topology == Crossbar {
			name = fmt.Sprintf("EndPoint[%d]", i)
		}
		_, swPort := c.ConnectDeviceWithEPName(name, sw, ports, param)
		swPort.AcceptHook(counter)
	}
	c.EstablishRoute()
}
