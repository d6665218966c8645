package core

// Computation takes time. Virtual time moves when no task can run, and
// otherwise only through the clock's drift, at a slow machine's pace per
// step (poll.go). An access to memory of the task's own that rt runs
// without an op (its owned rule: a cipher's tables, a buffer being filled)
// is no step, so a computation made of them took no time at all: the 50
// bcrypt hashes of a test (some eighty million such accesses) ran while a
// 10 ms ticker never fired, where go test, let alone go test -race, takes
// long enough for it to fire many times, and a bug that needs the tick
// during the hashing (a goroutine holding a lock the tick's handler wants)
// could not show in any schedule. Such accesses now count towards the
// drift: ownedPace of them as one step, a few nanoseconds each at the
// drift's pace, about what they cost under go test -race. They count
// towards nothing else (the step limit and the other bounds count steps
// only, as they do for accesses run alone: alone.go), and the
// drift moves the clock, as ever, at a step, by at most its span, never
// past the nearest deadline and only while one is pending: a test with no
// timer reads the same times as before. Whether an access is no op is a
// function of the schedule's steps, so a replay counts the same accesses
// and moves the clock at the same steps.

// ownedPace is how many accesses to memory of a task's own count as one
// step towards the clock's drift.
const ownedPace = 16

// RanOwned counts an access to memory of t's own that runs without an op
// (rt's owned rule) towards the clock's drift (ownedPace), from the next
// decision on. t is the running task.
func (r *Run) RanOwned() { r.m.ownedDue++ }

// countOwned counts the accesses to memory of a task's own since the last
// step (ownedDue), ownedPace to a step, towards the drift (decide calls it).
func (m *machine) countOwned() {
	n := m.ownedDue / ownedPace
	m.ownedDue -= n * ownedPace
	m.driftAt -= n
	m.checkAt = min(m.limitAt, m.driftAt)
}
