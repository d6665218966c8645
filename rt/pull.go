package rt

import (
	"iter"
	"runtime"
	"unsafe"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/internal/prim"
)

// Pull stands for iter.Pull. Go's runs the sequence on a coroutine of its
// runtime, which belongs to no goroutine morpheus schedules. Under control
// the sequence runs on a goroutine of the schedule instead, started at the
// first call of next, and the caller and the sequence hand control to each
// other over two controlled channels: next resumes the sequence and waits
// until it yields or returns; stop makes the pending yield return false and
// waits until the sequence has returned. So the sequence's ops are ops of
// the schedule, its memory accesses are checked for races against the
// other goroutines, and each hand-off orders the accesses before it, on
// either side, before those after it on the other (as Go's detector sees
// a coroutine switch). Everything else is Go's: next after the end or
// after stop returns the zero value and false; a panic of the sequence is
// raised again by the next or stop that resumed it, a runtime.Goexit
// likewise; the misuses Go's panics on panic with its messages, and calls
// of next and stop from two goroutines that nothing orders race, as Go's
// detector reports them. A sequence neither stopped nor finished when the
// test ends waits in its yield forever, as Go's coroutine does: a leak,
// reported as one. Outside control (package initialization, TestMain) it
// is Go's.
//
//go:noinline
func Pull[V any](seq iter.Seq[V]) (next func() (V, bool), stop func()) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return iter.Pull(seq)
	}
	p := newPull("iter.Pull", pc)
	var v V
	p.clear = func() { var zero V; v = zero }
	p.body = func() {
		seq(func(v1 V) bool {
			return p.yield(goruntime.CallerPC(), func() { v = v1 })
		})
	}
	next = func() (V, bool) {
		if !p.next(goruntime.CallerPC()) {
			var zero V
			return zero, false
		}
		return v, true
	}
	stop = func() { p.stop(goruntime.CallerPC()) }
	return next, stop
}

// Pull2 stands for iter.Pull2, as Pull stands for iter.Pull.
//
//go:noinline
func Pull2[K, V any](seq iter.Seq2[K, V]) (next func() (K, V, bool), stop func()) {
	pc := goruntime.CallerPC()
	if core.CurrentTask() == nil {
		return iter.Pull2(seq)
	}
	p := newPull("iter.Pull2", pc)
	var k K
	var v V
	p.clear = func() {
		var zk K
		var zv V
		k, v = zk, zv
	}
	p.body = func() {
		seq(func(k1 K, v1 V) bool {
			return p.yield(goruntime.CallerPC(), func() { k, v = k1, v1 })
		})
	}
	next = func() (K, V, bool) {
		if !p.next(goruntime.CallerPC()) {
			var zk K
			var zv V
			return zk, zv, false
		}
		return k, v, true
	}
	stop = func() { p.stop(goruntime.CallerPC()) }
	return next, stop
}

// pull is the state of a pull iterator under control, shared by its next,
// its stop and the goroutine of its sequence. One side runs at a time (the
// other waits on a channel), so it needs no lock; the channels' hand-offs
// order its accesses.
type pull struct {
	name string  // "iter.Pull" or "iter.Pull2", for the panics of misuse
	call string  // "iter.Pull's next and stop": the race report's name of their write
	pc   uintptr // the call of Pull: where the sequence's goroutine is said to start
	// resume wakes the sequence (from next or stop), back the caller (from
	// a yield or the sequence's end).
	resume, back *prim.Chan[struct{}]
	body         func() // runs the sequence with its yield
	clear        func() // zeroes the value held
	started      bool   // the sequence's goroutine was started
	done         bool   // stopped, or the sequence ended: next returns false
	yieldNext    bool   // next waits for the sequence to yield
	seqDone      bool   // the sequence returned (not a panic or Goexit)
	yielded      bool   // the last hand-off back was a yield with a value
	panicValue   any    // the sequence's panic, raised again by next or stop
	goexit       bool   // the sequence called runtime.Goexit
	gen          uint64 // the schedule (core.Run.Gen) the sequence runs in
	// racer is written by every next and stop, as Go's detector sees
	// them write: calls from two goroutines that nothing orders are a race.
	racer int
}

