package rt

import (
	"context"
	"sync"
	"time"
	"unsafe"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// ctx is a cancelable context whose Done channel is controlled and whose
// deadline is on the virtual clock. It is cancelled with its parent: a
// parent of this type (or one that hands its Done channel through, as
// context.WithValue's) keeps it among its children; a parent of a type of
// the program's own (a mock clock's deadline context) whose Done channel is
// controlled is watched by a goroutine of the schedule, as Go's context
// package watches such a parent with a goroutine of its own (watchParent);
// a parent whose Done channel is not controlled (a cancelable context made
// by code that was not rewritten) does not propagate its cancellation.
type ctx struct {
	context.Context
	done     chan struct{}
	deadline time.Time
	hasDL    bool

	mu       sync.Mutex // for calls from goroutines outside control
	err      error
	cause    error
	children []*ctx
	parent   *ctx // the nearest ancestor of this type, nil if none
	timer    *Timer
	afters   []*afterFn // callbacks of Go's context package (ctxafter.go)
}

// ctxKey finds the nearest ctx among a context's ancestors.
var ctxKey int

func (c *ctx) Done() <-chan struct{} { return c.done }

func (c *ctx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		raceSync(unsafe.Pointer(c)) // the cancel happens before
	}
	return c.err
}

func (c *ctx) Deadline() (time.Time, bool) {
	if c.hasDL {
		return c.deadline, true
	}
	return c.Context.Deadline()
}

func (c *ctx) Value(k any) any {
	if k == &ctxKey {
		return c
	}
	return c.Context.Value(k)
}

func newCtx(parent context.Context, pc uintptr) *ctx {
	if parent == nil {
		panic("cannot create context from nil parent")
	}
	c := &ctx{Context: parent, done: make(chan struct{})}
	if core.CurrentTask() != nil {
		register(c.done, prim.Make[struct{}](0, pc))
	}
	p, ok := parent.Value(&ctxKey).(*ctx)
	if t := core.CurrentTask(); t != nil && (!ok || p.done != parent.Done()) && watchParent(t, parent, c, pc) {
		return c
	}
	if ok {
		p.mu.Lock()
		perr, pcause := p.err, p.cause
		if perr == nil {
			p.children = append(p.children, c)
			c.parent = p
		}
		p.mu.Unlock()
		if perr != nil {
			c.cancel(perr, pcause, pc)
		}
	}
	return c
}

func (c *ctx) cancel(err, cause error, pc uintptr) {
	if cause == nil {
		cause = err
	}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return
	}
	c.err, c.cause = err, cause
	raceSync(unsafe.Pointer(c))
	kids := c.children
	c.children = nil
	parent := c.parent
	c.parent = nil
	afters := c.afters
	c.afters = nil
	c.mu.Unlock()
	if cc, ok := lookup[struct{}](chanKey(c.done)); ok && core.CurrentTask() != nil {
		cc.Close(pc)
	} else {
		close(c.done)
	}
	for _, k := range kids {
		k.cancel(err, cause, pc)
	}
	runAfters(afters)
	if c.timer != nil {
		c.timer.Stop()
	}
	if parent != nil {
		parent.removeChild(c) // as Go's context does: a parent does not keep its cancelled children
	}
}

// removeChild takes k out of c's children.
func (c *ctx) removeChild(k *ctx) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, x := range c.children {
		if x == k {
			c.children = append(c.children[:i], c.children[i+1:]...)
			return
		}
	}
}

// WithCancel stands for context.WithCancel.
//
//go:noinline
func WithCancel(parent context.Context) (context.Context, context.CancelFunc) {
	pc := goruntime.CallerPC()
	c := newCtx(parent, pc)
	return c, func() { c.cancel(context.Canceled, nil, pc) }
}

// WithCancelCause stands for context.WithCancelCause.
//
//go:noinline
func WithCancelCause(parent context.Context) (context.Context, context.CancelCauseFunc) {
	pc := goruntime.CallerPC()
	c := newCtx(parent, pc)
	return c, func(cause error) { c.cancel(context.Canceled, cause, pc) }
}

