package prim

import (
	"time"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/trace"
)

// Sleep blocks the caller for d of virtual time, located at pc (see
// csync.Sleep). A d ≤ 0 is still a scheduling point, and a poll (a yield:
// see core's polling clock).
func Sleep(d time.Duration, pc uintptr) {
	t, r := ctl.Self("Sleep")
	yield := d <= 0
	r.Do(t, core.Op{Kind: trace.KindSleep, Obj: -1, Blocked: true, HasDeadline: true,
		Deadline: r.Now() + int64(max(d, 0)), PC: pc, Quiet: yield, Poll: yield})
}
