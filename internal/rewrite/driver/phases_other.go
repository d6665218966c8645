//go:build !unix

package driver

import "time"

// cpuTimes is not measured here: the phases show wall time only.
func cpuTimes() (self, children time.Duration) { return 0, 0 }
