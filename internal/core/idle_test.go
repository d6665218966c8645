package core

import (
	"strconv"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// TestWaitIdle has the main task wait, with WaitIdle, while another task
// takes steps, blocks, and is woken by a timer: the wait returns only when
// the other is blocked, before the clock moves on, every time.
func TestWaitIdle(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	var r *Run
	var seen []string
	out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		main := r.Current()
		var other *Task
		other = r.Spawn(main, "other", 1, func() {
			for range 3 {
				r.Do(other, Op{Kind: trace.KindYield, Obj: -1})
			}
			r.Do(other, Op{Kind: trace.KindSleep, Obj: -1, Blocked: true, HasDeadline: true, Deadline: 1e9})
			r.Do(other, Op{Kind: trace.KindYield, Obj: -1})
		})
		r.WaitIdle(main, 0)
		seen = append(seen, idleState(r, other))
		r.WaitIdle(main, 0)
		seen = append(seen, idleState(r, other))
		r.Do(main, Op{Kind: trace.KindSleep, Obj: -1, Blocked: true, HasDeadline: true, Deadline: 2e9})
		r.WaitIdle(main, 0)
		seen = append(seen, idleState(r, other))
	})
	if out.Failure != nil {
		t.Fatal(out.Failure)
	}
	want := []string{"blocked at 0", "blocked at 0", "done at 2000000000"}
	if len(seen) != len(want) {
		t.Fatalf("seen %q, want %q", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("seen %q, want %q", seen, want)
		}
	}
}

func idleState(r *Run, t *Task) string {
	s := "running"
	switch {
	case t.Done():
		s = "done"
	case t.op.Blocked:
		s = "blocked"
	}
	return s + " at " + strconv.FormatInt(r.Now(), 10)
}

// TestWidenClockLimit: a main task that sleeps past the clock limit fails,
// unless a synctest bubble widened it.
func TestWidenClockLimit(t *testing.T) {
	for _, widen := range []bool{false, true, true} {
		w := NewWorker()
		var r *Run
		out := w.Execute(Config{Strategy: &first{}, ClockLimit: 60e9}, func(run *Run) { r = run }, func() {
			if widen {
				r.WidenClockLimit()
				r.WidenClockLimit() // once is enough
			}
			r.Do(r.Current(), Op{Kind: trace.KindSleep, Obj: -1, Blocked: true, HasDeadline: true, Deadline: 3600e9})
		})
		w.Close()
		if failed := out.Failure != nil; failed == widen || (failed && out.Failure.Kind != ClockLimit) {
			t.Fatalf("widened %v: failure %v", widen, out.Failure)
		}
		if widen && r.m.clockLimit() != 60e9*BubbleClockLimit {
			t.Fatalf("limit %d", r.m.clockLimit())
		}
	}
}
