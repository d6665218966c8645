package morpheus_test

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
)

// echoRounds has an echo process send back each of n numbers the calling
// task sends it, every 5,000th round with a sleep of a chosen length: an
// iteration of more than four events a round, more than a trace recorder
// keeps whole when it may drop events.
func echoRounds(e *morpheus.Env, n int) {
	main := e.Self()
	echo := e.NewNode("n0", nil).Spawn("echo", func(e *morpheus.Env) {
		for {
			e.Send(main, morpheus.Recv[int](e))
		}
	})
	for i := range n {
		e.Send(echo, i)
		if v := morpheus.Recv[int](e); v != i {
			e.Fatalf("echo %d for %d", v, i)
		}
		if i%5000 == 0 {
			e.Sleep(time.Duration(e.Choose(3)) * time.Millisecond)
		}
	}
}

// longRounds is how many echo rounds make an iteration longer than a
// recorder keeps whole when it may drop events (65,536 events): four events
// a round, 72,000 events, no more (every event costs, -race multiplies it).
const longRounds = 18_000

// longRun is racyCounter after longRounds echo rounds.
func longRun(e *morpheus.Env) {
	echoRounds(e, longRounds)
	racyCounter(e)
}

// A long failing iteration's trace is recorded in a window and rebuilt by
// replaying its schedule: the failure and its trace are byte for byte those
// of a run that keeps every event (partial-order coverage needs them all).
func TestWindowRebuildsLongTrace(t *testing.T) {
	// In parallel with the other long explorations: none of them has a
	// failing iteration long enough to be rebuilt, which Rebuilt counts.
	t.Parallel()
	// Seed 2 fails at iteration 1, the earliest that reuses a recorder:
	// each iteration before the failing one runs twice (window, whole).
	opts := []morpheus.Option{morpheus.Seed(2), morpheus.Iterations(200), morpheus.Workers(1),
		morpheus.Shrink(0), morpheus.MaxSteps(200_000)}
	before := morpheus.Rebuilt()
	win := mustFail(t, explore(t, longRun, opts...), "assertion", "lost update")
	if morpheus.Rebuilt() == before {
		t.Fatal("the failing iteration's trace was not rebuilt: its recorder did not drop events")
	}
	full := mustFail(t, explore(t, longRun, append(opts, morpheus.Coverage(true))...), "assertion", "lost update")
	if win.Iteration != full.Iteration || win.Steps != full.Steps {
		t.Fatalf("window: iteration %d, %d steps; whole: iteration %d, %d steps", win.Iteration, win.Steps, full.Iteration, full.Steps)
	}
	if got, want := encode(t, win.Trace), encode(t, full.Trace); !bytes.Equal(got, want) {
		t.Fatalf("rebuilt trace (%d events) differs from the whole one (%d events)", len(win.Trace.Events), len(full.Trace.Events))
	}
	t.Logf("iteration %d, %d steps, %d events", win.Iteration, win.Steps, len(win.Trace.Events))
	if n := len(full.Trace.Events); n < 4*longRounds || win.Iteration == 0 {
		t.Fatalf("iteration %d of %d events: want a later one (the recorder reused) too long to keep whole", win.Iteration, n)
	}
}

// A long failing iteration whose replay does not fail the same way (the
// test is not a function of its schedule) is reported as found, with the
// latest events it kept and a note saying so.
func TestWindowReplayDiverges(t *testing.T) {
	t.Parallel() // over 72,000 steps: minutes under -race on a busy machine
	var runs atomic.Int32
	test := func(e *morpheus.Env) {
		echoRounds(e, longRounds)
		e.Assert(runs.Add(1) != 1, "the first run fails")
	}
	res := explore(t, test, morpheus.Iterations(3), morpheus.Workers(1), morpheus.Shrink(0), morpheus.MaxSteps(200_000))
	f := mustFail(t, res, "assertion", "the first run fails")
	if !strings.Contains(f.Message, "replaying its schedule to rebuild it failed otherwise") || !strings.Contains(f.Message, "not a function of its schedule") {
		t.Fatalf("message without the note on the trace: %q", f.Message)
	}
	if f.Iteration != 0 || f.Steps < 4*longRounds || len(f.Trace.Events) >= f.Steps {
		t.Fatalf("iteration %d, %d steps, %d events in the trace: want iteration 0 and only the latest events", f.Iteration, f.Steps, len(f.Trace.Events))
	}
}
