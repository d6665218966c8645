package core

import (
	"fmt"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// TestTaskStates walks tasks through the states of the package doc's
// table on the production path, and checks each where it is reached: a
// goroutine new, running, parked, enabled, killed (on the chain) and done;
// a timer timed and cancelled; a task that kills itself.
func TestTaskStates(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	var r *Run
	var bad []string
	want := func(what string, tk *Task, s taskState) {
		if tk.state != s {
			bad = append(bad, fmt.Sprintf("%s: %s is in state %d, want %d", what, tk.Name, tk.state, s))
		}
	}
	sleep := func(tk *Task, d int64) {
		r.Do(tk, Op{Kind: trace.KindSleep, Obj: -1, Blocked: true, HasDeadline: true, Deadline: r.Now() + d})
	}
	out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		main := r.Current()
		want("main runs", main, taskRunning)
		g := r.Spawn(main, "g", 1, func() {
			g := r.Current()
			defer func() { want("g unwinds", g, taskKilled) }()
			want("g runs", g, taskRunning)
			r.Do(g, Op{Kind: trace.KindRecv, Obj: -1, Blocked: true}) // parked: main unblocks it, then kills it
		})
		want("spawned", g, taskNew)
		tm := r.SpawnTimer(main, "tm", trace.KindTimer, 5e9, 0, func(*Task) {})
		want("timer", tm, taskTimed)
		sleep(main, 1e9) // g runs and parks; the clock moves to 1s
		want("g waits", g, taskParked)
		r.Unblock(g)
		want("g unblocked", g, taskEnabled)
		r.Cancel(tm)
		want("timer cancelled", tm, taskDone)
		r.Kill(g)
		want("g killed", g, taskDone)
		h := r.Spawn(main, "h", 2, func() {
			h := r.Current()
			defer func() { want("h unwinds", h, taskSelfKilled) }()
			r.Kill(h)
		})
		sleep(main, 1e9) // h runs and kills itself
		want("h after", h, taskDone)
	})
	if out.Failure != nil {
		t.Fatal(out.Failure)
	}
	for _, b := range bad {
		t.Error(b)
	}
	if n := len(r.Tasks()); n != 4 {
		t.Fatalf("%d tasks, want 4", n)
	}
	for _, tk := range r.Tasks() {
		if tk.state != taskDone {
			t.Errorf("after the iteration %s is in state %d", tk.Name, tk.state)
		}
	}
}
