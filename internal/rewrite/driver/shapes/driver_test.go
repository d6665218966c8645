package shapes_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// The seeded lock-order inversion of testdata/lockorder is found, in an
// unmodified package, and its trace replays to the same deadlock.
func TestLockOrder(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "lockorder", 200, 1)
	cfg.Jobs = 2
	sum := explore(t, cfg)
	p := sum.Packages[0]
	var tr *driver.TestSummary
	for _, ts := range p.Tests {
		t.Logf("%s: %d schedules, failure %q", ts.Name, ts.Schedules, ts.Kind)
		if ts.Name == "TestTransfers" {
			tr = ts
		}
	}
	if tr == nil || tr.Failure == "" {
		t.Fatalf("the lock-order inversion was not found: %+v", p.Tests)
	}
	if tr.Kind != "deadlock" || !strings.Contains(tr.Failure, "bank.go:") {
		t.Errorf("want a deadlock located in bank.go, got %s:\n%s", tr.Kind, tr.Failure)
	}
	t.Log(tr.Failure)

	// The same seed finds the same schedule: the trace files, named by the
	// hash of their content, are the same. And the trace replays to the
	// same deadlock. (The two runs of the build at once.)
	rcfg := cfg
	rcfg.Replay, rcfg.Run = tr.Trace, "^TestTransfers$"
	runs := runAtOnce(t, cfg, rcfg)
	again, rep := runs[0], runs[1]
	if got := find(again, "TestTransfers"); got == nil || got.Trace != tr.Trace {
		t.Errorf("same seed, another trace: %+v, want %s", got, tr.Trace)
	}
	got := find(rep, "TestTransfers")
	if got == nil || got.Kind != "deadlock" || !strings.Contains(got.Failure, "strategy replay") {
		t.Errorf("replay: %+v", got)
	}
}

// testdataConfig is how the driver's tests explore a package of
// ../../testdata, a module of its own: a fresh cache, one job. It skips the
// test under -short, since exploring builds a test binary. The tests that
// explore run in parallel (each in a cache of its own): one's rewriting, in
// this process and slowed by -race, overlaps another's go build and test
// processes, and the package stays well inside go test's time-out on a
// busy machine. Their builds find package rt compiled (TestMain's
// proctest.StartRuntime; so do those of the tests that copy a module).
func testdataConfig(t *testing.T, dir string, schedules int, seed uint64) driver.Config {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	proctest.WaitRuntime()
	return driver.Config{Dir: "../../testdata/" + dir, Patterns: []string{"."}, Cache: t.TempDir(),
		Schedules: schedules, Jobs: 1, Seed: seed, Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")}
}

// explore runs cfg's one package and fails the test if it did not build or
// run.
func explore(t *testing.T, cfg driver.Config) *driver.Summary {
	t.Helper()
	sum, err := driver.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Packages) != 1 {
		t.Fatalf("%d packages", len(sum.Packages))
	}
	if p := sum.Packages[0]; p.Err != nil {
		t.Fatalf("%v\n%s", p.Err, p.Output)
	}
	return sum
}

// runAtOnce runs the configurations at once (runs of a build that an
// earlier run made, none of which waits for another's outcome) and returns
// their summaries in order, failing the test if one could not run.
func runAtOnce(t *testing.T, cfgs ...driver.Config) []*driver.Summary {
	t.Helper()
	sums := make([]*driver.Summary, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i], errs[i] = driver.Run(context.Background(), cfg)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return sums
}

func find(s *driver.Summary, test string) *driver.TestSummary {
	for _, p := range s.Packages {
		for _, t := range p.Tests {
			if t.Name == test {
				return t
			}
		}
	}
	return nil
}

// A package that does not exist, or a directory outside any module, is an
// error that names it.
func TestBadInput(t *testing.T) {
	t.Parallel()
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	_, err := driver.Run(context.Background(), driver.Config{Dir: "../../testdata/lockorder",
		Patterns: []string{"./nosuch"}, Cache: t.TempDir(), Env: env})
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("missing package: %v", err)
	}
	_, err = driver.Run(context.Background(), driver.Config{Dir: t.TempDir(), Patterns: []string{"."},
		Cache: t.TempDir(), Env: append(env, "GO111MODULE=on")})
	if err == nil || !strings.Contains(err.Error(), "not in a module") {
		t.Errorf("outside a module: %v", err)
	}
}
