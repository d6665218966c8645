package rt

import (
	"runtime"
	"sync"
	"time"
	"unsafe"
	"weak"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// table maps a native channel (the address of its runtime object) to the
// controlled channel that carries its values. An entry holds its channel only
// weakly, so channels die as usual; a cleanup removes the entry, and a
// lookup that finds an entry whose channel died (the address reused
// before the cleanup ran) ignores it.
var table sync.Map // uintptr -> *entry

type entry struct {
	ch weak.Pointer[byte]
	c  any         // *prim.Chan[T]
	r  reflectChan // the same channel, for reflect's channel operations
}

// chanKey returns a channel's runtime pointer; C is a channel type.
func chanKey[C any](c C) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&c))
}

func register[T any](n chan T, c *prim.Chan[T]) {
	c.SetNative(n)
	k := chanKey(n)
	e := &entry{ch: weak.Make((*byte)(k)), c: c, r: (*chanReflect[T])(c)}
	table.Store(uintptr(k), e)
	runtime.AddCleanup((*byte)(k), func(key uintptr) { table.CompareAndDelete(key, e) }, uintptr(k))
}

// lookup returns the controlled channel of a native one, nil for a nil channel;
// ok is false for a foreign channel.
func lookup[T any](k unsafe.Pointer) (c *prim.Chan[T], ok bool) {
	if k == nil {
		return nil, true
	}
	v, ok := table.Load(uintptr(k))
	if !ok {
		return nil, false
	}
	e := v.(*entry)
	if e.ch.Value() != (*byte)(k) {
		return nil, false
	}
	return e.c.(*prim.Chan[T]), true
}

// Make stands for make(C, n) of a channel type C.
//
//go:noinline
func Make[C ~chan T, T any, N integer](size N) C { return C(makeChan[T](size, goruntime.CallerPC())) }

// MakeRecv stands for make(C, n) of a receive-only channel type C
// (make(<-chan T)), which Go allows: nothing can ever be sent on it.
//
//go:noinline
func MakeRecv[C ~<-chan T, T any, N integer](size N) C {
	return C(makeChan[T](size, goruntime.CallerPC()))
}

// MakeSend stands for make(C, n) of a send-only channel type C.
//
//go:noinline
func MakeSend[C ~chan<- T, T any, N integer](size N) C {
	return C(makeChan[T](size, goruntime.CallerPC()))
}

func makeChan[T any, N integer](size N, pc uintptr) chan T {
	n := int(size)
	if N(n) != size {
		panic(plainError("makechan: size out of range"))
	}
	c := prim.Make[T](n, pc)
	nc := make(chan T, n)
	register(nc, c)
	return nc
}

// integer is any integer type: make's size may be any.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Send stands for ch <- v.
//
//go:noinline
func Send[T any](ch chan<- T, v T) {
	pc := goruntime.CallerPC()
	c, ok := lookup[T](chanKey(ch))
	if !ok {
		foreignSend(ch, v, pc)
		return
	}
	if core.CurrentTask() == nil {
		c.Outside("send", pc)
		ch <- v
		return
	}
	c.Send(v, pc)
}

// SendFn stands for ch <- v where v's type is not ch's element type: the
// rewriter writes SendFn(ch)(v), so that v converts to the element type.
// The send is located at the line of the call of SendFn.
//
//go:noinline
func SendFn[T any](ch chan<- T) func(T) {
	pc := goruntime.CallerPC()
	return func(v T) {
		c, ok := lookup[T](chanKey(ch))
		if !ok {
			foreignSend(ch, v, pc)
			return
		}
		if core.CurrentTask() == nil {
			c.Outside("send", pc)
			ch <- v
			return
		}
		c.Send(v, pc)
	}
}

// Recv stands for <-ch.
//
//go:noinline
func Recv[T any](ch <-chan T) T {
	v, _ := recv(ch, goruntime.CallerPC())
	return v
}

// RecvOK stands for v, ok := <-ch.
//
//go:noinline
func RecvOK[T any](ch <-chan T) (T, bool) { return recv(ch, goruntime.CallerPC()) }

// RecvOKAs stands for v, ok = <-ch where ok's type B is a boolean type
// other than bool and the assignment cannot be split in two statements (an
// if, for or switch statement's init or a for statement's post): like gives
// B, its value is not used.
//
//go:noinline
func RecvOKAs[T any, B ~bool](ch <-chan T, like B) (T, B) {
	v, ok := recv(ch, goruntime.CallerPC())
	return v, B(ok)
}

func recv[T any](ch <-chan T, pc uintptr) (T, bool) {
	c, ok := lookup[T](chanKey(ch))
	if !ok {
		return foreignRecv(ch, pc)
	}
	if core.CurrentTask() == nil {
		c.Outside("receive", pc)
		v, ok := <-ch
		return v, ok
	}
	return c.Recv(pc, "Chan.Recv")
}

// Close stands for close(ch).
//
//go:noinline
func Close[T any](ch chan<- T) {
	pc := goruntime.CallerPC()
	c, ok := lookup[T](chanKey(ch))
	if !ok || core.CurrentTask() == nil {
		if ok {
			c.Outside("close", pc)
		}
		close(ch)
		if c != nil {
			c.ClosedOutside()
		}
		return
	}
	if c == nil {
		panic(plainError("close of nil channel"))
	}
	c.Close(pc)
}

// Len stands for len(ch).
//
//go:noinline
func Len[T any](ch <-chan T) int { return length[T](chanKey(ch), len(ch), goruntime.CallerPC()) }

// LenSend stands for len(ch) of a send-only channel.
//
//go:noinline
func LenSend[T any](ch chan<- T) int { return length[T](chanKey(ch), len(ch), goruntime.CallerPC()) }

func length[T any](k unsafe.Pointer, native int, pc uintptr) int {
	c, ok := lookup[T](k)
	if !ok || c == nil {
		return native
	}
	if core.CurrentTask() == nil {
		c.Outside("len", pc)
		return native
	}
	return c.Len(pc)
}

// plainError is a runtime.Error with Go's message.
type plainError string

func (e plainError) Error() string { return string(e) }
func (e plainError) RuntimeError() {}

// poll is how long of virtual time a task waits between two tries of a
// foreign channel.
const poll = time.Millisecond

func foreignSend[T any](ch chan<- T, v T, pc uintptr) {
	if core.CurrentTask() == nil {
		ch <- v
		return
	}
	noteForeign(pc)
	for {
		select {
		case ch <- v:
			return
		default:
		}
		prim.Sleep(poll, pc)
	}
}

func foreignRecv[T any](ch <-chan T, pc uintptr) (T, bool) {
	if core.CurrentTask() == nil {
		v, ok := <-ch
		return v, ok
	}
	noteForeign(pc)
	for {
		select {
		case v, ok := <-ch:
			return v, ok
		default:
		}
		prim.Sleep(poll, pc)
	}
}
