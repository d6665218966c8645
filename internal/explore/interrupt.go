package explore

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/interrupt"
)

// InterruptGrace is how long an interrupted exploration waits for its
// running iterations before it abandons them (a variable for tests).
var InterruptGrace = 2 * time.Second

// halt stops the exploration on an interrupt, as a spent time budget does:
// no iteration starts any more, and workers waiting for an epoch wake up.
func (x *explorer) halt() {
	x.halted.Store(true)
	if x.learn != nil {
		x.learn.wake()
	}
}

// await waits until every worker has finished or was abandoned. On an
// interrupt it halts the exploration, and abandons the iterations still
// running InterruptGrace later: each ends at its next op, uncounted. At the
// TimeLimit, or once the heap has grown past HeapLimit under one
// (heaplimit.go), it cuts the iterations running: each ends at its next op,
// uncounted, neither passed nor failed, and no other starts; their workers
// finish once their tasks have unwound (one blocked outside control is the
// watchdog's).
func (x *explorer) await(finished chan struct{}, states []*workerState) {
	stop := interrupt.Done()
	var grace, limit, heap <-chan time.Time
	var hw *heapWatch
	if x.budget.limit > 0 {
		lt := time.NewTimer(x.budget.start.Add(x.budget.limit).Sub(BudgetNow()))
		defer lt.Stop()
		limit = lt.C
		hw = newHeapWatch()
		defer hw.tick.Stop()
		heap = hw.tick.C
	}
	cut := func() {
		limit, heap = nil, nil
		x.budget.cutOff()
		if x.learn != nil {
			x.learn.wake()
		}
		for _, ws := range states {
			ws.w.Abandon()
		}
	}
	for left := len(states); left > 0; {
		select {
		case <-finished:
			left--
		case <-heap:
			if hw.over() {
				cut()
			}
		case <-limit:
			cut()
		case <-stop:
			stop = nil
			x.halt()
			grace = time.After(InterruptGrace)
		case <-grace:
			grace = nil
			for _, ws := range states {
				ws.w.Abandon()
				ws.once.Do(func() { finished <- struct{}{} })
			}
		}
	}
}
