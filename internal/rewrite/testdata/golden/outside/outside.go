// Package outside registers finalizers and cleanups.
package outside

import (
	"context"
	"runtime"
)

type res struct{ stop chan bool }

func open() *res {
	r := &res{stop: make(chan bool, 1)}
	runtime.SetFinalizer(r, func(r *res) { r.stop <- true })
	c := runtime.AddCleanup(r, func(ch chan bool) { close(ch) }, make(chan bool))
	c.Stop()
	context.AfterFunc(context.Background(), func() { r.stop <- true })
	return r
}
