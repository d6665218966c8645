package rt_test

import (
	"testing"

	"github.com/morpheus-go/morpheus/rt"
)

// A select case that sends a nil interface value (case errc <- nil on a
// chan error) sends it, as the same send as a statement does: taken at
// once on a buffered channel, and after waiting for a receiver on an
// unbuffered one.
func TestSelectSendsNilInterface(t *testing.T) {
	if f := explore(t, 20, func() {
		errc := rt.Make[chan error](1)
		if rt.Select(false, rt.OnSend(errc, nil)) != 0 {
			panic("the send case was not taken")
		}
		if err := rt.Recv(errc); err != nil {
			panic(err)
		}
		unbuf := rt.Make[chan any](0)
		rt.Go(func() {
			if v := rt.Recv(unbuf); v != nil {
				panic(v)
			}
		})
		if rt.Select(false, rt.OnSend(unbuf, nil)) != 0 {
			panic("the send case was not taken")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
}

// Outside a task (a package's init), a select runs on the native
// channels; a nil interface value received is the receive case's value.
func TestNativeSelectReceivesNilInterface(t *testing.T) {
	errc := rt.Make[chan error](1)
	errc <- nil
	c := rt.OnRecv(errc)
	if rt.Select(false, c) != 0 || !c.OK || c.V != nil {
		t.Fatalf("got %v, %v", c.V, c.OK)
	}
}

// make of a receive-only or a send-only channel type, which Go allows,
// makes a controlled channel of that type.
func TestMakeDirectional(t *testing.T) {
	if f := explore(t, 1, func() {
		ro := rt.MakeRecv[<-chan int](0)
		so := rt.MakeSend[chan<- int](2)
		rt.Send(so, 1)
		if rt.LenSend(so) != 1 || cap(so) != 2 || cap(ro) != 0 {
			panic("wrong length or capacity")
		}
	}); f != nil {
		t.Fatal(f.Report())
	}
}
