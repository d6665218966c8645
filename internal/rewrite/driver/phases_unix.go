//go:build unix

package driver

import (
	"syscall"
	"time"
)

// cpuTimes returns the CPU time (user and system) of this process and of
// its children that have ended and been waited for (the go commands, their
// compilers and linkers, the test processes).
func cpuTimes() (self, children time.Duration) {
	get := func(who int) time.Duration {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return get(syscall.RUSAGE_SELF), get(syscall.RUSAGE_CHILDREN)
}
