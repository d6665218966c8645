package trace

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
// each task since that write; an access is checked against them in time
// proportional to the number of tasks that read the location since its last
// write, and a race is reported whatever the order the schedule happened to
// give the two accesses.

// Races is an online data-race detector. Feed it every event of a run in
// order with Step, as soon as the event is final; the zero Races is ready.
type Races struct {
	w    syncWalker
	objs map[uint64]VC       // synchronisation objects of Sync
	locs map[uint32]*raceLoc // plain-memory locations by resource
	free []*raceLoc          // for reuse after Reset
	seen int                 // events stepped
}

// Race is a data race: two accesses to one location, by different tasks, at
// least one a write, that no synchronisation orders. Earlier is the index
// of the event of the first access, Later of the second (the one just
// stepped).
type Race struct {
	Earlier, Later int
	Res            uint32
}

type raceLoc struct {
	write raceAccess   // the last write; task -1 if none
	reads []raceAccess // the last read of each task since the last write
}

// raceAccess is an access's task, its task's own clock entry at the access
// (FastTrack's epoch) and its event.
type raceAccess struct {
	task  int32
	clk   uint32
	event int
}

// Reset forgets everything, keeping memory for the next run.
func (d *Races) Reset() {
	all := d.w.clock[:cap(d.w.clock)]
	for i := range all {
		all[i] = all[i][:0]
	}
	d.w.clock = all[:0]
	clear(d.w.msgs)
	d.w.sync = syncHB{pre: d.w.sync.pre[:0]}
	clear(d.objs)
	for _, l := range d.locs {
		l.reads = l.reads[:0]
		d.free = append(d.free, l)
	}
	clear(d.locs)
	d.seen = 0
}

// Stepped returns the number of events stepped since the last Reset.
func (d *Races) Stepped() int { return d.seen }

// Step walks event e, the next of the run (index Stepped()), and checks it
// if it accesses plain memory. It returns the race, if the access is one.
func (d *Races) Step(e *Event) (Race, bool) {
	i := d.seen
	d.seen++
	vc := d.w.stepEvent(e)
	if vc == nil || (e.Kind != KindMemRead && e.Kind != KindMemWrite) || e.Res == 0 {
		return Race{}, false
	}
	if d.locs == nil {
		d.locs = make(map[uint32]*raceLoc)
	}
	l := d.locs[e.Res]
	if l == nil {
		if n := len(d.free); n > 0 {
			l, d.free = d.free[n-1], d.free[:n-1]
		} else {
			l = new(raceLoc)
		}
		l.write = raceAccess{task: -1}
		d.locs[e.Res] = l
	}
	me := raceAccess{task: e.Task, clk: vc.At(e.Task), event: i}
	race := Race{Earlier: -1, Later: i, Res: e.Res}
	if w := l.write; w.task >= 0 && w.task != e.Task && w.clk > vc.At(w.task) {
		race.Earlier = w.event
	}
	if e.Kind == KindMemRead {
		l.addRead(me)
	} else {
		for _, r := range l.reads {
			if r.task != e.Task && r.clk > vc.At(r.task) && race.Earlier < 0 {
				race.Earlier = r.event
			}
		}
		l.write, l.reads = me, l.reads[:0]
	}
	return race, race.Earlier >= 0
}

// addRead records a read, replacing the task's earlier read since the last
// write: a later access that the newer read happens before, the older one
// does too.
func (l *raceLoc) addRead(a raceAccess) {
	for k := range l.reads {
		if l.reads[k].task == a.task {
			l.reads[k] = a
			return
		}
	}
	l.reads = append(l.reads, a)
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
	if int(task) >= len(d.w.clock) {
		d.w.grow(int(task) + 1)
	}
	if d.objs == nil {
		d.objs = make(map[uint64]VC)
	}
	o := d.objs[key]
	o.Join(d.w.clock[task])
	d.objs[key] = o
	d.w.clock[task].Join(o)
}
