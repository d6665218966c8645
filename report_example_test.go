package morpheus_test

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
)

// A failure's report, as Check prints it: what failed and where, the
// schedule that found it, the last steps of the trace and the log. Explore
// saves no trace, so the report ends there; Check's also names the saved
// trace and the command that replays it.
func ExampleFailure_Report() {
	res, _ := morpheus.Explore(func(e *morpheus.Env) {
		e.Logf("waiting for a reply")
		_, ok := e.ReceiveTimeout(nil, time.Second)
		e.Assert(ok, "no reply by %v", e.Elapsed())
	}, morpheus.Name("TestReply"), morpheus.Iterations(1))
	fmt.Print(res.Failure.Report())
	// Output:
	// morpheus: assertion failure in TestReply, iteration 1
	//     main at report_example_test.go:18: no reply by 1s
	//     strategy pos+ca, seed 0xdd962ae64e67c12b, 2 steps, virtual time 1s
	// trace:
	//     1  0.000s  main  start
	//     2  1.000s  main  recv   timeout  report_example_test.go:17
	// log:
	//     step 1 main: waiting for a reply
}

// A message sent after a delay of virtual time, and a second one cancelled
// before it was due: only the first arrives.
func ExampleEnv_SendAfter() {
	res, _ := morpheus.Explore(func(e *morpheus.Env) {
		e.SendAfter(time.Second, e.Self(), "tick")
		var t morpheus.TimerRef = e.SendAfter(2*time.Second, e.Self(), "late")
		e.Assert(e.Cancel(t), "the second timer had fired")
		m := morpheus.Recv[string](e)
		_, more := e.ReceiveTimeout(nil, time.Minute)
		e.Fatalf("got %q at %v; another: %v", m, e.Elapsed(), more)
	}, morpheus.Iterations(1))
	fmt.Println(res.Failure.Message)
	// Output: got "tick" at 1m1s; another: false
}
