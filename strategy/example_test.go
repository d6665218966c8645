package strategy_test

import (
	"fmt"

	"github.com/morpheus-go/morpheus/strategy"
)

func ExampleParse() {
	for _, name := range []string{"pct:3", "pos*+ca", "dfs:2", "pct:0"} {
		s, err := strategy.Parse(name)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(s.Name())
	}
	// Output:
	// pct:3
	// pos*+ca
	// dfs:2
	// error: strategy "pct:0": depth D must be an integer in [1, 1000], not "0"
}

// DFS explores one schedule per iteration until none is left. Here two tasks
// have one op each on the same resource: two schedules.
func ExampleDFS() {
	s := strategy.NewDFS()
	both := []strategy.Op{{Task: 0, Res: 1}, {Task: 1, Res: 1}}
	for n := 1; !s.Exhausted(); n++ {
		s.Begin(uint64(n))
		first := both[s.Next(both)].Task
		rest := []strategy.Op{both[1-first]}
		s.Next(rest)
		s.End(nil)
		fmt.Printf("schedule %d: task %d first\n", n, first)
	}
	fmt.Println("all schedules explored")
	// Output:
	// schedule 1: task 0 first
	// schedule 2: task 1 first
	// all schedules explored
}
