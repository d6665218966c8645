package main

import (
	"testing"
	"time"
)

// A package's line gives a rate a reader can use: schedules a second when
// there is one or more, the time of one schedule when they were slower,
// nothing when no schedule ran.
func TestPackageRun(t *testing.T) {
	for _, c := range []struct {
		n       int
		elapsed time.Duration
		want    string
	}{
		{100, 218 * time.Millisecond, "100 schedules in 218ms (459 schedules/s)"},
		{1, 11604 * time.Millisecond, "1 schedule in 11.604s (11.6s a schedule)"},
		{3, 4 * time.Second, "3 schedules in 4s (1.3s a schedule)"},
		{0, 4128 * time.Millisecond, "0 schedules"},
	} {
		rate := 0.0
		if c.elapsed > 0 {
			rate = float64(c.n) / c.elapsed.Seconds()
		}
		if got := packageRun(c.n, c.elapsed, rate); got != c.want {
			t.Errorf("packageRun(%d, %v) = %q, want %q", c.n, c.elapsed, got, c.want)
		}
	}
}
