package trace

// denseRaces is the data-race detector on dense vector clocks (syncWalker),
// as Races was before its clocks were tree clocks: the reference the
// differential tests compare Races with, and the benchmarks' "dense".
type denseRaces struct {
	// ChanSync says that the runtime reports every channel handoff with
	// Sync, on the channel's slots: the trace's own channel value edges
	// (send before receive) are then left out, since the slots carry
	// them.
	ChanSync bool

	w        syncWalker
	objs     map[uint64]*denseObj // synchronisation objects of Sync
	freeObjs []*denseObj          // for reuse after Reset
	locs     map[uint64]*raceLoc  // locations: a KindMemRead/Write step's Res, or a key of Access
	free     []*raceLoc           // for reuse after Reset
	seen     int                  // events stepped
	used     bool                 // anything stepped or noted since the last Reset
}

// denseObj is a synchronisation object of Sync: its clock, and whose clock
// it is (a copy of the clock of the task of the stamp, at that step).
type denseObj struct {
	vc VC
	by stamp
}

// Reset forgets everything, keeping memory for the next run.
func (d *denseRaces) Reset() {
	if !d.used { // nothing to clear: an iteration the detector did not run in
		return
	}
	d.used = false
	all := d.w.clock[:cap(d.w.clock)]
	for i := range all {
		all[i] = all[i][:0]
	}
	d.w.clock = all[:0]
	d.w.spare = d.w.msgs.drain(d.w.spare)
	d.w.sync.reset()
	for _, o := range d.objs {
		o.vc = o.vc[:0]
		d.freeObjs = append(d.freeObjs, o)
	}
	clear(d.objs)
	for _, l := range d.locs {
		l.reads = l.reads[:0]
		d.free = append(d.free, l)
	}
	clear(d.locs)
	d.seen = 0
}

// Stepped returns the number of events stepped since the last Reset.
func (d *denseRaces) Stepped() int { return d.seen }

// Step walks event e, the next of the run (index Stepped()), and checks it
// if it accesses plain memory (KindMemRead, KindMemWrite: its location is
// its Res). It returns the race, if the access is one.
func (d *denseRaces) Step(e *Event) (Race, bool) {
	d.used = true
	i := d.seen
	d.seen++
	d.w.sync.noPre, d.w.sync.noValues = true, d.ChanSync
	vc := d.w.stepEvent(e)
	if vc == nil || (e.Kind != KindMemRead && e.Kind != KindMemWrite) || e.Res == 0 {
		return Race{}, false
	}
	return d.check(uint64(e.Res), RaceAccess{Event: i, Task: e.Task, Loc: e.Loc, Write: e.Kind == KindMemWrite})
}

// Access checks an access that is not a plain-memory step, made by task at
// the event just stepped: an atomic access to a location (Atomic: it races
// only with plain accesses), or an access a runtime models the way Go's
// race detector does (a WaitGroup's Add from zero reads the group, its
// first blocking Wait writes it, so that an Add concurrent with a Wait is
// a race). key names the location: a plain-memory location's resource, or
// any key outside their range (above 1<<32). loc is where it happened, and
// what the caller's label for it, both returned in a race.
func (d *denseRaces) Access(task int32, key uint64, write, atomic bool, loc uint64, what uint8) (Race, bool) {
	d.used = true
	if int(task) >= len(d.w.clock) {
		d.w.grow(int(task) + 1)
	}
	// The access happened at the task's last step: its clock as it is.
	return d.check(key, RaceAccess{Event: d.seen - 1, Task: task, Loc: loc, Write: write, Atomic: atomic, What: what})
}

