package hb

import "github.com/morpheus-go/morpheus/trace"

// Data races on plain memory, found online while an iteration runs.
//
// A KindMemRead or KindMemWrite step accesses a location (its Res) of
// plain memory. Two accesses of different tasks to one location, at least
// one a write, race when no happens-before edge orders them: the edges of
// hb.go and hb_sync.go (program order, spawns, messages, channels, locks,
// WaitGroup, Once, Cond, atomics and shared variables, timers, the
// in-memory network) and the synchronisation objects a runtime reports with
// Sync (what the trace does not carry: Go's race detector's per-slot
// channel synchronisation, see Races.Sync). Plain accesses themselves add
// no edge.
//
// Each location keeps FastTrack's epochs (Flanagan and Freund, PLDI 2009):
// the last write as (task, the task's own clock entry), and the last read of
// each task since that write; a read is checked and recorded in constant
// time, a write in time proportional to the number of tasks that read the
// location since the last write, and a race is reported whatever the order
// the schedule happened to give the two accesses.
//
// Synchronisation costs a pass over the clocks' entries, one per task,
// except where a clock is known to include the other already: an object
// of Sync or an atomic variable remembers whose clock it holds (a stamp),
// so that a task that already knows a later step of that task skips the
// join. A handoff of an unbuffered channel, three Syncs, is one pass
// (Handoff), which joins only the two tasks' clocks when the channel's is
// known to be included in one of them; the pass runs in vector
// instructions where there are some (vclock_join.go).

// Races is an online data-race detector. Feed it every event of a run in
// order with Step, as soon as the event is final; the zero Races is ready.
type Races struct {
	// ChanSync says that the runtime reports every channel handoff with
	// Sync, on the channel's slots: the trace's own channel value edges
	// (send before receive) are then left out, since the slots carry
	// them.
	ChanSync bool

	w        syncWalker
	objs     map[uint64]*raceObj // synchronisation objects of Sync
	freeObjs []*raceObj          // for reuse after Reset
	locs     raceLocs            // locations: a KindMemRead/Write step's Res, or a key of Access
	free     []*raceLoc          // for reuse after Reset
	seen     int                 // events stepped
	lastAcc  []uint32            // by task, its own clock entry at its latest access (racecover.go)
	used     bool                // anything stepped or noted since the last Reset
}

// raceObj is a synchronisation object of Sync: its clock, and whose clock
// it is (a copy of the clock of the task of the stamp, at that step).
type raceObj struct {
	vc VC
	by stamp
}

// RaceAccess is one side of a race: the event of the step at which it
// happened, its task and location (Event.Loc), and what it was.
type RaceAccess struct {
	Event  int
	Task   int32
	Loc    uint64
	Write  bool
	Atomic bool
	What   uint8 // the caller's label of an Access (0 for plain memory steps)
}

// Race is a data race: two accesses to one location, by different tasks, at
// least one a write and at least one not atomic, that no synchronisation
// orders. Later is the access just checked.
type Race struct {
	Key            uint64 // the location
	Earlier, Later RaceAccess
}

type raceLoc struct {
	write raceAccess   // the last write; task -1 if none
	reads []raceAccess // the last read of each task since the last write
	// index holds, by readKey, a read's place in reads plus one, once they
	// are many; an entry that does not name a read of its key is stale (of
	// reads before the last write), and means none.
	index []int32
}

// manyReads is the number of reads past which a location indexes them: a
// field every goroutine reads (a thousand goroutines of one errgroup read
// its semaphore) is then updated in constant time, not one scan per read.
const manyReads = 16

// readKey keys a read in raceLoc.index: its task and atomicity.
func readKey(a raceAccess) int32 {
	k := a.Task << 1
	if a.Atomic {
		k |= 1
	}
	return k
}

// raceAccess is an access and its task's own clock entry at the access
// (FastTrack's epoch).
type raceAccess struct {
	RaceAccess
	clk uint32
}

// Reset forgets everything, keeping memory for the next run.
func (d *Races) Reset() {
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
	d.free = d.locs.drain(d.free)
	d.seen = 0
	d.lastAcc = d.lastAcc[:0]
}

// Stepped returns the number of events stepped since the last Reset.
func (d *Races) Stepped() int { return d.seen }

// Step walks event e, the next of the run (index Stepped()), and checks it
// if it accesses plain memory (KindMemRead, KindMemWrite: its location is
// its Res). It returns the race, if the access is one.
func (d *Races) Step(e *trace.Event) (Race, bool) {
	d.used = true
	i := d.seen
	d.seen++
	d.w.sync.noPre, d.w.sync.noValues = true, d.ChanSync
	vc := d.w.stepEvent(e)
	if vc == nil || (e.Kind != trace.KindMemRead && e.Kind != trace.KindMemWrite) || e.Res == 0 {
		return Race{}, false
	}
	return d.check(uint64(e.Res), RaceAccess{Event: i, Task: e.Task, Loc: e.Loc, Write: e.Kind == trace.KindMemWrite})
}

