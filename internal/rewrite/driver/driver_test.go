package driver_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// The seeded lock-order inversion of testdata/lockorder is found, in an
// unmodified package, and its trace replays to the same deadlock.
func TestLockOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	cfg := driver.Config{Dir: "../testdata/lockorder", Patterns: []string{"."}, Cache: t.TempDir(),
		Schedules: 200, Jobs: 2, Seed: 1, Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")}
	sum, err := driver.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Packages) != 1 {
		t.Fatalf("%d packages", len(sum.Packages))
	}
	p := sum.Packages[0]
	if p.Err != nil {
		t.Fatalf("%v\n%s", p.Err, p.Output)
	}
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
	// hash of their content, are the same.
	again, err := driver.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := find(again, "TestTransfers"); got == nil || got.Trace != tr.Trace {
		t.Errorf("same seed, another trace: %+v, want %s", got, tr.Trace)
	}

	// The trace replays to the same deadlock.
	cfg.Replay, cfg.Run = tr.Trace, "^TestTransfers$"
	rep, err := driver.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := find(rep, "TestTransfers")
	if got == nil || got.Kind != "deadlock" || !strings.Contains(got.Failure, "strategy replay") {
		t.Errorf("replay: %+v", got)
	}
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
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	_, err := driver.Run(context.Background(), driver.Config{Dir: "../testdata/lockorder",
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
