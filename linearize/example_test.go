package linearize_test

import (
	"fmt"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/linearize"
)

// A put that has returned, then a read that misses it: no order of the two
// operations explains the read, and Check fails the iteration and attaches
// the visualisation.
func Example() {
	res, err := morpheus.Explore(func(e *morpheus.Env) {
		h := linearize.NewHistory(e)
		put := h.Call(1, linearize.KVInput{Op: linearize.KVPut, Key: "x", Value: "1"})
		h.Return(put, linearize.KVOutput{})
		get := h.Call(0, linearize.KVInput{Op: linearize.KVGet, Key: "x"})
		h.Return(get, linearize.KVOutput{Value: ""}) // a stale read
		linearize.Check(e, linearize.KVModel, h)
	}, morpheus.Iterations(1))
	if err != nil {
		panic(err)
	}
	f := res.Failure
	fmt.Println(f.Kind)
	fmt.Println(f.Message)
	for _, a := range f.Attachments {
		fmt.Println("attachment:", a.Name)
	}
	// Output:
	// assertion
	// linearizability: 2 operations of 2 clients are not linearizable (longest linearizable prefix: 1 of 2 operations)
	// linearizable prefix:
	//     put("x", "1")  [client 1, operation 0: called at 0s (event 1), returned at 0s (event 2)]
	// cannot be linearized after it:
	//     get("x") → ""  [client 0, operation 1: called at 0s (event 3), returned at 0s (event 4)]
	// see the attachment linearizability.html
	// attachment: linearizability.html
}
