package core

import (
	"sync"
	"weak"
)

// Code that runs outside a task (a finalizer, a goroutine the standard
// library started) may call a controlled primitive on an object that a
// running iteration uses. It cannot take part in that iteration (nothing
// schedules it, and when it runs is the runtime's choice), so it raises an
// alarm: the iteration fails at its next step with the alarm's failure, as
// when the watchdog gives up on it. The registry of workers lets the caller
// find the iteration by the number its objects are bound to (Run.Gen).

var workers struct {
	sync.Mutex
	list []weak.Pointer[Worker]
}

// register adds w to the workers Live and Alarm look at.
func (w *Worker) register() {
	workers.Lock()
	defer workers.Unlock()
	// Drop the workers the garbage collector took.
	l := workers.list[:0]
	for _, p := range workers.list {
		if p.Value() != nil {
			l = append(l, p)
		}
	}
	clear(workers.list[len(l):])
	workers.list = append(l, weak.Make(w))
}

// running returns the worker that runs iteration gen now, or nil.
func running(gen uint64) *Worker {
	if gen == 0 {
		return nil
	}
	workers.Lock()
	defer workers.Unlock()
	for _, p := range workers.list {
		if w := p.Value(); w != nil && w.live.Load() == gen {
			return w
		}
	}
	return nil
}

// Live reports whether iteration gen (Run.Gen) is running.
func Live(gen uint64) bool { return running(gen) != nil }

// Alarm fails iteration gen, if it is running, with f at its next step,
// and reports whether it was running. It may be called from any goroutine.
func Alarm(gen uint64, f *Failure) bool {
	w := running(gen)
	if w == nil {
		return false
	}
	w.alarm.CompareAndSwap(nil, &alarm{gen: gen, f: f})
	return true
}

// alarm is a failure raised outside the iteration gen.
type alarm struct {
	gen uint64
	f   *Failure
}

// alarmed fails the iteration with its alarm, if one was raised for it; it
// reports whether it did. The running task then unwinds.
func (r *Run) alarmed() bool {
	a := r.w.alarm.Swap(nil)
	if a == nil || a.gen != r.gen {
		return false
	}
	f := *a.f
	if f.Task < 0 && r.cur != nil {
		f.Task = r.cur.ID
	}
	r.fail(&f)
	return true
}
