package driver_test

import "testing"

// Virtual time that real code cannot tell from real time, and no step-limit
// failure on correct code: a start time read at package initialization is
// before every schedule's time; a sleeper wakes past its deadline; a
// goroutine that polls, and one that spins on the clock, while another
// sleeps let the clock move and end; a test whose one goroutine runs past
// the step limit (a queue of 100,000 jobs) passes.
func TestClock(t *testing.T) {
	cfg := testdataConfig(t, "clock", 3, 1)
	sum := explore(t, cfg)
	for _, name := range []string{"TestUptime", "TestWakesAfterDeadline", "TestPollingStops", "TestSpinWhileSleeping", "TestLongQueue"} {
		if ts := find(sum, name); ts == nil || ts.Failure != "" {
			t.Errorf("%s: %+v", name, ts)
		}
	}
}
