package rt_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// A data race is reported as go test -race reports one: the goroutines
// run on, so the racing write is made and what the test does after it
// (a deferred restore of a package-level option, for the tests after it
// in the process) is done, and the schedule fails with the race, located
// at the racing access.
func TestRaceRunsOn(t *testing.T) {
	var restored atomic.Int32 // plain Go: counts what ran after the race
	f := explore(t, 20, func() {
		opt := new(int)
		*rt.Write(opt, "opt") = 1
		defer func() {
			*rt.Write(opt, "opt") = 0 // races with the goroutine's read
			restored.Add(1)
		}()
		rt.Go(func() { _ = *rt.Read(opt, "opt") })
		rt.Sleep(time.Millisecond) // orders nothing: the goroutine reads first
	})
	if f == nil || f.Kind != "race" || !strings.Contains(f.Location, "racerunson_test.go:23") {
		t.Fatalf("want the race at the restore (racerunson_test.go:23), got %v", f)
	}
	if restored.Load() == 0 {
		t.Errorf("the racing restore and what follows it did not run")
	}
	if r := f.Report(); !strings.Contains(r, "of the goroutines, which ran on after the race") {
		t.Errorf("the report does not say the goroutines ran on after the race:\n%s", r)
	}
}
