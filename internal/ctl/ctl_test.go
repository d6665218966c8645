package ctl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// run executes body as the main task of one iteration on w.
func run(t *testing.T, w *core.Worker, body func(r *core.Run)) core.Outcome {
	t.Helper()
	var r *core.Run
	return w.Execute(core.Config{Strategy: strategy.NewRandom(), Seed: 1}, func(run *core.Run) { r = run }, func() { body(r) })
}

// Woken tasks leave the queue; WakeOne skips tasks that died; a task pushed
// to the front is woken first.
func TestQueue(t *testing.T) {
	w := core.NewWorker()
	defer w.Close()
	var order []string
	out := run(t, w, func(r *core.Run) {
		var q Queue
		main := r.Current()
		var kids []*core.Task
		for _, name := range []string{"a", "b", "c"} {
			kids = append(kids, r.Spawn(main, name, core.NameKey(name), func() {
				me := r.Current()
				q.Push(me)
				r.Do(me, core.Op{Kind: trace.KindYield, Obj: -1, Blocked: true})
				order = append(order, me.Name)
			}))
		}
		// Let them all block.
		r.Do(main, core.Op{Kind: trace.KindSleep, Obj: -1, Blocked: true, HasDeadline: true, Deadline: 1})
		if q.Len() != 3 {
			t.Errorf("queued %d", q.Len())
		}
		q.Remove(kids[1])
		q.PushFront(kids[1])
		r.Kill(kids[0])                    // dead: skipped
		if !q.WakeOne(r) || q.Len() != 2 { // b woken; a (dead) and c left
			t.Errorf("WakeOne: %d left", q.Len())
		}
		if n := q.WakeAllBlocked(r); n != 1 {
			t.Errorf("WakeAllBlocked woke %d", n)
		}
		if q.WakeOne(r) {
			t.Error("WakeOne of an empty queue")
		}
	})
	if out.Failure != nil {
		t.Fatal(out.Failure)
	}
	if got := strings.Join(order, ","); got != "b,c" && got != "c,b" {
		t.Errorf("woken: %s", got)
	}
}

// Local hands out a fresh value per iteration, and Obj rebinds.
func TestLocalAndObj(t *testing.T) {
	w := core.NewWorker()
	defer w.Close()
	var l Local[int]
	var o Obj
	var seen []string
	for i := range 2 {
		run(t, w, func(r *core.Run) {
			v := l.Get(r, func() *int { n := 10 * (i + 1); return &n })
			*v++
			v2 := l.Get(r, func() *int { panic("not fresh") })
			fresh := o.Bind(r, 0)
			again := o.Bind(r, 0)
			seen = append(seen, fmt.Sprint(*v2, fresh, again, o.Bound(r)))
		})
	}
	if got := strings.Join(seen, " "); got != "11 true false true 21 true false true" {
		t.Errorf("got %s", got)
	}
	o.SetSite(0)
	if s := o.Name("chan"); !strings.HasPrefix(s, "chan#") || !strings.Contains(s, "created at") {
		t.Errorf("name %q", s)
	}
}
