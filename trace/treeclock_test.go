package trace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// dense returns c as a vector clock: each task's steps.
func (c *tclock) dense() VC {
	v := make(VC, len(c.n))
	for t := range c.n {
		v[t] = c.n[t].stp
	}
	for len(v) > 0 && v[len(v)-1] == 0 {
		v = v[:len(v)-1]
	}
	return v
}

// wellFormed returns an error unless c is a tree: every entry of c is
// reached once from its root, each child's links agree with its parent's
// and siblings', a child's attachment is at most its parent's version,
// and siblings come newest attachment first.
func (c *tclock) wellFormed() error {
	seen := make([]bool, len(c.n))
	var walk func(u int32, kids int32) error
	walk = func(u, kids int32) error {
		prev := int32(0)
		for v := kids; v != 0; v = c.n[v-1].next {
			x := &c.n[v-1]
			if seen[v-1] {
				return fmt.Errorf("task %d reached twice", v-1)
			}
			seen[v-1] = true
			if x.parent != u || x.prev != prev {
				return fmt.Errorf("task %d: parent %d prev %d, want %d %d", v-1, x.parent, x.prev, u, prev)
			}
			if u > 0 && x.aclk > c.n[u-1].ver {
				return fmt.Errorf("task %d attached at %d past its parent's version %d", v-1, x.aclk, c.n[u-1].ver)
			}
			if u > 0 && prev != 0 && c.n[prev-1].aclk < x.aclk {
				return fmt.Errorf("task %d (attached at %d) after task %d (at %d)", v-1, x.aclk, prev-1, c.n[prev-1].aclk)
			}
			if err := walk(v, x.child); err != nil {
				return err
			}
			prev = v
		}
		return nil
	}
	switch {
	case c.root == tcVirtual:
		if err := walk(tcVirtual, c.vkids); err != nil {
			return err
		}
	case c.root > 0:
		seen[c.root-1] = true
		if x := c.n[c.root-1]; x.parent != 0 || x.prev != 0 || x.next != 0 {
			return fmt.Errorf("root %d has links %+v", c.root-1, x)
		}
		if err := walk(c.root, c.n[c.root-1].child); err != nil {
			return err
		}
	}
	for t := range c.n {
		if !seen[t] && c.n[t].ver > 0 {
			return fmt.Errorf("task %d (version %d) not in the tree", t, c.n[t].ver)
		}
		if seen[t] && c.n[t].ver == 0 && int32(t)+1 != c.own {
			return fmt.Errorf("task %d in the tree with version 0", t)
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

// TestTreeClockRacesMatchDense is the differential test of the tree clocks:
// on random runs of every kind of event the walk acts on, with Syncs,
// Handoffs and Accesses between them, Races (tree clocks) and denseRaces
// (vector clocks, the detector as it was) report the same races at every
// call, every task's clock and every object's hold the same entries after
// every call, and every tree clock stays well formed. Runs reuse one
// detector of each kind through Reset, as iterations do.
func TestTreeClockRacesMatchDense(t *testing.T) {
	runs, events := 400, 400
	if testing.Short() {
		runs = 100
	}
	var tree Races
	var dense denseRaces
	for run := range runs {
		rng := rand.New(rand.NewPCG(uint64(run), 31))
		tree.Reset()
		dense.Reset()
		tree.ChanSync = run%2 == 0
		dense.ChanSync = tree.ChanSync
		maxTasks := int32(3 + rng.IntN(30))
		tasks := int32(1)
		compare := func(what string, r1 Race, ok1 bool, r2 Race, ok2 bool) {
			t.Helper()
			if ok1 != ok2 || (ok1 && r1 != r2) {
				t.Fatalf("run %d, %s: tree clocks %v %+v, vector clocks %v %+v", run, what, ok1, r1, ok2, r2)
			}
		}
		for i := range events {
			// Tasks that step often and tasks that step rarely.
			task := rng.Int32N(tasks)
			if rng.IntN(2) == 0 {
				task = rng.Int32N(min(tasks, 3))
			}
			e := randomRaceEvent(rng, task, &tasks, maxTasks)
			r1, ok1 := tree.Step(&e)
			r2, ok2 := dense.Step(&e)
			compare(fmt.Sprintf("event %d %+v", i, e), r1, ok1, r2, ok2)
			for range rng.IntN(4) {
				a, b, key := rng.Int32N(tasks), rng.Int32N(tasks), uint64(1<<40|rng.IntN(5))
				switch rng.IntN(4) {
				case 0:
					tree.Sync(a, key)
					dense.Sync(a, key)
				case 1:
					tree.Handoff(a, b, key)
					dense.Handoff(a, b, key)
				default:
					loc := uint64(1 + rng.IntN(3))
					w, at := rng.IntN(2) == 0, rng.IntN(2) == 0
					r1, ok1 := tree.Access(a, loc, w, at, 7, 1)
					r2, ok2 := dense.Access(a, loc, w, at, 7, 1)
					compare(fmt.Sprintf("access after event %d", i), r1, ok1, r2, ok2)
				}
			}
			sameDense(t, &tree, &dense, tasks)
		}
	}
}

// sameDense fails unless the tree clocks of d hold the entries of the
// vector clocks of v, and are well formed.
func sameDense(t *testing.T, d *Races, v *denseRaces, tasks int32) {
	t.Helper()
	same := func(x, y VC) bool { return x.LessEq(y) && y.LessEq(x) }
	for task := range tasks {
		var x, y VC
		if int(task) < len(d.w.clock) {
			c := &d.w.clock[task]
			if err := c.wellFormed(); err != nil {
				t.Fatalf("task %d's clock: %v", task, err)
			}
			x = c.dense()
		}
		if int(task) < len(v.w.clock) {
			y = v.w.clock[task]
		}
		if !same(x, y) {
			t.Fatalf("task %d: tree clock %v, vector clock %v", task, x, y)
		}
	}
	for key, o := range d.objs {
		if err := o.wellFormed(); err != nil {
			t.Fatalf("object %x: %v", key, err)
		}
		if p := v.objs[key]; p == nil || !same(o.dense(), p.vc) {
			t.Fatalf("object %x: tree clock %v, vector clock %v", key, o.dense(), p)
		}
	}
	for k := range d.w.state {
		r := &d.w.state[k]
		for _, c := range []*tclock{&r.rel, &r.rrel, &r.closed, &r.last} {
			if err := c.wellFormed(); err != nil {
				t.Fatalf("resource state %d: %v", k, err)
			}
		}
	}
}

// TestTreeClockJoinCost: a join costs the entries that change. A task that
// learns one new step of one of a thousand tasks it already knows visits a
// handful of entries, not a thousand.
func TestTreeClockJoinCost(t *testing.T) {
	const n = 1000
	var d Races
	// Task 0 spawns n tasks; each writes, and hands a token back through an
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
	d.Step(&Event{Task: 5, Kind: KindYield, Obj: -1})
	d.Sync(5, 1<<41)
	buf := d.w.clock[0].news(d.objs[1<<41], nil, 0)
	if len(buf) > 2 {
		t.Fatalf("a join of one new step walks %d entries: %v", len(buf), buf)
	}
	d.Sync(0, 1<<41)
	if d.w.clock[0].at(5) != 2 {
		t.Fatalf("task 0 knows %d steps of task 5, want 2", d.w.clock[0].at(5))
	}
}
