package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/internal/opkind"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// walk returns the ids in s in the order all yields them.
func (s *pendingSet) walk() []int32 { return slices.Collect(s.all()) }

// Random adds and removes against a map: the walk visits exactly the ids
// in the set, in ascending order, and the summary marks exactly the
// non-zero words; reset empties both.
func TestPendingSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s pendingSet
	for round := range 4 {
		n := []int32{10, 70, 5000, 300_000}[round]
		in := map[int32]bool{}
		for range 20_000 {
			id := rng.Int32N(n)
			if in[id] {
				s.remove(id)
				delete(in, id)
			} else {
				s.fit(id)
				s.add(id)
				in[id] = true
			}
		}
		var want []int32
		for id := range in {
			want = append(want, id)
		}
		slices.Sort(want)
		if got := s.walk(); !slices.Equal(got, want) {
			t.Fatalf("ids below %d: walk gives %d ids, want %d (or another order)", n, len(got), len(want))
		}
		for i, w := range s.words {
			if (w != 0) != (s.sum[i>>6]>>(i&63)&1 == 1) {
				t.Fatalf("ids below %d: word %d is %#x but its summary bit is %d", n, i, w, s.sum[i>>6]>>(i&63)&1)
			}
		}
		s.reset()
		if len(s.walk()) != 0 || len(s.words) != 0 || len(s.sum) != 0 {
			t.Fatal("reset left ids")
		}
	}
}

// collect offers the enabled ops in ascending task ids, as the set's walk
// yields them, whether the ids fit one word (collect's inline loop) or lie
// among thousands, densely or far apart (walk, skipping zero words through
// the summary); and with localFirst it returns the first local op.
func TestCollectOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ n, one int }{{5, 2}, {64, 8}, {65, 8}, {300, 8}, {300, 100}, {9000, 8}, {9000, 300}} {
		n := c.n
		var m machine
		m.reset(Config{Strategy: &scriptStrategy{}})
		m.main = m.spawn(nil, "main", NameKey("main"))
		for i := 1; i < n; i++ {
			m.spawn(m.main, "g", uint64(i))
		}
		for _, task := range m.tasks {
			if rng.IntN(c.one) != 0 { // leave about one task in c.one enabled: words of none among them
				m.unpend(task, taskRunning)
			}
		}
		want := m.pending.walk()
		if _, ok := m.collect(false); !ok && len(want) > 0 {
			t.Fatalf("%d tasks: collect found nothing enabled", n)
		}
		var got []int32
		for i, op := range m.enabled {
			if m.enabledT[i].ID != op.Task {
				t.Fatalf("%d tasks: enabled op %d is task %d's, its task is %d", n, i, op.Task, m.enabledT[i].ID)
			}
			got = append(got, op.Task)
		}
		if !slices.Equal(got, want) || !slices.IsSorted(got) {
			t.Fatalf("%d tasks: collect offers tasks %v, want %v", n, got, want)
		}
		if len(want) > 0 {
			if local, _ := m.collect(true); local == nil || local.ID != want[0] {
				t.Fatalf("%d tasks: the first local op is task %d's, collect returns %v", n, want[0], local)
			}
		}
	}
}

// With more than 64 tasks collect keeps the enabled set from step to step
// (enabledcache.go): after any sequence of tasks enabled, disabled and
// re-posted with other ops, the set it presents is, entry for entry, the one
// a rebuild from the pending set gives, and its first local op is the
// rebuild's. Each size is a chain of steps of its own, run in parallel
// (under -race a step of 5000 tasks is slow: three chains of 1000 steps
// rather than one of 3000).
func TestEnabledCache(t *testing.T) {
	for _, c := range []struct{ n, steps, chains int }{{65, 3000, 1}, {300, 3000, 1}, {5000, 1000, 3}} {
		for chain := range c.chains {
			t.Run(fmt.Sprintf("%d-tasks-%d", c.n, chain), func(t *testing.T) {
				t.Parallel()
				enabledCacheChain(t, c.n, c.steps, rand.New(rand.NewPCG(5, 6+uint64(chain))))
			})
		}
	}
}

// enabledCacheChain runs steps steps of n tasks enabled, disabled and
// re-posted at random, checking collect against a rebuild at each.
func enabledCacheChain(t *testing.T, n, steps int, rng *rand.Rand) {
	var m machine
	m.reset(Config{Strategy: &scriptStrategy{}})
	m.main = m.spawn(nil, "main", NameKey("main"))
	for i := 1; i < n; i++ {
		m.spawn(m.main, "g", uint64(i))
	}
	for step := range steps {
		changes := 1 + rng.IntN(3)
		if step%97 == 0 {
			changes = maxDirty + 5 // past what the cache applies one by one
		}
		for range changes {
			task := m.tasks[rng.IntN(len(m.tasks))]
			if task.state == taskNew || task.state == taskEnabled {
				m.unpend(task, taskRunning)
			}
			if rng.IntN(3) != 0 {
				kinds := []trace.Kind{trace.KindChanSend, trace.KindMemRead, trace.KindStart}
				m.post(task, &Op{Kind: kinds[rng.IntN(len(kinds))], Res: uint32(rng.IntN(2)), PC: uintptr(rng.IntN(5) + 1)})
			}
		}
		var want []strategy.Op
		for id := range m.pending.all() {
			want = append(want, m.entry(m.tasks[id]))
		}
		localFirst := step%2 == 1
		local, ok := m.collect(localFirst)
		if !ok && len(want) > 0 {
			t.Fatalf("%d tasks, step %d: collect found nothing enabled", n, step)
		}
		first := slices.IndexFunc(want, func(op strategy.Op) bool { return opkind.Local(op.Kind, op.Res) })
		if localFirst && first >= 0 {
			if local == nil || local.ID != want[first].Task || !slices.Equal(m.enabled, want[:first]) {
				t.Fatalf("%d tasks, step %d: first local op %v, want task %d", n, step, local, want[first].Task)
			}
			continue
		}
		if local != nil || !slices.Equal(m.enabled, want) {
			t.Fatalf("%d tasks, step %d: collect offers %d ops, a rebuild %d (or they differ)", n, step, len(m.enabled), len(want))
		}
		for i, op := range m.enabled {
			if m.enabledT[i].ID != op.Task {
				t.Fatalf("%d tasks, step %d: enabled op %d is task %d's, its task is %d", n, step, i, op.Task, m.enabledT[i].ID)
			}
		}
	}
}
