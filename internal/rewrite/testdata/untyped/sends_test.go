package untyped

import (
	"errors"
	"testing"
)

func TestInitSelect(t *testing.T) {
	if fromInit != nil {
		t.Fatal(fromInit)
	}
}

func TestSendNilInSelect(t *testing.T) {
	errc := make(chan error)
	stop := make(chan struct{})
	go Worker(false, errc, stop)
	go Worker(true, errc, stop)
	var failed int
	for range 2 {
		if err := <-errc; err != nil {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("%d workers failed, want 1", failed)
	}
}

// Named channel types, values of concrete types on channels of interfaces,
// untyped constants and nil in select cases, and receives that assign to
// variables of interface type.
func TestSelectShapes(t *testing.T) {
	e := make(Errs, 2)
	select {
	case e <- nil:
	}
	select {
	case e <- errors.New("x"):
	}
	var err error
	select {
	case err = <-e:
	}
	if err != nil {
		t.Fatal(err)
	}
	var ok bool
	select {
	case err, ok = <-e:
	}
	if err == nil || !ok {
		t.Fatal("want the second error")
	}
	anyc := make(chan any, 3)
	select {
	case anyc <- nil:
	}
	select {
	case anyc <- 1.5:
	}
	select {
	case anyc <- mark{}:
	}
	var v any
	select {
	case v = <-anyc:
	}
	if v != nil {
		t.Fatalf("got %v, want nil", v)
	}
	if <-anyc != 1.5 || <-anyc != (mark{}) {
		t.Fatal("wrong values")
	}
	var none error // a nil value of another interface type
	select {
	case anyc <- none:
	}
	if <-anyc != nil {
		t.Fatal("want nil")
	}
	sc := make(chan Shout, 2)
	select {
	case sc <- mark{}:
	}
	select {
	case sc <- nil:
	}
	if <-sc == nil || <-sc != nil {
		t.Fatal("wrong values")
	}
	type state int
	st := make(chan state, 1)
	select {
	case st <- 1:
	}
	var s any = <-st
	if s.(state) != 1 {
		t.Fatal(s)
	}
	fc := make(chan float64, 1)
	select {
	case fc <- 'a':
	}
	if <-fc != 97 {
		t.Fatal("wrong value")
	}
	var nilc Errs
	select {
	case nilc <- nil:
		t.Fatal("sent on a nil channel")
	default:
	}
	type flag bool
	var got flag
	bc := make(chan int, 1)
	bc <- 1
	select {
	case _, got = <-bc:
	}
	if !got {
		t.Fatal("want ok")
	}
	bc <- 2
	var n int
	n, got = <-bc // the same receive as a statement
	close(bc)
	if n != 2 || !got {
		t.Fatalf("got %d, %v", n, got)
	}
	_, got = <-bc
	if got {
		t.Fatal("want !ok from a closed channel")
	}
	// The same receive in an if, switch or for statement's init and a for
	// statement's post, where it cannot be split in two statements.
	hc := make(chan int, 2)
	hc <- 3
	if n, got = <-hc; !got || n != 3 {
		t.Fatalf("if: got %d, %v", n, got)
	}
	hc <- 4
	switch n, got = <-hc; got {
	case false:
		t.Fatal("switch: want ok")
	}
	var f struct{ ok flag }
	hc <- 5
	hc <- 6
	sum := 0
	for n, f.ok = <-hc; f.ok; n, f.ok = <-hc {
		if sum += n; n == 6 {
			close(hc)
		}
	}
	if sum != 11 {
		t.Fatalf("for: sum %d, want 11", sum)
	}
	if sameFirst(make(Errs, 1)) != nil {
		t.Fatal("want nil")
	}
}

// sameFirst sends nil on a channel whose type is a type parameter.
func sameFirst[C ~chan error](c C) error {
	select {
	case c <- nil:
	}
	select {
	case err := <-c:
		return err
	}
}
