package trace

import "testing"

// raceRun feeds events to a Races, calling sync after the events whose
// index it names (the runtime's notes), and returns the races found.
func raceRun(events []Event, syncs map[int][][2]uint64) []Race {
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

func memRead(task int32) Event  { return sev(task, KindMemRead, raceLocRes, FlagRead, -1, 0) }
func memWrite(task int32) Event { return sev(task, KindMemWrite, raceLocRes, 0, -1, 0) }

// TestRacesManyReaders: forty goroutines read a location (past manyReads,
// where reads are indexed), some twice; the main task's write races with
// them unless each goroutine's Done reaches the main task's Wait.
func TestRacesManyReaders(t *testing.T) {
	const n = 40
	build := func(wait bool) []Event {
		var ev []Event
		for c := int32(1); c <= n; c++ {
			ev = append(ev, sev(0, KindSpawn, 0, 0, c, 0))
		}
		for c := int32(1); c <= n; c++ {
			ev = append(ev, memRead(c))
			if c%3 == 0 {
				ev = append(ev, memRead(c))
			}
			if wait {
				ev = append(ev, sev(c, KindWGAdd, 9, 0, -1, -1))
			}
		}
		if wait {
			ev = append(ev, sev(0, KindWGWait, 9, FlagRead, -1, 0))
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
	ev := []Event{
		sev(0, KindSpawn, 0, 0, 1, 0),  // 0
		sev(0, KindSpawn, 0, 0, 2, 0),  // 1
		memWrite(1),                    // 2
		sev(1, KindYield, 0, 0, -1, 0), // 3: task 1 releases obj
		sev(2, KindYield, 0, 0, -1, 0), // 4: task 2 acquires obj
		sev(2, KindYield, 0, 0, -1, 0), // 5: and again
		memWrite(2),                    // 6: ordered after task 1's write
		sev(0, KindYield, 0, 0, -1, 0), // 7: main acquires obj after task 2
		memRead(0),                     // 8: ordered after both writes
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
	ev := []Event{
		sev(0, KindSpawn, 0, 0, 1, 0),
		memWrite(1),
		sev(1, KindStore, v, 0, -1, 1),
		sev(0, KindLoad, v, FlagRead, -1, 1),
		sev(0, KindLoad, v, FlagRead, -1, 1), // known already: nothing to join
		memRead(0),
	}
	if got := raceRun(ev, nil); len(got) != 0 {
		t.Fatalf("ordered by the store and load, yet races: %+v", got)
	}
	ev[3].Kind, ev[4].Kind = KindYield, KindYield
	if got := raceRun(ev, nil); len(got) != 1 {
		t.Fatalf("races %+v, want one without the load", got)
	}
}

// TestRacesSameStepJoins: a task's clock can grow by Syncs without a step of
// its own; a task that learned the task's clock before the growth, at the
// same step, must still join an object holding the grown clock.
func TestRacesSameStepJoins(t *testing.T) {
	const obj1, obj2 = 1<<32 | 1, 1<<32 | 2
	ev := []Event{
		sev(0, KindSpawn, 0, 0, 1, 0),
		sev(0, KindSpawn, 0, 0, 2, 0),
		sev(0, KindSpawn, 0, 0, 3, 0),
		memWrite(2),                    // 3: B writes, then releases obj2
		sev(1, KindYield, 0, 0, -1, 0), // 4: A's step, with the notes below
		memRead(3),                     // 5: C read after learning B's write through A
	}
	syncs := map[int][][2]uint64{
		3: {{2, obj2}},
		4: {{1, obj1}, {3, obj1}, {1, obj2}, {3, obj2}},
	}
	if got := raceRun(ev, syncs); len(got) != 0 {
		t.Fatalf("C learned B's write through A's grown clock, yet races: %+v", got)
	}
}
