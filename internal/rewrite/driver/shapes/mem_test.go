package shapes_test

import (
	"strings"
	"testing"
)

// A check-then-act on a plain field (testdata/checkact) is split by the
// memory pass's ops: a schedule runs the other goroutine between the check
// and the act, and the failure (the data race on the field, or the
// assertion) is found. The same code under the pool's lock passes: the
// lock orders the accesses, and the variable the test's goroutines share
// under their own lock is no race.
func TestCheckThenAct(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "checkact", 100, 1)
	sum := explore(t, cfg)
	take, locked := find(sum, "TestTake"), find(sum, "TestTakeLocked")
	if take == nil || take.Failure == "" {
		t.Fatalf("the check-then-act was not found: %+v", take)
	}
	if (take.Kind != "race" && take.Kind != "assertion") || !strings.Contains(take.Failure, "pool.go:") {
		t.Errorf("want a race or an assertion in pool.go, got %s:\n%s", take.Kind, take.Failure)
	}
	if take.Kind == "race" && !strings.Contains(take.Failure, "data race on p.free:") {
		t.Errorf("the race does not name the field as the code writes it (p.free):\n%s", take.Failure)
	}
	if !strings.Contains(take.Failure, " read ") && !strings.Contains(take.Failure, " write ") {
		t.Errorf("no read or write step in the trace:\n%s", take.Failure)
	}
	t.Log(take.Failure)
	if locked == nil || locked.Failure != "" || locked.Schedules != cfg.Schedules {
		t.Errorf("TestTakeLocked: %+v, want %d passing schedules", locked, cfg.Schedules)
	}
}

// A bare return reads the named results, and one a goroutine sets is shared
// (testdata/namedresult): the read is an op, so the race between the
// goroutine's write and the return of a Wait that gave up is found, as Go's
// race detector finds it. The fixed Wait, whose result only a receive sets,
// passes.
func TestNamedResultRace(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "namedresult", 50, 1)
	sum := explore(t, cfg)
	wait, fixed := find(sum, "TestWait"), find(sum, "TestWaitFixed")
	if wait == nil || wait.Kind != "race" || !strings.Contains(wait.Failure, "wait.go:25") || !strings.Contains(wait.Failure, "wait.go:17") {
		t.Fatalf("want the race between the return (wait.go:25) and the goroutine's write (wait.go:17), got %+v", wait)
	}
	if !strings.Contains(wait.Failure, "data race on code:") {
		t.Errorf("the race does not name the result by its name (code):\n%s", wait.Failure)
	}
	if fixed == nil || fixed.Failure != "" || fixed.Schedules != cfg.Schedules {
		t.Errorf("TestWaitFixed: %+v, want %d passing schedules", fixed, cfg.Schedules)
	}
}
