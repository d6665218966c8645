// Package namedresult runs work in a goroutine and waits for it or gives
// up, returning through named results. Nothing here knows about morpheus.
package namedresult

import "errors"

var errGaveUp = errors.New("gave up")

// Wait runs work in a goroutine and returns its error, or gives up when
// quit is closed first. The bug: the goroutine sets the named result code,
// which the bare return reads, and nothing orders the two when Wait gives
// up (GoBench's moby_18412 has the same shape).
func Wait(work func() error, quit <-chan struct{}) (code int, err error) {
	done := make(chan error, 1)
	go func() {
		e := work()
		code = 1
		done <- e
	}()
	select {
	case err = <-done:
	case <-quit:
		err = errGaveUp
	}
	return
}

// WaitFixed is Wait with the code sent on the channel: only the receive
// sets the result.
func WaitFixed(work func() error, quit <-chan struct{}) (code int, err error) {
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		e := work()
		done <- result{1, e}
	}()
	select {
	case r := <-done:
		code, err = r.code, r.err
	case <-quit:
		err = errGaveUp
	}
	return
}
