package core

import (
	"sync"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// TestCurrentTaskCache checks the carrier cache in front of CurrentTask's
// map: every task sees itself, plain goroutines see no task, and a closed
// worker's carriers leave no slot behind (a later goroutine that gets a
// dead carrier's key must not find its task).
func TestCurrentTaskCache(t *testing.T) {
	w := NewWorker()
	var r *Run
	var mismatch []string
	const n = 50
	out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		for i := range n {
			r.Spawn(r.Current(), "t", uint64(i+1), func() {
				me := r.Current()
				r.Do(me, Op{Kind: trace.KindYield, Obj: -1})
				if CurrentTask() != me {
					mismatch = append(mismatch, me.Name)
				}
			})
		}
		r.Do(r.Current(), Op{Kind: trace.KindYield, Obj: -1})
	})
	if out.Failure != nil {
		t.Fatal(out.Failure)
	}
	if len(mismatch) > 0 {
		t.Fatalf("CurrentTask was another task in %d tasks", len(mismatch))
	}
	w.Close()
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			if CurrentTask() != nil {
				t.Error("a plain goroutine has a task")
			}
		})
	}
	wg.Wait()
	for i := range carrierCache {
		if c := carrierCache[i].Load(); c != nil {
			if _, live := carriers.Load(c.gkey); !live {
				t.Fatalf("slot %d holds a carrier whose goroutine ended", i)
			}
		}
	}
}

// TestGenUnique: iterations of two workers, taking turns past a block of
// numbers, all have distinct numbers, none 0.
func TestGenUnique(t *testing.T) {
	ws := []*Worker{NewWorker(), NewWorker()}
	seen := map[uint64]bool{}
	for i := range 3 * genBlock {
		w := ws[i%2]
		var g uint64
		w.Execute(Config{Strategy: &first{}}, func(r *Run) { g = r.Gen() }, func() {})
		if g == 0 || seen[g] {
			t.Fatalf("iteration %d: Gen %d, zero or seen before", i, g)
		}
		seen[g] = true
	}
	for _, w := range ws {
		w.Close()
	}
}

func TestCurrentTask(t *testing.T) {
	if CurrentTask() != nil {
		t.Fatal("a plain goroutine has a task")
	}
	w := NewWorker()
	defer w.Close()
	var seen []*Task
	var r *Run
	out := w.Execute(Config{Strategy: &first{}}, func(run *Run) { r = run }, func() {
		seen = append(seen, CurrentTask())
		child := r.Spawn(r.Current(), "child", 1, func() { seen = append(seen, CurrentTask()) })
		r.Do(r.Current(), Op{Kind: trace.KindYield, Obj: -1})
		_ = child
	})
	if out.Failure != nil {
		t.Fatal(out.Failure)
	}
	if len(seen) != 2 || seen[0] != r.Task(0) || seen[1] != r.Task(1) || seen[0].Run() != r {
		t.Fatalf("tasks seen: %v", seen)
	}
}

// BenchmarkCurrentTaskOutside is the lookup of code outside control (a
// test on the real network, TestMain) in rewritten packages: every
// plain-memory access there asks it.
func BenchmarkCurrentTaskOutside(b *testing.B) {
	for b.Loop() {
		if CurrentTask() != nil {
			b.Fatal("a plain goroutine has a task")
		}
	}
}
