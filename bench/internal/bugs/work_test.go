package bugs_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/bugs"
	"github.com/morpheus-go/morpheus/internal/explore"
)

// Local work adds ops that never race and changes no outcome: every fixed
// variant still passes, and the work shows up in the step count.
func TestWorkKeepsFixedVariantsPassing(t *testing.T) {
	for _, sc := range bugs.All() {
		wk := bugs.WithWork(sc, 8)
		if sc.Name == "storage" {
			if wk.Name != sc.Name {
				t.Errorf("storage lives outside the package, yet WithWork renamed it %q", wk.Name)
			}
			continue
		}
		if wk.Name != sc.Name+"+w8" {
			t.Fatalf("name %q", wk.Name)
		}
		t.Run(wk.Name, func(t *testing.T) {
			t.Parallel()
			run := func(s bugs.Scenario, strat string) *morpheus.Result {
				t.Helper()
				res, err := morpheus.Explore(s.Test(true), append([]morpheus.Option{morpheus.Name(s.Name),
					morpheus.Strategy(strat), morpheus.Iterations(200), morpheus.Seed(5)}, s.Options...)...)
				if err != nil {
					t.Fatal(err)
				}
				if res.Failure != nil {
					t.Fatalf("fixed variant failed under %s:\n%s", strat, res.Failure.Report())
				}
				return res
			}
			run(wk, "pos+ca")
			with, plain := run(wk, "pos"), run(sc, "pos")
			if with.Steps < plain.Steps*2 {
				t.Errorf("work added too few steps: %d with, %d without", with.Steps, plain.Steps)
			}
		})
	}
	if got := bugs.WithWork(bugs.GProc1(), 0).Name; got != "gproc-1" {
		t.Errorf("WithWork(0) renamed the scenario %q", got)
	}
}

// With much local work a prediction can hide its own mistake: in ms-1 the
// shutdown of B runs early in the first iterations (all that work delays the
// add), never races, and is predicted not to conflict, so it always ran at
// once and the bug was never found again. Probe iterations (one in
// eight, strategy.CA's probes, without predictions) let conflict analysis see the race.
func TestWorkProbesFindWhatPredictionsHide(t *testing.T) {
	sc := bugs.WithWork(bugs.MS1(), 32)
	res, err := morpheus.Explore(sc.Test(false), append([]morpheus.Option{morpheus.Name(sc.Name),
		morpheus.Strategy("pos+ca"), morpheus.Iterations(2000), morpheus.Seed(1), explore.CountHits(sc.Hit)},
		sc.Options...)...)
	if err != nil {
		t.Fatal(err)
	}
	if explore.ResultOf(res).Hits == 0 {
		t.Fatalf("pos+ca never found ms-1 with work 32 in %d iterations", res.Iterations)
	}
	if f := res.Failure; !sc.Hit(f.Kind, f.Message) {
		t.Fatalf("first failure is not the bug: %s", f.Report())
	}
}
