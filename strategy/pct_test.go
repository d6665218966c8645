package strategy_test

import (
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

func TestPCTName(t *testing.T) {
	if got := strategy.NewPCT(3, 0).Name(); got != "pct:3" {
		t.Errorf("Name = %q", got)
	}
	if got := strategy.NewPCT(2, 50).Name(); got != "pct:2:50" {
		t.Errorf("Name = %q", got)
	}
}

// Without change points (d = 1), PCT runs the highest-priority task until it
// has nothing enabled, and each of n tasks is the highest with probability 1/n.
func TestPCTDepth1RunsTasksToCompletion(t *testing.T) {
	p := prog{ops(3, w(1)), ops(3, w(1)), ops(3, w(1))}
	s := strategy.NewPCT(1, 0)
	const n = 6000
	firsts := make([]int, 3)
	for seed := uint64(1); seed <= n; seed++ {
		order, _, _ := run(s, p, seed)
		for i := 1; i < len(order); i++ {
			if order[i] != order[i-1] && i%3 != 0 {
				t.Fatalf("seed %d: order %v switches task before it finished", seed, order)
			}
		}
		firsts[order[0]]++
	}
	for _, c := range firsts {
		near(t, "task first", float64(c)/n, 1.0/3, n)
	}
}

// A change point at step c lowers the task that ran step c below all others.
func TestPCTChangePoint(t *testing.T) {
	p := prog{ops(4, w(1)), ops(4, w(1))}
	s := strategy.NewPCT(2, 1) // k = 1: the only change point is step 1
	for seed := uint64(1); seed <= 200; seed++ {
		order, _, _ := run(s, p, seed)
		a, b := order[0], 1-order[0]
		want := []int32{a, b, b, b, b, a, a, a}
		if !slices.Equal(order, want) {
			t.Fatalf("seed %d: order %v, want %v", seed, order, want)
		}
	}
	// Two change points at steps 1 and 2 (d = 3, k = 2) happen with
	// probability 1/4 (k1 = 1, k2 = 2); then the first task resumes after one
	// step of the second (-1 > -2).
	s = strategy.NewPCT(3, 2)
	const n = 8000
	f := freq(s, p, n, func(o []int32) bool {
		a, b := o[0], 1-o[0]
		return slices.Equal(o, []int32{a, b, a, a, a, b, b, b})
	})
	near(t, "change points at 1 then 2", f, 1.0/4, n)
}

// A task that appears later takes a uniformly random rank among the others,
// as if all priorities had been drawn at the start.
func TestPCTNewTaskRank(t *testing.T) {
	// Task 0 is enabled all along; task 1 only after task 2 finished its
	// single op. With d = 1, task 1 preempts task 0 iff task 2 ran first and
	// task 1 also ranks above task 0: iff task 0 has the lowest of three
	// priorities, probability 1/3 (not 1/2 · 1/2: the ranks are not
	// independent).
	p := prog{ops(5, w(1)), {tOp{res: 1, wait: 3}}, {w(2)}}
	s := strategy.NewPCT(1, 0)
	const n = 8000
	f := freq(s, p, n, func(o []int32) bool {
		at2, at1 := firstAt(o, 2), firstAt(o, 1)
		return at1 == at2+1 && at1 < len(o)-1
	})
	near(t, "new task preempts", f, 1.0/3, n)
}

func TestPCTBoundEstimate(t *testing.T) {
	s := strategy.NewPCT(3, 0)
	if b := s.Bound(); b != strategy.DefaultPCTSteps {
		t.Fatalf("Bound before any iteration = %d", b)
	}
	run(s, prog{ops(4, w(1)), ops(3, w(1))}, 1)
	if b := s.Bound(); b != 7 {
		t.Fatalf("Bound after a 7-step iteration = %d, want 7", b)
	}
	run(s, prog{ops(2, w(1))}, 1)
	if b := s.Bound(); b != 7 {
		t.Fatalf("Bound after a shorter iteration = %d, want the maximum 7", b)
	}
	if b := strategy.NewPCT(3, 40).Bound(); b != 40 {
		t.Fatalf("fixed Bound = %d", b)
	}
}

func TestStrategiesAreDeterministic(t *testing.T) {
	p := prog{ops(4, w(1)), {w(2), r(1), w(1), tOp{res: 3, choose: 5}}, {r(1), r(2), tOp{choose: 3}}}
	for _, name := range []string{"random", "pct:3", "pct:2:8", "pos", "pos*", "pos*-noreads", "rapos"} {
		a, _ := strategy.Parse(name)
		b, _ := strategy.Parse(name)
		distinct := map[string]bool{}
		for seed := uint64(1); seed <= 50; seed++ {
			o1, c1, _ := run(a, p, seed)
			o2, c2, _ := run(b, p, seed)
			if !slices.Equal(o1, o2) || !slices.Equal(c1, c2) {
				t.Fatalf("%s, seed %d: %v %v and %v %v", name, seed, o1, c1, o2, c2)
			}
			distinct[fmtOrder(o1, c1)] = true
		}
		if len(distinct) < 5 {
			t.Errorf("%s: only %d distinct schedules in 50 seeds", name, len(distinct))
		}
	}
}

func fmtOrder(o []int32, c []int) string {
	b := make([]byte, 0, len(o)+len(c))
	for _, x := range o {
		b = append(b, byte('0'+x))
	}
	for _, x := range c {
		b = append(b, byte('a'+x))
	}
	return string(b)
}
