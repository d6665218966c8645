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
// in the schedule that does it.
//
// Inside a schedule of Test, x holding a testing.TB (the test's t handed to
// an assertion library as its TestingT, as testify's assert and require
// take it) becomes, if it is of X's type, T's TestingT of that t: its
// calls belong to the schedule as the test's own calls of t do (a failure
// is the schedule's assertion failure, with its message, located at the
// first caller that is not a helper; a Helper call through the interface
// marks its caller). Otherwise x is returned as it is.
//
//go:noinline
func TB[X any](x X) X {
	t := core.CurrentTask()
	if t == nil {
		return x
	}
	tb, ok := any(x).(testing.TB)
	if !ok {
		return x
	}
	if t.Run().Main().Done() {
		panic("Log in goroutine after " + tb.Name() + " has completed")
	}
	lockT()
	if _, wrapped := tb.(*TestingT); wrapped || current == nil {
		return x
	}
	if y, ok := any(&TestingT{TB: tb}).(X); ok {
		return y
	}
	return x
}
