package morpheus_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/strategy"
	"github.com/morpheus-go/morpheus/trace"
)

// sticky is a strategy of one's own: a random walk that keeps running the
// task that ran last with probability 3/4, so that a task tends to run
// several ops in a row before it is preempted.
type sticky struct {
	rng  *rand.Rand
	last int32
}

func (s *sticky) Name() string { return "sticky" }

// Begin derives every decision of the iteration from its seed, so that a
// failure replays.
func (s *sticky) Begin(seed uint64) { s.rng, s.last = rand.New(rand.NewPCG(seed, 0)), -1 }

func (s *sticky) Next(enabled []strategy.Op) int {
	if s.rng.IntN(4) > 0 {
		for i, op := range enabled {
			if op.Task == s.last {
				return i
			}
		}
	}
	i := s.rng.IntN(len(enabled))
	s.last = enabled[i].Task
	return i
}

func (s *sticky) Choose(n int) int { return s.rng.IntN(n) }

func (s *sticky) End(*trace.Trace) {}

// A strategy of your own, given as a function that makes one instance per
// worker; wrapped with conflict analysis it learns across iterations like
// the built-in "+ca" strategies.
func ExampleStrategy_custom() {
	// Two processes report to the main task, which wrongly expects a's
	// report first.
	test := func(e *morpheus.Env) {
		main := e.Self()
		for _, name := range []string{"a", "b"} {
			e.Spawn(name, func(e *morpheus.Env) { e.Send(main, name) })
		}
		first := morpheus.Recv[string](e)
		morpheus.Recv[string](e)
		e.Assert(first == "a", "%s reported first", first)
	}
	newSticky := func() strategy.Strategy { return strategy.WithCA(&sticky{}, nil) }
	res, err := morpheus.Explore(test, morpheus.Strategy(newSticky), morpheus.Seed(1))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Strategy, "found", res.Failure.Kind+":", res.Failure.Message)
	// Output: sticky+ca found assertion: b reported first
}
