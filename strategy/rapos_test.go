package strategy_test

import (
	"slices"
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

// TestRAPOSBatches checks RAPOS's batch rule on a program where it differs
// from random walk. Task 0 runs a1, a2; task 1 runs b1; all independent.
// The first batch draws from {a1, b1}: both (probability 1/2, run as a1 b1),
// or a1 alone, after which a2 is new and b1 is old and independent, so a2
// runs before b1 (1/4), or b1 alone (1/4). Random walk gives 1/4, 1/4, 1/2.
func TestRAPOSBatches(t *testing.T) {
	p := prog{{w(1), w(2)}, {w(3)}}
	const n = 20000
	counts := map[string]int{}
	s := strategy.NewRAPOS()
	for seed := uint64(1); seed <= n; seed++ {
		o, _, _ := run(s, p, seed)
		counts[fmtOrder(o, nil)]++
	}
	near(t, "a1 b1 a2", float64(counts["010"])/n, 0.5, n)
	near(t, "a1 a2 b1", float64(counts["001"])/n, 0.25, n)
	near(t, "b1 a1 a2", float64(counts["100"])/n, 0.25, n)
}

// A batch holds only mutually independent ops, and the ops that conflict with
// a batch are schedulable in the next one.
func TestRAPOSConflictingOpsNotBatched(t *testing.T) {
	// Three tasks write resource 1 once: every batch has one op, and every
	// order has probability 1/6... except that after the first op runs, both
	// others conflict with it and are schedulable: 1/3 · 1/2 each.
	p := prog{{w(1)}, {w(1)}, {w(1)}}
	const n = 12000
	counts := map[string]int{}
	s := strategy.NewRAPOS()
	for seed := uint64(1); seed <= n; seed++ {
		o, _, _ := run(s, p, seed)
		counts[fmtOrder(o, nil)]++
	}
	for _, o := range []string{"012", "021", "102", "120", "201", "210"} {
		near(t, o, float64(counts[o])/n, 1.0/6, n)
	}
	// Reads of one resource are independent and may share a batch: the order
	// of the batch is the enabled order, so 0 1 2 is the likeliest.
	p = prog{{r(1)}, {r(1)}, {r(1)}}
	f := freq(s, p, n, func(o []int32) bool { return slices.Equal(o, []int32{0, 1, 2}) })
	if f < 0.3 {
		t.Errorf("three independent reads ran in enabled order with frequency %.3f, want batching", f)
	}
}