// Access checks an access that is not a plain-memory step, made by task at
// the event just stepped: an atomic access to a location (Atomic: it races
// only with plain accesses), or an access a runtime models the way Go's
// race detector does (a WaitGroup's Add from zero reads the group, its
// first blocking Wait writes it, so that an Add concurrent with a Wait is
// a race). key names the location: a plain-memory location's resource, or
// any key outside their range (above 1<<32). loc is where it happened, and
// what the caller's label for it, both returned in a race.
func (d *Races) Access(task int32, key uint64, write, atomic bool, loc uint64, what uint8) (Race, bool) {
	d.used = true
	if int(task) >= len(d.w.clock) {
		d.w.grow(int(task) + 1)
	}
	// The access happened at the task's last step: its clock as it is.
	return d.check(key, RaceAccess{Event: d.seen - 1, Task: task, Loc: loc, Write: write, Atomic: atomic, What: what})
}

// AccessAfter checks a plain-memory access that task made after the event
// just stepped (its last step) but that is no step of its own. As a step
// would, it begins a new epoch of the task (its own clock entry grows), so
// that what the task released at that last step (a spawn, an unlock, a
// send) does not order the access before another task's acquire of it,
// and what it releases after (a Sync) does. key and loc are as Access's.
func (d *Races) AccessAfter(task int32, key uint64, write bool, loc uint64) (Race, bool) {
	d.used = true
	if int(task) >= len(d.w.clock) {
		d.w.grow(int(task) + 1)
	}
	c := &d.w.clock[task]
	c.grow(int(task) + 1)
	(*c)[task]++
	return d.check(key, RaceAccess{Event: d.seen - 1, Task: task, Loc: loc, Write: write})
}

// check checks access a of the location key and records it.
func (d *Races) check(key uint64, a RaceAccess) (Race, bool) {
	l := d.locs.get(key)
	if l == nil {
		if n := len(d.free); n > 0 {
			l, d.free = d.free[n-1], d.free[:n-1]
		} else {
			l = new(raceLoc)
		}
		l.write = raceAccess{RaceAccess: RaceAccess{Task: -1}}
		d.locs.put(key, l)
	}
	vc := d.w.clock[a.Task]
	me := raceAccess{RaceAccess: a, clk: vc.At(a.Task)}
	d.accessed(a.Task, me.clk)
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

// addRead records a read, replacing the task's earlier read of the same
// atomicity since the last write: a later access that the newer read
// happens before, the older one does too.
func (l *raceLoc) addRead(a raceAccess) {
	k := readKey(a)
	if len(l.reads) >= manyReads {
		if p := l.indexed(k); p >= 0 {
			l.reads[p] = a
			return
		}
		l.setIndex(k, len(l.reads))
		l.reads = append(l.reads, a)
		return
	}
	for p := range l.reads {
		if l.reads[p].Task == a.Task && l.reads[p].Atomic == a.Atomic {
			l.reads[p] = a
			return
		}
	}
	l.reads = append(l.reads, a)
	if len(l.reads) == manyReads {
		for p, r := range l.reads {
			l.setIndex(readKey(r), p)
		}
	}
}

// indexed returns the place in l.reads of the read of key k, or -1.
func (l *raceLoc) indexed(k int32) int {
	if int(k) >= len(l.index) {
		return -1
	}
	p := int(l.index[k]) - 1
	if p < 0 || p >= len(l.reads) || readKey(l.reads[p]) != k {
		return -1 // none, or stale
	}
	return p
}

// setIndex records that the read of key k is at place p of l.reads.
func (l *raceLoc) setIndex(k int32, p int) {
	if int(k) >= len(l.index) {
		l.index = append(l.index, make([]int32, int(k)+1-len(l.index))...)
	}
	l.index[k] = int32(p + 1)
}

// raceLocs holds the locations' states by key: in a slice below denseLocs
// (a run numbers its resources from 1), in a map above (the keys of
// Access that are not resources).
type raceLocs struct {
	dense []*raceLoc
	hi    int // entries of dense past hi are nil
	other map[uint64]*raceLoc
}

// denseLocs bounds the keys kept in the slice.
const denseLocs = 1 << 16

func (m *raceLocs) get(key uint64) *raceLoc {
	switch {
	case key < uint64(len(m.dense)):
		return m.dense[key]
	case key < denseLocs:
		return nil
	}
	return m.other[key]
}

func (m *raceLocs) put(key uint64, l *raceLoc) {
	if key < denseLocs {
		if key >= uint64(len(m.dense)) {
			m.dense = append(m.dense, make([]*raceLoc, int(key)+1-len(m.dense))...)
			m.dense = m.dense[:cap(m.dense)]
		}
		m.dense[key] = l
		m.hi = max(m.hi, int(key)+1)
		return
	}
	if m.other == nil {
		m.other = make(map[uint64]*raceLoc)
	}
	m.other[key] = l
}

// drain removes every location, emptied, and returns free with them
// appended.
func (m *raceLocs) drain(free []*raceLoc) []*raceLoc {
	for k, l := range m.dense[:m.hi] {
		if l != nil {
			l.reads = l.reads[:0]
			free = append(free, l)
			m.dense[k] = nil
		}
	}
	m.hi = 0
	for _, l := range m.other {
		l.reads = l.reads[:0]
		free = append(free, l)
	}
	clear(m.other)
	return free
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
func (d *Races) Sync(task int32, key uint64) {
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
func (d *Races) obj(key uint64) (o *raceObj, known bool) {
	if o = d.objs[key]; o != nil {
		return o, true
	}
	if d.objs == nil {
		d.objs = make(map[uint64]*raceObj)
	}
	if n := len(d.freeObjs); n > 0 {
		o, d.freeObjs = d.freeObjs[n-1], d.freeObjs[:n-1]
	} else {
		o = new(raceObj)
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
func (d *Races) Handoff(a, b int32, key uint64) {
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
