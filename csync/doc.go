// Package csync provides Go's concurrency primitives — goroutines, channels,
// select, mutexes, WaitGroup, Once, Cond, atomics and time — as ops of
// morpheus's controlled scheduler, so that a goroutine-based program runs
// under morpheus and every interleaving of its goroutines is the strategy's
// choice: reproducible from a seed, replayable from a trace, and explored on
// purpose rather than by luck.
//
// # From Go to csync
//
//	go f()                      csync.Go(f)
//	make(chan T, n)             csync.Make[T](n)
//	ch <- v / <-ch              ch.Send(v) / ch.Recv()
//	v, ok := <-ch               v, ok := ch.RecvOK()
//	close(ch), len(ch), cap(ch) ch.Close(), ch.Len(), ch.Cap()
//	for v := range ch           for v := range ch.Range()
//	select { case v, ok := <-a: …; case b <- x: …; default: … }
//	                            csync.Select(csync.Recv(a, func(v T, ok bool) { … }),
//	                                csync.Send(b, x, func() { … }), csync.Default(func() { … }))
//	sync.Mutex, sync.RWMutex    csync.Mutex, csync.RWMutex
//	sync.WaitGroup, sync.Once   csync.WaitGroup, csync.Once
//	sync.NewCond(l)             csync.NewCond(l)
//	atomic.Int64                csync.Int64
//	atomic.Int32 (any integer)  csync.Int, which holds an int: convert
//	a variable goroutines share csync.Var[T] (Load, Store, Swap, CompareAndSwap)
//	time.Sleep, time.Now        csync.Sleep, csync.Now (csync.Since, csync.Until)
//	time.After, time.NewTimer   csync.After, csync.NewTimer (C is a *csync.Chan)
//	time.AfterFunc, NewTicker   csync.AfterFunc, csync.NewTicker
//	net.Listen, net.Dial        memnet.Listen, memnet.Dial (package csync/memnet)
//
// Call them from the test function given to morpheus.Check or Explore and
// from goroutines started with csync.Go: those are the tasks morpheus runs,
// one at a time. Called from anywhere else (a plain go statement, code
// outside a test), Chan's methods, Go and Now panic and say so: morpheus
// cannot schedule them, and a real block there would hang the tool. The
// locks (Mutex, RWMutex, WaitGroup, Once, Cond), which rewritten code uses
// for sync's, work there as sync's do, on a state of their own outside
// control (see docs/rewriting.md).
//
// # Ops and conflicts
//
// Every send, receive, close, select, lock, unlock, Add, Wait, load, store
// and sleep is an op: the task stops there, and the strategy picks which
// enabled op of which task runs next. An op is enabled when it can complete:
// a receive when a value or the close is there, a Lock when the mutex is
// free, a Sleep when the virtual clock has reached its deadline. Every
// object is a resource, and ops that only read it (Var.Load, RLock, Len,
// Wait) are read ops: two ops conflict only if they touch the same object and
// one of them writes, which is what POS* and conflict analysis use to
// focus on the orders that matter. Code between two ops runs atomically, so
// plain Go variables are fine for what one task owns or what one lock
// guards everywhere; state that tasks touch without a common lock belongs in
// a Var, so that the strategy can interleave at each access.
//
// Which ready task runs, which of several ready select cases is taken,
// whether a woken Lock or a newcomer gets the mutex, are all choices of the
// strategy, recorded in the trace and repeated by a replay.
//
// # Semantics
//
// The primitives keep Go's semantics, including its panics ("send on closed
// channel", "close of closed channel", "close of nil channel", "sync: unlock
// of unlocked mutex", "sync: negative WaitGroup counter"), which end the
// iteration as panic failures with Go's message; a nil channel blocks
// forever; zero values are ready to use where Go's are (Mutex, RWMutex,
// WaitGroup, Once, Var; the zero Chan is an unbuffered channel). Timer
// channels follow Go 1.23: no stale value after Stop or Reset. A few things
// differ on purpose:
//
//   - Time is virtual. It moves only when no task can run: the clock jumps
//     to the nearest deadline, so a time-out never fires while other work
//     can still progress, and an hour of timers costs nothing. A Sleep that
//     stands for latency therefore opens no window for other tasks: they
//     all run first. The windows a race needs are between ops. Past the
//     clock limit (morpheus.ClockLimit) nothing fires and a main task still
//     waiting fails as stuck. (morpheus.EarlyTimers lets the strategy fire
//     the nearest timer a bounded number of times while tasks can still run,
//     for code whose bugs need a slow goroutine.)
//   - An iteration ends when nothing can run any more, not when the main
//     task returns: goroutines go on after it. A main task blocked with
//     nothing able to run is a deadlock, whose report names every blocked
//     task, its op, the object and where it was created:
//     "g3: blocked in chan-recv on chan#2 created at store.go:41 at store.go:50".
//     A goroutine still blocked once the main task has returned is a leak
//     (a worker waiting on a context nobody cancels), reported the same way
//     with where it was started ("; started at store.go:30"). Timers fire
//     first: the clock moves on while goroutines wait, so one that ends
//     after a sleep or a time-out is no leak, and one still waiting at the
//     clock limit, or running at the step limit, is. Tickers and timers
//     themselves never leak, nor do actor processes (servers by design);
//     morpheus.AllowLeaks lets a test leave workers parked on purpose.
//   - A Lock, send or receive that finds its object taken by a task that
//     went first records a step with Val trace.ValNone and waits: the
//     strategy saw it enabled, another op won the race.
//
// # Objects that outlive an iteration
//
// A package-level var mu csync.Mutex serves every iteration: objects bind
// to the iteration that uses them and start from their zero state in each,
// but for what outlives an iteration as memory does: a channel keeps its
// capacity, creation site, its close and the values left in its buffer (a
// pool's done channel that an earlier iteration's Release closed stays
// closed, as the pool's state flag in memory says), and a Once whose f
// returned stays done, also when it returned outside control (package
// initialization); a Mutex or RWMutex that package initialization or
// TestMain locked and did not unlock is locked for every iteration. Such an
// object is shared by all the iterations of a process, so explore it with
// morpheus.Workers(1); objects created inside the test need no care.
//
// # Putting an existing component under morpheus
//
// A component that starts goroutines and uses sync, time and net directly
// cannot be scheduled as it is. Two ways to put it under morpheus:
//
// Inject a runtime. Give the component a small interface for what it uses —
// starting goroutines, making locks, sleeping, dialing — with two
// implementations: one over sync, time and net for production, one over
// csync for tests. The component's logic stays ordinary Go; only its
// constructor takes the runtime:
//
//	type Runtime interface {
//		Go(f func())
//		NewMutex() sync.Locker
//		Sleep(d time.Duration)
//	}
//
//	type realRuntime struct{}
//
//	func (realRuntime) Go(f func())            { go f() }
//	func (realRuntime) NewMutex() sync.Locker  { return new(sync.Mutex) }
//	func (realRuntime) Sleep(d time.Duration)  { time.Sleep(d) }
//
//	type morpheusRuntime struct{}
//
//	func (morpheusRuntime) Go(f func())           { csync.Go(f) }
//	func (morpheusRuntime) NewMutex() sync.Locker { return new(csync.Mutex) }
//	func (morpheusRuntime) Sleep(d time.Duration) { csync.Sleep(d) }
//
// Channels do not fit an interface method (methods cannot take type
// parameters): pass a generic constructor, or have the component use
// locks and condition variables through the interface. Code that takes a
// net.Listener or a dial function needs no change at all: hand it
// memnet.Listen's listener and memnet.Dial. The example of this package's
// tests (example_component_test.go) puts a read-through cache under morpheus
// this way, finds its stale-fill bug and checks the fix.
//
// Or switch by build tag. Keep the component's files as they are, but import
// the primitives from a package of your own with two builds: one of aliases
// and wrappers over sync and time (//go:build !morpheus), one over csync
// (//go:build morpheus), and run the morpheus tests with go test -tags
// morpheus. This needs no interface and costs nothing in production, but
// go statements and channel operators must still be written as calls.
//
// Either way, mind the frame an adapter adds: an op's location is its
// caller's line, so ops called through an adapter function report the
// adapter's line, while methods called through an interface (a Locker's
// Lock) report the component's.
package csync
