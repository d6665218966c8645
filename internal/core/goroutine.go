package core

// What a listing of goroutines (rt.Stack, rt.NumGoroutine) needs of a task.

// Goid returns the goroutine id of the task's carrier, 0 if the task has
// not started (or is runtime-owned: a timer the scheduler fires itself).
func (t *Task) Goid() int64 { return t.goid }

// Owned reports whether the task is runtime-owned: a timer whose action the
// scheduler runs, no goroutine of the program.
func (t *Task) Owned() bool { return t.fire != nil }
