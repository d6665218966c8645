package core

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// waitOp is a blocked op: the task waits until another unblocks it.
var waitOp = Op{Kind: trace.KindRecv, Obj: -1, Blocked: true}

// checkPoolIdle fails the test unless every carrier of w is back in its
// pool: no task of the iteration kept one.
func checkPoolIdle(t *testing.T, w *Worker) {
	t.Helper()
	if w.pool.all != len(w.pool.idle) {
		t.Errorf("%d carriers, %d idle after the iteration", w.pool.all, len(w.pool.idle))
	}
}

// TestHandoffRing passes a token around rings of tasks, longer and shorter
// than the chain of direct resumes may grow, and checks that every task
// runs in turn, that the chain never grows past maxChain, and that the
// iteration ends cleanly (every carrier back in the pool).
func TestHandoffRing(t *testing.T) {
	for _, n := range []int{2, 3, maxChain, maxChain + 1, 3*maxChain + 2} {
		w := NewWorker()
		var r *Run
		var order []int
		deepest := 0
		const rounds = 5
		out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
			main := r.Current()
			ring := make([]*Task, n)
			for i := range ring {
				ring[i] = r.Spawn(main, "t", uint64(i+1), func() {
					me := r.Current()
					if i == n-1 {
						r.Unblock(ring[0]) // the others started first and wait
					}
					for round := range rounds {
						r.Do(me, waitOp)
						deepest = max(deepest, r.depth)
						order = append(order, i)
						if i == n-1 && round == rounds-1 {
							r.Unblock(main)
						} else {
							r.Unblock(ring[(i+1)%n])
						}
					}
				})
			}
			r.Do(main, waitOp)
		})
		if out.Failure != nil {
			t.Fatalf("ring of %d: %v", n, out.Failure)
		}
		want := make([]int, 0, n*rounds)
		for range rounds {
			for i := range n {
				want = append(want, i)
			}
		}
		if !slices.Equal(order, want) {
			t.Fatalf("ring of %d: tasks ran in the order %v, want %v", n, order, want)
		}
		if deepest == 0 {
			t.Errorf("ring of %d: no task resumed another directly", n)
		}
		if deepest > maxChain {
			t.Errorf("ring of %d: the chain grew to %d tasks, past %d", n, deepest, maxChain)
		}
		checkPoolIdle(t, w)
		w.Close()
	}
}

// TestHandoffKillChained kills a task that waits on the chain below its
// killer (it resumed the killer directly): the victim must unwind at once,
// its deferred calls running before the killer goes on, and the iteration
// must go on normally afterwards.
func TestHandoffKillChained(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	var r *Run
	var log []string
	chained := false
	out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		main := r.Current()
		victim := r.Spawn(main, "victim", 1, func() {
			defer func() { log = append(log, "victim's deferred call") }()
			r.Do(r.Current(), waitOp) // nothing else can run but the killer: resumed directly
			log = append(log, "victim resumed")
		})
		r.Spawn(main, "killer", 2, func() {
			chained = victim.carrier != nil && victim.carrier.chained
			r.Kill(victim)
			log = append(log, "killer goes on")
			r.Do(r.Current(), Op{Kind: trace.KindYield, Obj: -1})
			r.Unblock(main)
		})
		r.Do(main, waitOp)
		log = append(log, "main resumed")
	})
	if out.Failure != nil {
		t.Fatal(out.Failure)
	}
	if !chained {
		t.Fatal("the victim was not chained when killed: the test no longer covers that path")
	}
	want := []string{"victim's deferred call", "killer goes on", "main resumed"}
	if !slices.Equal(log, want) {
		t.Fatalf("order of events %q, want %q", log, want)
	}
	checkPoolIdle(t, w)
}

// TestHandoffFailWhileChained ends the iteration with a failure while tasks
// wait on the chain: control must come back to the worker, which unwinds
// every task (their deferred calls run) and reports the failure.
func TestHandoffFailWhileChained(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	var r *Run
	unwound, depth := 0, 0
	const n = maxChain + 2
	out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		main := r.Current()
		ring := make([]*Task, n)
		for i := range ring {
			ring[i] = r.Spawn(main, "t", uint64(i+1), func() {
				defer func() { unwound++ }()
				if i == n-1 {
					r.Unblock(ring[0]) // the others started first and wait
				}
				r.Do(r.Current(), waitOp)
				if i == n-1 {
					depth = r.depth
					r.Fail(Assertion, 0, "boom")
				}
				r.Unblock(ring[i+1])
				r.Do(r.Current(), waitOp)
			})
		}
		r.Do(main, waitOp)
	})
	if out.Failure == nil || out.Failure.Message != "boom" {
		t.Fatalf("failure %v, want boom", out.Failure)
	}
	if depth < 2 {
		t.Fatalf("%d tasks chained at the failure: the test no longer covers that case", depth)
	}
	if unwound != n {
		t.Fatalf("%d tasks unwound, want %d", unwound, n)
	}
	checkPoolIdle(t, w)
}

