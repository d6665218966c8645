package csync

import (
	"sync"
	"sync/atomic"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/ctl"
	"github.com/morpheus-go/morpheus/internal/goruntime"
	"github.com/morpheus-go/morpheus/trace"
)

// Once runs a function once, as sync.Once: the first Do runs f, the others
// wait until f has returned (or panicked) and then return without calling
// theirs. A Do that calls Do on the same Once deadlocks, as in Go. The zero
// Once is ready to use. A Once that outlives an iteration (a package-level
// one) and whose f returned in an earlier iteration of the process stays
// done, as a package-level sync.Once does across go test -count runs: what f
// set up (a registration in a package-level map) outlives the iteration
// too, so running f again would do it twice. The same holds between the
// iterations and code outside control (package initialization, TestMain, a
// test run outside control): an f that returned there makes o done for the
// iterations that bind o next (a package-level variable initialized by a
// lazy getter), and one that returned in an iteration makes o done for code
// outside control after it. A replay in a fresh process runs f unless
// initialization did (rewritten tests warm the process first when that
// diverges).
//
// A Do that finds f done is a read op, so such Dos do not conflict.
type Once struct {
	o       ctl.Obj
	done    bool
	running bool
	q       ctl.Queue
	out     sync.Once // the Once outside control (see ctl.Obj.Outside)
	// ran: an f returned (or panicked, outside control) in an iteration or
	// outside control; an iteration that binds o, or a Do outside control,
	// finds o done.
	ran atomic.Bool
}

type onceOn Once

func (o *onceOn) String() string { return o.o.Name("once") }

// Do calls f if no Do of o has called its f yet.
//
//go:noinline
func (o *Once) Do(f func()) {
	pc := goruntime.CallerPC()
	t, r := ctl.Task()
	if t == nil {
		o.o.Outside("Once.Do", pc)
		if o.ran.Load() {
			o.out.Do(func() {}) // f returned in an iteration
			return
		}
		o.out.Do(func() {
			defer o.ran.Store(true)
			f()
		})
		return
	}
	if o.o.Bind(r, pc) {
		// First use in this iteration: an f that returned before (in an
		// iteration, or outside control) stays done; one whose iteration
		// ended inside it did not finish.
		o.running = false
		o.q.Reset()
		o.done = o.done || o.ran.Load()
	}
	op := core.Op{Kind: trace.KindOnce, Res: o.o.Res, Read: o.done, Obj: -1, PC: pc}
	if !o.running {
		r.Do(t, op)
		switch {
		case o.done:
			r.Event().Flag |= trace.FlagRead
			r.RaceSync(t.ID, o.raceKey()) // f's return happens before
			return
		case !o.running:
			o.running = true
			r.Event().Val = 1
			defer o.finish(t, r)
			f()
			return
		}
		ctl.NoEffect(r) // another Do started f first
	}
	o.q.Push(t)
	op.Read, op.Blocked, op.On = true, true, (*onceOn)(o)
	r.Do(t, op) // woken when f returned
	r.RaceSync(t.ID, o.raceKey())
}

// finish ends t's call of f: f's return happens before every Do returns
// (for the data-race detector: RaceSync). An f that its iteration's end
// unwound did not finish: the Once is not done for the next iteration.
func (o *Once) finish(t *core.Task, r *core.Run) {
	o.done, o.running = !t.Unwinding(), false
	if o.done {
		o.ran.Store(true)
	}
	r.RaceSync(t.ID, o.raceKey())
	o.q.WakeAll(r)
}

func (o *Once) raceKey() uint64 { return uint64(o.o.Res) << 32 }