// WithTimeout stands for context.WithTimeout, on the virtual clock.
//
//go:noinline
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return withDeadline(parent, Now().Add(d), nil, goruntime.CallerPC())
}

// WithDeadline stands for context.WithDeadline, on the virtual clock.
//
//go:noinline
func WithDeadline(parent context.Context, t time.Time) (context.Context, context.CancelFunc) {
	return withDeadline(parent, t, nil, goruntime.CallerPC())
}

// WithTimeoutCause stands for context.WithTimeoutCause.
//
//go:noinline
func WithTimeoutCause(parent context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	return withDeadline(parent, Now().Add(d), cause, goruntime.CallerPC())
}

// WithDeadlineCause stands for context.WithDeadlineCause.
//
//go:noinline
func WithDeadlineCause(parent context.Context, t time.Time, cause error) (context.Context, context.CancelFunc) {
	return withDeadline(parent, t, cause, goruntime.CallerPC())
}

func withDeadline(parent context.Context, t time.Time, cause error, pc uintptr) (context.Context, context.CancelFunc) {
	outside := core.CurrentTask() == nil
	if outside {
		// Outside control a context's deadline goes to code that reads the
		// real clock (the standard library's network, net/http): it is kept
		// on the real clock, as far ahead as t is on the outside clock.
		t = time.Now().Add(t.Sub(outsideNow()))
	}
	c := newCtx(parent, pc)
	if pd, ok := parent.Deadline(); ok && pd.Before(t) {
		t = pd
	}
	c.deadline, c.hasDL = t, true
	var d time.Duration
	if outside {
		d = time.Until(t)
	} else {
		d = t.Sub(prim.Peek()) // not a read: WithTimeout's own read made t
	}
	if d <= 0 {
		c.cancel(context.DeadlineExceeded, cause, pc)
		return c, func() { c.cancel(context.Canceled, nil, pc) }
	}
	if c.Err() == nil {
		c.mu.Lock()
		c.timer = newTimer(d, func() { c.cancel(context.DeadlineExceeded, cause, pc) }, pc)
		c.mu.Unlock()
	}
	return c, func() { c.cancel(context.Canceled, nil, pc) }
}

// Cause stands for context.Cause.
func Cause(c context.Context) error {
	if x, ok := c.Value(&ctxKey).(*ctx); ok {
		x.mu.Lock()
		defer x.mu.Unlock()
		if x.err != nil {
			raceSync(unsafe.Pointer(x))
		}
		return x.cause
	}
	return context.Cause(c)
}

// watchParent makes c a child of parent, a context of a type of its own
// whose Done channel is controlled, as Go's context package does for such a
// parent: c is cancelled at once if parent is done, else a goroutine of the
// schedule waits for parent or c to be done and cancels c with parent's
// error and cause. The waiting, which may last past the test (a parent
// nobody cancels), is no leak, as context.AfterFunc's. It reports false if
// parent's Done channel is nil or not controlled (nothing to watch).
func watchParent(t *core.Task, parent context.Context, c *ctx, pc uintptr) bool {
	done := parent.Done()
	if done == nil {
		return false
	}
	dc, ok := lookup[struct{}](chanKey(done))
	if !ok || dc == nil {
		return false
	}
	cc, _ := lookup[struct{}](chanKey(c.done))
	propagate := func() {
		err, cause := parent.Err(), Cause(parent)
		if err == nil { // a parent done without an error: as cancelled
			err = context.Canceled
		}
		if cause == nil {
			cause = err
		}
		c.cancel(err, cause, pc)
	}
	isDone := false
	prim.Select([]prim.Case{
		prim.RecvCase(dc, func(struct{}, bool) { isDone = true }),
		prim.DefaultCase(nil),
	}, pc)
	if isDone {
		propagate()
		return true
	}
	w := prim.Spawn(t, t.Run(), pc, func() {
		chosen := -1
		prim.Select([]prim.Case{
			prim.RecvCase(dc, func(struct{}, bool) { chosen = 0 }),
			prim.RecvCase(cc, func(struct{}, bool) { chosen = 1 }),
		}, pc)
		if chosen == 0 {
			propagate()
		}
	})
	w.Daemon = true
	return true
}
