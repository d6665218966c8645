package memnet_test

import (
	"errors"
	"syscall"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/csync/memnet"
	"github.com/morpheus-go/morpheus/trace"
)

// echoUnder runs the echo server and client with faults and returns the
// client's error.
func echoUnder(e *morpheus.Env, f memnet.Faults) error {
	memnet.SetFaults(f)
	l, err := memnet.Listen("echo:1")
	e.Assert(err == nil, "listen: %v", err)
	csync.Go(func() { serveEcho(l, csync.Go) })
	defer l.Close()
	return echoClient(memnet.Dial, "echo:1", "one", "two", "three")
}

// Delays never reorder or lose bytes: the echo always comes back whole.
func TestFaultDelayKeepsStreams(t *testing.T) {
	res, err := morpheus.Explore(func(e *morpheus.Env) {
		err := echoUnder(e, memnet.Faults{Delay: 0.5})
		e.Assert(err == nil, "echo with delays: %v", err)
		e.Fatalf("done") // keep the trace to look at
	}, morpheus.Iterations(1), morpheus.Seed(3), morpheus.Shrink(0)) // unshrunk: shrinking drops the delays
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Message != "done" {
		t.Fatalf("%v", f)
	}
	delivered := 0
	for _, ev := range f.Trace.Events {
		if ev.Kind == trace.KindDeliver {
			delivered++
		}
	}
	if delivered == 0 {
		t.Fatal("no delayed delivery in the trace")
	}
	res, err = morpheus.Explore(func(e *morpheus.Env) {
		err := echoUnder(e, memnet.Faults{Delay: 0.5})
		e.Assert(err == nil, "echo with delays: %v", err)
	}, morpheus.Iterations(500))
	if err != nil || res.Failure != nil {
		t.Fatalf("%v %v", err, res.Failure)
	}
}

// Resets and refusals are found, and reported with the errors TCP gives.
func TestFaultResetAndRefuse(t *testing.T) {
	for _, c := range []struct {
		f    memnet.Faults
		want syscall.Errno
	}{
		{memnet.Faults{Reset: 0.2, MaxResets: 1}, syscall.ECONNRESET},
		{memnet.Faults{Refuse: 0.3}, syscall.ECONNREFUSED},
	} {
		var seen error
		res, err := morpheus.Explore(func(e *morpheus.Env) {
			err := echoUnder(e, c.f)
			if err != nil && seen == nil {
				seen = err
			}
			e.Assert(err == nil, "echo: %v", err)
		}, morpheus.Iterations(300), morpheus.Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		if res.Failure == nil || !errors.Is(seen, c.want) {
			t.Fatalf("%+v: failure %v, error %v", c.f, res.Failure, seen)
		}
	}
}
