package trace

// raceWalker is syncWalker (hbWalker's edges, then syncHB's) on the race
// detector's clocks: the same happens-before edges, the same entries, but a
// join costs about the entries that changed rather than one per task
// (raceclock.go). It keeps no race-check clock before an acquire
// (syncHB's noPre: Races checks with the clock after it), and leaves out
// the channel value edges when the runtime reports them as slot
// synchronisations (noValues).
type raceWalker struct {
	clock    []rclock // each task's
	msgs     map[int64]*rclock
	pair     map[int64]*rclock
	sig      map[int64]*rclock
	res      resIndex
	state    []raceRes
	free     []*rclock
	noValues bool
}

// raceRes is what raceWalker keeps of one resource (syncRes).
type raceRes struct {
	rel, rrel, closed, last rclock
}

// grow makes room for the clocks of n tasks.
func (w *raceWalker) grow(n int) {
	for len(w.clock) < n {
		t := int32(len(w.clock))
		if len(w.clock) < cap(w.clock) {
			w.clock = w.clock[:t+1]
		} else {
			w.clock = append(w.clock, rclock{})
		}
		w.clock[t].reset(t)
	}
}

// reset empties w for a new walk, keeping its memory.
func (w *raceWalker) reset() {
	w.clock = w.clock[:0]
	for _, m := range []map[int64]*rclock{w.msgs, w.pair, w.sig} {
		for _, c := range m {
			w.free = append(w.free, c)
		}
		clear(m)
	}
	w.res.reset()
	w.state = w.state[:0]
}

// alloc returns an empty object clock.
func (w *raceWalker) alloc() *rclock {
	c := new(rclock)
	if n := len(w.free); n > 0 {
		c, w.free = w.free[n-1], w.free[:n-1]
	}
	c.reset(-1)
	return c
}

// snapshot returns a new copy of c.
func (w *raceWalker) snapshot(c *rclock) *rclock {
	m := w.alloc()
	m.copyFrom(c, w.clock)
	return m
}

// joinInto makes c, a task's clock, its join with o.
func (w *raceWalker) joinInto(c, o *rclock) { c.join(o, w.clock) }

// release makes the object clock o its join with c, a task's clock: a copy
// of c when o is empty or included in it, as a lock's releases are in the
// clock of the task that took the lock.
func (w *raceWalker) release(o, c *rclock) {
	switch {
	case len(o.vc) == 0:
		o.copyFrom(c, w.clock)
	case c.knows(o):
		o.assign(c, w.clock)
	default:
		o.join(c, w.clock)
		o.by = noStamp
	}
}

// take removes the clock m kept under id and returns it, or nil.
func take(m map[int64]*rclock, id int64) *rclock {
	c, ok := m[id]
	if ok {
		delete(m, id)
	}
	return c
}

// put keeps c under id, making the map if needed; an earlier clock under
// id goes to free.
func (w *raceWalker) put(m *map[int64]*rclock, id int64, c *rclock) {
	if *m == nil {
		*m = make(map[int64]*rclock)
	}
	if old := (*m)[id]; old != nil {
		w.free = append(w.free, old)
	}
	(*m)[id] = c
}

// step walks event e, the next of the walk, and returns the clock of its
// task, now e's, or nil if e is not a step of a task (hbWalker.advance and
// syncHB.step). The task's entry is counted first, so that what it learns
// is logged at the step that learned it.
func (w *raceWalker) step(e *Event) *rclock {
	if !e.IsStep() || e.Task < 0 {
		return nil
	}
	if n := max(e.Task, e.Obj) + 1; int(n) > len(w.clock) {
		w.grow(int(n))
	}
	c := &w.clock[e.Task]
	c.tick()
	if (e.Kind == KindRecv && e.Flag&FlagTimeout == 0) || (e.Kind == KindDeliver && e.Val >= 0) {
		if m := take(w.msgs, e.Val); m != nil {
			w.joinInto(c, m)
			w.free = append(w.free, m)
		}
	}
	switch e.Kind {
	case KindSpawn:
		w.spawnEdge(e, c)
	case KindSend, KindTimer, KindDeliver:
		if e.Flag&FlagDropped == 0 && e.Val >= 0 {
			w.put(&w.msgs, e.Val, w.snapshot(c))
		}
	}
	if syncKinds[e.Kind] {
		w.syncStep(e, c)
	}
	return c
}

