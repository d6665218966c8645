package csync

import (
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Go starts f in a new goroutine that morpheus controls: a task of the
// iteration, named "gN" after its task number, whose ops the strategy
// interleaves with everyone else's. Starting it is a step of the caller (a
// spawn), and the new goroutine's first step is a start op; neither touches
// anything another goroutine sees, so the built-in strategies run both at once
// (strategy.Local) without spending a decision on them. The next decision may
// then run the caller on, or the new goroutine's first real op first.
//
// A goroutine started with a go statement is not controlled: csync calls
// from it panic, since morpheus cannot schedule them.
//
// Unlike a Go program, an iteration does not end when its main task returns:
// it ends when nothing can run any more, timers firing on while goroutines
// wait. A goroutine still blocked then (a worker waiting for work nobody
// sends, on a context nobody cancels) fails the iteration as a leak, whose
// report names it, its op, the object it waits on and where it was started
// (this call's line); a main task blocked with nothing able to run is a
// deadlock. morpheus.AllowLeaks turns the leak check off.
//
//go:noinline
func Go(f func()) { prim.Go(goruntime.CallerPC(), f) }
