package hb

import "github.com/morpheus-go/morpheus/trace"

// Happens-before edges of the Go-native primitives (package csync and its
// in-memory network), added to those of hb.go: syncWalker is hbWalker plus
// these edges, for Clocks and ConflictPairs to walk with.
//
// The edges follow the Go memory model:
//
//   - values: a channel send (KindChanSend, a KindSelect that sent, a
//     KindTimerFire that sent the time) and the receive that took the value
//     (KindChanRecv, a KindSelect that received) carry the same Val, the
//     value's id. The first of the two happens before the second. A receive
//     that comes first took the value from a blocked sender (an unbuffered
//     channel, or a full buffer): it names that sender in Obj and also
//     follows everything the sender did before it blocked;
//   - close: a KindChanClose happens before every receive of the same channel
//     (Res) that observed the close (Val == trace.ValClosed);
//   - locks: a KindUnlock happens before every later acquire of the same
//     mutex (KindLock, KindTryLock, KindRLock that acquired: Val != trace.ValNone),
//     a KindRUnlock before every later KindLock and KindTryLock;
//   - variables: a write (KindStore, KindSwap, KindAdd, KindCAS that swapped)
//     happens before the later reads of the same variable (KindLoad, KindSwap,
//     KindAdd, KindCAS) up to the next write: a read observes the last write;
//   - WaitGroup: every KindWGAdd (Done is Add(-1)) happens before the later
//     KindWGWait steps that returned (Val != trace.ValNone); a KindOnce that ran f
//     (Val 1) before the later KindOnce steps of the same Once;
//   - Cond: the KindCondSignal or KindCondBroadcast whose id is Val happens
//     before the KindCondWait steps with that Val (the waits it woke);
//   - timers: a KindTimerFire whose Obj is a task (the goroutine of
//     AfterFunc, a ticker's next tick) happens before that task's first step;
//     the setting of a timer is a KindSpawn of its task (see hb.go);
//   - in-memory network: KindNetDial, KindNetWrite and KindNetClose happen
//     before the later KindNetAccept and KindNetRead steps on the same
//     resource (a listener, one direction of a connection).
//
// An acquire that an edge orders after a release could still have run first
// in another schedule: the lock taken the other way round, the variable read
// before the write. The edge holds for what follows the acquire, but the
// acquire itself must still count as racing with the ops it now follows, or
// conflict analysis would learn that lock acquires and reads never conflict.
// So the race check of an acquire (locks, reads, WaitGroup.Wait, Once) uses
// its clock before the edge's join: raceClock.

// syncWalker walks a trace with every edge: hbWalker's, then this file's.
type syncWalker struct {
	hbWalker
	sync syncHB
}

// step is hbWalker.advance with the edges of this file. They are joined after
// the event's own clock entry has been advanced, which gives the same clock:
// no other task knows more of the event's task than the task itself.
func (w *syncWalker) step(t *trace.Trace, i int) VC { return w.stepEvent(&t.Events[i]) }

// stepEvent is step for one event, the next of the walk.
func (w *syncWalker) stepEvent(e *trace.Event) VC {
	c := w.advance(e)
	if c == nil {
		return nil
	}
	w.sync.stepKind(e, c, w.clock)
	return *c
}

// stepKind is step, without the call for the kinds it adds nothing for.
func (s *syncHB) stepKind(e *trace.Event, c *VC, clocks []VC) {
	if syncKinds[e.Kind] {
		s.step(e, c, clocks)
	} else {
		s.preSet = false
	}
}

// syncKinds holds the kinds of step syncHB.step adds edges for (or keeps a
// race-check clock of); for the others it only forgets the last one. It
// must name every kind step's switch does.
var syncKinds = kindSet(trace.KindChanSend, trace.KindChanRecv, trace.KindSelect, trace.KindTimerFire, trace.KindChanClose,
	trace.KindLock, trace.KindTryLock, trace.KindRLock, trace.KindUnlock, trace.KindWGAdd, trace.KindNetDial, trace.KindNetWrite, trace.KindNetClose,
	trace.KindDeliver, trace.KindRUnlock, trace.KindWGWait, trace.KindNetAccept, trace.KindNetRead, trace.KindOnce,
	trace.KindLoad, trace.KindStore, trace.KindSwap, trace.KindAdd, trace.KindCAS, trace.KindCondSignal, trace.KindCondBroadcast, trace.KindCondWait)