// check checks access a of the location key and records it.
func (d *denseRaces) check(key uint64, a RaceAccess) (Race, bool) {
	if d.locs == nil {
		d.locs = make(map[uint64]*raceLoc)
	}
	l := d.locs[key]
	if l == nil {
		if n := len(d.free); n > 0 {
			l, d.free = d.free[n-1], d.free[:n-1]
		} else {
			l = new(raceLoc)
		}
		l.write = raceAccess{RaceAccess: RaceAccess{Task: -1}}
		d.locs[key] = l
	}
	vc := d.w.clock[a.Task]
	me := raceAccess{RaceAccess: a, clk: vc.At(a.Task)}
	race, found := Race{Key: key, Later: a}, false
	conflict := func(o raceAccess) bool {
		return o.Task >= 0 && o.Task != a.Task && !(o.Atomic && a.Atomic) && o.clk > vc.At(o.Task)
	}
	if conflict(l.write) {
		race.Earlier, found = l.write.RaceAccess, true
	}
	if !a.Write {
		l.addRead(me)
		return race, found
	}
	for _, r := range l.reads {
		if !found && conflict(r) {
			race.Earlier, found = r.RaceAccess, true
		}
	}
	l.write, l.reads = me, l.reads[:0]
	return race, found
}

// Sync records that task, at the event just stepped, acquires and releases
// the synchronisation object key: its clock and the object's become their
// join. A runtime reports with it the edges of Go's memory model that
// events do not carry, as Go's race detector does for channels: every
// operation of an unbuffered channel synchronises on the channel, one of a
// buffered channel on the slot it fills or empties (so the k-th receive
// happens before the (k+capacity)-th send completes). The task may be
// another than the event's: a blocked sender or receiver that the step
// hands a value to or takes one from.
func (d *denseRaces) Sync(task int32, key uint64) {
	d.used = true
	if int(task) >= len(d.w.clock) {
		d.w.grow(int(task) + 1)
	}
	obj, known := d.obj(key)
	o, c := &obj.vc, &d.w.clock[task]
	if known && obj.by.knownBy(*c, task) {
		*o = append((*o)[:0], *c...) // o ≤ c: their join is c
	} else {
		o.grow(len(*c))
		c.grow(len(*o))
		joinBoth(*o, *c)
	}
	obj.by = stamp{task, c.At(task)} // o is task's clock now
}

// obj returns the object key, made empty if new (known false).
func (d *denseRaces) obj(key uint64) (o *denseObj, known bool) {
	if o = d.objs[key]; o != nil {
		return o, true
	}
	if d.objs == nil {
		d.objs = make(map[uint64]*denseObj)
	}
	if n := len(d.freeObjs); n > 0 {
		o, d.freeObjs = d.freeObjs[n-1], d.freeObjs[:n-1]
	} else {
		o = new(denseObj)
	}
	d.objs[key] = o
	return o, false
}

// Handoff is Sync(a, key), Sync(b, key), Sync(a, key) in one pass over the
// clocks: a, b and the object all become the join of the three, and the
// object is a's clock. A runtime reports with it a handoff of an
// unbuffered channel, which orders the two tasks both ways. When the object
// is known to be included in a's or b's clock (its stamp), the pass joins
// only a and b, and the object becomes a copy.
func (d *denseRaces) Handoff(a, b int32, key uint64) {
	d.used = true
	if a == b {
		d.Sync(a, key)
		return
	}
	if n := int(max(a, b)) + 1; n > len(d.w.clock) {
		d.w.grow(n)
	}
	obj, known := d.obj(key)
	o, ca, cb := &obj.vc, &d.w.clock[a], &d.w.clock[b]
	n := max(len(*o), len(*ca), len(*cb))
	ca.grow(n)
	cb.grow(n)
	if !known || obj.by.knownBy(*ca, a) || obj.by.knownBy(*cb, b) {
		joinBoth(*ca, *cb) // o is empty, or o ≤ a or o ≤ b: the join of the three is a's and b's
		*o = append((*o)[:0], *ca...)
	} else {
		o.grow(n)
		joinAll(*o, *ca, *cb)
	}
	obj.by = stamp{a, ca.At(a)}
}

// joinAll makes a, b and c, which are equally long, all their join.
func joinAll(a, b, c VC) {
	joinInto(a, c)
	joinBoth(a, b)
	copy(c, a)
}
