package csync_test

//lint:file-ignore SA2001 a lock-order inversion is the example

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// Goroutines and channels, as in Go: a pipeline of two stages.
func ExampleGo() {
	res, _ := morpheus.Explore(func(e *morpheus.Env) {
		nums, squares := csync.Make[int](0), csync.Make[int](0)
		csync.Go(func() {
			for i := 1; i <= 3; i++ {
				nums.Send(i)
			}
			nums.Close()
		})
		csync.Go(func() {
			for n := range nums.Range() {
				squares.Send(n * n)
			}
			squares.Close()
		})
		sum := 0
		for s := range squares.Range() {
			sum += s
		}
		e.Assert(sum == 14, "sum %d", sum)
	}, morpheus.Iterations(100))
	fmt.Println(res.Failure == nil, res.Iterations)
	// Output: true 100
}

// A select with a time-out on the virtual clock: the time-out fires only
// when the work cannot progress, here because nobody sends.
func ExampleSelect() {
	morpheus.Explore(func(e *morpheus.Env) {
		work := csync.Make[string](0)
		csync.Select(
			csync.Recv(work, func(v string, ok bool) { fmt.Println("got", v) }),
			csync.Recv(csync.After(time.Second), func(t time.Time, ok bool) {
				fmt.Println("timed out at", t.Format(time.TimeOnly))
			}),
		)
	}, morpheus.Iterations(1))
	// Output: timed out at 00:00:01
}

// Two goroutines increment a shared variable without a lock: random walk
// finds the lost update, and the report says where.
func ExampleVar() {
	res, _ := morpheus.Explore(func(e *morpheus.Env) {
		var n csync.Var[int]
		var wg csync.WaitGroup
		for range 2 {
			wg.Go(func() { n.Store(n.Load() + 1) })
		}
		wg.Wait()
		e.Assert(n.Load() == 2, "lost update: n = %d", n.Load())
	}, morpheus.Seed(3))
	fmt.Println(res.Failure.Kind+":", res.Failure.Message)
	// Output: assertion: lost update: n = 1
}

// A deadlock report names the blocked tasks, their ops and the objects.
func ExampleMutex() {
	res, _ := morpheus.Explore(func(e *morpheus.Env) {
		var a, b csync.Mutex
		var wg csync.WaitGroup
		wg.Go(func() { a.Lock(); b.Lock(); b.Unlock(); a.Unlock() })
		wg.Go(func() { b.Lock(); a.Lock(); a.Unlock(); b.Unlock() })
		wg.Wait()
	}, morpheus.Seed(1))
	fmt.Println(res.Failure.Kind)
	// Output: deadlock
}
