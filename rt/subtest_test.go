package rt_test

import (
	"os"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// A t.Skip in a subtest (rt.Run, inline in the schedule) skips that subtest
// only, as under go test: the parent and the later subtests run, and the
// test passes, not skipped. Before, the Skip ended the whole test as skipped.
func TestSubtestSkip(t *testing.T) {
	var later, after int
	rt.Test(t, func(t *testing.T) {
		ok := rt.Run(t, "skipped", func(t *testing.T) {
			rt.T(t).Skip("not in this schedule")
			rt.T(t).Error("ran past its Skip")
		})
		if !ok {
			rt.T(t).Error("t.Run of a skipped subtest returned false")
		}
		rt.Run(t, "later", func(t *testing.T) { later++ })
		after++
	})
	if t.Skipped() || later == 0 || after == 0 {
		t.Fatalf("skipped %v, later subtest ran %d times, the parent's rest %d", t.Skipped(), later, after)
	}
}

// A t.Fatal in a subtest ends that subtest, as under go test: its cleanups
// run, t.Run returns false, the parent goes on, and the test fails with the
// subtest's message when its body returns. Before, the Fatal ended the
// schedule at once.
func TestSubtestFatal(t *testing.T) {
	if os.Getenv("RT_FATAL_CHILD") != "" {
		rt.Test(t, func(t *testing.T) {
			ok := rt.Run(t, "fails", func(t *testing.T) {
				rt.Cleanup(t, func() { rt.T(t).Log("subtest cleanup") })
				rt.T(t).Fatalf("the subtest's failure")
			})
			rt.Run(t, "passes", func(t *testing.T) { rt.T(t).Log("next subtest") })
			rt.T(t).Logf("parent goes on: t.Run returned %v", ok)
		})
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	r, log := child(t, "TestSubtestFatal")
	if r.Kind != "assertion" || r.Message != "the subtest's failure" || !strings.Contains(r.Location, "subtest_test.go:") {
		t.Fatalf("kind %q at %q: %q\n%s", r.Kind, r.Location, r.Message, log)
	}
	for _, want := range []string{"subtest cleanup", "next subtest", "parent goes on: t.Run returned false"} {
		if !strings.Contains(r.Failure, want) {
			t.Errorf("the schedule's log lacks %q:\n%s", want, r.Failure)
		}
	}
}
