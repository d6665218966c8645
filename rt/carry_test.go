package rt_test

import (
	"fmt"
	"testing"

	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/rt"
)

// Values that code outside control (package initialization filling a
// semaphore's tokens) left in a channel's buffer are in its buffer for the
// schedule that uses it next, behind the values an earlier schedule left;
// values that do not fit wait in the native channel for a later schedule.
func TestChannelFilledOutside(t *testing.T) {
	tokens := rt.Make[chan int](2)
	rt.Send(tokens, 1)
	rt.Send(tokens, 2)
	if f := explore(t, 4, func() {
		if n := rt.Len(tokens); n != 2 {
			panic(fmt.Sprintf("%d tokens in the buffer, want 2", n))
		}
		v := rt.Recv(tokens)
		rt.Go(func() { rt.Send(tokens, v) })
		rt.Send(tokens, rt.Recv(tokens))
		rt.Recv(tokens)
		rt.Send(tokens, v)
	}); f != nil {
		t.Fatal(f.Report())
	}

	ch := rt.Make[chan int](2)
	rt.Send(ch, 1)
	order := []int{}
	if f := explore(t, 1, func() { rt.Send(ch, 2) }); f != nil {
		t.Fatal(f.Report())
	}
	rt.Send(ch, 3) // the buffer is full: waits in the native channel
	if f := explore(t, 2, func() { order = append(order, rt.Recv(ch)) }); f != nil {
		t.Fatal(f.Report())
	}
	if f := explore(t, 1, func() {
		order = append(order, rt.Recv(ch))
		if n := rt.Len(ch); n != 0 {
			panic(fmt.Sprintf("%d values left, want 0", n))
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
	if len(order) != 3 || order[0] != 1 || order[1] != 2 || order[2] != 3 {
		t.Fatalf("received %v, want [1 2 3]", order)
	}
}

// A Once whose f returned outside control (a package-level variable's
// initializer that calls a lazy getter) is done for the schedules, and one
// whose f returned in a schedule is done for code outside control after it:
// f runs once in the process, as under go test.
func TestOnceAcrossWorlds(t *testing.T) {
	var init, lazy csync.Once
	runs := 0
	init.Do(func() { runs++ })
	if f := explore(t, 3, func() {
		init.Do(func() { runs++ })
		lazy.Do(func() { runs++ })
	}); f != nil {
		t.Fatal(f.Report())
	}
	lazy.Do(func() { runs++ })
	if runs != 2 {
		t.Fatalf("the two fs ran %d times, want 2", runs)
	}
}
