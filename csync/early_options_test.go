package csync_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
)

// A trace records the options that shaped its schedule, and a replay
// applies them: the failure EarlyTimers(1) found replays without the
// option, and a replay given other settings (no early timers, another step
// limit) still follows the trace.
func TestEarlyTimersRecordedInTrace(t *testing.T) {
	res, err := morpheus.Explore(busyWhileTimer, morpheus.Iterations(300), morpheus.Workers(1), morpheus.EarlyTimers(1), morpheus.AllowLeaks(true))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "assertion" {
		t.Fatalf("with EarlyTimers(1) the timer never fired early: %v", f)
	}
	opts := f.Trace.Header.Options
	if opts["earlytimers"] != "1" || opts["allowleaks"] != "true" || opts["maxsteps"] == "" {
		t.Fatalf("the trace's options are %v, want earlytimers=1, allowleaks=true and the step limit", opts)
	}
	path := t.TempDir() + "/trace"
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]morpheus.Option{nil, {morpheus.EarlyTimers(0), morpheus.MaxSteps(50)}} {
		again, err := morpheus.Explore(busyWhileTimer, append([]morpheus.Option{morpheus.Replay(path)}, extra...)...)
		if err != nil || again.Failure == nil || again.Failure.Message != f.Message {
			t.Fatalf("replay with %d more options: %v %v", len(extra), err, again.Failure)
		}
		if got := again.Failure.Trace.Header.Options["earlytimers"]; got != "1" {
			t.Errorf("the replay's trace records earlytimers=%q, want 1", got)
		}
	}
}
