package shapes_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/morpheus-go/morpheus/internal/proctest"
	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// checksModule copies testdata/checks into a temporary directory (Check
// saves its failing traces beside the test), its replace directive pointing
// at this checkout.
func checksModule(t *testing.T) string {
	t.Helper()
	proctest.WaitRuntime()
	dir := t.TempDir()
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go.mod", "checks_test.go"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/checks", name))
		if err != nil {
			t.Fatal(err)
		}
		data = []byte(strings.ReplaceAll(string(data), "=> ../../../..", "=> "+root))
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// In one run: a plain test is rewritten and its panic is located at the
// test's line (not in csync); tests that call morpheus.Check run as they
// are, their iterations shared by the processes as shards, and their
// records merged, one per Check, a failing one making the run fail.
func TestChecksAndPlainTests(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "MORPHEUS_ITERATIONS=200")
	sum, err := driver.Run(context.Background(), driver.Config{Dir: checksModule(t), Patterns: []string{"."},
		Cache: t.TempDir(), Schedules: 20, Jobs: 2, Seed: 1, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	p := sum.Packages[0]
	if p.Err != nil {
		t.Fatalf("%v\n%s", p.Err, p.Output)
	}
	if len(p.Tests) != 1 || p.Tests[0].Name != "TestPlain" {
		t.Fatalf("rewritten tests: %+v; want TestPlain only (the Check tests are not wrapped)", p.Tests)
	}
	if tp := p.Tests[0]; tp.Kind != "panic" || tp.Location != "checks_test.go:12" || !strings.Contains(tp.Failure, "send on closed channel") {
		t.Errorf("TestPlain: %s at %q, want a panic at checks_test.go:12\n%s", tp.Kind, tp.Location, tp.Failure)
	}
	got := map[string]bool{}
	for _, r := range p.Checks {
		got[r.Test] = r.Failure != nil
		if r.Failure != nil {
			t.Logf("%s: %s at %s: %s", r.Test, r.Failure.Kind, r.Failure.Location, r.Failure.Message)
		}
		// A failing Check's processes may meet its saved trace: the one
		// that starts after the other saved it replays it first, so only
		// a passing Check is sure to be split in two shards.
		if r.Failure == nil && (r.Shards != 2 || r.Iterations == 0 || r.Planned != 200) {
			t.Errorf("%s: %d shards, %d of %d iterations; want the 2 processes' shards of 200", r.Test, r.Shards, r.Iterations, r.Planned)
		}
	}
	if len(got) != 2 || got["TestCheck"] || !got["TestCheckRace"] {
		t.Errorf("Check records (test: failed) %v; want TestCheck passing and TestCheckRace failing", got)
	}
	if !sum.Failed() {
		t.Error("the run does not count as failed")
	}
}

// Two shards of a run of one package each run one group of its processes
// (shardpkgs.go): each labels its Check records with its group, and the
// two merge into the records of the whole run's iterations.
func TestShardedChecksMerge(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "MORPHEUS_ITERATIONS=200")
	cache := t.TempDir()
	// The shards at once, each in a module of its own, as on a machine of
	// its own (a Check replays the trace another saved beside it first).
	var sums [2]*driver.Summary
	var errs [2]error
	var wg sync.WaitGroup
	for i := range 2 {
		cfg := driver.Config{Dir: checksModule(t), Patterns: []string{"."},
			Cache: cache, Schedules: 20, Jobs: 2, Seed: 1, Env: env, Shard: driver.Shard{I: i, N: 2}}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i], errs[i] = driver.Run(context.Background(), cfg)
		}()
	}
	wg.Wait()
	var recs []*results.Record
	for i, sum := range sums {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if len(sum.Packages) != 1 {
			t.Fatalf("shard %d/2 ran %d packages, want the one", i, len(sum.Packages))
		}
		for _, r := range sum.Packages[0].Checks {
			if want := fmt.Sprintf("%d/2", i); r.Shard != want {
				t.Errorf("shard %d/2: %s's record is shard %q, want %q", i, r.Test, r.Shard, want)
			}
			recs = append(recs, r)
		}
	}
	merged, err := results.Merge(recs, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range merged {
		if r.Test == "TestCheck" && (r.Shards != 2 || r.Iterations != 200) {
			t.Errorf("TestCheck merged: %d shards, %d iterations; want 2 shards of 200", r.Shards, r.Iterations)
		}
	}
}
