package core

import (
	"runtime"
	"testing"
	"weak"

	"github.com/morpheus-go/morpheus/trace"
)

// TestNoRetentionAcrossIterations checks that an iteration's world is garbage
// two iterations later: nothing a worker reuses (task slabs, buffers) may
// link one iteration's world to the next. The world here holds all its
// tasks and each task the world, as an actor system's does. With nine tasks
// an iteration (the main task and eight) every iteration would leave part
// of a slab chunk to the next if chunks were carried over, which chained
// every iteration's world to the one before.
func TestNoRetentionAcrossIterations(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	type world struct {
		tasks []*Task
		_     [1 << 10]byte // big enough to be an allocation of its own
	}
	var worlds []weak.Pointer[world]
	for i := range 8 {
		var r *Run
		wd := &world{}
		worlds = append(worlds, weak.Make(wd))
		out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
			for k := range 8 {
				c := r.Spawn(r.Current(), "t", uint64(k+1), func() {
					r.Do(r.Current(), Op{Kind: trace.KindYield, Obj: -1})
				})
				c.Ext = wd
				wd.tasks = append(wd.tasks, c)
			}
			r.Do(r.Current(), Op{Kind: trace.KindYield, Obj: -1})
		})
		if out.Failure != nil {
			t.Fatal(out.Failure)
		}
		if i >= 2 {
			runtime.GC()
			if worlds[i-2].Value() != nil {
				t.Fatalf("iteration %d's world is still reachable after iteration %d", i-2, i)
			}
		}
	}
}
