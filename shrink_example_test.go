package morpheus_test

import (
	"fmt"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// A failure is shrunk before it is reported: here the lost update of two
// goroutines, found by a random walk, comes back as a shorter schedule that
// loses the update (no local work at all), with the length of the one first
// found.
func ExampleShrink() {
	lostUpdate := func(e *morpheus.Env) {
		var n csync.Int64
		var wg csync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for range e.Choose(5) { // some local work, as long as the strategy chooses
					e.Yield()
				}
				n.Store(n.Load() + 1)
			})
		}
		wg.Wait()
		e.Assert(n.Load() == 2, "lost update")
	}
	res, err := morpheus.Explore(lostUpdate, morpheus.Strategy("random"), morpheus.Seed(3), morpheus.Shrink(100))
	if err != nil {
		panic(err)
	}
	f := res.Failure
	fmt.Println(f.Kind, f.Message)
	fmt.Printf("shrunk from %d to %d steps\n", f.Shrink.OriginalSteps, f.Steps)
	// Output:
	// assertion lost update
	// shrunk from 23 to 19 steps
}
