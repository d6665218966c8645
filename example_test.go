package morpheus_test

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
)

// Two clients increment a counter held by a server with a read and a write
// message each: a lost update that only some interleavings show.
func Example() {
	test := func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		counter := n.Spawn("counter", func(e *morpheus.Env) {
			v := 0
			for {
				switch m := e.Receive(nil).(type) {
				case int:
					v = m
				case morpheus.PID:
					e.Send(m, v)
				}
			}
		})
		main := e.Self()
		for range 2 {
			n.Spawn("client", func(e *morpheus.Env) {
				e.Send(counter, e.Self())
				e.Send(counter, morpheus.Recv[int](e)+1)
				e.Send(main, "done")
			})
		}
		morpheus.Recv[string](e)
		morpheus.Recv[string](e)
		e.Send(counter, main)
		v := morpheus.Recv[int](e)
		e.Assert(v == 2, "lost update: counter is %d after two increments", v)
	}
	res, err := morpheus.Explore(test, morpheus.Seed(1), morpheus.Iterations(1000))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Failure.Kind+":", res.Failure.Message)
	// Output: assertion: lost update: counter is 1 after two increments
}

// A receive with a time-out on the virtual clock: nothing answers, so the
// time-out fires after exactly one virtual second.
func ExampleEnv_ReceiveTimeout() {
	res, _ := morpheus.Explore(func(e *morpheus.Env) {
		_, ok := e.ReceiveTimeout(nil, time.Second)
		e.Logf("ok=%v", ok)
		e.Assert(ok, "no reply by %v", e.Elapsed())
	}, morpheus.Iterations(1))
	fmt.Println(res.Failure.Message)
	// Output: no reply by 1s
}

// Crashing a node kills its processes; monitors learn of it.
func ExampleNode_Crash() {
	res, _ := morpheus.Explore(func(e *morpheus.Env) {
		n := e.NewNode("db", nil)
		p := n.Spawn("server", func(e *morpheus.Env) { e.Receive(nil) })
		e.Watch(p)
		n.Crash()
		d := morpheus.Recv[morpheus.Down](e)
		e.Fatalf("%v is down: %v", d.PID, d.Reason)
	}, morpheus.Iterations(1))
	fmt.Println(res.Failure.Message)
	// Output: server@db is down: nodedown
}

// A controlled choice: the strategy picks, the trace records, replay repeats.
func ExampleEnv_Choose() {
	seen := map[int]bool{}
	morpheus.Explore(func(e *morpheus.Env) {
		seen[e.Choose(3)] = true
	}, morpheus.Iterations(50), morpheus.Workers(1))
	fmt.Println(len(seen))
	// Output: 3
}