// TestHandoffGoexitChained has a task call runtime.Goexit while the task that
// resumed it waits on the chain: as in Go, the Goexit ends that task only.
// Its deferred calls run under control (an op among them), its exit op
// runs, the tasks it unblocked go on, and the iteration ends without a
// failure, its carriers back in the pool but the dead one.
func TestHandoffGoexitChained(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	var r *Run
	depth := -1
	deferred, after := 0, 0
	var exiter *Task
	out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		main := r.Current()
		var waiter *Task
		exiter = r.Spawn(main, "exiter", 1, func() {
			me := r.Current()
			defer func() {
				r.Do(me, Op{Kind: trace.KindSend, Obj: -1}) // an op during the Goexit
				deferred++
				r.Unblock(waiter)
				r.Unblock(main)
			}()
			r.Do(me, waitOp)
			depth = r.depth
			runtime.Goexit()
		})
		waiter = r.Spawn(main, "waiter", 2, func() {
			r.Unblock(exiter)         // it started first and waits
			r.Do(r.Current(), waitOp) // resumes the exiter directly
			after++
		})
		r.Do(main, waitOp)
		after++
	})
	if w.Goexited() != nil {
		t.Fatal("the Goexit ended the worker's goroutine")
	}
	if out.Failure != nil {
		t.Fatalf("a legal Goexit failed the iteration: %v", out.Failure)
	}
	if depth < 1 {
		t.Fatalf("%d tasks chained at the Goexit: the test no longer covers that case", depth)
	}
	if deferred != 1 || after != 2 || !exiter.Done() {
		t.Fatalf("deferred calls %d, tasks that went on %d, exiter done %v", deferred, after, exiter.Done())
	}
	exits := 0
	for _, e := range out.Trace().Events {
		if e.Kind == trace.KindExit {
			exits++
		}
	}
	if exits != 3 {
		t.Errorf("%d exit ops, want 3 (the exiter's among them)", exits)
	}
	checkPoolIdle(t, w)
}

// TestGoexitMain has the main task call runtime.Goexit: its deferred calls
// run, the iteration fails as go test fails such a test, at the line of the
// call, and the worker goes on to the next iteration.
func TestGoexitMain(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	var r *Run
	deferred := false
	for range 2 {
		out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
			defer func() { deferred = true }()
			r.Spawn(r.Current(), "child", 1, func() { r.Do(r.Current(), waitOp) })
			runtime.Goexit()
		})
		f := out.Failure
		if w.Goexited() != nil || f == nil || !deferred {
			t.Fatalf("goexited %v, failure %v, deferred %v", w.Goexited() != nil, f, deferred)
		}
		if f.Kind != Panic || !strings.Contains(f.Message, "test executed panic(nil) or runtime.Goexit") ||
			!strings.Contains(Where(f.PC), "handoff_test.go:") {
			t.Fatalf("failure %s at %s: %s", f.Kind, Where(f.PC), f.Message)
		}
	}
	checkPoolIdle(t, w)
}

// TestGoexitWhileKilled has a task whose deferred call calls runtime.Goexit
// while the teardown unwinds it: the iteration ends as it would without
// the Goexit, and the worker goes on.
func TestGoexitWhileKilled(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	var r *Run
	for range 2 {
		out := w.Execute(Config{Strategy: &first{}, AllowLeaks: true}, func(run *Run) { r = run }, func() {
			r.Spawn(r.Current(), "stuck", 1, func() {
				defer runtime.Goexit()
				r.Do(r.Current(), waitOp)
			})
			r.Do(r.Current(), Op{Kind: trace.KindYield, Obj: -1})
		})
		if w.Goexited() != nil || out.Failure != nil {
			t.Fatalf("goexited %v, failure %v", w.Goexited() != nil, out.Failure)
		}
	}
	checkPoolIdle(t, w)
}
