package morpheus_test

import (
	"fmt"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/trace"
)

// The messages of the example's primary and backup.
type (
	exPut       struct{ From morpheus.PID }
	exReplicate struct{ From morpheus.PID }
	exAck       struct{}
)

// A primary that waits forever for its backup's acknowledgement hangs if the
// replication is lost. Faults kept to the link between primary and backup
// leave the test's own request alone, so the failure found is that one.
func ExampleFaults() {
	test := func(e *morpheus.Env) {
		pn, bn := e.NewNode("p", nil), e.NewNode("b", nil)
		backup := bn.Spawn("backup", func(e *morpheus.Env) {
			for {
				r := morpheus.Recv[exReplicate](e)
				e.Send(r.From, exAck{})
			}
		})
		primary := pn.Spawn("primary", func(e *morpheus.Env) {
			for {
				req := morpheus.Recv[exPut](e)
				e.Send(backup, exReplicate{e.Self()})
				morpheus.Recv[exAck](e) // no retry: the bug
				e.Send(req.From, exAck{})
			}
		})
		e.SetFaults(morpheus.Faults{
			Drop: 0.2, MaxDrops: 1,
			Only: morpheus.Between([]*morpheus.Node{pn}, []*morpheus.Node{bn}),
		})
		e.Send(primary, exPut{e.Self()})
		_, ok := morpheus.RecvTimeout[exAck](e, time.Second)
		e.Assert(ok, "put not acknowledged")
	}
	res, err := morpheus.Explore(test, morpheus.Seed(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	f := res.Failure
	fmt.Println(f.Kind+":", f.Message)
	for i := range f.Trace.Events {
		if e := &f.Trace.Events[i]; trace.FaultOutcome(e) == "drop" {
			fmt.Println(f.Trace.TaskName(e.Task), e.Kind, f.Trace.Detail(e))
		}
	}
	// Output:
	// assertion: put not acknowledged
	// primary@p choose drop → backup@b morpheus_test.exReplicate{From:primary@p}
}
