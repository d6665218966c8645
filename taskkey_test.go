package morpheus_test

import (
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// Every task has its own key, the same at each call; code outside a task
// has none.
func TestCurrentTask(t *testing.T) {
	if k, ok := morpheus.CurrentTask(); ok || k != (morpheus.TaskKey{}) {
		t.Fatalf("outside a test: %v, %v; want the zero key and false", k, ok)
	}
	res := mtest.Explore(t, func(e *morpheus.Env) {
		main, ok := morpheus.CurrentTask()
		e.Assert(ok && main != morpheus.TaskKey{}, "the test function has no key")
		again, _ := morpheus.CurrentTask()
		e.Assert(again == main, "two calls in one task, two keys")
		keys := map[morpheus.TaskKey]string{main: "main"}
		note := func(name string) {
			k, ok := morpheus.CurrentTask()
			e.Assert(ok, "%s has no key", name)
			if other, dup := keys[k]; dup {
				e.Fatalf("%s has the key of %s", name, other)
			}
			keys[k] = name
		}
		done := csync.Make[int](0)
		e.NewNode("n", nil).Spawn("p", func(e *morpheus.Env) {
			note("process")
			done.Send(1)
		})
		csync.Go(func() {
			note("goroutine")
			done.Send(1)
		})
		done.Recv()
		done.Recv()
		e.Assert(len(keys) == 3, "%d keys for 3 tasks", len(keys))
	}, morpheus.Iterations(20))
	mtest.MustPass(t, res)
}
