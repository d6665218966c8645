package hb

import (
	"math/rand/v2"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// raceRun feeds events to a Races, calling sync after the events whose
// index it names (the runtime's notes), and returns the races found.
func raceRun(events []trace.Event, syncs map[int][][2]uint64) []Race {
	var d Races
	var out []Race
	for i := range events {
		if r, ok := d.Step(&events[i]); ok {
			out = append(out, r)
		}
		for _, s := range syncs[i] {
			d.Sync(int32(s[0]), s[1])
		}
	}
	return out
}

const raceLocRes = 5 // the plain-memory location of these tests

func memRead(task int32) trace.Event {
	return sev(task, trace.KindMemRead, raceLocRes, trace.FlagRead, -1, 0)
}
func memWrite(task int32) trace.Event { return sev(task, trace.KindMemWrite, raceLocRes, 0, -1, 0) }

// TestRacesManyReaders: forty goroutines read a location (past manyReads,
// where reads are indexed), some twice; the main task's write races with
// them unless each goroutine's Done reaches the main task's Wait.
func TestRacesManyReaders(t *testing.T) {
	const n = 40
	build := func(wait bool) []trace.Event {
		var ev []trace.Event
		for c := int32(1); c <= n; c++ {
			ev = append(ev, sev(0, trace.KindSpawn, 0, 0, c, 0))
		}
		for c := int32(1); c <= n; c++ {
			ev = append(ev, memRead(c))
			if c%3 == 0 {
				ev = append(ev, memRead(c))
			}
			if wait {
				ev = append(ev, sev(c, trace.KindWGAdd, 9, 0, -1, -1))
			}
		}
		if wait {
			ev = append(ev, sev(0, trace.KindWGWait, 9, trace.FlagRead, -1, 0))
		}
		return append(ev, memWrite(0))
	}
	if got := raceRun(build(true), nil); len(got) != 0 {
		t.Fatalf("ordered by the WaitGroup, yet races: %+v", got)
	}
	got := raceRun(build(false), nil)
	if len(got) != 1 || !got[0].Later.Write || got[0].Later.Task != 0 || got[0].Earlier.Task < 1 || got[0].Earlier.Write {
		t.Fatalf("races %+v, want the main task's write against a reader's read", got)
	}
}

// TestRacesSyncObjects: Sync orders accesses through an object, in both
// directions and transitively, and repeated Syncs of a task that already
// holds the object's clock change nothing.
func TestRacesSyncObjects(t *testing.T) {
	const obj = 1<<32 | 3
	ev := []trace.Event{
		sev(0, trace.KindSpawn, 0, 0, 1, 0),  // 0
		sev(0, trace.KindSpawn, 0, 0, 2, 0),  // 1
		memWrite(1),                          // 2
		sev(1, trace.KindYield, 0, 0, -1, 0), // 3: task 1 releases obj
		sev(2, trace.KindYield, 0, 0, -1, 0), // 4: task 2 acquires obj
		sev(2, trace.KindYield, 0, 0, -1, 0), // 5: and again
		memWrite(2),                          // 6: ordered after task 1's write
		sev(0, trace.KindYield, 0, 0, -1, 0), // 7: main acquires obj after task 2
		memRead(0),                           // 8: ordered after both writes
	}
	syncs := map[int][][2]uint64{3: {{1, obj}}, 4: {{2, obj}}, 5: {{2, obj}, {2, obj}}, 7: {{2, obj}, {0, obj}}}
	if got := raceRun(ev, syncs); len(got) != 0 {
		t.Fatalf("ordered through the object, yet races: %+v", got)
	}
	delete(syncs, 7) // main no longer acquires: its read races with task 2's write
	got := raceRun(ev, syncs)
	if len(got) != 1 || got[0].Earlier.Task != 2 || got[0].Later.Task != 0 {
		t.Fatalf("races %+v, want main's read against task 2's write", got)
	}
}

// TestRacesAtomicLastWrite: a load synchronises with the store it reads,
// including when the loading task read the same store before.
func TestRacesAtomicLastWrite(t *testing.T) {
	const v = 7 // an atomic variable
	ev := []trace.Event{
		sev(0, trace.KindSpawn, 0, 0, 1, 0),
		memWrite(1),
		sev(1, trace.KindStore, v, 0, -1, 1),
		sev(0, trace.KindLoad, v, trace.FlagRead, -1, 1),
		sev(0, trace.KindLoad, v, trace.FlagRead, -1, 1), // known already: nothing to join
		memRead(0),
	}
	if got := raceRun(ev, nil); len(got) != 0 {
		t.Fatalf("ordered by the store and load, yet races: %+v", got)
	}
	ev[3].Kind, ev[4].Kind = trace.KindYield, trace.KindYield
	if got := raceRun(ev, nil); len(got) != 1 {
		t.Fatalf("races %+v, want one without the load", got)
	}
}

// TestRacesSameStepJoins: a task's clock can grow by Syncs without a step of
// its own; a task that learned the task's clock before the growth, at the
// same step, must still join an object holding the grown clock.
func TestRacesSameStepJoins(t *testing.T) {
	const obj1, obj2 = 1<<32 | 1, 1<<32 | 2
	ev := []trace.Event{
		sev(0, trace.KindSpawn, 0, 0, 1, 0),
		sev(0, trace.KindSpawn, 0, 0, 2, 0),
		sev(0, trace.KindSpawn, 0, 0, 3, 0),
		memWrite(2),                          // 3: B writes, then releases obj2
		sev(1, trace.KindYield, 0, 0, -1, 0), // 4: A's step, with the notes below
		memRead(3),                           // 5: C read after learning B's write through A
	}
	syncs := map[int][][2]uint64{
		3: {{2, obj2}},
		4: {{1, obj1}, {3, obj1}, {1, obj2}, {3, obj2}},
	}
	if got := raceRun(ev, syncs); len(got) != 0 {
		t.Fatalf("C learned B's write through A's grown clock, yet races: %+v", got)
	}
}

// TestRacesHandoffIsThreeSyncs: Handoff(a, b, key) leaves the clocks, the
// objects and the races found exactly as Sync(a, key), Sync(b, key),
// Sync(a, key) do, on random runs of spawns, steps, accesses and
// synchronisations.
func TestRacesHandoffIsThreeSyncs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for run := range 200 {
		var syncs, handoffs Races
		tasks := int32(1)
		for i := range 300 {
			task := rng.Int32N(tasks)
			e := sev(task, trace.KindYield, 0, 0, -1, 0)
			switch k := rng.IntN(10); {
			case k == 0 && tasks < 40:
				e = sev(task, trace.KindSpawn, 0, 0, tasks, 0)
				tasks++
			case k < 4:
				e = memRead(task)
				e.Res = uint32(1 + rng.IntN(3))
			case k < 6:
				e = memWrite(task)
				e.Res = uint32(1 + rng.IntN(3))
			}
			r1, ok1 := syncs.Step(&e)
			r2, ok2 := handoffs.Step(&e)
			if ok1 != ok2 || r1 != r2 {
				t.Fatalf("run %d, event %d: races %v %+v and %v %+v", run, i, ok1, r1, ok2, r2)
			}
			for range rng.IntN(3) {
				a, b, key := rng.Int32N(tasks), rng.Int32N(tasks), uint64(1<<32|rng.IntN(4))
				if rng.IntN(3) == 0 {
					syncs.Sync(a, key)
					handoffs.Sync(a, key)
					continue
				}
				syncs.Sync(a, key)
				syncs.Sync(b, key)
				syncs.Sync(a, key)
				handoffs.Handoff(a, b, key)
			}
			sameRaceState(t, &syncs, &handoffs, tasks)
		}
	}
}

