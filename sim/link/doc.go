// Package link models the inter-GPU bus of Tavana et al.'s adaptive link
// compression (§VI-B and Fig. 4 of the paper; linecomp's model-spec §6): the
// four message kinds with their headers, compressed byte-aligned payloads,
// a 20-byte-per-cycle bus granted round robin, 4 KB input and output
// buffers per endpoint, the codecs' latencies and the energy of wire and
// codecs. A [Replay] drives it with the data-carrying records of an
// inter-GPU trace.
//
// # Messages
//
// Only the payload is compressed; the header is kept:
//
//	kind        header bits (Fig. 4)                          payload
//	ReadReq     type 4 + Msg ID 16 + addr 48 + length 32 + reserved 28 = 128   —
//	DataReady   type 4 + Rsp ID 16 + Comp Alg 4 + reserved 8         = 32    the line
//	WriteReq    type 4 + Msg ID 16 + addr 48 + length 32 + Comp Alg 4 = 104  the line
//	WriteAck    type 4 + Rsp ID 16 + reserved 12                     = 32    —
//
// The payload is the carrying candidate's encoding, Size bits with its tag
// bits. "We reserve extra bits to align the payload with a full byte": a
// message occupies ceil(header/8) + ceil(payload/8) bytes on the wire.
//
// The Comp Alg value is the index of the carrying candidate in
// Config.Candidates (0 conventionally "none", §V: "we reserve the value 0
// for not compressed"). The option AlgFieldBits = 2 is §V's "2 extra bits":
// DataReady and WriteReq headers are 2 bits shorter (30 and 102) and at most
// four candidates fit. Because header and payload are aligned separately,
// the shorter field changes Stats.HeaderBits but no message's wire bytes
// (ceil(30/8) = ceil(32/8), ceil(102/8) = ceil(104/8)).
//
// # The bus
//
// Time is in cycles of the 1 GHz bus. The bus carries BytesPerCycle bytes
// per cycle (20, i.e. 160 Gb/s); a message of b bytes holds it for
// ceil(b/20) whole cycles and no two messages share a cycle: a 62-byte
// message granted in cycle 1 occupies cycles 1–4 and the next can start in
// cycle 5, as the paper's example has it.
//
// Each endpoint (GPU or CPU) has an output buffer and an input buffer of 4
// KB. [Link.Send] puts a message in its sender's output buffer, where it
// waits in order; it becomes ready for the bus when its candidate's
// compression latency has passed (messages without a payload at once). In
// every cycle in which the bus is free, it is granted to the first sender,
// in round-robin order after the last sender granted, whose oldest message
// is ready and fits the free room of its destination's input buffer (a
// sender whose oldest message does not fit waits; messages behind it do not
// overtake it). The message holds its bytes in the output buffer until its
// transfer ends, and in the input buffer from its grant until the receiver
// takes it with [Link.Receive]; it can be taken when it has arrived and its
// candidate's decompression latency has passed. [ours: the paper gives the
// buffer sizes but not when room is taken and freed.]
//
// Backpressure: Send refuses a message that does not fit the free room of
// its sender's output buffer ([Link.Room]) with [ErrFull] and changes
// nothing but Stats.Refused; the sender keeps it and offers it again after
// the sender's next transfer ends. [Link.Next] says when that, or the next
// delivery, happens.
//
// # Driving it
//
// A Link is a passive component: no goroutines, no I/O, no global state.
// [Link.Advance] moves it to cycle now (never backwards: [ErrTime]); the
// bus then has granted every transfer that starts before now. Send and
// Receive act at the current cycle, so a message sent at cycle t with no
// compression latency can start in cycle t, and room freed by Receive at t
// can be granted from t on. An event-driven host calls Next and Advance;
// a cycle-driven host calls Advance every cycle. It is not safe for
// concurrent use.
//
// # Energy
//
// Wire: every bit on the wire (wire bytes × 8, headers and alignment
// included) costs Config.Wire; the presets are Tavana et al. §VII-B's: 1–2
// pJ/b in package (the case the paper reports; the default is 1, the low
// end), 10 pJ/b between boards and 250 pJ/b between nodes. Codecs: each
// payload message costs its candidate's combined compress+decompress figure
// for one line from the root EnergyPresets() (Tavana Table III: BDI 1.3, FPC
// 36.9, C-Pack+Z 40.0 pJ per 512-bit line), charged once per line
// transferred, never split; "none" costs nothing; a candidate with no
// figure for its algorithm and line size is not charged and its messages
// are counted as unpriced. The compressors that run on the losing
// candidates during sampling are not charged: the paper gives no
// compression-only figure to charge them with.
//
// # Replaying a trace
//
// A [Replay] takes [Transfer]s, the data-carrying records of an inter-GPU
// trace (trace.Record has the same fields; the package does not import
// trace, so a host or the command converts, with Op(rec.Op)). For each, in
// record order:
//
//   - The sender's [Chooser] (one per sending endpoint, made by
//     ReplayConfig.NewChooser: a *vote.Selector, or [Static] for one fixed
//     codec) picks the carrying candidate; the payload is its Size in bits.
//     The choice does not depend on timing. Add keeps nothing of Data, so
//     a trace reader may reuse the buffer.
//   - A Read (data from Src to Dst) is a DataReady that implies a ReadReq
//     from Dst to Src before it; a Write is a WriteReq from Src to Dst that
//     implies a WriteAck after it. All four count on the wire.
//   - Counters: transfers; payload bits (exact); uncompressed payload bits
//     (8 × LineSize per transfer); wire bytes and bus cycles (Σ ceil(bytes /
//     20)) of all four kinds; uses per candidate name.
//   - Timing [ours]: Time (ps) becomes cycle Time / PicosecondsPerCycle
//     (rounded down). The record's first message (the ReadReq, or the
//     WriteReq) is sent at that cycle, but not before the previous record's
//     first message and only when its sending endpoint has room and nothing
//     older waiting; until then the record stream waits, which keeps the
//     replay's memory bounded on untimed traces. Within a cycle the link's
//     deliveries (and the responses they cause) come before the record. A delivered ReadReq makes
//     its owner send the DataReady, a delivered WriteReq makes its target
//     send the WriteAck; these responses wait in their endpoint's queue for
//     output-buffer room. The completion time is the cycle the last message
//     is delivered.
package link