// spawnEdge orders e, a spawn or a timer's firing, before the first step of
// the task it started; a task that already ran gets no edge.
func (w *raceWalker) spawnEdge(e *Event, c *rclock) {
	if o := e.Obj; o >= 0 && int(o) < len(w.clock) && o != e.Task && w.clock[o].at(o) == 0 {
		w.joinInto(&w.clock[o], c)
	}
}

// find returns the state of resource res, or nil if the walk has not met it.
func (w *raceWalker) find(res uint32) *raceRes {
	if k, ok := w.res.get(res); ok {
		return &w.state[k]
	}
	return nil
}

// at returns the state of resource res, empty if the walk meets it first.
func (w *raceWalker) at(res uint32) *raceRes {
	if k, ok := w.res.get(res); ok {
		return &w.state[k]
	}
	k := len(w.state)
	if k < cap(w.state) {
		w.state = w.state[:k+1]
	} else {
		w.state = append(w.state, raceRes{})
	}
	r := &w.state[k]
	r.rel.reset(-1)
	r.rrel.reset(-1)
	r.closed.reset(-1)
	r.last.reset(-1)
	w.res.put(res, int32(k))
	return r
}

// syncStep adds the edges of syncHB.step for event e, whose task's clock c
// has been advanced past e.
func (w *raceWalker) syncStep(e *Event, c *rclock) {
	switch e.Kind {
	case KindChanSend, KindChanRecv, KindSelect, KindTimerFire:
		if e.Val == ValClosed {
			if r := w.find(e.Res); r != nil {
				w.joinInto(c, &r.closed)
			}
		} else if e.Val >= 0 && !w.noValues {
			w.pairStep(e, c)
		}
		if e.Kind == KindTimerFire {
			w.spawnEdge(e, c)
		}
	case KindChanClose:
		w.release(&w.at(e.Res).closed, c)
	case KindLock, KindTryLock:
		if e.Val != ValNone {
			if r := w.find(e.Res); r != nil {
				w.joinInto(c, &r.rel)
				w.joinInto(c, &r.rrel)
			}
		}
	case KindRLock, KindWGWait, KindNetAccept, KindNetRead:
		if e.Val != ValNone {
			w.acquire(c, e.Res)
		}
	case KindUnlock, KindWGAdd, KindNetDial, KindNetWrite, KindNetClose:
		w.release(&w.at(e.Res).rel, c)
	case KindDeliver:
		if e.Val == ValNone && e.Res != 0 { // bytes a connection held in flight
			w.release(&w.at(e.Res).rel, c)
		}
	case KindRUnlock:
		w.release(&w.at(e.Res).rrel, c)
	case KindOnce:
		w.acquire(c, e.Res)
		if e.Val == 1 {
			w.release(&w.at(e.Res).rel, c)
		}
	case KindLoad:
		w.acquireLast(c, e)
	case KindStore:
		w.writeLast(c, e)
	case KindSwap, KindAdd, KindCAS:
		w.acquireLast(c, e)
		if e.Kind != KindCAS || e.Val == 1 {
			w.writeLast(c, e)
		}
	case KindCondSignal, KindCondBroadcast:
		w.put(&w.sig, e.Val, w.snapshot(c))
	case KindCondWait:
		if m := w.sig[e.Val]; m != nil && e.Val >= 0 {
			w.joinInto(c, m)
		}
	}
}

// pairStep handles a step that sends or receives the value with id e.Val
// (syncHB.pairStep).
func (w *raceWalker) pairStep(e *Event, c *rclock) {
	if m := take(w.pair, e.Val); m != nil {
		w.joinInto(c, m)
		w.free = append(w.free, m)
		return
	}
	if e.Obj >= 0 && e.Obj != e.Task && int(e.Obj) < len(w.clock) {
		w.joinInto(c, &w.clock[e.Obj]) // a blocked sender: everything before its send
	}
	w.put(&w.pair, e.Val, w.snapshot(c))
}

// acquire joins the releases of resource res into c.
func (w *raceWalker) acquire(c *rclock, res uint32) {
	if r := w.find(res); r != nil {
		w.joinInto(c, &r.rel)
	}
}

// acquireLast joins the clock of the last write of e's variable into c.
func (w *raceWalker) acquireLast(c *rclock, e *Event) {
	if r := w.find(e.Res); r != nil {
		w.joinInto(c, &r.last)
	}
}

// writeLast makes c the clock of the last write of e's variable.
func (w *raceWalker) writeLast(c *rclock, e *Event) {
	w.at(e.Res).last.copyFrom(c, w.clock)
}
