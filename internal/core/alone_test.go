package core

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/trace"
)

// loopAlone runs a main task that accesses memory alone for ever, as
// rt.Read does (Alone, and Access when it is a step), with cfg.
func loopAlone(t *testing.T, cfg Config) (Outcome, []Alone) {
	t.Helper()
	w := NewWorker()
	defer w.Close()
	var r *Run
	var seen []Alone
	cfg.Strategy = &first{}
	out := w.Execute(cfg, func(run *Run) { r = run }, func() {
		main := r.Current()
		res := r.NewResource()
		g := r.Spawn(main, "g", 1, func() {})
		seen = append(seen, r.Alone(main)) // g has not run: not alone
		r.Do(main, Op{Kind: trace.KindYield, Obj: -1})
		for g.state != taskDone {
			r.Do(main, Op{Kind: trace.KindYield, Obj: -1})
		}
		for {
			a := r.Alone(main)
			if len(seen) < 2 || a != seen[len(seen)-1] {
				seen = append(seen, a)
			}
			if a != AloneSkip {
				r.Access(main, res, true, 0)
			}
		}
	})
	return out, seen
}

// A task alone runs accesses without steps and comes back to the scheduler
// every aloneRun of them; the accesses count towards no bound (a long
// computation of one goroutine is no livelock), so a loop alone that never
// ends fails at the solo bound in steps, a step per aloneRun accesses, with
// a report that counts its accesses alone. A bound given exactly stops it
// there too.
func TestAloneCountsTowardsNoBound(t *testing.T) {
	out, seen := loopAlone(t, Config{MaxSteps: 100})
	if len(seen) < 3 || seen[0] != AloneNo || seen[1] != AloneSkip || seen[2] != AloneStep {
		t.Errorf("want not alone while g lives, then skips and a step, got %v", seen)
	}
	f := out.Failure
	if f == nil || f.Kind != StepLimit || !strings.Contains(f.Message, "accesses of a task running alone") {
		t.Fatalf("want a step-limit failure counting the accesses alone, got %v", f)
	}
	solo := 100 * HardStepsFactor * SoloStepsFactor
	if out.Steps < solo || out.Steps > solo+20 {
		t.Errorf("%d steps: want the solo bound of %d steps, the accesses alone not counted towards it", out.Steps, solo)
	}
	out, _ = loopAlone(t, Config{MaxSteps: 100, HardSteps: 100})
	if f := out.Failure; f == nil || f.Kind != StepLimit || out.Steps < 100 || out.Steps > 101 {
		t.Fatalf("want a step-limit failure at the given bound of 100 steps, got %d steps, %v", out.Steps, f)
	}
}