// kindSet returns the set of kinds, indexed by kind.
func kindSet(kinds ...trace.Kind) (set [256]bool) {
	for _, k := range kinds {
		set[k] = true
	}
	return set
}

// raceClock returns the clock with which the step just walked, whose clock
// is vc, is checked for races: its clock before the join of an acquire edge
// (see above), else vc.
func (w *syncWalker) raceClock(vc VC) VC { return w.sync.raceClock(vc) }

// syncHB keeps the state of the edges above while a trace is walked.
type syncHB struct {
	pair map[int64]VC // value id -> clock of the first step of its pair
	// spare holds the memory of clocks no longer in pair, for the next.
	spare []VC
	sig   map[int64]VC // signal id -> clock of the signal
	res   resIndex     // resource -> index in state
	// state holds the resources' clocks, in the order the walk met them;
	// past its length, the entries of earlier walks keep their memory.
	state []syncRes

	pre    VC   // the race-check clock of the step just walked, if preSet
	preSet bool // the step just walked is an acquire

	// For Races, whose check needs neither: no race-check clock before an
	// acquire (noPre), and no channel value edges, which its runtime reports
	// as slot synchronisations instead (noValues).
	noPre, noValues bool
}

// syncRes is what syncHB keeps of one resource; an empty clock is none.
type syncRes struct {
	rel     VC    // join of its releases (unlocks, WaitGroup adds, ...)
	rrel    VC    // join of its read-unlocks (an RWMutex)
	closed  VC    // clock of its close (a channel)
	last    VC    // clock of its last write (a variable), if hasLast
	lastBy  stamp // whose clock last is
	hasLast bool
}

// find returns the state of resource res, or nil if the walk has not met it.
func (s *syncHB) find(res uint32) *syncRes {
	if k, ok := s.res.get(res); ok {
		return &s.state[k]
	}
	return nil
}

// at returns the state of resource res, empty if the walk meets it first.
func (s *syncHB) at(res uint32) *syncRes {
	if k, ok := s.res.get(res); ok {
		return &s.state[k]
	}
	k := len(s.state)
	if k < cap(s.state) {
		s.state = s.state[:k+1]
		r := &s.state[k]
		*r = syncRes{rel: r.rel[:0], rrel: r.rrel[:0], closed: r.closed[:0], last: r.last[:0]}
	} else {
		s.state = append(s.state, syncRes{})
	}
	s.res.put(res, int32(k))
	return &s.state[k]
}

// step adds the edges of event e, whose task's clock c has already been
// advanced past e; clocks are the current clocks of all tasks.
func (s *syncHB) step(e *trace.Event, c *VC, clocks []VC) {
	s.preSet = false
	switch e.Kind {
	case trace.KindChanSend, trace.KindChanRecv, trace.KindSelect, trace.KindTimerFire:
		if e.Val == trace.ValClosed {
			if r := s.find(e.Res); r != nil {
				c.Join(r.closed)
			}
		} else if e.Val >= 0 && !s.noValues {
			s.pairStep(e, c, clocks)
		}
		if e.Kind == trace.KindTimerFire {
			spawnEdge(e, *c, clocks)
		}
	case trace.KindChanClose:
		s.at(e.Res).closed.Join(*c)
	case trace.KindLock, trace.KindTryLock:
		if e.Val != trace.ValNone {
			s.savePre(*c)
			if r := s.find(e.Res); r != nil {
				c.Join(r.rel)
				c.Join(r.rrel)
			}
		}
	case trace.KindRLock:
		if e.Val != trace.ValNone {
			s.savePre(*c)
			s.acquire(c, e.Res)
		}
	case trace.KindUnlock, trace.KindWGAdd, trace.KindNetDial, trace.KindNetWrite, trace.KindNetClose:
		s.at(e.Res).rel.Join(*c)
	case trace.KindDeliver:
		if e.Val == trace.ValNone && e.Res != 0 { // bytes a connection held in flight
			s.at(e.Res).rel.Join(*c)
		}
	case trace.KindRUnlock:
		s.at(e.Res).rrel.Join(*c)
	case trace.KindWGWait, trace.KindNetAccept, trace.KindNetRead:
		if e.Val != trace.ValNone {
			if e.Kind == trace.KindWGWait {
				s.savePre(*c)
			}
			s.acquire(c, e.Res)
		}
	case trace.KindOnce:
		s.savePre(*c)
		s.acquire(c, e.Res)
		if e.Val == 1 {
			s.at(e.Res).rel.Join(*c)
		}
	case trace.KindLoad:
		s.savePre(*c)
		s.acquireLast(c, e)
	case trace.KindStore:
		s.writeLast(c, e)
	case trace.KindSwap, trace.KindAdd, trace.KindCAS:
		s.savePre(*c)
		s.acquireLast(c, e)
		if e.Kind != trace.KindCAS || e.Val == 1 {
			s.writeLast(c, e)
		}
	case trace.KindCondSignal, trace.KindCondBroadcast:
		if s.sig == nil {
			s.sig = make(map[int64]VC)
		}
		s.sig[e.Val] = c.Clone()
	case trace.KindCondWait:
		if m, ok := s.sig[e.Val]; ok && e.Val >= 0 {
			c.Join(m)
		}
	}
}

