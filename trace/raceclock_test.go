package trace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// dense returns c's entries.
func (c *rclock) dense() VC { return c.vc }

// wellFormed returns an error unless c's log names tasks of its clock, the
// positions it knows of the tasks' logs are positions they have reached,
// and c, if a copy of a task's clock, is included in that task's clock now.
func (c *rclock) wellFormed(clocks []rclock) error {
	for k, t := range c.log {
		if t < -1 || int(t) >= len(c.vc) {
			return fmt.Errorf("log entry %d names task %d of %d", k, t, len(c.vc))
		}
	}
	for _, tp := range c.pos {
		if w := int(tp.task) - 1; tp.task > 0 && (w >= len(clocks) || tp.pos > clocks[w].end()) {
			return fmt.Errorf("knows position %d of task %d's log", tp.pos, w)
		}
	}
	if c.own == 0 && c.by.task >= 0 {
		w := &clocks[c.by.task]
		if !c.vc.LessEq(w.vc) || c.vc.At(c.by.task) != c.by.clk || c.byPos > w.end() {
			return fmt.Errorf("a copy of task %d at step %d, position %d, %v, not included in its clock %v (position %d)", c.by.task, c.by.clk, c.byPos, c.vc, w.vc, w.end())
		}
	}
	return nil
}

// randomRaceEvent returns a random event of task (one of tasks), of any kind
// the detector's walk acts on, on a few resources and values, so that
// sends meet receives, unlocks meet locks, writes meet reads.
func randomRaceEvent(rng *rand.Rand, task int32, tasks *int32, maxTasks int32) Event {
	other := rng.Int32N(*tasks)
	val := int64(rng.IntN(6))
	sres := uint32(10 + rng.IntN(4))
	switch k := rng.IntN(34); k {
	case 0, 1:
		if *tasks < maxTasks {
			*tasks++
			return sev(task, KindSpawn, 0, 0, *tasks-1, 0)
		}
		return sev(task, KindYield, 0, 0, -1, 0)
	case 2, 3, 4:
		e := memRead(task)
		e.Res = uint32(1 + rng.IntN(3))
		return e
	case 5, 6, 7:
		e := memWrite(task)
		e.Res = uint32(1 + rng.IntN(3))
		return e
	case 8, 9:
		kinds := []Kind{KindChanSend, KindChanRecv, KindSelect}
		if rng.IntN(5) == 0 {
			val = ValClosed
		}
		return sev(task, kinds[rng.IntN(3)], sres, 0, other, val)
	case 10:
		return sev(task, KindChanClose, sres, 0, -1, 0)
	case 11:
		return sev(task, KindTimerFire, sres, 0, other, val)
	case 12, 13:
		kinds := []Kind{KindLock, KindTryLock, KindRLock}
		v := int64(1)
		if rng.IntN(4) == 0 {
			v = ValNone
		}
		return sev(task, kinds[rng.IntN(3)], sres, 0, -1, v)
	case 14, 15:
		return sev(task, KindUnlock, sres, 0, -1, 0)
	case 16:
		return sev(task, KindRUnlock, sres, 0, -1, 0)
	case 17:
		return sev(task, KindWGAdd, sres, 0, -1, 0)
	case 18:
		v := int64(1)
		if rng.IntN(3) == 0 {
			v = ValNone
		}
		return sev(task, []Kind{KindWGWait, KindNetAccept, KindNetRead}[rng.IntN(3)], sres, 0, -1, v)
	case 19:
		return sev(task, []Kind{KindNetDial, KindNetWrite, KindNetClose}[rng.IntN(3)], sres, 0, -1, 0)
	case 20:
		return sev(task, KindOnce, sres, 0, -1, int64(rng.IntN(2)))
	case 21, 22:
		return sev(task, KindLoad, 20+uint32(rng.IntN(2)), FlagRead, -1, 0)
	case 23, 24:
		return sev(task, KindStore, 20+uint32(rng.IntN(2)), 0, -1, 0)
	case 25:
		return sev(task, []Kind{KindSwap, KindAdd, KindCAS}[rng.IntN(3)], 20+uint32(rng.IntN(2)), 0, -1, int64(rng.IntN(2)))
	case 26:
		return sev(task, []Kind{KindCondSignal, KindCondBroadcast}[rng.IntN(2)], sres, 0, -1, val)
	case 27:
		return sev(task, KindCondWait, sres, 0, -1, val)
	case 28:
		var f Flag
		if rng.IntN(4) == 0 {
			f = FlagDropped
		}
		return sev(task, []Kind{KindSend, KindTimer}[rng.IntN(2)], 0, f, other, val+100)
	case 29:
		var f Flag
		if rng.IntN(4) == 0 {
			f = FlagTimeout
		}
		return sev(task, KindRecv, 0, f, -1, val+100)
	case 30:
		if rng.IntN(2) == 0 {
			return sev(task, KindDeliver, sres, 0, -1, ValNone)
		}
		return sev(task, KindDeliver, 0, 0, -1, val+100)
	default:
		return sev(task, KindYield, 0, 0, -1, 0)
	}
}

