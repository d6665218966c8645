package core

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// A Watchdog watches workers from its own goroutine and reports a task that
// does not come back to the scheduler within a wall-clock limit: it blocked on
// something morpheus does not control (a real channel, lock or I/O) or loops
// without ops. Time in which the machine starved the process does not
// count, up to five times the limit (starve.go). Watching costs the worker a store per step (the step count)
// and one per switch (the task it resumes): plain stores, atomic ones under
// the race detector (beat.go).
type Watchdog struct {
	limit   time.Duration
	onStuck func(*Worker, *Stuck)
	mu      sync.Mutex
	workers []*Worker
	quit    chan struct{}
	done    chan struct{}
}

// Stuck describes a task that did not come back to the scheduler.
type Stuck struct {
	Task  *Task  // the task that was running (its fields but Name and ID may be stale)
	Step  int    // the step it was picked for: steps before it completed
	Stack string // its goroutine's stack, if found
}

// watch is a worker's state as the watchdog sees it.
type watch struct {
	busy  atomic.Bool
	step  int64       // written by beat, read by loadBeat
	cur   *Task       // written by publishTask, read by loadTask; its goroutine is Task.goid, set before the task is first published
	stuck atomic.Bool // reported: the worker is abandoned
	seen  int64       // watchdog-private: step at the last tick
	seenT *Task
	count strikeCount // watchdog-private: ticks without progress
}

// StartWatchdog starts watching; onStuck is called from the watchdog's
// goroutine, once per stuck worker, which is then abandoned.
func StartWatchdog(limit time.Duration, onStuck func(*Worker, *Stuck)) *Watchdog {
	d := &Watchdog{limit: limit, onStuck: onStuck, quit: make(chan struct{}), done: make(chan struct{})}
	go d.loop()
	return d
}

// Attach puts w under watch. Call before w runs.
func (d *Watchdog) Attach(w *Worker) {
	w.watch = &watch{}
	d.mu.Lock()
	d.workers = append(d.workers, w)
	d.mu.Unlock()
}

// Stop ends the watchdog's goroutine and waits for it.
func (d *Watchdog) Stop() {
	close(d.quit)
	<-d.done
}

// strikes is how many ticks without progress, on a machine that lets the
// process run, make a task stuck (starve.go).
const strikes = 4

func (d *Watchdog) loop() {
	defer close(d.done)
	tick := time.NewTicker(d.limit / strikes)
	defer tick.Stop()
	starve := newStarvation()
	for {
		select {
		case <-d.quit:
			return
		case <-tick.C:
		}
		starve.sample()
		d.mu.Lock()
		ws := append([]*Worker(nil), d.workers...)
		d.mu.Unlock()
		for _, w := range ws {
			v := w.watch
			if v.stuck.Load() || !v.busy.Load() {
				v.count.reset()
				continue
			}
			step, cur := loadBeat(&v.step), loadTask(&v.cur)
			if step != v.seen || cur != v.seenT {
				v.seen, v.seenT = step, cur
				v.count.reset()
				continue
			}
			if !v.count.tick(starve.recent) {
				continue
			}
			v.stuck.Store(true)
			d.onStuck(w, &Stuck{Task: cur, Step: int(step), Stack: goroutineStack(cur.goid)})
		}
	}
}

// Abandoned reports whether the watchdog gave up on the worker.
func (w *Worker) Abandoned() bool { return w.watch != nil && w.watch.stuck.Load() }

// Abandon gives up on a watched worker as the watchdog does on a stuck one,
// without a report: the iteration it runs ends at its next op, unwinding
// its tasks, and Execute returns. An interrupted exploration abandons the
// iterations that do not finish promptly.
func (w *Worker) Abandon() {
	if w.watch != nil {
		w.watch.stuck.Store(true)
	}
}

func (w *Worker) beginWatch(r *Run) {
	if v := w.watch; v != nil {
		beat(&v.step, 0)
		v.busy.Store(true)
		r.m.setBeats(&v.step) // the machine tells the watchdog every step it picks
	}
}

func (w *Worker) endWatch() {
	if v := w.watch; v != nil {
		v.busy.Store(false)
	}
}

// publish tells the watchdog which task runs now on the worker's carriers.
func (w *Worker) publish(t *Task) {
	if v := w.watch; v != nil {
		publishTask(&v.cur, t)
	}
}

// goroutineStack returns the stack of goroutine id from a dump of all
// goroutines, or "" if it is not found.
func goroutineStack(id int64) string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	head := []byte("goroutine " + strconv.FormatInt(id, 10) + " [")
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		if bytes.HasPrefix(g, head) {
			return string(g)
		}
	}
	return ""
}

// Abandoned reports whether the watchdog gave up on the worker that runs
// r: its tasks must leave the schedule's state alone (Unwind) at their
// next contact with the runtime, not only at their next op.
func (r *Run) Abandoned() bool { return r.w.Abandoned() }

// Unwind ends the running task of an abandoned iteration (Abandoned), as
// its next op would: it unwinds the task's stack.
func (r *Run) Unwind() {
	r.m.abort()
	panic(unwind{})
}
