package core

import "testing"

// A task of a worker the watchdog gave up on unwinds at its next contact
// with the runtime that is no op (rt's plain-memory accesses check
// Abandoned), not only at its next op: it must not go on touching the
// schedule's state, which is no longer its own.
func TestAbandonedTaskUnwinds(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	w.watch = &watch{} // watched, as Watchdog.Attach makes it
	var r *Run
	before, after := false, false
	w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		before = r.Abandoned()
		w.Abandon()
		if r.Abandoned() {
			r.Unwind()
		}
		after = true
	})
	if before {
		t.Error("a watched worker is abandoned before the watchdog gave up on it")
	}
	if after {
		t.Error("the task ran on past Unwind")
	}
}
