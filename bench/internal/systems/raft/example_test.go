package raft_test

import (
	"fmt"
	"strings"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/systems/raft"
)

// A state machine that does not save its applied index applies committed
// entries again after a restart: morpheus finds it within a few iterations,
// and the correct harness passes.
func Example() {
	res, err := morpheus.Explore(raft.Test(raft.Config{ForgetApplied: true}),
		morpheus.Strategy("pos"), morpheus.Seed(1), morpheus.Iterations(100))
	if err != nil {
		panic(err)
	}
	f := res.Failure
	summary, _, _ := strings.Cut(f.Message, " (")
	fmt.Printf("iteration %d: %s: %s\n", f.Iteration, f.Kind, summary)
	fmt.Println("safety violation:", raft.IsViolation(f.Kind, f.Message))

	res, _ = morpheus.Explore(raft.Test(raft.Config{}), morpheus.Seed(1), morpheus.Iterations(50))
	fmt.Println("correct harness passes:", res.Failure == nil)
	// Output:
	// iteration 1: assertion: monitor state-machine-safety: node 1's store after index 2 differs from node 2's
	// safety violation: true
	// correct harness passes: true
}
