package kv_test

import (
	"fmt"
	"strings"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/bench/internal/systems/kv"
)

// Reads served by the backup are stale while a write replicates: morpheus
// finds a history that is not linearizable, and attaches porcupine's
// visualisation of it.
func Example() {
	res, err := morpheus.Explore(kv.Test(kv.Config{BackupReads: true}),
		morpheus.Seed(1), morpheus.Iterations(50000))
	if err != nil {
		panic(err)
	}
	f := res.Failure
	summary, _, _ := strings.Cut(f.Message, " (")
	fmt.Println(f.Kind + ": " + summary)
	fmt.Println("attachment:", f.Attachments[0].Name)

	res, _ = morpheus.Explore(kv.Test(kv.Config{}), morpheus.Seed(1), morpheus.Iterations(1000))
	fmt.Println("reads from the primary only:", res.Failure == nil)
	// Output:
	// assertion: linearizability: 9 operations of 3 clients are not linearizable
	// attachment: linearizability.html
	// reads from the primary only: true
}
