package untyped

import "errors"

// Errs is a named channel type of an interface.
type Errs chan error

type mark struct{}

// Shout is an interface a mark satisfies.
type Shout interface{ Loud() }

func (mark) Loud() {}

// fromInit is what a select in the package's init received: it runs
// before any test, outside control.
var fromInit = errors.New("init's select did not run")

func init() {
	errc := make(chan error, 1)
	select {
	case errc <- nil:
	}
	select {
	case err := <-errc:
		fromInit = err
	}
}

// Worker reports its outcome with a select that sends untyped nil on a
// channel of interface type, beside a stop channel.
func Worker(fail bool, errc chan<- error, stop <-chan struct{}) {
	var err error
	if fail {
		err = errors.New("failed")
	}
	if err != nil {
		select {
		case errc <- err:
		case <-stop:
		}
		return
	}
	select {
	case errc <- nil:
	case <-stop:
	}
}
