package rt

import "sync/atomic"

// Go's context package, deriving a context from a parent of a type it does
// not know (context.WithCancel, WithTimeout, AfterFunc called by code that
// is not rewritten, net/http's on a request's context), registers the child
// with the parent's AfterFunc method if it has one, and otherwise starts a
// goroutine that waits for the parent or the child to be done
// (context.propagateCancel). Without the method every such child of a
// stand-in would leave a goroutine of the standard library behind while
// both live (an application's leak check counts them, as go test does
// not), and under control, where cancelling a stand-in closes its
// controlled channel and not the native one that goroutine waits on, the
// child would never be cancelled.

// afterFn is one callback registered with a stand-in context.
type afterFn struct {
	f    func()
	done atomic.Bool // run or stopped: whoever sets it first decides
}

// AfterFunc arranges for f to run once c is done, and returns a function
// that keeps f from running (true if it did). It is the method Go's context
// package looks for (its afterFuncer): f is that package's callback, which
// cancels a context derived from c. f runs in the goroutine that cancels c,
// right after c's own children, as Go's cancelCtx cancels its children; if
// c is already done it runs at once.
func (c *ctx) AfterFunc(f func()) (stop func() bool) {
	a := &afterFn{f: f}
	c.mu.Lock()
	if c.err == nil {
		c.afters = append(c.afters, a)
		c.mu.Unlock()
	} else {
		c.mu.Unlock()
		runAfters([]*afterFn{a})
	}
	return func() bool {
		if !a.done.CompareAndSwap(false, true) {
			return false
		}
		c.mu.Lock()
		for i, x := range c.afters {
			if x == a {
				c.afters = append(c.afters[:i], c.afters[i+1:]...)
				break
			}
		}
		c.mu.Unlock()
		return true
	}
}

// runAfters runs the callbacks that were not stopped, in the order they
// were registered.
func runAfters(afters []*afterFn) {
	for _, a := range afters {
		if a.done.CompareAndSwap(false, true) {
			a.f()
		}
	}
}