// sameRaceState fails unless x and y hold the same clocks (of n tasks) and
// synchronisation objects.
func sameRaceState(t *testing.T, x, y *Races, n int32) {
	t.Helper()
	same := func(v, w VC) bool { return v.LessEq(w) && w.LessEq(v) }
	for task := range n {
		var v, w VC
		if int(task) < len(x.w.clock) {
			v = x.w.clock[task]
		}
		if int(task) < len(y.w.clock) {
			w = y.w.clock[task]
		}
		if !same(v, w) {
			t.Fatalf("task %d: clocks %v and %v", task, v, w)
		}
	}
	if len(x.objs) != len(y.objs) {
		t.Fatalf("%d and %d objects", len(x.objs), len(y.objs))
	}
	for key, o := range x.objs {
		if p := y.objs[key]; p == nil || !same(o.vc, p.vc) || o.by != p.by {
			t.Fatalf("object %x: %+v and %+v", key, o, p)
		}
	}
}

// TestRacesReset: a detector Reset after a run finds what a fresh one finds,
// run after run, and a Reset with nothing run (an iteration the detector
// did not look at) leaves it as fresh.
func TestRacesReset(t *testing.T) {
	racy := []trace.Event{sev(0, trace.KindSpawn, 0, 0, 1, 0), memWrite(1), memWrite(0)}
	ordered := []trace.Event{memWrite(0), sev(0, trace.KindSpawn, 0, 0, 1, 0), memWrite(1)}
	var d Races
	run := func(events []trace.Event) (n int) {
		d.Reset()
		for i := range events {
			if _, ok := d.Step(&events[i]); ok {
				n++
			}
		}
		d.Sync(1, 42) // a note: the next Reset must clear the object too
		return n
	}
	for round := range 3 {
		if n := run(racy); n != 1 {
			t.Fatalf("round %d: %d races in the racy run, want 1", round, n)
		}
		d.Reset() // nothing run in between
		if n := run(ordered); n != 0 {
			t.Fatalf("round %d: %d races in the ordered run after a Reset, want 0", round, n)
		}
		if d.Stepped() != len(ordered) {
			t.Fatalf("round %d: Stepped %d after %d events", round, d.Stepped(), len(ordered))
		}
	}
}

// TestRaceLocReadsIndex: a crowded location keeps one read per task and
// atomicity, through its index, also once a write emptied its reads and
// other tasks read it in another order (the index's stale entries).
func TestRaceLocReadsIndex(t *testing.T) {
	var l raceLoc
	read := func(task int32, atomic bool, clk uint32) {
		l.addRead(raceAccess{RaceAccess: RaceAccess{Task: task, Atomic: atomic}, clk: clk})
	}
	check := func(want int) {
		t.Helper()
		seen := map[int32]bool{}
		for _, r := range l.reads {
			if k := readKey(r); seen[k] {
				t.Fatalf("task %d (atomic %v) read twice: %v", r.Task, r.Atomic, l.reads)
			} else {
				seen[k] = true
			}
		}
		if len(l.reads) != want {
			t.Fatalf("%d reads, want %d", len(l.reads), want)
		}
	}
	for round := range 2 {
		for task := range int32(40) {
			read(task, false, 1)
		}
		for task := range int32(40) {
			read(task, task%2 == 0, 2) // half of them again, half atomic
		}
		check(60)
		for _, r := range l.reads {
			if !r.Atomic && r.Task%2 == 1 && r.clk != 2 {
				t.Fatalf("round %d: task %d's read not replaced: %+v", round, r.Task, r)
			}
		}
		l.reads = l.reads[:0] // a write
		for task := int32(39); task >= 0; task-- {
			read(task, true, 3)
		}
		check(40)
		l.reads = l.reads[:0]
	}
}
