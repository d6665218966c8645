package morpheus_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
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
