package core

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// runQueueWait is the time the process's threads have waited for a
// processor, summed over its threads: the second field of each
// /proc/self/task/<tid>/schedstat, in nanoseconds. Threads that exited
// since are not counted, which only makes an interval look less starved.
func runQueueWait() (time.Duration, bool) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return 0, false
	}
	var sum time.Duration
	found := false
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		sum += time.Duration(n)
		found = true
	}
	return sum, found
}
