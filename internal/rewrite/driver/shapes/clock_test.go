package shapes_test

import "testing"

// Virtual time that real code cannot tell from real time, and no step-limit
// failure on correct code: a start time read at package initialization is
// before every schedule's time; a sleeper wakes past its deadline; a
// goroutine that polls, and one that spins on the clock, while another
// sleeps let the clock move and end; a lease timed by the runtime's
// monotonic clock reached by //go:linkname expires as the virtual clock
// passes its end (not by the real clock, after as many sleeps as the step
// limit allows); a test whose one goroutine runs past
// the step limit (a queue of 100,000 jobs, some 400,000 steps, past a step
// limit of 200,000) passes.
func TestClock(t *testing.T) {
	t.Parallel()
	cfg := testdataConfig(t, "clock", 3, 1)
	cfg.MaxSteps = 200_000
	sum := explore(t, cfg)
	for _, name := range []string{"TestUptime", "TestWakesAfterDeadline", "TestPollingStops", "TestSpinWhileSleeping", "TestLongQueue", "TestLeaseExpires"} {
		if ts := find(sum, name); ts == nil || ts.Failure != "" {
			t.Errorf("%s: %+v", name, ts)
		}
	}
	if ts := find(sum, "TestLongQueue"); ts != nil && ts.Steps <= int64(cfg.Schedules*cfg.MaxSteps) {
		t.Errorf("TestLongQueue ran %d steps in %d schedules: not past the step limit", ts.Steps, cfg.Schedules)
	}
}
