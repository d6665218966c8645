package rt

import (
	"reflect"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Case is one case of a rewritten select statement: OnRecv or OnSend.
type Case interface {
	// ctl returns the controlled case, which sets *chosen to i when taken, or
	// false for a foreign channel.
	ctl(chosen *int, i int) (prim.Case, bool)
	// try performs the case on the native channel if it is ready now.
	try() bool
	native() reflect.SelectCase
	took(v reflect.Value, ok bool)
	// outside tells the controlled channel of an op outside control.
	outside(pc uintptr)
}

// RecvCase is a receive case; after Select took it, V and OK hold what
// was received.
type RecvCase[T any] struct {
	V  T
	OK bool
	ch <-chan T
}

// OnRecv stands for the case <-ch of a select.
func OnRecv[T any](ch <-chan T) *RecvCase[T] { return &RecvCase[T]{ch: ch} }

func (c *RecvCase[T]) ctl(chosen *int, i int) (prim.Case, bool) {
	cc, ok := lookup[T](chanKey(c.ch))
	if !ok {
		return prim.Case{}, false
	}
	return prim.RecvCase(cc, func(v T, ok bool) { c.V, c.OK, *chosen = v, ok, i }), true
}

func (c *RecvCase[T]) outside(pc uintptr) {
	if cc, ok := lookup[T](chanKey(c.ch)); ok {
		cc.Outside("select", pc)
	}
}

func (c *RecvCase[T]) try() bool {
	select {
	case c.V, c.OK = <-c.ch:
		return true
	default:
		return false
	}
}

func (c *RecvCase[T]) native() reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c.ch)}
}

func (c *RecvCase[T]) took(v reflect.Value, ok bool) {
	c.OK = ok
	if ok {
		// A nil interface value received (on a chan error) is a nil any,
		// which v.Interface().(T) would reject: it stays T's zero value.
		c.V, _ = v.Interface().(T)
	}
}

// SendCase is a send case.
type SendCase[T any] struct {
	ch chan<- T
	v  T
}

// OnSend stands for the case ch <- v of a select.
func OnSend[T any](ch chan<- T, v T) *SendCase[T] { return &SendCase[T]{ch: ch, v: v} }

// OnSendFn stands for the case ch <- v of a select where v's type is not
// ch's element type: OnSendFn(ch)(v).
func OnSendFn[T any](ch chan<- T) func(T) *SendCase[T] {
	return func(v T) *SendCase[T] { return &SendCase[T]{ch: ch, v: v} }
}

func (c *SendCase[T]) ctl(chosen *int, i int) (prim.Case, bool) {
	cc, ok := lookup[T](chanKey(c.ch))
	if !ok {
		return prim.Case{}, false
	}
	return prim.SendCase(cc, c.v, func() { *chosen = i }), true
}

func (c *SendCase[T]) outside(pc uintptr) {
	if cc, ok := lookup[T](chanKey(c.ch)); ok {
		cc.Outside("select", pc)
	}
}

func (c *SendCase[T]) try() bool {
	select {
	case c.ch <- c.v:
		return true
	default:
		return false
	}
}

func (c *SendCase[T]) native() reflect.SelectCase {
	return reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(c.ch), Send: reflect.ValueOf(&c.v).Elem()}
}

func (c *SendCase[T]) took(reflect.Value, bool) {}

// Select stands for a select statement: it performs one of the cases, in
// the order written, and returns its index, or -1 if it took the default
// case (def: the statement has one). Which ready case it takes is the
// strategy's choice.
//
//go:noinline
func Select(def bool, cases ...Case) int {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		for _, c := range cases {
			c.outside(pc)
		}
		return nativeSelect(def, cases)
	}
	chosen := -1
	cs := make([]prim.Case, 0, len(cases)+1)
	foreign := false
	for i, c := range cases {
		x, ok := c.ctl(&chosen, i)
		if !ok {
			foreign = true
			continue
		}
		cs = append(cs, x)
	}
	if !foreign {
		if def {
			cs = append(cs, prim.DefaultCase(nil))
		}
		prim.Select(cs, pc)
		return chosen
	}
	noteForeign(pc)
	cs = append(cs, prim.DefaultCase(nil))
	for {
		prim.Select(cs, pc)
		if chosen >= 0 {
			return chosen
		}
		for i, c := range cases {
			if _, ok := c.ctl(&chosen, i); !ok && c.try() {
				return i
			}
		}
		if def {
			return -1
		}
		prim.Sleep(poll, pc)
	}
}

// nativeSelect is a select outside morpheus's control, on the native
// channels (see ctl.Obj.Outside).
func nativeSelect(def bool, cases []Case) int {
	rc := make([]reflect.SelectCase, 0, len(cases)+1)
	for _, c := range cases {
		rc = append(rc, c.native())
	}
	if def {
		rc = append(rc, reflect.SelectCase{Dir: reflect.SelectDefault})
	}
	i, v, ok := reflect.Select(rc)
	if i == len(cases) {
		return -1
	}
	cases[i].took(v, ok)
	return i
}
