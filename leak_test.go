package morpheus_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// awaitDone leaves a watcher waiting on a channel nobody closes: a leak.
func awaitDone(e *morpheus.Env) {
	done := csync.Make[struct{}](0)
	csync.Go(func() { done.Recv() })
}

// Check reports a leak like any failure: the report names the goroutine,
// what it waits on and where it started, saves the trace, which later runs
// replay; MORPHEUS_ALLOWLEAKS turns the check off, and a bad value is
// reported.
func TestCheckLeak(t *testing.T) {
	t.Chdir(t.TempDir())
	rec := &recorder{TB: t, name: "TestLeaky"}
	morpheus.Check(rec, awaitDone, morpheus.Iterations(10))
	report := strings.Join(rec.errors, "")
	for _, want := range []string{
		`morpheus: leak failure in TestLeaky, iteration 1\n`,
		`\n    g1 at leak_test.go:\d+: 1 goroutine leaked: the main task has returned, and it is blocked forever`,
		`\n      g1: blocked in chan-recv on chan#\d+ created at leak_test.go:\d+ at leak_test.go:\d+; started at leak_test.go:\d+\n`,
		`\ntrace saved: testdata/morpheus/TestLeaky/`,
	} {
		if !regexp.MustCompile(want).MatchString(report) {
			t.Errorf("report lacks %s:\n%s", want, report)
		}
	}
	again := &recorder{TB: t, name: "TestLeaky"}
	morpheus.Check(again, awaitDone, morpheus.Iterations(10))
	if len(again.errors) != 1 || !strings.Contains(again.errors[0], "still fails") || !strings.Contains(again.errors[0], "leak failure") {
		t.Errorf("the saved leak does not replay: %q", again.errors)
	}

	t.Setenv("MORPHEUS_ALLOWLEAKS", "true")
	allowed := &recorder{TB: t, name: "TestAllowed"}
	morpheus.Check(allowed, awaitDone, morpheus.Iterations(10))
	if len(allowed.errors) != 0 {
		t.Errorf("MORPHEUS_ALLOWLEAKS=true: %q", allowed.errors)
	}
	t.Setenv("MORPHEUS_ALLOWLEAKS", "maybe")
	bad := &recorder{TB: t, name: "TestAllowed"}
	func() {
		defer func() { recover() }()
		morpheus.Check(bad, awaitDone)
	}()
	if len(bad.errors) != 1 || !strings.Contains(bad.errors[0], `MORPHEUS_ALLOWLEAKS="maybe": expected true or false`) {
		t.Errorf("errors: %q", bad.errors)
	}
}
