package morpheus

import "github.com/morpheus-go/morpheus/internal/core"

// TaskKey identifies a task morpheus runs (a process, a goroutine started
// with csync.Go, the test function itself): it is comparable, so code that
// keeps state per task, such as a stand-in for a global source of
// randomness that must give each task its own stream, can use it as a map
// key. The zero TaskKey is no task.
type TaskKey struct{ t *core.Task }

// CurrentTask returns the key of the task morpheus runs the caller in, and
// false when the caller is no task morpheus controls (a plain goroutine,
// code outside a test). A key stays the task's until the task ends; keys of
// tasks alive at the same time differ, even across the iterations that
// workers run in parallel.
func CurrentTask() (TaskKey, bool) {
	t := core.CurrentTask()
	return TaskKey{t}, t != nil
}
