package hb_test

import (
	"fmt"

	"github.com/morpheus-go/morpheus/internal/hb"
	"github.com/morpheus-go/morpheus/trace"
)

// Two schedules of the same two writes to different variables are one
// partial order; writing the same variable in the other order is another.
func ExamplePartialOrder() {
	tasks := []trace.Task{{ID: 0, Key: 1}, {ID: 1, Key: 2}}
	write := func(task int32, res uint32) trace.Event {
		return trace.Event{Task: task, Obj: -1, Res: res, Kind: trace.KindStore}
	}
	a := &trace.Trace{Tasks: tasks, Events: []trace.Event{write(0, 1), write(1, 2)}}
	b := &trace.Trace{Tasks: tasks, Events: []trace.Event{write(1, 2), write(0, 1)}}
	c := &trace.Trace{Tasks: tasks, Events: []trace.Event{write(0, 1), write(1, 1)}}
	d := &trace.Trace{Tasks: tasks, Events: []trace.Event{write(1, 1), write(0, 1)}}
	fmt.Println(hb.PartialOrder(a) == hb.PartialOrder(b))
	fmt.Println(hb.PartialOrder(c) == hb.PartialOrder(d))
	// Output:
	// true
	// false
}
