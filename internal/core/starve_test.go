package core

import (
	"runtime"
	"testing"
	"time"
)

func TestStrikeCountIdleMachine(t *testing.T) {
	var c strikeCount
	for i := 1; i < strikes; i++ {
		if c.tick(false) {
			t.Fatalf("stuck after %d ticks, want %d", i, strikes)
		}
	}
	if !c.tick(false) {
		t.Fatalf("not stuck after %d ticks without progress", strikes)
	}
}

func TestStrikeCountStarvedMachine(t *testing.T) {
	var c strikeCount
	for i := 1; i < starvedTicks; i++ {
		if c.tick(true) {
			t.Fatalf("stuck after %d starved ticks, want %d", i, starvedTicks)
		}
	}
	if !c.tick(true) {
		t.Fatalf("not stuck after %d starved ticks", starvedTicks)
	}
}

func TestStrikeCountMixedAndReset(t *testing.T) {
	var c strikeCount
	// Starved ticks between the strikes delay the report, they do not
	// cancel the strikes already counted.
	for i := 0; i < strikes-1; i++ {
		c.tick(false)
		c.tick(true)
	}
	if !c.tick(false) {
		t.Fatalf("not stuck after %d unstarved ticks among starved ones", strikes)
	}
	c.reset()
	if c.tick(false) {
		t.Fatal("stuck at the first tick after progress")
	}
}

func TestStarvationSample(t *testing.T) {
	var wait time.Duration
	now := time.Unix(0, 0)
	s := &starvation{read: func() (time.Duration, bool) { return wait, true }, now: func() time.Time { return now }}
	s.sample()
	if s.recent {
		t.Fatal("the first sample has no interval, and cannot be starved")
	}
	steps := []struct {
		elapsed, waited time.Duration
		want            bool
	}{
		{time.Second, 0, false},
		{time.Second, 499 * time.Millisecond, false},
		{time.Second, 500 * time.Millisecond, true},
		{time.Second, 3 * time.Second, true}, // several threads waited
		{time.Second, 10 * time.Millisecond, false},
	}
	for i, st := range steps {
		now, wait = now.Add(st.elapsed), wait+st.waited
		s.sample()
		if s.recent != st.want {
			t.Errorf("interval %d (waited %v of %v): starved = %v, want %v", i, st.waited, st.elapsed, s.recent, st.want)
		}
	}
}

func TestStarvationUnknown(t *testing.T) {
	s := &starvation{read: func() (time.Duration, bool) { return time.Hour, false }, now: time.Now}
	s.sample()
	s.sample()
	if s.recent {
		t.Fatal("an interval without a reading counts as starved")
	}
}

func TestRunQueueWait(t *testing.T) {
	w, ok := runQueueWait()
	if runtime.GOOS != "linux" {
		if ok {
			t.Fatalf("runQueueWait on %s = %v, true; want no reading", runtime.GOOS, w)
		}
		return
	}
	if !ok {
		t.Skip("no /proc/self/task/*/schedstat here (kernel without schedstats)")
	}
	if w < 0 {
		t.Fatalf("run-queue wait %v < 0", w)
	}
}
