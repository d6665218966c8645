package rt

import (
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/trace"
)

// The clock outside control. Code that runs outside a task (package
// initialization, TestMain, a goroutine started there) reads the same kind
// of clock as the schedules, not the machine's: a package-level
// var start = time.Now() is read before any schedule, and a schedule then
// reads time.Since(start) from its own clock. The real clock would put start
// in this decade and every schedule in 2000, so the difference would be
// negative and change from run to run.
//
// So the outside clock starts outsideLead before the epoch every schedule
// starts at (EnvEpoch's, or the recorded one of the trace the process
// replays, EnvReplay: outsideEpoch), and moves as code outside control waits: a Sleep moves it on by
// what it slept, a timer's or ticker's firing to its deadline, and every
// read by a nanosecond (time always moves). It does not move with the real
// clock, so what package initialization reads is the same in every run of
// the test binary, and a replay in a fresh process sees the values the
// recorded run saw. Outside code still waits for real: a Sleep sleeps, a
// timer fires after its real duration, as the goroutines it waits for are
// real ones.
//
// A context made outside control keeps its deadline on the real clock
// (withDeadline): what reads it there is the standard library's network.
//
// A value read outside is before every schedule's time as long as outside
// code waited less than outsideLead in all; entries a package-level cache
// filled at initialization with a time-to-live above it live on into the
// schedules.

// While a test runs on the real network (RealTest), the outside clock is the
// machine's: such a test runs outside control on real time, and hands the
// times it reads to the real network (conn.SetDeadline(time.Now().Add(d))),
// which compares them with the real clock; the outside clock's would lie
// decades in the past and time every such call out at once.
var realClock atomic.Int32

// outsideLead is how long before the epoch the outside clock starts.
const outsideLead = time.Minute

// outsideNS is the outside clock, in ns since its start.
var outsideNS atomic.Int64

// outsideNow reads the outside clock, moving it on by a nanosecond.
func outsideNow() time.Time {
	if realClock.Load() > 0 {
		return time.Now()
	}
	return outsideAt(outsideNS.Add(1))
}

func outsideAt(ns int64) time.Time { return outsideEpoch().Add(time.Duration(ns) - outsideLead) }

// outsideEpoch is the epoch of the schedules the process runs, which the
// outside clock starts outsideLead before: the one the trace it replays
// recorded, else EnvEpoch's, else the default. The schedules of saved
// traces the process replays before it explores (the corpus) start at the
// epochs their traces recorded; what package initialization read stays on
// the process's outside clock.
var outsideEpoch = sync.OnceValue(func() time.Time {
	if p := getenv(EnvReplay); p != "" {
		if h, err := readHeader(p); err == nil && h.Options != nil {
			// A trace with options records every setting it was not
			// found with at its default.
			if t, err := morpheus.ParseEpoch(h.Options[explore.EpochOption]); err == nil && !t.IsZero() {
				return t
			}
			return core.DefaultEpoch
		}
	}
	if t, err := morpheus.ParseEpoch(getenv(EnvEpoch)); err == nil && !t.IsZero() {
		return t
	}
	return core.DefaultEpoch
})

// readHeader reads the header of the trace file at path.
func readHeader(path string) (*trace.Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return trace.DecodeHeader(f, path)
}

// outsideReach moves the outside clock on to ns, unless it is past it.
func outsideReach(ns int64) {
	for {
		cur := outsideNS.Load()
		if cur >= ns || outsideNS.CompareAndSwap(cur, ns) {
			return
		}
	}
}

// outsideSleep is time.Sleep outside control.
func outsideSleep(d time.Duration) {
	due := outsideNS.Load() + int64(max(d, 0))
	time.Sleep(d)
	outsideReach(due)
}

// outsideTimer is a timer outside control: a real one whose firing moves the
// outside clock to its deadline and sends the outside clock's time.
type outsideTimer struct {
	c       chan time.Time
	f       func()
	nt      *time.Timer
	due     atomic.Int64 // the deadline on the outside clock
	period  atomic.Int64 // a ticker's, 0 for a timer
	stopped atomic.Bool  // a ticker stopped: its firing does not rearm it
}

func newOutsideTimer(d time.Duration, f func(), period time.Duration) *outsideTimer {
	o := &outsideTimer{f: f}
	o.period.Store(int64(period))
	if f == nil {
		o.c = make(chan time.Time, 1)
	}
	o.due.Store(outsideNS.Load() + int64(max(d, 0)))
	o.nt = time.AfterFunc(d, o.fire)
	return o
}

func (o *outsideTimer) fire() {
	due := o.due.Load()
	outsideReach(due)
	if o.f != nil {
		o.f()
		return
	}
	select {
	case o.c <- outsideNow():
	default: // the last value was not received: dropped, as a ticker's
	}
	if p := o.period.Load(); p > 0 && !o.stopped.Load() {
		o.due.Store(due + p)
		o.nt.Reset(time.Duration(p))
	}
}

// stop stops the timer and drops a value not received (Go 1.23's timers).
func (o *outsideTimer) stop() bool {
	o.stopped.Store(true)
	was := o.nt.Stop()
	o.drain()
	return was
}

// reset sets the timer to fire after d (a ticker's period to d).
func (o *outsideTimer) reset(d time.Duration) bool {
	was := o.nt.Stop()
	o.drain()
	if o.period.Load() > 0 {
		o.period.Store(int64(d))
	}
	o.stopped.Store(false)
	o.due.Store(outsideNS.Load() + int64(max(d, 0)))
	o.nt.Reset(d)
	return was
}

func (o *outsideTimer) drain() {
	if o.c == nil {
		return
	}
	select {
	case <-o.c:
	default:
	}
}
