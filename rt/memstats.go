package rt

import (
	"runtime"

	"github.com/morpheus-go/morpheus/internal/core"
)

// ReadMemStats stands for runtime.ReadMemStats. Outside a schedule it is
// runtime.ReadMemStats. In a schedule, the collector's history in the
// statistics is that of a process where no collection has run yet: NumGC,
// NumForcedGC, PauseTotalNs, PauseNs, PauseEnd, LastGC and GCCPUFraction
// are zero. How many collections ran, and when, is the process's own (its
// earlier tests, morpheus's records, the real clock), not a function of
// the schedule: a metrics package's collector goroutine that adds one
// sample per collection since its last look (go-metrics' runtime
// statistics, which hashicorp/raft's tests start) took as many steps as
// the process had collections, and its trace did not replay in another
// process. The other fields (the heap's sizes, allocation counts) stay
// the process's: they are values a report shows, which no loop counts.
func ReadMemStats(m *runtime.MemStats) {
	runtime.ReadMemStats(m)
	if core.CurrentTask() == nil {
		return
	}
	m.NumGC, m.NumForcedGC, m.PauseTotalNs, m.LastGC, m.GCCPUFraction = 0, 0, 0, 0, 0
	m.PauseNs, m.PauseEnd = [256]uint64{}, [256]uint64{}
}
