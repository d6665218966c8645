package shapes_test

import (
	"context"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// iter.Pull's and iter.Pull2's sequences run on goroutines of the schedule
// (testdata/pull): a sequence's write that another goroutine reads without
// synchronisation is a race, found and replayed; accesses that next and
// yield order are none; the sequence's panic is located at the call of
// next, and a t.Fatal in it at its line; Pull called, instantiated and held as a value gives Go's values,
// and a stopped or finished sequence is no leak.
func TestPullUnderControl(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "pull", 50, 1)
	sum := explore(t, cfg)
	for _, name := range []string{"TestOrdered", "TestPullShapes"} {
		if ts := find(sum, name); ts == nil || ts.Failure != "" || ts.Schedules != cfg.Schedules {
			t.Errorf("%s: %+v", name, ts)
		}
	}
	race := find(sum, "TestSequenceRace")
	if race == nil || race.Kind != "race" || !strings.Contains(race.Failure, "pull_test.go:24") || !strings.Contains(race.Failure, "pull_test.go:29") {
		t.Fatalf("TestSequenceRace: want a race between pull_test.go:24 and :29, got %+v", race)
	}
	if ts := find(sum, "TestPanicAtNext"); ts == nil || ts.Kind != "panic" || ts.Location != "pull_test.go:62" || !strings.Contains(ts.Failure, "sequence failed") {
		t.Errorf("TestPanicAtNext: want the panic at pull_test.go:62, got %+v", ts)
	}

	if ts := find(sum, "TestFatalInSequence"); ts == nil || ts.Kind != "assertion" || ts.Location != "pull_test.go:93" || strings.Contains(ts.Failure, "went on") {
		t.Errorf("TestFatalInSequence: want the assertion at pull_test.go:93, got %+v", ts)
	}

	rcfg := cfg
	rcfg.Replay, rcfg.Run = race.Trace, "^TestSequenceRace$"
	rep, err := driver.Run(context.Background(), rcfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := find(rep, "TestSequenceRace"); got == nil || got.Kind != "race" || got.Location != race.Location {
		t.Errorf("replay: %+v, want the race at %s", got, race.Location)
	}
}
