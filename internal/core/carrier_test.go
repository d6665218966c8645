package core

import "testing"

// TestPoolKeepsWhatIterationsNeed runs iterations whose tasks all wait at
// once (until the iteration ends and unwinds them), so each needs a carrier
// per task: iterations of the same size past
// minIdle reuse the carriers of the one before (none is created), and after
// a burst the pool lets the extra carriers go once two iterations have not
// needed them.
func TestPoolKeepsWhatIterationsNeed(t *testing.T) {
	w := NewWorker()
	defer w.Close()
	iterate := func(n int) {
		t.Helper()
		var r *Run
		out := w.Execute(Config{Strategy: &first{}, AllowLeaks: true}, func(run *Run) { r = run }, func() {
			main := r.Current()
			for i := range n {
				r.Spawn(main, "t", uint64(i+1), func() { r.Do(r.Current(), waitOp) })
			}
		})
		if out.Failure != nil {
			t.Fatalf("%d tasks: %v", n, out.Failure)
		}
		checkPoolIdle(t, w)
	}
	big := minIdle + 100
	iterate(big)
	created := w.pool.all
	if created < big {
		t.Fatalf("an iteration of %d waiting tasks had %d carriers", big, created)
	}
	iterate(big)
	if w.pool.all != created {
		t.Fatalf("the second iteration of %d tasks: %d carriers, want the %d of the first again", big, w.pool.all, created)
	}
	iterate(10) // the burst's carriers are kept through one small iteration
	if w.pool.all != created {
		t.Fatalf("after one small iteration: %d carriers, want %d", w.pool.all, created)
	}
	iterate(10)
	if w.pool.all != minIdle {
		t.Fatalf("after two small iterations: %d carriers, want minIdle (%d)", w.pool.all, minIdle)
	}
}
