package rt

import "github.com/morpheus-go/morpheus/internal/core"

// Memory one goroutine owns. An access is an op so that the strategy can
// run another goroutine before it, and so that the detector can check it.
// Where no other task has accessed the location yet in the schedule, the
// task's first such access after each op of its own (its start, a sync op,
// an access to shared memory) stays an op, a step: the strategy can run
// other goroutines there, between the op and the task's first effect since
// it. The accesses to memory of its own after that one, until the task's
// next op, are no ops: they are noted for the data-race detector at the
// task's last step (core.Run.AccessOwned), in a new epoch of its clock, as
// exactly as a step would be checked, and a repeat of one (a read after a
// read or a write, a write after a write) adds nothing and is not even
// noted, unless a synchronisation was noted in between. Once a second task
// accesses the location, every access to it is an op again for the rest of
// the schedule.
//
// What the strategy can no longer do is run another goroutine between two
// accesses of that stretch, after the first. Moving such a preemption back
// to the stretch's first access changes nothing another goroutine can see
// through memory under control: between the two, the task touched only
// memory no one else had touched and took no op, so it released nothing,
// and another goroutine that accesses what the task wrote there races with
// it (no op of the task orders the two), which the detector reports in
// either order. Effects outside control (a log on the test's t, a print)
// keep their place after the stretch's first step: a goroutine that builds
// an entry of its own and logs it can still be preempted, before the entry,
// by the test's end. Without that step, a goroutine started (the strategy
// takes a start at once) or woken ran on to its log in the same step.
//
// A cipher's tables (golang.org/x/crypto/blowfish's S-boxes, read some
// eighty times per block, thousands of blocks per bcrypt hash) are such
// memory: as ops, one hash was tens of millions of steps; now it is one
// step per op of the hashing goroutine.
//
// Where races are not checked (-allowraces, or past core.MaxRaceTasks)
// every access is an op, so the interleavings at plain memory stay for
// tests that race on purpose. And a task that reads memory of its own
// ownedRun times without an op or a write of its own is spinning (a loop
// that waits for another goroutine to write what only it has read so far):
// its reads are ops again until it writes or takes an op, so that the
// strategy can run that goroutine, and the step limit bounds the loop as
// before. A computation on memory of its own (a cipher) writes now and
// then, and is not cut; but every ownedRun-th access of a stretch is a
// step again, as a task's that runs alone (core.Alone): the task comes
// back to the scheduler, so that the watchdog sees it move (a loop of a
// million writes to a map of its own is a computation, not a task blocked
// outside control) and the step limit bounds a loop that never ends.

// ownerNone: no single owner, or an atomic access made it known to more
// than its plain accesses show.
const ownerNone int32 = -1

// ownedRun bounds a task's reads of memory of its own without an op or a
// write of its own, and the accesses of a stretch between two steps.
const ownedRun = 1 << 12

// ownedAccess runs t's access of l without an op if t owns l and has
// taken a step at memory of its own since its last op, and reports whether
// it did; else (or if step: the access must come back to the scheduler)
// the access must be an op.
func (s *runState) ownedAccess(r *core.Run, t *core.Task, l *memLoc, write bool, pc uintptr, step bool) bool {
	l.written = l.written || write
	if l.owner != t.ID {
		l.owner = ownerNone
		if !l.unwrittenRead(write) {
			return false
		}
	}
	if step || !r.RacesChecked() {
		return false
	}
	at := r.LastStep()
	if at != s.ownedAt && at != s.ownedStep {
		s.ownedAt, s.ownedReads = at, 0 // an op of the program since
	}
	if at != s.ownedStep {
		return false // the first since the task's last op: a step (access records ownedStep)
	}
	if s.ownedLeft--; s.ownedLeft < 0 {
		return false // a long stretch: a step now and then (access records ownedStep)
	}
	if write {
		s.ownedReads = 0
	} else if s.ownedReads++; s.ownedReads > ownedRun {
		return false // a spin: the access is an op (access records ownedStep)
	}
	if l.owner == t.ID {
		r.RanOwned() // time passes (core's ownedpace.go); not for a read of unwritten memory (unwritten.go)
	}
	noteOwned(r, t, l, write, pc)
	return true
}

// noteOwned notes t's access of l, made after t's last step and no step
// itself, for the detector (core.Run.AccessOwned), unless the detector
// knows of it already: an access of the same kind, or a write, since that
// step with no synchronisation noted in between.
func noteOwned(r *core.Run, t *core.Task, l *memLoc, write bool, pc uintptr) {
	at := r.LastStep()
	if l.at == at && l.mark == r.Noted() && (l.wrote || !write) {
		return // the detector knows of this access since the task's last op
	}
	if l.at != at || l.mark != r.Noted() {
		l.at, l.wrote = at, false
	}
	l.wrote = l.wrote || write
	r.AccessOwned(t, l.res, write, pc)
	l.mark = r.Noted()
}
