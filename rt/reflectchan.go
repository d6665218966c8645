package rt

import (
	"reflect"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// reflect's channel operations: reflect.Select and a reflect.Value's Recv,
// TryRecv, Send, TrySend and Close on a channel that rewritten code made are
// ops of the controlled channel, as the statements they stand for; on any
// other channel (a foreign one, reflect.MakeChan's) they poll it, as a
// select on a foreign channel does.

// reflectChan is a controlled channel of any element type, for reflect's
// channel operations.
type reflectChan interface {
	recvCase(f func(v reflect.Value, ok bool)) prim.Case
	sendCase(v reflect.Value, f func()) prim.Case
	close(pc uintptr)
	outside(what string, pc uintptr)
}

// chanReflect is a controlled channel seen by reflectChan.
type chanReflect[T any] prim.Chan[T]

func (c *chanReflect[T]) recvCase(f func(reflect.Value, bool)) prim.Case {
	return prim.RecvCase((*prim.Chan[T])(c), func(v T, ok bool) { f(reflect.ValueOf(&v).Elem(), ok) })
}

func (c *chanReflect[T]) sendCase(v reflect.Value, f func()) prim.Case {
	var x T
	reflect.ValueOf(&x).Elem().Set(v) // Select checked that v is assignable
	return prim.SendCase((*prim.Chan[T])(c), x, f)
}

func (c *chanReflect[T]) close(pc uintptr) { (*prim.Chan[T])(c).Close(pc) }

func (c *chanReflect[T]) outside(what string, pc uintptr) { (*prim.Chan[T])(c).Outside(what, pc) }

// reflectLookup returns the controlled channel a reflect.Value of a channel
// holds, or nil (not a channel, a nil one, a foreign one).
func reflectLookup(v reflect.Value) reflectChan {
	if !v.IsValid() || v.Kind() != reflect.Chan || v.IsNil() {
		return nil
	}
	e, ok := table.Load(uintptr(v.UnsafePointer()))
	if !ok || e.(*entry).ch.Value() != (*byte)(v.UnsafePointer()) {
		return nil
	}
	return e.(*entry).r
}

// ReflectSelect stands for reflect.Select.
//
//go:noinline
func ReflectSelect(cases []reflect.SelectCase) (chosen int, recv reflect.Value, recvOK bool) {
	return reflectSelect(cases, goruntime.CallerPC())
}

func reflectSelect(cases []reflect.SelectCase, pc uintptr) (int, reflect.Value, bool) {
	if core.CurrentTask() == nil {
		for _, c := range cases {
			if rc := reflectLookup(c.Chan); rc != nil {
				rc.outside("select", pc)
			}
		}
		return reflect.Select(cases)
	}
	// reflect's own checks first (a send on a receive-only channel, a value
	// not assignable to the element type, two defaults), with each channel
	// nil, which never gets ready.
	check := make([]reflect.SelectCase, len(cases), len(cases)+1)
	def := -1
	for i, c := range cases {
		check[i] = c
		if c.Dir == reflect.SelectDefault {
			def = i
		} else if c.Chan.IsValid() && c.Chan.Kind() == reflect.Chan {
			check[i].Chan = reflect.Zero(c.Chan.Type())
		}
	}
	if def < 0 {
		check = append(check, reflect.SelectCase{Dir: reflect.SelectDefault})
	}
	reflect.Select(check)

	chosen, recv, recvOK := -1, reflect.Value{}, false
	cs := make([]prim.Case, 0, len(cases)+1)
	var foreign []int
	for i, c := range cases {
		if c.Dir == reflect.SelectDefault || !c.Chan.IsValid() || c.Chan.IsNil() {
			continue // a nil channel is never ready
		}
		rc := reflectLookup(c.Chan)
		if rc == nil {
			foreign = append(foreign, i)
			continue
		}
		if c.Dir == reflect.SelectRecv {
			cs = append(cs, rc.recvCase(func(v reflect.Value, ok bool) { chosen, recv, recvOK = i, v, ok }))
		} else {
			cs = append(cs, rc.sendCase(c.Send, func() { chosen = i }))
		}
	}
	if len(foreign) == 0 {
		if def >= 0 {
			cs = append(cs, prim.DefaultCase(func() { chosen = def }))
		}
		prim.Select(cs, pc)
		return chosen, recv, recvOK
	}
	noteForeign(pc)
	cs = append(cs, prim.DefaultCase(nil))
	try := make([]reflect.SelectCase, 0, len(foreign)+1)
	for _, i := range foreign {
		try = append(try, cases[i])
	}
	try = append(try, reflect.SelectCase{Dir: reflect.SelectDefault})
	for {
		prim.Select(cs, pc)
		if chosen >= 0 {
			return chosen, recv, recvOK
		}
		if j, v, ok := reflect.Select(try); j < len(foreign) {
			return foreign[j], v, ok
		}
		if def >= 0 {
			return def, reflect.Value{}, false
		}
		prim.Sleep(poll, pc)
	}
}

// ValueRecv stands for v.Recv() of a reflect.Value.
//
//go:noinline
func ValueRecv(v reflect.Value) (reflect.Value, bool) {
	if v.Kind() != reflect.Chan {
		return v.Recv() // reflect's panic
	}
	_, x, ok := reflectSelect([]reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: v}}, goruntime.CallerPC())
	return x, ok
}

// ValueTryRecv stands for v.TryRecv() of a reflect.Value.
//
//go:noinline
func ValueTryRecv(v reflect.Value) (reflect.Value, bool) {
	if v.Kind() != reflect.Chan {
		return v.TryRecv()
	}
	i, x, ok := reflectSelect([]reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: v}, {Dir: reflect.SelectDefault}}, goruntime.CallerPC())
	if i != 0 {
		return reflect.Value{}, false // not ready: the zero Value, as reflect's
	}
	if !ok {
		return reflect.Zero(v.Type().Elem()), false // closed
	}
	return x, true
}

// ValueSend stands for v.Send(x) of a reflect.Value.
//
//go:noinline
func ValueSend(v, x reflect.Value) {
	if v.Kind() != reflect.Chan {
		v.Send(x)
		return
	}
	reflectSelect([]reflect.SelectCase{{Dir: reflect.SelectSend, Chan: v, Send: x}}, goruntime.CallerPC())
}

// ValueTrySend stands for v.TrySend(x) of a reflect.Value.
//
//go:noinline
func ValueTrySend(v, x reflect.Value) bool {
	if v.Kind() != reflect.Chan {
		return v.TrySend(x)
	}
	i, _, _ := reflectSelect([]reflect.SelectCase{{Dir: reflect.SelectSend, Chan: v, Send: x}, {Dir: reflect.SelectDefault}}, goruntime.CallerPC())
	return i == 0
}

// ValueClose stands for v.Close() of a reflect.Value.
//
//go:noinline
func ValueClose(v reflect.Value) {
	pc := goruntime.CallerPC()
	rc := reflectLookup(v)
	if rc == nil || core.CurrentTask() == nil {
		if rc != nil {
			rc.outside("close", pc)
		}
		v.Close()
		return
	}
	rc.close(pc)
}
