package hb

import (
	"cmp"
	"slices"

	"github.com/morpheus-go/morpheus/trace"
)

// ConflictMarker is ConflictingEvents one step at a time: it marks the conflicts of
// a run while the run goes, for a reader that sees each step as it runs
// (conflict analysis) and so needs neither a copy of the trace nor a pass
// over it afterwards. Feed it the events of a run in order with Step, each
// once it is final (its outcome recorded); Marked then says, for every event
// fed, whether it is one side of a conflict: exactly what ConflictingEvents marks
// on a trace of those events. Reset starts the next run and keeps the
// buffers, so that runs of similar size allocate nothing. The zero
// ConflictMarker is ready.
//
// A step costs what it costs in ConflictingEvents: a vector-clock step (joins at
// spawns, messages and acquires) and, for a step on a resource, a look at
// the other tasks that touched the resource. The one thing ConflictingEvents
// decides with the whole trace at hand is left to Marked: a kill races with
// its victim's latest step on a resource that another task touches
// anywhere in the trace, even later; Step remembers each kill, and Marked
// settles the kills once it knows which resources were shared, finding
// each victim's steps in the resources' lists of accesses.
type ConflictMarker struct {
	w     syncWalker
	races markRaces
	marks []bool
	kills []markKill
}

// markKill is a kill waiting for Marked: the event, its victim and the
// victim's entry of the kill's clock.
type markKill struct {
	i      int
	victim int32
	seen   uint32
}

// Reset forgets the run fed so far, keeping the memory.
func (m *ConflictMarker) Reset() {
	m.w.reset()
	m.races.reset()
	m.marks = m.marks[:0]
	m.kills = m.kills[:0]
}

// Step takes the next event of the run. Events that are not steps of a
// task (clock jumps, events of the runtime) are counted and never marked.
func (m *ConflictMarker) Step(e *trace.Event) {
	j := len(m.marks)
	m.marks = append(m.marks, false)
	c := m.w.advance(e) // m.w.stepEvent, inline
	if c == nil {
		return
	}
	m.w.sync.stepKind(e, c, m.w.clock)
	vc := *c
	if e.Kind == trace.KindKill && e.Obj >= 0 && e.Obj != e.Task {
		// Settled by Marked, as killWatch.race would check it: against the
		// victim's latest observable step before it.
		m.kills = append(m.kills, markKill{i: j, victim: e.Obj, seen: vc.At(e.Obj)})
	}
	if e.Res == 0 {
		return
	}
	m.races.access(m.marks, j, e, m.w.raceClock(vc))
}

// Marked returns, for every event fed since Reset, whether it is one side
// of a conflict. The slice is m's, valid until the next Step or Reset.
func (m *ConflictMarker) Marked() []bool {
	for _, k := range m.kills {
		if s, ok := m.races.latestShared(k.victim, k.i); ok && k.seen < s.clk {
			m.marks[s.i], m.marks[k.i] = true, true
		}
	}
	m.kills = m.kills[:0] // settled: a second call marks nothing new
	return m.marks
}

// latestShared returns task t's latest access before event i to a resource
// that two or more tasks access, if it has one.
func (r *markRaces) latestShared(t int32, i int) (hbAccess, bool) {
	var found hbAccess
	ok := false
	for k := range r.byRes {
		rs := &r.byRes[k]
		if len(rs.tasks) < 2 {
			continue // a resource only one task touches: not observable
		}
		x := rs.find(t)
		if x < 0 {
			continue
		}
		acc := rs.lists[x].lists[0].acc // in event order
		y, _ := slices.BinarySearchFunc(acc, i, func(a hbAccess, i int) int { return cmp.Compare(a.i, i) })
		if y > 0 && (!ok || acc[y-1].i > found.i) {
			found, ok = acc[y-1], true
		}
	}
	return found, ok
}

// reset empties w for a new walk, keeping the memory of its clocks.
func (w *syncWalker) reset() {
	clocks := w.clock[:cap(w.clock)]
	for t := range clocks {
		clocks[t] = clocks[t][:0] // an empty clock; grow reuses its memory
	}
	w.clock = w.clock[:0]
	w.spare = w.msgs.drain(w.spare) // messages never received
	w.sync.reset()
}

// reset empties s for a new walk, keeping its memory.
func (s *syncHB) reset() {
	for _, vc := range s.pair {
		s.spare = append(s.spare, vc[:0])
	}
	clear(s.pair)
	clear(s.sig)
	s.res.reset()
	s.state = s.state[:0]
	s.preSet = false
}

// reset empties r for a new walk; access reuses the resources' memory.
func (r *markRaces) reset() {
	r.res.reset()
	r.byRes = r.byRes[:0]
}

// reuse empties rs, a resource of an earlier walk, keeping its memory
// (access empties each task's lists as it reuses them).
func (rs *markResource) reuse() {
	rs.tasks = rs.tasks[:0]
	rs.index = rs.index[:0]
	rs.lists = rs.lists[:0]
	rs.open[0], rs.open[1] = rs.open[0][:0], rs.open[1][:0]
	rs.read, rs.latestAfter = false, false
	rs.at.reset()
}

// empty empties a task's lists of an earlier walk, keeping their memory.
func (ta *markTaskAccesses) empty() {
	for k := range ta.lists {
		l := &ta.lists[k]
		l.acc, l.lo, l.hi = l.acc[:0], 0, 0
	}
}
