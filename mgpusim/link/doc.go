// Package link runs Tavana et al.'s inter-GPU link compression live inside
// MGPUSim (github.com/sarchlab/mgpusim/v4 v4.2.0 on akita/v4 v4.9.0): every
// payload an RDMA engine sends to another GPU is compressed with a fixed
// codec or with the penalty vote of policy/vote (one selector per sending
// GPU, model-spec §6), the fabric carries the compressed size, and the
// codecs' latencies delay the messages in simulated time. Nothing in
// MGPUSim or Akita is patched; the plug-in is attached to a platform the
// capture package builds (Attach, from capture.Config.Setup), and Run
// does both for one benchmark. The command mgpusim/cmd/linkstudy runs the
// paper's study (its Figs. 5–7) with it.
//
// # Where it plugs in
//
// An RDMA engine (amd/timing/rdma.Comp) reaches the other GPUs through two
// ports held in exported fields: RDMARequestOutside sends remote reads and
// writes and receives their responses, RDMADataOutside receives other
// GPUs' reads and writes and sends the responses. MGPUSim's builder plugs
// both into its PCIe network, and an Akita port cannot be plugged twice, so
// Attach gives each engine two fresh ports with the same names, capacities
// (128) and hooks (the capture's rdma hooks move with them) in those
// fields; the originals stay plugged into the PCIe network, idle. The
// fresh ports are connected to a stage, one per GPU (see below), whose
// proxy ports, named like the engine's, are plugged into a new inter-GPU
// fabric; messages are addressed by port name, so they reach the proxies.
// CPU–GPU traffic (the driver's copies and commands) stays on MGPUSim's
// PCIe network, unchanged.
//
// # Message sizes
//
// MGPUSim sizes a message by its TrafficBytes: 12 for a read request,
// len(Data)+4 for a data-ready response, len(Data)+12 for a write request,
// 4 for a write-done response (akita mem/mem/protocol.go); the payload is
// always one 64-byte line. A hook on the engine's fresh ports
// (sim.HookPosPortMsgSend, which runs inside Send once the message is in
// the outgoing buffer, before the stage takes it) sees every message:
//
//   - Without compression (Config.NewChooser nil, the study's "none"),
//     every message keeps MGPUSim's TrafficBytes.
//   - With compression, the sender's chooser picks a candidate for each
//     DataReady and WriteReq payload, and the hook sets TrafficBytes to
//     sim/link.WireBytes(HeaderBits(kind, 4), Size): Fig. 4's header
//     rounded up to whole bytes plus ceil(payload bits / 8). DataReady:
//     4 + ceil(bits/8) (MGPUSim's 4-byte header is already Fig. 4's 32
//     bits); WriteReq: 13 + ceil(bits/8) (Fig. 4's 104 bits; MGPUSim has
//     12: the 4-bit Comp Alg field costs the write a byte). A payload
//     carried by "none" is 512 bits, so an uncompressed write is 77 bytes
//     with compression hardware and 76 without.
//   - The read request (12) and the write-done response (4) keep MGPUSim's
//     sizes under compression too: they carry no payload and no Comp Alg
//     field. Fig. 4's read request is 16 bytes (a 48-bit address and a
//     32-bit length); MGPUSim's 12 is kept because it is the same in every
//     configuration and the study compares configurations.
//
// The Comp Alg value of each payload message travels with it (here by
// message ID) so that the receiving stage knows which decompressor runs.
//
// # Latencies: the stage
//
// The stage is a pass-through Akita component between an engine and the
// fabric. It is the connection of the engine's two ports: when the engine
// sends, the stage takes the message at the same simulated time and holds
// it for its codec's compression latency (Tavana Table III: BDI 2, FPC 3,
// C-Pack+Z 16 cycles at 1 GHz; 0 for "none" and for messages without a
// payload) before its proxy sends it into the fabric. When the fabric
// delivers to a proxy, the stage holds the message for the codec's
// decompression latency (1, 5, 9) before handing it to the engine. Each
// direction of each port is first in, first out (a message never
// overtakes an older one: the hardware has one compressor and one
// decompressor per port, pipelined, accepting one line per cycle), and a
// full buffer downstream holds the queue until the next hop reports room.
// The latency is real simulated time: the engine's transaction, and the
// wavefront waiting for it, completes that much later.
//
// # The fabric
//
// Tavana §VI-B models the fabric as one bus carrying 20 bytes per cycle at
// 1 GHz (160 Gb/s, Table VII): a message takes ceil(bytes/20) whole cycles
// and no two messages share a cycle. MGPUSim's own inter-GPU network is a
// PCIe 4.0 ×16 tree (timingconfig.Builder.createConnection: 32 GiB/s,
// 34-byte flits, 140-cycle switches) whose bandwidth the builder does not
// let a caller set, so the plug-in builds its own with Akita's network
// connector (noc/networking/networkconnector), one flit per cycle per
// link:
//
//   - Bus (default): every GPU's proxies share one endpoint, whose single
//     link is the bus: one flit per cycle in the whole fabric, a message's
//     flits back to back. The link ends in a switch (Fabric.Latency
//     pipeline cycles, 1 by default) that sends every flit back to the
//     endpoint, which reassembles the message and hands it to the proxy it
//     is addressed to.
//   - Crossbar: one endpoint per GPU on one switch, so each GPU sends and
//     receives 20 bytes per cycle and different pairs overlap.
//
// Akita's endpoint adds 25% line coding to every message: b TrafficBytes
// become ceil((b + ceil(b/4)) / flit) flits
// (switching/endpoint/endpoint.go, msgToFlits). With a flit of
// BytesPerCycle × 5/4 = 25 bytes, that is ceil(ceil(5b/4) / 25) =
// ceil(5b/100) = ceil(b/20) flits, one per cycle: exactly the paper's bus,
// counted in MGPUSim's bytes (a 68-byte data-ready takes 4 cycles, a
// 76-byte write 4, a 12-byte read request 1). Stats.Flits counts the
// flits the switch receives and Stats.BusCycles Σ ceil(b/20) over the
// delivered messages; the tests check they are equal.
//
// What differs from the paper's bus: the endpoint takes the ports'
// messages first come, first served (one per port per cycle into one
// queue), not round robin among senders; its queues are unbounded rather
// than 4 KB per GPU; a message's trip includes the endpoint's, the links'
// and the switch's stages (a 68-byte message crosses an idle bus in 13
// cycles with Latency 1, its 4 transfer cycles and 9 more; the next
// message follows 4 cycles behind it); and the CPU's traffic is not on the
// bus.
//
// # Counting
//
// Stats counts every message the engines send (by kind, with MGPUSim's
// size and the size the fabric carries) and every message delivered to an
// engine (sim.HookPosPortMsgRecvd on its ports): DeliveredBytes is the
// inter-GPU traffic, in the same place whether the plug-in compresses,
// passes through, or is absent (Attach with a nil Config only counts, on
// MGPUSim's unchanged PCIe network). Energy: wire bits at sim/link's
// in-package 1 pJ/b and each payload's codec at its Table III
// compress+decompress figure, as sim/link charges them.
package link
