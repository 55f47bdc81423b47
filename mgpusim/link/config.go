package link

import (
	"errors"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/mgpusim/capture"
	"github.com/linecomp/linecomp/policy/vote"
	simlink "github.com/linecomp/linecomp/sim/link"
)

// ErrConfig is linecomp.ErrConfig: a configuration that cannot run.
var ErrConfig = linecomp.ErrConfig

// ErrTraffic means the RDMA engines sent something the plug-in does not
// understand (a message type outside the four of Fig. 4, a payload that is
// not one codec line, a chooser naming no candidate); the message says
// which. The plug-in stops compressing at the first one and Run returns it.
var ErrTraffic = errors.New("mgpusim/link: unexpected RDMA traffic")

func configError(format string, args ...any) error {
	return linecomp.ConfigError("mgpusim/link", format, args...)
}

// Topology is the shape of the inter-GPU fabric.
type Topology int

const (
	// Bus is Tavana et al. §VI-B's bus: every GPU's RDMA ports share one
	// Akita endpoint, so one flit crosses per cycle in the whole fabric and
	// a message's flits go out back to back (no two messages share a
	// cycle). The endpoint's link goes to a switch that sends every flit
	// back to the same endpoint, which hands the message to its receiver.
	Bus Topology = iota
	// Crossbar gives every GPU its own endpoint and link to one central
	// switch: each GPU sends and receives one flit per cycle, and messages
	// between different pairs of GPUs cross at the same time. It exists to
	// show how much of a result comes from the bus being shared.
	Crossbar
)

func (t Topology) String() string {
	switch t {
	case Bus:
		return "bus"
	case Crossbar:
		return "crossbar"
	}
	return "Topology(?)"
}

// Fabric configures the inter-GPU network the plug-in builds.
type Fabric struct {
	// BytesPerCycle is what a link carries per 1 GHz cycle, counted in
	// MGPUSim's TrafficBytes: 20 (160 Gb/s, Tavana Table VII) when zero.
	// It must be a multiple of 4 (see the package doc: Akita's endpoints
	// add 25% line coding, which the flit size absorbs exactly only then).
	BytesPerCycle int
	// Latency is the switch's pipeline depth in cycles before it forwards
	// a flit: 1 when zero (the paper's bus adds none beyond the transfer
	// cycles; Akita's switch needs at least one stage).
	Latency int
	// Topology is Bus (the default) or Crossbar.
	Topology Topology
}

// Defaults of Fabric.
const (
	DefaultBytesPerCycle = simlink.DefaultBytesPerCycle // 20: 160 Gb/s at 1 GHz
	DefaultLatency       = 1
)

// Config configures the plug-in.
type Config struct {
	// Candidates are the codecs the Comp Alg field can name (value i is
	// Candidates[i]); all must take 64-byte lines, MGPUSim's wire line.
	// Unused without NewChooser.
	Candidates []linecomp.Codec
	// NewChooser makes each sending GPU's chooser: simlink.Static(i) for a
	// fixed codec, Vote(...) for the penalty vote. Nil means no compression
	// at all, the baseline "none": MGPUSim's messages cross the fabric with
	// the sizes MGPUSim gives them and no codec latency.
	NewChooser simlink.ChooserFactory
	Fabric     Fabric
	// Observe, when set, is called for every message an RDMA engine sends
	// to another GPU, after the plug-in has sized it. Message.Data is only
	// valid during the call.
	Observe func(Message)
}

// Vote returns a chooser factory that gives each sending GPU its own
// vote.Selector with cfg (its Candidates are replaced by the plug-in's).
func Vote(cfg vote.Config) simlink.ChooserFactory {
	return func(candidates []linecomp.Codec) (simlink.Chooser, error) {
		cfg.Candidates = candidates
		return vote.New(cfg)
	}
}

// Check reports whether the configuration can run: an error wrapping
// ErrConfig says what is wrong.
func (c Config) Check() error {
	_, err := c.resolve()
	return err
}

// resolved is a checked configuration with its defaults filled in.
type resolved struct {
	Config
	flitBytes int // Akita flit size: BytesPerCycle plus the 25% coding overhead
	// energy is each candidate's compress+decompress figure per line.
	energy []simlink.CodecEnergy
}

func (c Config) resolve() (*resolved, error) {
	r := &resolved{Config: c}
	f := &r.Fabric
	if f.BytesPerCycle == 0 {
		f.BytesPerCycle = DefaultBytesPerCycle
	}
	if f.Latency == 0 {
		f.Latency = DefaultLatency
	}
	if f.BytesPerCycle < 0 || f.BytesPerCycle%4 != 0 {
		return nil, configError("Fabric.BytesPerCycle=%d must be a positive multiple of 4", f.BytesPerCycle)
	}
	if f.Latency < 0 {
		return nil, configError("Fabric.Latency=%d must not be negative", f.Latency)
	}
	if f.Topology != Bus && f.Topology != Crossbar {
		return nil, configError("Fabric.Topology=%d is neither Bus nor Crossbar", int(f.Topology))
	}
	r.flitBytes = f.BytesPerCycle + f.BytesPerCycle/4
	if c.NewChooser == nil {
		return r, nil
	}
	// sim/link's bus model checks the candidates as the trace replay does
	// (none nil, one line size, known latencies, at most 16) and prices
	// each one's energy.
	l, err := simlink.New(simlink.Config{Candidates: c.Candidates})
	if err != nil {
		return nil, err
	}
	if size := c.Candidates[0].LineSize(); size != capture.WireLineSize {
		return nil, configError("the candidates take %d-byte lines; MGPUSim's RDMA engines move %d-byte lines",
			size, capture.WireLineSize)
	}
	r.energy = make([]simlink.CodecEnergy, len(c.Candidates))
	for i := range c.Candidates {
		r.energy[i], _ = l.CodecEnergy(i)
	}
	return r, nil
}
