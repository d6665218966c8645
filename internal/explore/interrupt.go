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
// running InterruptGrace later: each ends at its next op, uncounted.
func (x *explorer) await(finished chan struct{}, states []*workerState) {
	stop := interrupt.Done()
	var grace <-chan time.Time
	for left := len(states); left > 0; {
		select {
		case <-finished:
			left--
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
