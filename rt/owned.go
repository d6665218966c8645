package rt

import "github.com/morpheus-go/morpheus/internal/core"

// Memory one goroutine owns. An access is an op so that the strategy can
// run another goroutine before it, and so that the detector can check it.
// Where no other task has accessed the location yet in the schedule, no
// other task's access can be ordered before it by a preemption here that a
// preemption at the task's last op could not order as well: what the task
// did since that op touched only locations of its own, or was an op.
// So such an access is not an op: it is noted for the data-race detector
// at the task's last op, with that op's clock (core.Run.AccessOwned), as
// exactly as a step would be checked, and a repeat of it before the task's
// next op (a read after a read or a write, a write after a write) adds
// nothing and is not even noted, unless a synchronisation was noted in
// between. Once a second task accesses the location,
// every access to it is an op again for the rest of the schedule. A race
// between the owner's accesses and the other task's is found as before: the
// owner's accesses are in the detector. What is lost is only the order of
// racing accesses that no op separates: the race itself is reported.
//
// A cipher's tables (golang.org/x/crypto/blowfish's S-boxes, read some
// eighty times per block, thousands of blocks per bcrypt hash) are such
// memory: as ops, one hash was tens of millions of steps.
//
// Where races are not checked (-allowraces, or past core.MaxRaceTasks)
// every access is an op, so the interleavings at plain memory stay for
// tests that race on purpose. And a task that reads memory of its own
// ownedRun times without an op or a write of its own is spinning (a loop
// that waits for another goroutine to write what only it has read so far):
// its reads are ops again until it writes or takes an op, so that the
// strategy can run that goroutine, and the step limit bounds the loop as
// before. A computation on memory of its own (a cipher) writes now and
// then, and is not cut.

// ownerNone: no single owner, or an atomic access made it known to more
// than its plain accesses show.
const ownerNone int32 = -1

// ownedRun bounds a task's reads of memory of its own without an op or a
// write of its own.
const ownedRun = 1 << 12

// ownedAccess runs t's access of l without an op if t owns l, and reports
// whether it did, and whether it changed l; else the access must be an op.
func (s *runState) ownedAccess(r *core.Run, t *core.Task, l *memLoc, write bool, pc uintptr) (owned, changed bool) {
	if l.owner != t.ID {
		changed = l.owner != ownerNone
		l.owner = ownerNone
		return false, changed
	}
	if !r.RacesChecked() {
		return false, false
	}
	if at := r.LastStep(); at != s.ownedAt && at != s.spinStep {
		s.ownedAt, s.ownedReads = at, 0 // an op of the program since
	}
	if write {
		s.ownedReads = 0
	} else if s.ownedReads++; s.ownedReads > ownedRun {
		return false, false // a spin: the access is an op (access records spinStep)
	}
	at := r.LastStep()
	if l.at == at && l.mark == r.Noted() && (l.wrote || !write) {
		return true, false // the detector knows of this access since the task's last op
	}
	if l.at != at || l.mark != r.Noted() {
		l.at, l.wrote = at, false
	}
	l.wrote = l.wrote || write
	r.AccessOwned(t, l.res, write, pc)
	l.mark = r.Noted()
	return true, true
}
