// Package edge holds the constructs where a naive rewrite goes wrong.
package edge

import (
	"fmt"
	"sync/atomic"
)

type Future interface{ Done() }

type future struct{}

func (*future) Done() {}

// Labels: goto and break reach a labeled select.
func Labels(stop chan struct{}, n int) (i int) {
LOOP:
	if i >= n {
		return
	}
	i++
CHECK:
	select {
	case <-stop:
		break CHECK
	default:
	}
	goto LOOP
}

// Terminating: every case returns, so the function needs no return.
func Terminating(a, b chan int) int {
	select {
	case v := <-a:
		return v
	case b <- 1:
		return 0
	}
}

// Interfaces: a concrete value sent on a channel of interfaces.
func Interfaces(ch chan Future, any chan interface{}) {
	f := &future{}
	ch <- f
	select {
	case any <- f:
	case ch <- f:
	}
}

// Sizes: make with a size of another integer type.
func Sizes(n int64) chan byte { return make(chan byte, n) }

func pair() (int, string) { return 1, "a" }

func show(n int, s string, rest ...int) { fmt.Println(n, s, rest) }

// Spawn: multi-value and variadic arguments are bound at the go statement.
func Spawn(xs []int, c <-chan int) {
	go show(pair())
	go show(1, "b", xs...)
	for range c {
	}
}

// Deferred: an atomic call deferred happens when the function returns.
func Deferred(n *atomic.Int64) int64 {
	defer n.Add(-1)
	return n.Add(1)
}

// Constants: make's size as an untyped float, a rune or a shift of an
// untyped constant, and makes of directional channel types.
func Constants(s uint) (chan int, chan rune, chan int, <-chan int, chan<- int) {
	const n = 1e3
	return make(chan int, n), make(chan rune, 'a'), make(chan int, 1.0<<s), make(<-chan int), make(chan<- int, 2.0)
}

// NilSends: untyped nil sent in select cases on channels of interfaces.
func NilSends(errc chan error, any chan interface{}) {
	select {
	case errc <- nil:
	case any <- nil:
	}
}

type flag bool

// NamedOK: a receive's ok assigned to a variable of a named boolean type.
func NamedOK(ch chan int) (n int, ok flag) {
	n, ok = <-ch
	select {
	case n, ok = <-ch:
	}
	if n, ok = <-ch; ok {
		for n, ok = <-ch; ok; n, ok = <-ch {
		}
	}
	return n, ok
}