func newPull(name string, pc uintptr) *pull {
	return &pull{name: name, call: name + "'s next and stop", pc: pc, resume: prim.Make[struct{}](1, pc), back: prim.Make[struct{}](1, pc),
		gen: core.CurrentTask().Run().Gen()}
}

// next resumes the sequence, starting its goroutine the first time, and
// reports whether it yielded a value.
func (p *pull) next(pc uintptr) bool {
	if !p.enter(pc) || p.done {
		return false
	}
	if p.yieldNext {
		panic(p.name + ": next called again before yield")
	}
	p.yieldNext = true
	p.switchTo(pc)
	return p.yielded
}

// stop ends the iteration: the pending yield returns false, and stop waits
// for the sequence to return. A sequence never started never runs.
func (p *pull) stop(pc uintptr) {
	if !p.enter(pc) || p.done {
		return
	}
	p.done = true
	if !p.started {
		return
	}
	p.switchTo(pc)
}

// enter is the access every next and stop makes, before it hands control
// over (so the hand-off does not order it): a write op, checked for races
// against the other goroutines' calls. It is an op of its own, as Go's
// detector checks it even when next or stop does nothing. It reports
// false when the iterator cannot go on here: called outside control, or in
// a later schedule than the one its sequence's goroutine ran in, which
// ended with that schedule (as a goroutine blocked on a channel kept in
// package-level memory does); next then returns the zero value and false,
// and stop does nothing, as after the end. An iterator whose sequence
// never started starts it in the schedule that calls next.
func (p *pull) enter(pc uintptr) bool {
	t := core.CurrentTask()
	if t == nil {
		return false
	}
	if g := t.Run().Gen(); g != p.gen {
		if p.started {
			return false
		}
		p.gen = g
	}
	access(t, unsafe.Pointer(&p.racer), true, p.call, pc)
	return true
}

// switchTo hands control to the sequence and waits for it to hand it back,
// then raises the sequence's panic or Goexit, if it ended so.
func (p *pull) switchTo(pc uintptr) {
	if !p.started {
		p.started = true
		t := core.CurrentTask()
		g := prim.Spawn(t, t.Run(), pc, p.run)
		g.SpawnPC = p.pc // a leak report names the call of Pull
	} else {
		p.resume.Send(struct{}{}, pc)
	}
	p.back.Recv(pc, p.call)
	if p.panicValue != nil {
		panic(p.panicValue)
	}
	if p.goexit {
		runtime.Goexit()
	}
}

// run is the body of the sequence's goroutine.
func (p *pull) run() {
	defer p.end()
	p.body()
	p.seqDone = true
}

// yield hands the value set stores to the caller of next and waits to be
// resumed; it reports whether the iteration goes on.
func (p *pull) yield(pc uintptr, set func()) bool {
	if p.done {
		return false
	}
	if !p.yieldNext {
		panic(p.name + ": yield called again before next")
	}
	p.yieldNext = false
	set()
	p.yielded = true
	p.back.Send(struct{}{}, pc)
	p.resume.Recv(pc, p.call)
	return !p.done
}

// end runs when the sequence's body is over, however it ended: it hands
// control back to the caller for the last time, with the sequence's panic
// or Goexit to raise again. The unwinding of a schedule that is over hands
// nothing back. A Goexit of t.FailNow or t.SkipNow fails or skips the test
// when the goroutine ends, right after the hand-off's op and before the
// caller runs again, as for any goroutine.
func (p *pull) end() {
	t := core.CurrentTask()
	r := recover()
	if t.Unwinding() {
		if r != nil {
			panic(r)
		}
		return
	}
	switch {
	case r != nil:
		p.panicValue = r
	case !p.seqDone:
		p.goexit = true
	}
	p.done = true
	p.yielded = false
	p.clear()
	p.back.Send(struct{}{}, p.pc)
}
