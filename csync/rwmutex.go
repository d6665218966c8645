package csync

import (
	"sync"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// RWMutex is a reader/writer lock with the semantics of sync.RWMutex: any
// number of readers or one writer; once a writer waits, new readers wait too
// (so a recursive read lock can deadlock, as in Go); Unlock lets the readers
// that waited in before the next writer. The zero RWMutex is unlocked.
//
// RLock and RUnlock are read ops on the lock's resource, so readers do not
// conflict with each other, only with writers: strategies such as POS* and
// conflict analysis see that reader sections commute.
//
// As for Mutex, what package initialization or TestMain holds of it (the
// write lock, or read locks) is held for every iteration that binds it,
// until a task of the iteration releases it.
type RWMutex struct {
	o       ctl.Obj
	w       bool // a writer holds it
	readers int  // readers that hold it
	wwant   int  // writers blocked in Lock: new readers wait for them
	// byMain: the iteration found m locked by package initialization or
	// TestMain, and no task has released all of that since.
	byMain bool
	wq     ctl.Queue
	rq     ctl.Queue
	out    sync.RWMutex // the mutex outside control (see ctl.Obj.Outside)
	// mainW, mainR: the main goroutine holds out's write lock, so many
	// read locks of out.
	mainW atomic.Bool
	mainR atomic.Int32
}

type rwOn RWMutex

func (m *rwOn) String() string { return m.o.Name("rwmutex") + heldByMain(m.byMain) }

func (m *RWMutex) bind(r *core.Run, pc uintptr) {
	if m.o.Bind(r, pc) {
		m.w, m.readers, m.wwant = m.mainW.Load(), int(m.mainR.Load()), 0
		m.byMain = m.w || m.readers > 0
		m.wq.Reset()
		m.rq.Reset()
	}
}

// Lock locks m for writing, blocking until no reader or writer holds it.
//
//go:noinline
func (m *RWMutex) Lock() { m.lock(goruntime.CallerPC()) }

// Unlock unlocks m for writing; it panics if m is not write-locked.
//
//go:noinline
func (m *RWMutex) Unlock() { m.unlock(goruntime.CallerPC()) }

// RLock locks m for reading, blocking while a writer holds or waits for it.
//
//go:noinline
func (m *RWMutex) RLock() { m.rlock(goruntime.CallerPC()) }

// RUnlock undoes one RLock; it panics if m is not read-locked.
//
//go:noinline
func (m *RWMutex) RUnlock() { m.runlock(goruntime.CallerPC()) }

// TryLock write-locks m if it is free and reports whether it did.
//
//go:noinline
func (m *RWMutex) TryLock() bool {
	pc := goruntime.CallerPC()
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("RWMutex.TryLock", pc)
		ok := m.out.TryLock()
		if ok && ctl.ByMain() {
			m.mainW.Store(true)
		}
		return ok
	}
	m.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindTryLock, Res: m.o.Res, Obj: -1, PC: pc, Quiet: true})
	if m.w || m.readers > 0 {
		ctl.NoEffect(r)
		return false
	}
	m.w = true
	return true
}

// TryRLock read-locks m if no writer holds or waits for it, and reports
// whether it did.
//
//go:noinline
func (m *RWMutex) TryRLock() bool {
	pc := goruntime.CallerPC()
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("RWMutex.TryRLock", pc)
		ok := m.out.TryRLock()
		if ok && ctl.ByMain() {
			m.mainR.Add(1)
		}
		return ok
	}
	m.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindRLock, Res: m.o.Res, Read: true, Obj: -1, PC: pc})
	if m.w || m.wwant > 0 {
		ctl.NoEffect(r)
		return false
	}
	m.readers++
	return true
}

// RLocker returns a Locker whose Lock and Unlock are m's RLock and RUnlock.
func (m *RWMutex) RLocker() Locker { return (*rlocker)(m) }

type rlocker RWMutex

//go:noinline
func (l *rlocker) Lock() { (*RWMutex)(l).rlock(goruntime.CallerPC()) }

//go:noinline
func (l *rlocker) Unlock() { (*RWMutex)(l).runlock(goruntime.CallerPC()) }

func (l *rlocker) lock(pc uintptr)   { (*RWMutex)(l).rlock(pc) }
func (l *rlocker) unlock(pc uintptr) { (*RWMutex)(l).runlock(pc) }

func (m *RWMutex) lock(pc uintptr) {
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("RWMutex.Lock", pc)
		m.out.Lock()
		if ctl.ByMain() {
			m.mainW.Store(true)
		}
		return
	}
	m.bind(r, pc)
	op := core.Op{Kind: trace.KindLock, Res: m.o.Res, Obj: -1, PC: pc, Quiet: true}
	wanting := false
	for {
		if !m.w && m.readers == 0 {
			r.Do(t, op)
			if !m.w && m.readers == 0 {
				m.w = true
				if wanting {
					m.wwant--
				}
				return
			}
			ctl.NoEffect(r)
		}
		if wanting {
			m.wq.PushFront(t)
		} else {
			m.wq.Push(t)
			m.wwant++
			wanting = true
		}
		b := op
		b.Blocked, b.On = true, (*rwOn)(m)
		r.Do(t, b)
		if !m.w && m.readers == 0 {
			m.w = true
			m.wwant--
			return
		}
		ctl.NoEffect(r)
	}
}

func (m *RWMutex) unlock(pc uintptr) {
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("RWMutex.Unlock", pc)
		m.mainW.Store(false)
		m.out.Unlock()
		return
	}
	m.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindUnlock, Res: m.o.Res, Obj: -1, PC: pc, Quiet: true})
	if !m.w {
		panic("sync: Unlock of unlocked RWMutex")
	}
	m.w, m.byMain = false, false
	// Readers that waited get in now (they hold the lock when they run);
	// the next writer waits for them.
	m.readers += m.rq.WakeAllBlocked(r)
	if m.readers == 0 {
		m.wq.WakeOne(r)
	}
}

func (m *RWMutex) rlock(pc uintptr) {
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("RWMutex.RLock", pc)
		m.out.RLock()
		if ctl.ByMain() {
			m.mainR.Add(1)
		}
		return
	}
	m.bind(r, pc)
	op := core.Op{Kind: trace.KindRLock, Res: m.o.Res, Read: true, Obj: -1, PC: pc}
	if !m.w && m.wwant == 0 {
		r.Do(t, op)
		if !m.w && m.wwant == 0 {
			m.readers++
			return
		}
		ctl.NoEffect(r)
	}
	m.rq.Push(t)
	op.Blocked, op.On = true, (*rwOn)(m)
	r.Do(t, op) // woken by Unlock, which counted us in
}

func (m *RWMutex) runlock(pc uintptr) {
	t, r := ctl.Task()
	if t == nil {
		m.o.OutsideLock("RWMutex.RUnlock", pc)
		if ctl.ByMain() && m.mainR.Load() > 0 {
			m.mainR.Add(-1)
		}
		m.out.RUnlock()
		return
	}
	m.bind(r, pc)
	r.Do(t, core.Op{Kind: trace.KindRUnlock, Res: m.o.Res, Read: true, Obj: -1, PC: pc})
	if m.readers <= 0 {
		panic("sync: RUnlock of unlocked RWMutex")
	}
	m.readers--
	m.byMain = m.byMain && m.readers > 0
	if m.readers == 0 {
		m.wq.WakeOne(r)
	}
}
