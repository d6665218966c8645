package trace

// ConflictMarker is Conflicted one step at a time: it marks the conflicts of
// a run while the run goes, for a reader that sees each step as it runs
// (conflict analysis) and so needs neither a copy of the trace nor a pass
// over it afterwards. Feed it the events of a run in order with Step, each
// once it is final (its outcome recorded); Marked then says, for every event
// fed, whether it is one side of a conflict: exactly what Conflicted marks
// on a trace of those events. Reset starts the next run and keeps the
// buffers, so that runs of similar size allocate nothing. The zero
// ConflictMarker is ready.
//
// A step costs what it costs in Conflicted: a vector-clock step (joins at
// spawns, messages and acquires) and, for a step on a resource, a look at
// the other tasks that touched the resource. The one thing Conflicted
// decides with the whole trace at hand is left to Marked: a kill races with
// its victim's latest step on a resource that another task touches
// anywhere in the trace, even later; Step remembers each kill and every
// task's steps on resources, and Marked settles the kills once it knows
// which resources were shared.
type ConflictMarker struct {
	w     syncWalker
	races markRaces
	marks []bool
	own   [][]ownStep // per task, its steps on resources in order, for kills
	kills []markKill
}

// ownStep is a step on a resource, as a later kill of its task needs it:
// the event, the resource's index in races.byRes, and the task's own entry
// of the step's clock.
type ownStep struct {
	i   int
	res int32
	clk uint32
}

// markKill is a kill waiting for Marked: the event, its victim, the
// victim's entry of the kill's clock, and how many of the victim's steps
// on resources came before it.
type markKill struct {
	i      int
	victim int32
	seen   uint32
	before int
}

// Reset forgets the run fed so far, keeping the memory.
func (m *ConflictMarker) Reset() {
	m.w.reset()
	m.races.reset()
	m.marks = m.marks[:0]
	for t := range m.own {
		m.own[t] = m.own[t][:0]
	}
	m.own = m.own[:0]
	m.kills = m.kills[:0]
}

// Step takes the next event of the run. Events that are not steps of a
// task (clock jumps, events of the runtime) are counted and never marked.
func (m *ConflictMarker) Step(e *Event) {
	j := len(m.marks)
	m.marks = append(m.marks, false)
	vc := m.w.stepEvent(e)
	if vc == nil {
		return
	}
	if e.Kind == KindKill {
		m.kill(j, e, vc)
	}
	if e.Res == 0 {
		return
	}
	k := m.races.access(m.marks, j, e, m.w.raceClock(vc))
	for int(e.Task) >= len(m.own) {
		if n := len(m.own); n < cap(m.own) {
			m.own = m.own[:n+1] // emptied by Reset, its memory kept
		} else {
			m.own = append(m.own, nil)
		}
	}
	m.own[e.Task] = append(m.own[e.Task], ownStep{i: j, res: k, clk: vc.At(e.Task)})
}

// kill remembers kill j (event e, clock vc) for Marked, as killWatch.race
// would check it: against the victim's latest observable step before it.
func (m *ConflictMarker) kill(j int, e *Event, vc VC) {
	v := e.Obj
	if v < 0 || v == e.Task || int(v) >= len(m.own) || len(m.own[v]) == 0 {
		return // the victim has no step on a resource: nothing to race with
	}
	m.kills = append(m.kills, markKill{i: j, victim: v, seen: vc.At(v), before: len(m.own[v])})
}

// Marked returns, for every event fed since Reset, whether it is one side
// of a conflict. The slice is m's, valid until the next Step or Reset.
func (m *ConflictMarker) Marked() []bool {
	for _, k := range m.kills {
		steps := m.own[k.victim][:k.before]
		for x := len(steps) - 1; x >= 0; x-- {
			s := steps[x]
			if len(m.races.byRes[s.res].task) < 2 {
				continue // a resource only the victim touches: not observable
			}
			if k.seen < s.clk {
				m.marks[s.i], m.marks[k.i] = true, true
			}
			break
		}
	}
	m.kills = m.kills[:0] // settled: a second call marks nothing new
	return m.marks
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

// reset empties s's maps for a new walk, keeping their memory.
func (s *syncHB) reset() {
	clear(s.pair)
	clear(s.sig)
	clear(s.rel)
	clear(s.rrel)
	clear(s.last)
	clear(s.lastBy)
	clear(s.closed)
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
	rs.task = rs.task[:0]
	clear(rs.index)
	rs.lastAll, rs.lastWrite = rs.lastAll[:0], rs.lastWrite[:0]
	rs.lists = rs.lists[:0]
	for k := range rs.open {
		rs.open[k], rs.isOpen[k] = rs.open[k][:0], rs.isOpen[k][:0]
	}
}

// empty empties a task's lists of an earlier walk, keeping their memory.
func (ta *markTaskAccesses) empty() {
	for k := range ta.lists {
		l := &ta.lists[k]
		l.acc, l.lo, l.hi = l.acc[:0], 0, 0
	}
}
