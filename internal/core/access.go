package core

import (
	"fmt"
	"runtime/debug"
	"unsafe"

	"github.com/morpheus-go/morpheus/trace"
)

// Access runs the op of a plain-memory access of t to the location res
// (a resource the caller keeps per address): a read op, or a write op. The
// step is a scheduling point like any other, so strategies interleave
// goroutines at plain memory, and conflict analysis and POS* see two reads
// commute. Unless the configuration allows races, the access is then
// checked for a data race against the earlier accesses of other tasks to
// the location; a race fails the iteration with a Race failure naming both
// accesses, before the access is made.
func (r *Run) Access(t *Task, res uint32, write bool, pc uintptr) {
	kind := trace.KindMemRead
	if write {
		kind = trace.KindMemWrite
	}
	r.Do(t, Op{Kind: kind, Res: res, Read: !write, Obj: -1, PC: pc})
	if r.cfg.AllowRaces {
		return
	}
	if race, ok := r.race.check(r); ok {
		r.fail(&Failure{Kind: Race, Task: t.ID, PC: pc, Stack: string(debug.Stack()), Message: r.describeRace(race)})
		panic(unwind{})
	}
}

// RaceSync records that task acquires and releases the synchronisation
// object key at the step that runs now (see trace.Races.Sync): the edges of
// Go's memory model that the trace's events do not carry, such as a
// buffered channel's slots. Notes are kept whether or not the run checks
// races, since the detector starts at the first plain-memory access and
// walks the run from its beginning.
func (r *Run) RaceSync(task int32, key uint64) {
	r.race.notes = append(r.race.notes, raceNote{at: r.last, task: task, key: key})
}

// raceState is a run's data-race detection: the detector, fed lazily.
type raceState struct {
	det   trace.Races
	notes []raceNote // RaceSync calls, in order
	next  int        // notes applied
}

type raceNote struct {
	at   int // the event index of the step it belongs to
	task int32
	key  uint64
}

func (s *raceState) reset() {
	s.det.Reset()
	s.notes = s.notes[:0]
	s.next = 0
}

// check steps the detector through the events recorded since it last
// ran, up to the step that runs now, and returns the race of that step.
// Each note is applied after the event it belongs to; a note recorded once
// its event was walked (a Once's f returns after its last access was
// checked) is applied before the next event.
func (s *raceState) check(r *Run) (trace.Race, bool) {
	var race trace.Race
	found := false
	for i := s.det.Stepped(); i <= r.last; i++ {
		s.apply(i - 1)
		race, found = s.det.Step(r.rec.At(i))
		s.apply(i)
	}
	return race, found
}

// apply applies the notes of the events up to i.
func (s *raceState) apply(i int) {
	for s.next < len(s.notes) && s.notes[s.next].at <= i {
		n := s.notes[s.next]
		s.det.Sync(n.task, n.key)
		s.next++
	}
}

// describeRace names the two accesses of a race.
func (r *Run) describeRace(race trace.Race) string {
	a, b := r.rec.At(race.Earlier), r.rec.At(race.Later)
	return fmt.Sprintf("data race on location#%d: %s %s at %s, unordered with %s's %s at %s (step %d): no synchronisation orders the two",
		race.Res, r.tasks[b.Task].Name, accessVerb(b.Kind), Where(uintptr(b.Loc)),
		r.tasks[a.Task].Name, accessNoun(a.Kind), Where(uintptr(a.Loc)), r.stepOf(race.Earlier))
}

func accessVerb(k trace.Kind) string {
	if k == trace.KindMemWrite {
		return "writes"
	}
	return "reads"
}

func accessNoun(k trace.Kind) string {
	if k == trace.KindMemWrite {
		return "write"
	}
	return "read"
}

// stepOf returns the step number of event i (steps count from 1).
func (r *Run) stepOf(i int) int {
	n := 0
	for j := 0; j <= i; j++ {
		if r.rec.At(j).IsStep() {
			n++
		}
	}
	return n
}

// AddrKey returns the RaceSync key of a synchronisation object known by its
// address (kept alive by its owner while the run lasts). Its top bit keeps
// it apart from the keys csync makes of resource numbers.
func AddrKey(p unsafe.Pointer) uint64 { return uint64(uintptr(p)) | 1<<63 }
