package main

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus/internal/plural"
)

// packageRun is the part of a package's summary line after its path: its
// schedules, how long they took and at what rate, "100 schedules in 218ms
// (458 schedules/s)", or "1 schedule in 11.6s (11.6s a schedule)" when
// they were slower than one a second (a rate rounded to 0 schedules/s said
// nothing), or only "0 schedules" when none ran (an interrupted run, a
// package that failed outside control before its first).
func packageRun(n int, elapsed time.Duration, rate float64) string {
	s := plural.N(n, "schedule")
	switch {
	case n == 0:
		return s
	case rate >= 1:
		return fmt.Sprintf("%s in %v (%.0f schedules/s)", s, elapsed.Round(time.Millisecond), rate)
	default:
		return fmt.Sprintf("%s in %v (%v a schedule)", s, elapsed.Round(time.Millisecond), (elapsed / time.Duration(n)).Round(100*time.Millisecond))
	}
}
