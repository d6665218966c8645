package morpheus_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/internal/mtest"
	"github.com/morpheus-go/morpheus/internal/systems/storage"
	"github.com/morpheus-go/morpheus/trace"
)

// shrinkCase is a real failing test to shrink.
type shrinkCase struct {
	name string
	test func(*morpheus.Env)
	opts []morpheus.Option
	// shorter: shrinking must find fewer steps (known to be possible)
	shorter bool
}

func shrinkCases(t *testing.T) []shrinkCase {
	cs := []shrinkCase{{
		name:    "storage-bugA",
		test:    storage.Test(storage.Config{FixReset: true}),
		opts:    []morpheus.Option{morpheus.ClockLimit(time.Minute), morpheus.Iterations(3000)},
		shorter: true,
	}}
	cs = append(cs,
		shrinkCase{name: "wronglock", test: mtest.WrongLock(false), opts: []morpheus.Option{morpheus.Iterations(3000), morpheus.Strategy("random")}},
		shrinkCase{name: "handoff", test: mtest.HandOff(false), opts: []morpheus.Option{morpheus.Iterations(3000), morpheus.Strategy("random")}})
	return cs
}

// TestShrinkRealBugs shrinks the failures of real examples: the shrunk
// failure is shorter, fails the same way, and its trace replays strictly to
// the same failure; shrinking again gives the same bytes.
func TestShrinkRealBugs(t *testing.T) {
	for _, sc := range shrinkCases(t) {
		t.Run(sc.name, func(t *testing.T) {
			// No wall-clock budget: shrinking twice must give the same bytes on a
			// busy machine too.
			opts := append([]morpheus.Option{morpheus.Name(sc.name), morpheus.Seed(7), morpheus.Workers(2), morpheus.ShrinkTime(time.Hour)}, sc.opts...)
			orig, err := morpheus.Explore(sc.test, append(opts, morpheus.Shrink(0))...)
			if err != nil || orig.Failure == nil {
				t.Fatalf("no failure to shrink: %v", err)
			}
			res, err := morpheus.Explore(sc.test, opts...)
			if err != nil {
				t.Fatal(err)
			}
			f, o := res.Failure, orig.Failure
			if f == nil || f.Shrink == nil {
				t.Fatalf("failure not shrunk: %+v", f)
			}
			t.Logf("%s: %d -> %d steps, %d candidates, %d accepted", sc.name, o.Steps, f.Steps, f.Shrink.Candidates, f.Shrink.Accepted)
			if f.Shrink.OriginalSteps != o.Steps || f.Steps > o.Steps || f.Steps == o.Steps && sc.shorter {
				t.Errorf("shrunk from %d (recorded %d) to %d steps", o.Steps, f.Shrink.OriginalSteps, f.Steps)
			}
			// The shrunk failure is the Best-th candidate: a search cut
			// right after it ends with it (a replay's history re-runs the
			// candidates before it).
			if b := f.Shrink.Best; b < 1 || b > f.Shrink.Candidates || (f.Shrink.Accepted > 0) != (b > 1) {
				t.Errorf("best candidate %d of %d, %d accepted", b, f.Shrink.Candidates, f.Shrink.Accepted)
			} else if cut, err := morpheus.Explore(sc.test, append(opts, morpheus.Shrink(b))...); err != nil || cut.Failure == nil || cut.Failure.Steps != f.Steps {
				t.Errorf("shrinking cut at candidate %d: %v, %+v; want %d steps", b, err, cut, f.Steps)
			}
			if f.Kind != o.Kind || f.Location != o.Location || f.Iteration != o.Iteration {
				t.Errorf("shrunk failure %v (iteration %d), found %v (iteration %d)", f, f.Iteration, o, o.Iteration)
			}
			path := filepath.Join(t.TempDir(), "shrunk")
			if err := morpheus.WriteTrace(path, f.Trace); err != nil {
				t.Fatal(err)
			}
			rep, err := morpheus.Explore(sc.test, append(opts, morpheus.Replay(path))...)
			if err != nil {
				t.Fatal(err)
			}
			if g := rep.Failure; g == nil || g.Kind != f.Kind || g.Message != f.Message || g.Location != f.Location || g.Steps != f.Steps {
				t.Fatalf("replay of the shrunk trace: %v, want %v at step %d", g, f, f.Steps)
			}
			again, err := morpheus.Explore(sc.test, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(encodeTrace(t, again.Failure.Trace), encodeTrace(t, f.Trace)) {
				t.Error("shrinking the same failure twice gave different traces")
			}
		})
	}
}

func encodeTrace(t *testing.T, tr *trace.Trace) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := trace.Encode(&b, tr); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A candidate that runs longer than the best failing run so far cannot
// replace it, so shrinking cuts it at that many steps rather than run it to
// its end: here, once the failing switch is removed, a run polls ten
// thousand times (a pool that polls until the clock limit once the failing
// interleaving is gone took minutes a candidate).
func TestShrinkCutsLongerCandidates(t *testing.T) {
	polls := 0 // over every run; one worker runs them one at a time
	test := func(e *morpheus.Env) {
		var ready csync.Int
		csync.Go(func() { ready.Store(1) })
		if ready.Load() == 1 {
			e.Fatalf("saw the flag")
		}
		for range 10_000 {
			polls++
			e.Yield()
		}
	}
	opts := []morpheus.Option{morpheus.Seed(3), morpheus.Workers(1), morpheus.Strategy("random"), morpheus.ShrinkTime(time.Hour)}
	res, err := morpheus.Explore(test, append(opts, morpheus.Iterations(50), morpheus.Shrink(0))...)
	if err != nil || res.Failure == nil {
		t.Fatalf("no failure to shrink: %v", err)
	}
	explored := polls
	polls = 0
	res, err = morpheus.Explore(test, append(opts, morpheus.Iterations(50))...)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Shrink == nil || f.Shrink.Candidates < 2 {
		t.Fatalf("failure %+v: want one shrunk, with candidates", f)
	}
	if f.Message != "saw the flag" || f.Steps > f.Shrink.OriginalSteps {
		t.Errorf("shrunk to %q in %d steps, from %d", f.Message, f.Steps, f.Shrink.OriginalSteps)
	}
	if extra := polls - explored; extra > 100 {
		t.Errorf("shrinking's %d candidates polled %d times: those that lost the failing switch ran to their end", f.Shrink.Candidates, extra)
	}
}

// The time budget of shrinking ends a candidate that is running when it
// comes (at the candidate's next op), not only the search between two
// candidates: a candidate whose every step is slow does not run on past it.
func TestShrinkTimeBudgetCutsCandidate(t *testing.T) {
	runs, slept := 0, 0
	test := func(e *morpheus.Env) {
		runs++
		slow := runs >= 3 // the exploration's run and shrinking's first are quick
		var ready csync.Int
		csync.Go(func() { ready.Store(1) })
		for range 20 {
			if slow {
				time.Sleep(50 * time.Millisecond) // outside control, well within the watchdog's limit
				slept++
			}
			e.Yield()
		}
		e.Fatalf("fails")
	}
	res, err := morpheus.Explore(test, morpheus.Seed(1), morpheus.Iterations(1), morpheus.Workers(1), morpheus.Strategy("random"),
		morpheus.ShrinkTime(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Message != "fails" {
		t.Fatalf("failure %+v", f)
	}
	if f.Shrink != nil && !f.Shrink.TimedOut {
		t.Errorf("shrink stats %+v: want the time budget to have ended the search", f.Shrink)
	}
	t.Logf("shrink stats %+v, slept %d times", f.Shrink, slept)
	// A whole slow candidate sleeps 20 times; one cut at the budget's end
	// slept about twice (more only if the machine held the cut back for
	// most of a second).
	if slept >= 20 {
		t.Errorf("a candidate slept %d times: it ran on past shrinking's time budget", slept)
	}
}

// TestShrinkKeepsKind checks what shrinking leaves alone: a step-limit
// failure (every schedule reaches it after the same number of steps) is
// reported as found, without Shrink stats.
func TestShrinkKeepsKind(t *testing.T) {
	spin := func(e *morpheus.Env) {
		for {
			e.Yield()
		}
	}
	res, err := morpheus.Explore(spin, morpheus.Iterations(1), morpheus.MaxSteps(50))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "step-limit" {
		t.Fatalf("failure %v, want a step-limit failure", f)
	}
	if f.Shrink != nil {
		t.Fatalf("a step-limit failure was shrunk: %+v", f.Shrink)
	}
}

// A test whose re-runs are longer than the run that failed (it is not
// deterministic) keeps its original failure: shrinking never reports a
// longer trace.
func TestShrinkNeverLonger(t *testing.T) {
	runs := 0 // outside morpheus's control on purpose: every re-run differs
	test := func(e *morpheus.Env) {
		runs++
		for range runs * 10 {
			e.Yield()
		}
		e.Fatalf("fails the same way")
	}
	res, err := morpheus.Explore(test, morpheus.Iterations(1), morpheus.Workers(1))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Message != "fails the same way" {
		t.Fatalf("failure %v", f)
	}
	if runs < 2 {
		t.Fatalf("shrinking ran no candidate (runs %d)", runs)
	}
	if f.Shrink != nil || f.Steps > 15 {
		t.Fatalf("reported %d steps (shrink %+v); the original failed in 12", f.Steps, f.Shrink)
	}
}

// A time budget that ends shrinking is reported: the shrunk schedule then
// depends on the machine's speed.
func TestShrinkTimeBudget(t *testing.T) {
	test := func(e *morpheus.Env) {
		for range 20 {
			e.Yield()
		}
		e.Fatalf("fails")
	}
	res, err := morpheus.Explore(test, morpheus.Iterations(1), morpheus.ShrinkTime(time.Nanosecond))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Shrink == nil || !f.Shrink.TimedOut {
		t.Fatalf("failure %v: want shrink stats that say the time budget ended the search", f)
	}
	if r := f.Report(); !strings.Contains(r, "stopped by the time budget") {
		t.Fatalf("report does not say the time budget stopped shrinking:\n%s", r)
	}
	res, err = morpheus.Explore(test, morpheus.Iterations(1))
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Failure; f.Shrink != nil && f.Shrink.TimedOut || strings.Contains(f.Report(), "time budget") {
		t.Fatalf("the default budget was reported as hit: %+v", f.Shrink)
	}
}

// Shrinking's budget counts a candidate by its length: a failure found after
// about 9,000 steps (three goroutines adding to a counter, then left
// blocked: a leak in every schedule) costs four of the budget's units a
// candidate, so a budget of 8 runs the failing schedule again and one
// candidate. Before, the search ran its 6 candidates of 9,000 steps.
func TestShrinkBudgetCountsSteps(t *testing.T) {
	test := func(e *morpheus.Env) {
		var n csync.Int
		never := csync.Make[int](0)
		for range 3 {
			csync.Go(func() {
				for range 3000 {
					n.Add(1)
				}
				never.Recv()
			})
		}
	}
	opts := []morpheus.Option{morpheus.Seed(5), morpheus.Iterations(1), morpheus.Workers(1), morpheus.Strategy("random"),
		morpheus.Shrink(8), morpheus.ShrinkTime(time.Hour)}
	res, err := morpheus.Explore(test, opts...)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "leak" || f.Shrink == nil {
		t.Fatalf("failure %+v: want a shrunk leak", f)
	}
	t.Logf("%d -> %d steps, %d candidates, %d accepted", f.Shrink.OriginalSteps, f.Steps, f.Shrink.Candidates, f.Shrink.Accepted)
	if f.Shrink.OriginalSteps <= 7500 || f.Shrink.OriginalSteps > 10000 || f.Shrink.Candidates != 2 {
		t.Errorf("%d candidates of up to %d steps: want 2 (4 units of %d steps each, of 8)", f.Shrink.Candidates, f.Shrink.OriginalSteps, morpheus.ShrinkStepUnit)
	}
	again, err := morpheus.Explore(test, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encodeTrace(t, again.Failure.Trace), encodeTrace(t, f.Trace)) {
		t.Error("shrinking the same failure twice gave different traces")
	}
	// A budget of 3 cannot pay for following the failure once: not shrunk.
	res, err = morpheus.Explore(test, append(opts, morpheus.Shrink(3))...)
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Failure; f == nil || f.Kind != "leak" || f.Shrink != nil {
		t.Errorf("failure %+v: want the leak, not shrunk", f)
	}
}
