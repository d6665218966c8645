package neighbours

import (
	"fmt"
	"testing"
)

// runner is a t that can also run subtests: the stand-in for t that
// morpheus hands to calls through an interface has no Run, so a failure
// through a runner reaches the real t, and the test's output is kept.
type runner interface {
	Errorf(format string, args ...any)
	Run(name string, f func(*testing.T)) bool
}

func check(r runner, ok bool) {
	if !ok {
		r.Errorf("check failed")
	}
}

// TestUnseenFailure fails through a runner.
func TestUnseenFailure(t *testing.T) {
	fmt.Println("output of TestUnseenFailure")
	check(t, false)
}
