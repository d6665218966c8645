package rt_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// reflect.Select and a reflect.Value's channel methods on channels that
// rewritten code made are ops of those channels: a fan-in by reflection
// waits for its senders as the statements would, a value sent by one is
// received by the other, a foreign channel among the cases is polled, and
// reflect's own checks still panic.
func TestReflectChan(t *testing.T) {
	if f := explore(t, 50, func() {
		a, b := rt.Make[chan int](0), rt.Make[chan int](0)
		out := rt.Make[chan any](0)
		foreign := make(chan int, 1)
		rt.Go(func() {
			cases := []reflect.SelectCase{
				{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(a)},
				{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(b)},
				{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(foreign)},
			}
			for open := 3; open > 0; {
				i, v, ok := rt.ReflectSelect(cases)
				if !ok {
					cases[i].Chan = reflect.Value{}
					open--
					continue
				}
				rt.ValueSend(reflect.ValueOf(out), v)
			}
			rt.ValueSend(reflect.ValueOf(out), reflect.Zero(reflect.TypeFor[any]())) // a nil interface value
			rt.ValueClose(reflect.ValueOf(out))
		})
		rt.Go(func() { rt.Send(a, 1); rt.Close(a) })
		rt.Go(func() {
			rt.ValueSend(reflect.ValueOf(b), reflect.ValueOf(2))
			rt.ValueClose(reflect.ValueOf(b))
		})
		rt.Go(func() { foreign <- 4; close(foreign) })
		sum, nils := 0, 0
		for {
			v, ok := rt.ValueRecv(reflect.ValueOf(out))
			if !ok {
				break
			}
			if v.IsNil() {
				nils++
				continue
			}
			sum += v.Elem().Interface().(int)
		}
		if sum != 7 || nils != 1 {
			panic("fan-in by reflection lost values")
		}
		buf := rt.Make[chan int](1)
		if !rt.ValueTrySend(reflect.ValueOf(buf), reflect.ValueOf(5)) || rt.ValueTrySend(reflect.ValueOf(buf), reflect.ValueOf(6)) {
			panic("TrySend")
		}
		if rt.Len(buf) != 1 {
			panic("TrySend's value is not in the controlled channel")
		}
		if v, ok := rt.ValueTryRecv(reflect.ValueOf(buf)); !ok || v.Int() != 5 {
			panic("TryRecv")
		}
		if v, ok := rt.ValueTryRecv(reflect.ValueOf(buf)); ok || v.IsValid() {
			panic("TryRecv of an empty channel")
		}
		i, _, _ := rt.ReflectSelect([]reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(buf)}, {Dir: reflect.SelectDefault}})
		if i != 1 {
			panic("default not taken")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
	// reflect's checks: a send on a receive-only channel panics as reflect's.
	f := explore(t, 1, func() {
		var ro <-chan int = rt.Make[chan int](1)
		rt.ReflectSelect([]reflect.SelectCase{{Dir: reflect.SelectSend, Chan: reflect.ValueOf(ro), Send: reflect.ValueOf(1)}})
	})
	if f == nil || f.Kind != "panic" || !strings.Contains(f.Message, "recv-only") {
		t.Fatalf("want reflect's panic, got %+v", f)
	}
	// A receive nobody will satisfy is a deadlock at the user's line.
	f = explore(t, 1, func() {
		rt.ValueRecv(reflect.ValueOf(rt.Make[chan int](0)))
	})
	if f == nil || f.Kind != "deadlock" || !strings.Contains(f.Message, "reflectchan_test.go:") {
		t.Fatalf("want a deadlock at reflectchan_test.go, got %+v", f)
	}
}