// TestRaceClocksMatchDense is the differential test of the race clocks:
// on random runs of every kind of event the walk acts on, with Syncs,
// Handoffs and Accesses between them, Races and denseRaces
// (vector clocks, the detector as it was) report the same races at every
// call, every task's clock and every object's hold the same entries after
// every call, and every log stays well formed. Runs reuse one detector of
// each kind through Reset, as iterations do; in every other run the logs
// are cut short (trim) all the time, and all but one run in eight look at
// the logs whatever the clocks' length.
func TestRaceClocksMatchDense(t *testing.T) {
	runs, events := 400, 400
	if testing.Short() {
		runs = 100
	}
	var logged Races
	var dense denseRaces
	defer func(n, m int) { raceLogBase, raceDenseBelow = n, m }(raceLogBase, raceDenseBelow)
	for run := range runs {
		rng := rand.New(rand.NewPCG(uint64(run), 31))
		logged.Reset()
		dense.Reset()
		raceLogBase, raceDenseBelow = 128, 0
		if run%4 >= 2 {
			raceLogBase = 2
		}
		if run%8 == 7 {
			raceDenseBelow = 256
		}
		logged.ChanSync = run%2 == 0
		dense.ChanSync = logged.ChanSync
		maxTasks := int32(3 + rng.IntN(60))
		tasks := int32(1)
		compare := func(what string, r1 Race, ok1 bool, r2 Race, ok2 bool) {
			t.Helper()
			if ok1 != ok2 || (ok1 && r1 != r2) {
				t.Fatalf("run %d, %s: race clocks %v %+v, vector clocks %v %+v", run, what, ok1, r1, ok2, r2)
			}
		}
		for i := range events {
			// Tasks that step often and tasks that step rarely.
			task := rng.Int32N(tasks)
			if rng.IntN(2) == 0 {
				task = rng.Int32N(min(tasks, 3))
			}
			e := randomRaceEvent(rng, task, &tasks, maxTasks)
			r1, ok1 := logged.Step(&e)
			r2, ok2 := dense.Step(&e)
			compare(fmt.Sprintf("event %d %+v", i, e), r1, ok1, r2, ok2)
			for range rng.IntN(4) {
				a, b, key := rng.Int32N(tasks), rng.Int32N(tasks), uint64(1<<40|rng.IntN(5))
				switch rng.IntN(4) {
				case 0:
					logged.Sync(a, key)
					dense.Sync(a, key)
				case 1:
					logged.Handoff(a, b, key)
					dense.Handoff(a, b, key)
				default:
					loc := uint64(1 + rng.IntN(3))
					w, at := rng.IntN(2) == 0, rng.IntN(2) == 0
					r1, ok1 := logged.Access(a, loc, w, at, 7, 1)
					r2, ok2 := dense.Access(a, loc, w, at, 7, 1)
					compare(fmt.Sprintf("access after event %d", i), r1, ok1, r2, ok2)
				}
			}
			sameDense(t, &logged, &dense, tasks)
		}
	}
}

