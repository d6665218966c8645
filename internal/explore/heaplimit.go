package explore

import (
	"runtime/metrics"
	"time"
)

// HeapLimit bounds, beside the TimeLimit, how much a run under a TimeLimit
// may grow the process's heap: a schedule of tens of millions of steps
// (goroutines that heartbeat on timers without end, each step kept for the
// race check and the trace) grows it by hundreds of megabytes a second and
// would take the machine's memory long before the minute is up. Past
// HeapLimit more than at the run's start, the iterations running are cut as
// at the TimeLimit. A variable for tests.
var HeapLimit uint64 = 2 << 30

// heapPoll is how often the heap is read while a run has a TimeLimit.
const heapPoll = 200 * time.Millisecond

// heapBytes returns the bytes of heap memory occupied by objects, live or
// not yet swept: what a schedule's growth shows at once, between two
// collections.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// heapWatch reports, on its channel's ticks, whether the heap has grown
// past HeapLimit since it was made.
type heapWatch struct {
	base uint64
	tick *time.Ticker
}

func newHeapWatch() *heapWatch {
	return &heapWatch{base: heapBytes(), tick: time.NewTicker(heapPoll)}
}

// over reports whether the heap has grown past HeapLimit.
func (h *heapWatch) over() bool {
	now := heapBytes()
	return now > h.base && now-h.base > HeapLimit
}
