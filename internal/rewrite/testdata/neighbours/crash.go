// Package neighbours holds the shapes of tests that use their neighbours of
// the Go ecosystem: a test that re-runs its own binary to see it crash, a
// goroutine-leak checker that lists the process's goroutines (as goleak
// does), an assertion package that takes its t through an interface (as
// testify does).
package neighbours

import "fmt"

// Crash panics, as the function a crash test checks does.
func Crash() {
	panic(fmt.Sprint("crashed on purpose"))
}
