package core

import (
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"unsafe"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// Data races. Plain-memory accesses of rewritten code are ops (Access); the
// detector (hb.Races) checks them against the happens-before edges of
// the run's events, plus what the primitives tell it in notes: edges the
// events do not carry (RaceSync) and accesses that are not plain-memory
// steps (RaceAccess: atomics, a WaitGroup's Add against its Wait). It
// starts at the first check and walks the run from its beginning, so runs
// without plain memory or noted accesses pay only for the notes.

// Access runs the op of a plain-memory access of t to the location res
// (a resource the caller keeps per address): a read op, or a write op. The
// step is a scheduling point like any other, so strategies interleave
// goroutines at plain memory, and conflict analysis and POS* see two reads
// commute (with conflict analysis, an access predicted never to race is run
// at once rather than offered to the strategy, and is still checked).
// Unless the configuration allows races, the access is then checked for a
// data race against the earlier accesses of other tasks to the location; a
// race fails the iteration with a Race failure naming both accesses, before
// the access is made.
func (r *Run) Access(t *Task, res uint32, write bool, pc uintptr) {
	kind := trace.KindMemRead
	if write {
		kind = trace.KindMemWrite
	}
	r.Do(t, Op{Kind: kind, Res: res, Read: !write, Obj: -1, PC: pc})
	if race, ok := r.race.check(r); ok {
		r.raceFound(race)
	}
}

// AccessOwned checks t's access of the plain-memory location res that no
// other task has accessed in the run: not an op, noted for the detector at
// t's last step (the step that runs now) and checked at once. It fails the
// iteration if the access races (with an earlier access of another task
// to the location that the caller did not know of: an atomic one).
func (r *Run) AccessOwned(t *Task, res uint32, write bool, pc uintptr) {
	r.RaceAccess(t, uint64(res), write, raceOwned, pc)
	if race, ok := r.race.check(r); ok {
		r.raceFound(race)
	}
}

// Noted returns the number of synchronisations noted (RaceSync) in the run
// so far: an owned access repeated before the task's next step needs no
// note of its own only if the task synchronised nothing in between.
func (r *Run) Noted() int { return r.race.noted }

// RacesChecked reports whether the run's plain-memory accesses are checked
// for data races (not allowed, not past MaxRaceTasks).
func (r *Run) RacesChecked() bool { return !r.race.off }

// LastStep returns the index of the run's latest event: it changes with
// every step.
func (r *Run) LastStep() int { return r.m.lastStep() }

// RaceSync records that task acquires and releases the synchronisation
// object key at the step that runs now (see hb.Races.Sync): the edges of
// Go's memory model that the trace's events do not carry, such as a
// buffered channel's slots.
func (r *Run) RaceSync(task int32, key uint64) {
	if r.race.off {
		return
	}
	r.race.noted++
	r.race.notes = append(r.race.notes, raceNote{at: r.m.lastStep(), task: task, key: key})
}

// Labels of RaceAccess, for reports.
const (
	RaceAtomic uint8 = iota + 1 // an atomic access (sync/atomic)
	RaceWGAdd                   // WaitGroup.Add raising the counter from zero
	RaceWGWait                  // the first Wait that blocks on a WaitGroup
	raceOwned                   // a plain access that is no step (AccessOwned)
)

var raceLabels = [...][2]string{
	RaceAtomic: {"atomic read", "atomic write"},
	RaceWGAdd:  {"WaitGroup.Add from zero", "WaitGroup.Add from zero"},
	RaceWGWait: {"WaitGroup.Wait", "WaitGroup.Wait"},
}

// RaceAccess records an access of task t, at the step that runs now, that
// is not a plain-memory step: to the location res of a plain-memory address
// (atomic: it races only with plain accesses), or to a location a primitive
// models as Go's race detector does (key above 1<<32; see
// hb.Races.Access). what labels it in reports. The access is checked at
// the next plain-memory access, or at the end of the iteration.
func (r *Run) RaceAccess(t *Task, key uint64, write bool, what uint8, pc uintptr) {
	if r.race.off {
		return
	}
	r.race.notes = append(r.race.notes, raceNote{at: r.m.lastStep(), task: t.ID, key: key,
		access: true, write: write, what: what, pc: pc})
	r.race.accesses++
}

// MaxRaceTasks bounds the tasks (goroutines and timers) of an iteration
// whose races are checked: the detector's vector clocks have an entry per
// task, so its memory grows with their square. Past the bound the
// iteration's accesses stay ops but are no longer checked (Go's own race
// detector stops at 8,128 live goroutines). A schedule that starts that
// many is rare in a test, but a goroutine leaked in a retry loop reaches it
// while the leak detector runs the clock on.
const MaxRaceTasks = 2048

// raceState is a run's data-race detection: the detector, fed lazily.
type raceState struct {
	off      bool // past MaxRaceTasks: no more checks
	det      hb.Races
	notes    []raceNote // RaceSync and RaceAccess calls, in order
	next     int        // notes applied
	accesses int        // RaceAccess notes recorded
	noted    int        // RaceSync notes recorded in the run (Noted)
	checked  int        // RaceAccess notes applied
	found    *hb.Race
}

type raceNote struct {
	at     int // the event index of the step it belongs to
	task   int32
	key    uint64
	access bool // an access, else a synchronisation
	write  bool
	what   uint8
	pc     uintptr
}

// racesLinked is set by package rt (EnableRaceChecks), whose rewritten code
// is what makes accesses to check.
var racesLinked atomic.Bool

// EnableRaceChecks turns the data-race detector on for the iterations that
// start from now on, unless their configuration allows races. Rewritten
// code calls it when initialised (rt.Rewritten): without it there is no
// plain-memory access to check, and the detector's notes would only slow
// the primitives down.
func EnableRaceChecks() { racesLinked.Store(true) }

func (s *raceState) reset(allow bool) {
	s.det.Reset()
	s.det.ChanSync = true // csync notes every handoff (RaceSync on its slots)
	s.notes = s.notes[:0]
	s.next, s.accesses, s.checked, s.noted = 0, 0, 0, 0
	s.found = nil
	// Off when no check can come: races are allowed, or no rewritten code
	// is in the binary (only it makes plain-memory and atomic accesses). Then the
	// primitives record no notes either: a channel op stays as cheap as
	// before the detector existed.
	s.off = allow || !racesLinked.Load()
}

// check steps the detector through the events recorded since it last
// ran, up to the step that runs now, and returns the first race found.
// Each note is applied after the event it belongs to; a note recorded once
// its event was walked (a Once's f returns after its last access was
// checked) is applied before the next event.
func (s *raceState) check(r *Run) (hb.Race, bool) {
	if s.off || len(r.m.all()) > MaxRaceTasks {
		s.off = true
		return hb.Race{}, false
	}
	last, rec := r.m.lastStep(), r.m.recorder()
	for i := s.det.Stepped(); i <= last && s.found == nil; i++ {
		s.apply(i - 1)
		if race, ok := s.det.Step(rec.At(i)); ok {
			f := race // on the heap only when found, not race at every step
			s.found = &f
		}
		s.apply(i)
	}
	s.apply(last)
	if s.next == len(s.notes) { // all applied: their memory serves the next ones
		s.notes, s.next = s.notes[:0], 0
	}
	if s.found == nil {
		return hb.Race{}, false
	}
	return *s.found, true
}

// apply applies the notes of the events up to i, until a race is found.
func (s *raceState) apply(i int) {
	for s.found == nil && s.next < len(s.notes) && s.notes[s.next].at <= i {
		n := &s.notes[s.next]
		s.next++
		if !n.access {
			if b, ok := s.handoff(); ok {
				s.det.Handoff(n.task, b, n.key)
				s.next += 2
			} else {
				s.det.Sync(n.task, n.key)
			}
			continue
		}
		s.checked++
		var race hb.Race
		var ok bool
		if n.what == raceOwned {
			race, ok = s.det.AccessAfter(n.task, n.key, n.write, uint64(n.pc))
		} else {
			race, ok = s.det.Access(n.task, n.key, n.write, n.what == RaceAtomic, uint64(n.pc), n.what)
		}
		if ok {
			f := race
			s.found = &f
		}
	}
}

// handoff reports whether the note just taken (s.next-1), a
// synchronisation of a task a on an object at a step, and the next two
// notes are the three of a handoff: b, then a again, on the same object at
// the same step (as an unbuffered channel reports one). It returns b.
func (s *raceState) handoff() (int32, bool) {
	if s.next+2 > len(s.notes) {
		return 0, false
	}
	n, m, l := &s.notes[s.next-1], &s.notes[s.next], &s.notes[s.next+1]
	if m.access || l.access || m.at != n.at || l.at != n.at || m.key != n.key || l.key != n.key || l.task != n.task {
		return 0, false
	}
	return m.task, true
}

// checkEnd checks the accesses noted since the last check, at the end of
// an iteration that has not failed otherwise.
func (r *Run) checkEnd() {
	if r.race.off || r.m.failed() != nil || r.race.checked == r.race.accesses {
		return
	}
	if race, ok := r.race.check(r); ok {
		r.raceFailure(race)
	}
}

// raceFailure fails the iteration with race. The stack is the running
// task's when the race is found at its own access.
func (r *Run) raceFailure(race hb.Race) {
	r.fail(r.raceOf(race))
}

// raceFound holds race, found at an access, as the iteration's failure
// (Hold) and lets the goroutines go on, as go test -race reports a race
// and the program runs on: the test's deferred calls and cleanups run
// (a test that sets a package-level option and restores it in a defer
// leaves it restored for the tests after it in the process), and the
// iteration fails with the race however it ends. Races found after it are
// not reported.
func (r *Run) raceFound(race hb.Race) {
	if r.m.held == nil && r.m.failure == nil {
		f := r.raceOf(race)
		f.Step = r.m.step
		r.m.held = f
	}
}

// raceOf is race's failure.
func (r *Run) raceOf(race hb.Race) *Failure {
	f := &Failure{Kind: Race, Task: race.Later.Task, PC: uintptr(race.Later.Loc), Message: r.describeRace(race)}
	if r.cur != nil && r.cur.ID == race.Later.Task && race.Later.Event == r.m.lastStep() {
		f.Stack = string(debug.Stack())
	}
	return f
}

// describeRace names the two accesses of a race.
func (r *Run) describeRace(race hb.Race) string {
	a, b := race.Earlier, race.Later
	return fmt.Sprintf("data race on %s: %s %s at %s, unordered with %s's %s at %s (step %d): no synchronisation orders the two",
		r.raceObject(race.Key), r.m.task(b.Task).Name, accessName(b), Where(uintptr(b.Loc)),
		r.m.task(a.Task).Name, accessName(a), Where(uintptr(a.Loc)), r.stepOf(a.Event))
}

// LocationName, set by package rt, returns the name of the plain-memory
// location res of r's schedule: the expression of its first access in the
// schedule ("c.m"), "" if it has none.
var LocationName func(r *Run, res uint32) string

// raceObject names a race's location: by the expression the code accessed
// it with, location#N without one.
func (r *Run) raceObject(key uint64) string {
	if key < 1<<32 {
		if LocationName != nil {
			if n := LocationName(r, uint32(key)); n != "" {
				return n
			}
		}
		return fmt.Sprintf("location#%d", key)
	}
	return fmt.Sprintf("waitgroup#%d", key>>32)
}

func accessName(a hb.RaceAccess) string {
	w := 0
	if a.Write {
		w = 1
	}
	if int(a.What) < len(raceLabels) && a.What != 0 {
		return raceLabels[a.What][w]
	}
	return [2]string{"read", "write"}[w]
}

// stepOf returns the step number of event i (steps count from 1).
func (r *Run) stepOf(i int) int {
	n, rec := 0, r.m.recorder()
	for j := 0; j <= i; j++ {
		if rec.At(j).IsStep() {
			n++
		}
	}
	return n
}

// AddrKey returns the RaceSync key of a synchronisation object known by its
// address (kept alive by its owner while the run lasts). Its top bit keeps
// it apart from the keys csync makes of resource numbers.
func AddrKey(p unsafe.Pointer) uint64 { return uint64(uintptr(p)) | 1<<63 }
