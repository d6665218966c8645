package rt

import (
	"testing"
	"testing/synctest"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
)

// A testing/synctest bubble is what a schedule already is: its goroutines
// are the schedule's, its clock is the virtual one, which starts at
// midnight UTC 2000-01-01 as a bubble's does and moves only when every
// goroutine is blocked, and what is still blocked when the test is over is
// a leak. Inside a schedule, synctest.Test runs its function in the
// calling goroutine, and synctest.Wait waits until every other goroutine is
// blocked; outside one they are Go's.

// SynctestTest stands for synctest.Test. Under control f runs inline, with
// t, as Run runs a subtest: its goroutines are the schedule's, its
// t.Cleanup functions run at the schedule's end, and the goroutines it
// leaves blocked are a leak. The clock is the schedule's: it reads
// 2000-01-01 00:00 UTC only if nothing slept before; its limit is raised
// (core.Run.WidenClockLimit), since bubbles' tests sleep for hours; and a
// sleeper wakes exactly on its deadline, as in a bubble, not a little past
// it as elsewhere under control (core.Run.ExactClock).
func SynctestTest(t *testing.T, f func(*testing.T)) {
	task := core.CurrentTask()
	if task == nil {
		synctest.Test(t, f)
		return
	}
	task.Run().WidenClockLimit()
	task.Run().ExactClock()
	f(t)
}

// SynctestWait stands for synctest.Wait: under control, a scheduling point
// that returns once every other goroutine of the schedule is blocked (on a
// channel, a lock, a sleep or a timer), before the clock moves on.
//
//go:noinline
func SynctestWait() {
	pc := goruntime.CallerPC()
	t := core.CurrentTask()
	if t == nil {
		synctest.Wait()
		return
	}
	t.Run().WaitIdle(t, pc)
}
