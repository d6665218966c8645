package rt

import (
	"testing"

	"github.com/morpheus-go/morpheus/internal/core"
)

// TB stands for the receiver of a call of a *testing.T's logging or
// failing method (Log, Error, Fatal, Fail, Skip and their forms), also
// through an interface such as a logger's: the rewriter turns x.Logf(…)
// into TB(x).Logf(…). In Go, such a call from a goroutine after the test
// has returned panics ("Log in goroutine after TestX has completed"); here
// the test's body is the schedule's main task, so a call of the test's t
// from a goroutine once the main task has returned panics the same way,
// in the schedule that does it. x is returned as it is.
//
//go:noinline
func TB[X any](x X) X {
	t := core.CurrentTask()
	if t == nil {
		return x
	}
	if tb, ok := any(x).(testing.TB); ok && t.Run().Main().Done() {
		panic("Log in goroutine after " + tb.Name() + " has completed")
	}
	return x
}
