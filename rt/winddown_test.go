package rt_test

import (
	"os"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// A t.Fatal in the test's body ends the body as go test's does: its
// deferred calls run, and then its cleanups, under control, so that a
// deferred call that waits for the test's goroutines (a cluster's shutdown)
// gets past them and what it does next (removing the cluster's directories)
// is done; the schedule fails with the Fatal's message at its line. Before,
// the schedule ended at the Fatal, and a deferred call or cleanup stopped at
// its first op (hashicorp/raft's tests left a /tmp/raft* directory per
// failing schedule). A wind-down that deadlocks still reports the Fatal.
func TestFatalWindsDown(t *testing.T) {
	if os.Getenv("RT_FATAL_CHILD") != "" {
		rt.Test(t, func(t *testing.T) {
			stop, stopped := rt.Make[chan int](0), rt.Make[chan int](0)
			rt.Go(func() { // a node: stops when told
				rt.Recv(stop)
				rt.Close(stopped)
			})
			rt.Cleanup(t, func() {
				rt.T(t).Log("cleanup ran")
				if os.Getenv("RT_WIND_DEADLOCK") != "" {
					rt.Recv(rt.Make[chan int](0)) // nobody sends
				}
			})
			defer func() {
				rt.Send(stop, 1)
				rt.Recv(stopped)
				rt.T(t).Log("deferred shutdown done")
			}()
			rt.T(t).Fatalf("the body's failure")
			rt.T(t).Log("ran past its Fatal")
		})
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	for _, deadlock := range []string{"", "1"} {
		r, log := child(t, "TestFatalWindsDown", "RT_WIND_DEADLOCK="+deadlock)
		if r.Kind != "assertion" || r.Message != "the body's failure" || !strings.Contains(r.Location, "winddown_test.go:") {
			t.Fatalf("kind %q at %q: %q\n%s", r.Kind, r.Location, r.Message, log)
		}
		for _, want := range []string{"deferred shutdown done", "cleanup ran", "then "} {
			if !strings.Contains(r.Failure, want) {
				t.Errorf("the schedule's report lacks %q:\n%s", want, r.Failure)
			}
		}
		if strings.Contains(r.Failure, "ran past its Fatal") {
			t.Errorf("the body went on past its Fatal:\n%s", r.Failure)
		}
		t.Log(r.Failure)
	}
}
