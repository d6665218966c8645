package hb_test

import (
	"math/rand/v2"
	"testing"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// switches counts the context switches of a trace.
func switches(tr *trace.Trace) int {
	n := 0
	for i := 1; i < len(tr.Events); i++ {
		if tr.Events[i].Task != tr.Events[i-1].Task {
			n++
		}
	}
	return n
}

// TestLinearizeSamePartialOrder checks that Linearize gives an order of the
// same partial order with no more context switches.
func TestLinearizeSamePartialOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	fewer := 0
	for round := range 200 {
		tr := poTrace(rng, 2+round%4, 10+rng.IntN(40))
		order := hb.Linearize(tr)
		if len(order) != len(tr.Events) {
			t.Fatalf("round %d: %d tasks for %d steps", round, len(order), len(tr.Events))
		}
		byTask := map[int32][]trace.Event{}
		for _, e := range tr.Events {
			byTask[e.Task] = append(byTask[e.Task], e)
		}
		re := &trace.Trace{Tasks: tr.Tasks}
		for _, task := range order {
			re.Events = append(re.Events, byTask[task][0])
			byTask[task] = byTask[task][1:]
		}
		if hb.PartialOrder(re) != hb.PartialOrder(tr) {
			t.Fatalf("round %d: the linearization is another partial order", round)
		}
		if switches(re) > switches(tr) {
			t.Fatalf("round %d: %d context switches, the trace had %d", round, switches(re), switches(tr))
		}
		if switches(re) < switches(tr) {
			fewer++
		}
	}
	if fewer < 100 {
		t.Fatalf("only %d of 200 linearizations had fewer context switches", fewer)
	}
}