// pairStep handles a step that sends or receives the value with id e.Val.
func (s *syncHB) pairStep(e *trace.Event, c *VC, clocks []VC) {
	if m, ok := s.pair[e.Val]; ok {
		c.Join(m)
		delete(s.pair, e.Val)
		s.spare = append(s.spare, m[:0])
		return
	}
	if e.Obj >= 0 && e.Obj != e.Task && int(e.Obj) < len(clocks) {
		c.Join(clocks[e.Obj]) // a blocked sender: everything before its send
	}
	if s.pair == nil {
		s.pair = make(map[int64]VC)
	}
	var vc VC
	if n := len(s.spare); n > 0 {
		vc, s.spare = s.spare[n-1], s.spare[:n-1]
	}
	s.pair[e.Val] = append(vc, *c...)
}

// spawnEdge orders a timer's firing before the first step of the task it
// started, as a KindSpawn does in hb.go.
func spawnEdge(e *trace.Event, c VC, clocks []VC) {
	if o := e.Obj; o >= 0 && int(o) < len(clocks) && o != e.Task && clocks[o].At(o) == 0 {
		clocks[o].Join(c)
	}
}

func (s *syncHB) savePre(c VC) {
	if s.noPre {
		return
	}
	s.pre = append(s.pre[:0], c...)
	s.preSet = true
}

// acquire joins the releases of resource res into c.
func (s *syncHB) acquire(c *VC, res uint32) {
	if r := s.find(res); r != nil {
		c.Join(r.rel)
	}
}

// acquireLast joins the clock of the last write of e's variable into c,
// the clock of e's task, unless c already includes it.
func (s *syncHB) acquireLast(c *VC, e *trace.Event) {
	if r := s.find(e.Res); r != nil && r.hasLast && !r.lastBy.knownBy(*c, e.Task) {
		c.Join(r.last)
	}
}

// writeLast makes c, the clock of e's task, the clock of the last write
// of e's variable.
func (s *syncHB) writeLast(c *VC, e *trace.Event) {
	r := s.at(e.Res)
	r.last = append(r.last[:0], *c...)
	r.lastBy, r.hasLast = stamp{e.Task, c.At(e.Task)}, true
}

// stamp names a copy of a task's clock: the task, and its own entry then.
type stamp struct {
	task int32
	clk  uint32
}

// knownBy reports whether the clock c of task t includes the clock st
// names: t's own clock at an earlier step, or the clock of a task of which
// c knows a later step. Knowing the stamped step itself is not enough: a
// task's clock may grow by joins without a step of its own (Races' Sync).
func (st stamp) knownBy(c VC, t int32) bool {
	if st.task == t {
		return c.At(t) >= st.clk
	}
	return c.At(st.task) > st.clk
}

func (s *syncHB) raceClock(vc VC) VC {
	if s.preSet {
		return s.pre
	}
	return vc
}
