//go:build !linux

package core

import "time"

// runQueueWait is not known outside Linux: the watchdog counts every tick.
func runQueueWait() (time.Duration, bool) { return 0, false }
