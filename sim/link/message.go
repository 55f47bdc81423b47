package link

import "fmt"

// Kind is one of the four inter-GPU message types of Tavana et al. Fig. 4.
type Kind uint8

const (
	// ReadReq asks for data: type 4, Msg ID 16, Phy Addr 48, Length 32,
	// reserved 28 = 128 header bits, no payload.
	ReadReq Kind = iota
	// DataReady answers a read with the data: type 4, Rsp ID 16, Comp Alg
	// 4, reserved 8 = 32 header bits, then the payload.
	DataReady
	// WriteReq carries data to write: type 4, Msg ID 16, Phy Addr 48,
	// Length 32, Comp Alg 4 = 104 header bits, then the payload.
	WriteReq
	// WriteAck acknowledges a write: type 4, Rsp ID 16, reserved 12 = 32
	// header bits, no payload.
	WriteAck

	// NumKinds is the number of kinds, for arrays indexed by Kind.
	NumKinds = 4
)

var kindNames = [NumKinds]string{"read_req", "data_ready", "write_req", "write_ack"}

// String returns the kind's name as reports use it: read_req, data_ready,
// write_req or write_ack.
func (k Kind) String() string {
	if int(k) < NumKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// CarriesPayload reports whether messages of kind k carry a (compressed)
// line and a Comp Alg field: DataReady and WriteReq.
func (k Kind) CarriesPayload() bool { return k == DataReady || k == WriteReq }

// Algorithm-field widths.
const (
	// AlgField4 is Fig. 4's 4-bit Comp Alg field (the default).
	AlgField4 = 4
	// AlgField2 is §V's "2 extra bits to denote which compression
	// algorithm is used".
	AlgField2 = 2
	// MaxCandidates is the number of values a 4-bit field can name.
	MaxCandidates = 1 << AlgField4
)

// HeaderBits returns the header length in bits of a message of kind k when
// the Comp Alg field is algFieldBits wide (4 in Fig. 4). Only DataReady and
// WriteReq carry the field; with a 2-bit field they are 2 bits shorter
// [ours: Fig. 4 lays out 4 bits and §V speaks of 2; the reserved bits are
// kept as drawn]. It returns -1 for an unknown kind.
func HeaderBits(k Kind, algFieldBits int) int {
	switch k {
	case ReadReq:
		return 4 + 16 + 48 + 32 + 28
	case DataReady:
		return 4 + 16 + algFieldBits + 8
	case WriteReq:
		return 4 + 16 + 48 + 32 + algFieldBits
	case WriteAck:
		return 4 + 16 + 12
	}
	return -1
}

// WireBytes returns the bytes a message occupies on the wire: the header
// and the payload each rounded up to whole bytes (§VI-B: "we reserve extra
// bits to align the payload with a full byte").
func WireBytes(headerBits, payloadBits int) int {
	return (headerBits+7)/8 + (payloadBits+7)/8
}

// Message is one message offered to the link.
type Message struct {
	Kind     Kind
	Src, Dst int // endpoints, 0 ≤ id < Config.Nodes, Src ≠ Dst
	// Alg is the Comp Alg value of a DataReady or WriteReq: the index of
	// the candidate codec that encoded the payload (0 conventionally
	// "none"). It must be 0 for the other kinds.
	Alg int
	// PayloadBits is the exact length of the encoded payload of a
	// DataReady or WriteReq; it must be 0 for the other kinds.
	PayloadBits int
	// ID is the caller's, handed back on delivery.
	ID uint64
}

// Delivery is a message handed over at its destination, with its life on
// the link in cycles.
type Delivery struct {
	Message
	Sent      uint64 // entered the sender's output buffer
	Ready     uint64 // compression done: Sent + compression latency
	Start     uint64 // first cycle on the bus
	Arrived   uint64 // Start + transfer cycles: in the destination's input buffer
	Delivered uint64 // decompression done: Arrived + decompression latency
}
