package csync

import (
	"sync"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// A Locker is sync.Locker: csync's mutexes are Lockers, and Cond takes one.
type Locker = sync.Locker

// Mutex is a mutual exclusion lock whose Lock, Unlock and TryLock are ops. The
// zero Mutex is unlocked. As sync.Mutex, it is not tied to a goroutine: any
// task may unlock it; unlocking an unlocked Mutex panics with
// "sync: unlock of unlocked mutex" (a fatal error in Go, a panic failure
// here).
//
// Lock is enabled only while the mutex is free. Unlock wakes the first
// blocked Lock, which then competes with locks that arrive meanwhile, as in
// Go's normal mode: the strategy decides who wins, and a woken Lock that loses
// keeps its place at the head of the queue. A Lock that loses a race records
// a step with Val trace.ValNone and waits.
//
// Lock and Unlock write the mutex's resource, so conflict analysis sees every
// pair of critical sections as ordered by the strategy's choice.
//
// A mutex that package initialization or TestMain locked (outside control)
// and has not unlocked is locked for every iteration that binds it, as go
// test finds it: a Lock waits until a task of the iteration unlocks it, and
// is a deadlock if none does. A task's Unlock releases it for the rest of
// the iteration only; the next iteration finds it locked again, as code
// outside control still holds it. Locks taken in an iteration, or by
// goroutines started outside control, start released.
type Mutex struct {
	o      ctl.Obj
	locked bool
	// byMain: the iteration found m locked by package initialization
	// or TestMain, and no task has unlocked it since.
	byMain bool
	q      ctl.Queue
	out    sync.Mutex // the mutex outside control (see ctl.Obj.Outside)
	// mainHeld: the main goroutine locked out and has not unlocked it.
	mainHeld atomic.Bool
}

// mutexOn names a mutex in deadlock reports.
type mutexOn Mutex

func (m *mutexOn) String() string { return m.o.Name("mutex") + heldByMain(m.byMain) }

// heldByMain is what a deadlock report adds to the name of a lock that
// package initialization or TestMain holds.
func heldByMain(held bool) string {
	if !held {
		return ""
	}
	return " (locked outside control by package initialization or TestMain, never unlocked)"
}

func (m *Mutex) bind(r *core.Run, pc uintptr) {
	if m.o.Bind(r, pc) {
		m.locked = m.mainHeld.Load()
		m.byMain = m.locked
		m.q.Reset()
	}
}

// outsideLocked notes that code outside control took out: by the main
// goroutine, it holds m for the iterations.
func (m *Mutex) outsideLocked() {
	if ctl.ByMain() {
		m.mainHeld.Store(true)
	}
}

// Lock locks m, blocking until it is free.
//
//go:noinline
func (m *Mutex) Lock() { m.lock(goruntime.CallerPC()) }

// Unlock unlocks m.
//
//go:noinline
func (m *Mutex) Unlock() { m.unlock(goruntime.CallerPC()) }

// TryLock locks m if it is free and reports whether it did.
//
//go:noinline
func (m *Mutex) TryLock() bool {
	pc := goruntime.CallerPC()
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("Mutex.TryLock", pc)
		ok := m.out.TryLock()
		if ok {
			m.outsideLocked()
		}
		return ok
	}
	m.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindTryLock, Res: m.o.Res, Obj: -1, PC: pc, Quiet: true})
	if m.locked {
		ctl.NoEffect(r)
		return false
	}
	m.locked = true
	return true
}

func (m *Mutex) lock(pc uintptr) {
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("Mutex.Lock", pc)
		m.out.Lock()
		m.outsideLocked()
		return
	}
	m.bind(r, pc)
	op := core.Op{Kind: trace.KindLock, Res: m.o.Res, Obj: -1, PC: pc, Quiet: true}
	woken := false
	for {
		if !m.locked {
			r.Do(t, op)
			if !m.locked {
				m.locked = true
				return
			}
			ctl.NoEffect(r)
		}
		if woken {
			m.q.PushFront(t)
		} else {
			m.q.Push(t)
		}
		b := op
		b.Blocked, b.On = true, (*mutexOn)(m)
		r.Do(t, b)
		woken = true
		if !m.locked {
			m.locked = true
			return
		}
		ctl.NoEffect(r) // a newcomer took it first
	}
}

func (m *Mutex) unlock(pc uintptr) {
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("Mutex.Unlock", pc)
		m.mainHeld.Store(false)
		m.out.Unlock()
		return
	}
	m.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindUnlock, Res: m.o.Res, Obj: -1, PC: pc, Quiet: true})
	if !m.locked {
		panic("sync: unlock of unlocked mutex")
	}
	m.locked, m.byMain = false, false
	m.q.WakeOne(r)
}

// pcLocker is a Locker of this package, which Cond.Wait locks and unlocks
// at its caller's location.
type pcLocker interface {
	lock(pc uintptr)
	unlock(pc uintptr)
}

func unlockAt(l Locker, pc uintptr) {
	if p, ok := l.(pcLocker); ok {
		p.unlock(pc)
		return
	}
	l.Unlock()
}

func lockAt(l Locker, pc uintptr) {
	if p, ok := l.(pcLocker); ok {
		p.lock(pc)
		return
	}
	l.Lock()
}
