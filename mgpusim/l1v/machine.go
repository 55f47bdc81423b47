package l1v

import (
	"github.com/sarchlab/akita/v4/sim"
	"github.com/sarchlab/akita/v4/tracing"
	"github.com/sarchlab/mgpusim/v4/amd/timing/wavefront"
)

// schedulers is the number of wavefront pools (one per SIMD) of an
// MGPUSim compute unit; each is a scheduler in LATTE-CC's sense: the issue
// arbiter (amd/timing/cu/issuearbiter.go) visits every pool each cycle and
// issues from it, oldest ready wavefront first.
const schedulers = 4

// machine measures, for one compute unit, LATTE-CC's Eq. 4 inputs per
// scheduler and the L1's miss latency, EP by EP. What it reads from
// MGPUSim, without a patch:
//
//   - Issues: the CU starts a tracing task of kind "inst" for every
//     instruction its scheduler issues (SchedulerImpl.DoIssue and
//     issueToInternal call logInstTask, which invokes the CU's hooks with
//     a tracing.Task whose Detail holds the *wavefront.Wavefront). A hook
//     on the CU sees them: the issuing wavefront's SIMDID is the
//     scheduler; a cycle with at least one issue from scheduler s is one
//     of s's issue cycles; an issue from a wavefront other than the one s
//     issued from last is a switch.
//   - Ready wavefronts: every SampleEvery cycles, while the CU has
//     wavefronts, a sampler event reads the State and InstToIssue
//     fields (exported) of the wavefronts seen issuing and not yet
//     completed, and counts per SIMD those that the issue arbiter could
//     pick: State == WfReady with an instruction to issue. A wavefront is
//     known from its first issue on (the wavefront pools' lists are not
//     exported), so one that has not issued yet is not counted.
type machine struct {
	engine   sim.Engine
	freq     sim.Freq
	every    uint64
	sched    [schedulers]schedState
	wfs      map[*wavefront.Wavefront]struct{}
	sampling bool

	missSum  float64
	missN    uint64
	lastMiss float64
}

type schedState struct {
	readySum, samples     uint64
	issueCycles, switches uint64
	lastCycle             uint64
	issued                bool // lastCycle is valid
	lastWF                *wavefront.Wavefront
}

// initialMissLatency is latte.Config's default: LATTE-CC Table II's
// minimum L2 latency, reported before any miss has been measured.
const initialMissLatency = 120

func newMachine(engine sim.Engine, freq sim.Freq, every int) *machine {
	return &machine{engine: engine, freq: freq, every: uint64(every),
		wfs: make(map[*wavefront.Wavefront]struct{}), lastMiss: initialMissLatency}
}

func (m *machine) cycle() uint64 { return m.freq.Cycle(m.engine.CurrentTime()) }

// Func is the hook on the compute unit.
func (m *machine) Func(ctx sim.HookCtx) {
	if ctx.Pos != tracing.HookPosTaskStart {
		return
	}
	task, ok := ctx.Item.(tracing.Task)
	if !ok || task.Kind != "inst" {
		return
	}
	detail, ok := task.Detail.(map[string]interface{})
	if !ok {
		return
	}
	wf, ok := detail["wf"].(*wavefront.Wavefront)
	if !ok || wf.SIMDID < 0 || wf.SIMDID >= schedulers {
		return
	}
	now := m.cycle()
	s := &m.sched[wf.SIMDID]
	if !s.issued || s.lastCycle != now {
		s.issueCycles++
		s.lastCycle, s.issued = now, true
	}
	if s.lastWF != nil && s.lastWF != wf {
		s.switches++
	}
	s.lastWF = wf
	m.wfs[wf] = struct{}{}
	if !m.sampling {
		m.sampling = true
		m.schedule()
	}
}

type sampleEvent struct{ *sim.EventBase }

func (m *machine) schedule() {
	at := sim.VTimeInSec(float64(m.cycle()+m.every) / float64(m.freq))
	m.engine.Schedule(sampleEvent{sim.NewEventBase(at, m)})
}

// Handle takes one sample of the ready wavefronts.
func (m *machine) Handle(sim.Event) error {
	var ready [schedulers]uint64
	for wf := range m.wfs {
		switch {
		case wf.State == wavefront.WfCompleted || wf.State == wavefront.WfSampledCompleted:
			delete(m.wfs, wf)
		case wf.State == wavefront.WfReady && wf.InstToIssue != nil && wf.SIMDID >= 0 && wf.SIMDID < schedulers:
			ready[wf.SIMDID]++
		}
	}
	for s := range m.sched {
		m.sched[s].readySum += ready[s]
		m.sched[s].samples++
	}
	if len(m.wfs) == 0 {
		m.sampling = false
		return nil
	}
	m.schedule()
	return nil
}

// missed records one L1 miss's latency (request to fill) in cycles.
func (m *machine) missed(cycles uint64) {
	m.missSum += float64(cycles)
	m.missN++
}

// epMeasure is one EP's measurements.
type epMeasure struct {
	// Ready is the mean number of ready wavefronts of each scheduler over
	// the EP's samples; PerSchedule its issue cycles per warp switch (its
	// issue cycles when it never switched).
	Ready, PerSchedule [schedulers]float64
	missLatency        float64
}

// tolerance is Eq. 4 per model-spec §3: the mean over the schedulers of
// average_warp_available × average_execution_cycles_per_schedule.
func (e epMeasure) tolerance() float64 {
	t := 0.0
	for s := range e.Ready {
		t += e.Ready[s] * e.PerSchedule[s]
	}
	return t / schedulers
}

// endEP returns the EP's measurements and starts the next EP.
func (m *machine) endEP() epMeasure {
	var e epMeasure
	for i := range m.sched {
		s := &m.sched[i]
		if s.samples > 0 {
			e.Ready[i] = float64(s.readySum) / float64(s.samples)
		}
		e.PerSchedule[i] = float64(s.issueCycles)
		if s.switches > 0 {
			e.PerSchedule[i] /= float64(s.switches)
		}
		*s = schedState{lastWF: s.lastWF}
	}
	if m.missN > 0 {
		m.lastMiss = m.missSum / float64(m.missN)
	}
	m.missSum, m.missN = 0, 0
	e.missLatency = m.lastMiss
	return e
}
