//go:build !unix

package perf

import "time"

// cpuTime returns 0: the process's CPU time is read with getrusage, which
// this system does not have (the CPU figures of bench perf read 0).
func cpuTime() time.Duration { return 0 }

// peakRSSMB returns -1 (unknown): the peak resident set size is read with
// getrusage, which this system does not have.
func peakRSSMB() float64 { return -1 }
