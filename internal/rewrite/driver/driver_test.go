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
}
