package gpu

// Probe measures one SM for its L1 policy: LATTE-CC's latency tolerance
// (Eq. 4) and the mean L1 miss latency of each EP. It implements
// policy/latte's Machine interface.
type Probe struct {
	g      *GPU
	smWide bool   // Config.SMWideTolerance
	start  uint64 // cycle the EP began
	// Per scheduler: ready warps summed over the EP's simulated cycles,
	// issue cycles, and the times it issued from another warp than the
	// one it issued from before.
	ready, issues, switches []uint64
	missSum                 uint64
	misses                  uint64
	lastMiss                float64
}

func newProbe(g *GPU, schedulers int) Probe {
	counters := make([]uint64, 3*schedulers)
	return Probe{g: g, smWide: g.cfg.SMWideTolerance, lastMiss: float64(g.cfg.L2HitLatency),
		ready: counters[:schedulers], issues: counters[schedulers : 2*schedulers], switches: counters[2*schedulers:]}
}

// EndEP returns the latency tolerance and the mean L1 miss latency measured
// since the previous call, and starts a new measurement. The tolerance is
// Eq. 4 per warp scheduler, average_warp_available(s) ×
// average_execution_cycles_per_schedule(s), averaged over the schedulers
// (model-spec §3, revised 2026-12); under Config.SMWideTolerance it is the
// same product of the SM-wide sums. With no miss in the EP the mean miss
// latency is the previous EP's, or the L2 hit latency before the first
// miss.
func (p *Probe) EndEP() (tolerance, missLatency float64) {
	cycles := float64(p.g.now - p.start + 1)
	// perSchedule is a scheduler's issue cycles per switch of warp, or its
	// issue cycles when it never switched.
	perSchedule := func(issues, switches uint64) float64 {
		if switches == 0 {
			return float64(issues)
		}
		return float64(issues) / float64(switches)
	}
	if p.smWide {
		var ready, issues, switches uint64
		for s := range p.ready {
			ready += p.ready[s]
			issues += p.issues[s]
			switches += p.switches[s]
		}
		tolerance = float64(ready) / cycles * perSchedule(issues, switches)
	} else {
		for s := range p.ready {
			tolerance += float64(p.ready[s]) / cycles * perSchedule(p.issues[s], p.switches[s])
		}
		tolerance /= float64(len(p.ready))
	}
	if p.misses > 0 {
		p.lastMiss = float64(p.missSum) / float64(p.misses)
	}
	missLatency = p.lastMiss
	p.start = p.g.now + 1
	p.missSum, p.misses = 0, 0
	clear(p.ready)
	clear(p.issues)
	clear(p.switches)
	return tolerance, missLatency
}