// sameDense fails unless the clocks of d hold the entries of the vector
// clocks of v, and are well formed.
func sameDense(t *testing.T, d *Races, v *denseRaces, tasks int32) {
	t.Helper()
	same := func(x, y VC) bool { return x.LessEq(y) && y.LessEq(x) }
	for task := range tasks {
		var x, y VC
		if int(task) < len(d.w.clock) {
			c := &d.w.clock[task]
			if err := c.wellFormed(d.w.clock); err != nil {
				t.Fatalf("task %d's clock: %v", task, err)
			}
			x = c.dense()
		}
		if int(task) < len(v.w.clock) {
			y = v.w.clock[task]
		}
		if !same(x, y) {
			t.Fatalf("task %d: race clock %v, vector clock %v", task, x, y)
		}
	}
	for key, o := range d.objs {
		if err := o.wellFormed(d.w.clock); err != nil {
			t.Fatalf("object %x: %v", key, err)
		}
		if p := v.objs[key]; p == nil || !same(o.dense(), p.vc) {
			t.Fatalf("object %x: race clock %v, vector clock %v", key, o.dense(), p)
		}
	}
	for k := range d.w.state {
		r := &d.w.state[k]
		for _, c := range []*rclock{&r.rel, &r.rrel, &r.closed, &r.last} {
			if err := c.wellFormed(d.w.clock); err != nil {
				t.Fatalf("resource state %d: %v", k, err)
			}
		}
	}
}

// TestRaceClockJoinCost: a join costs the entries that changed. A task
// that learns one new step of one of a thousand tasks it already knows
// looks at one change of that task's log, not at a thousand entries; one
// that learns of every task takes the dense way.
func TestRaceClockJoinCost(t *testing.T) {
	const n = 1000
	var d Races
	// Task 0 spawns n tasks; each steps, and hands a token back through an
	// object that task 0 synchronises on.
	for i := int32(1); i <= n; i++ {
		d.Step(&Event{Task: 0, Kind: KindSpawn, Obj: i})
		d.Step(&Event{Task: i, Kind: KindYield, Obj: -1})
		d.Sync(i, 1<<40|uint64(i))
		d.Sync(0, 1<<40|uint64(i))
	}
	if got := d.w.clock[0].dense(); len(got) != n+1 || slices.Contains(got, 0) {
		t.Fatalf("task 0 knows %v", got)
	}
	// Task 5 learns of task 0's steps (a dense join: news of every task),
	// steps and releases an object that task 0 acquires; then steps again
	// and releases another: all task 0 learns there is task 5's step.
	d.Sync(0, 1<<43)
	d.Sync(5, 1<<43)
	d.Step(&Event{Task: 5, Kind: KindYield, Obj: -1})
	d.Sync(5, 1<<41)
	d.Sync(0, 1<<41)
	d.Step(&Event{Task: 5, Kind: KindYield, Obj: -1})
	d.Sync(5, 1<<42)
	c5 := &d.w.clock[5]
	changes, ok := c5.span(d.w.clock[0].known(5), c5.end(), deltaLimit(n+1))
	if !ok || len(changes) > 2 {
		t.Fatalf("a join of one new step looks at %v (%v), want at most 2 changes", changes, ok)
	}
	d.Step(&Event{Task: 0, Kind: KindYield, Obj: -1})
	d.Sync(0, 1<<42)
	if d.w.clock[0].at(5) != 3 {
		t.Fatalf("task 0 knows %d steps of task 5, want 3", d.w.clock[0].at(5))
	}
	// Task 0's clock changed by one entry at that Sync, listed in its log.
	if l := d.w.clock[0].log; len(l) == 0 || l[len(l)-1] != 5 {
		t.Fatalf("task 0's log ends %v", l[max(0, len(l)-3):])
	}
	// Task 7 learns of all of them at once: more than the limit, dense.
	c7 := &d.w.clock[7]
	if _, ok := d.w.clock[0].span(c7.known(0), d.w.clock[0].end(), deltaLimit(n+1)); ok {
		t.Fatal("a join that brings news of every task looks at changes")
	}
}
