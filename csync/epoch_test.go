package csync_test

import (
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
)

// newYear fails when the clock reads the first second of a year, as a
// yearly job that fires then (a cron schedule "1 0 0 1 1 ?") and
// surprises a test that did not expect it would.
func newYear(e *morpheus.Env) {
	var wg csync.WaitGroup
	wg.Add(1)
	csync.Go(func() {
		defer wg.Done()
		csync.Sleep(time.Millisecond)
	})
	wg.Wait()
	now := csync.Now()
	e.Assert(!(now.YearDay() == 1 && now.Hour() == 0 && now.Minute() == 0 && now.Second() == 0),
		"the yearly job fired at %v", now)
}

// Every iteration's clock starts at the epoch Epoch gives (2000-01-01 UTC
// by default), Env's and csync's alike; a failure's trace records it, and
// its replay starts there whatever the replay is given.
func TestEpoch(t *testing.T) {
	res, err := morpheus.Explore(newYear, morpheus.Iterations(2), morpheus.Workers(1))
	if err != nil || res.Failure == nil {
		t.Fatalf("at the default epoch: %v %v, want the yearly job's failure", err, res.Failure)
	}
	if _, ok := res.Failure.Trace.Header.Options["epoch"]; ok {
		t.Errorf("a trace found at the default epoch records it: %v", res.Failure.Trace.Header.Options)
	}

	at := time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)
	res, err = morpheus.Explore(func(e *morpheus.Env) {
		e.Assert(e.Now().Equal(at), "Env's clock starts at %v", e.Now())
		now := csync.Now()
		e.Assert(now.Equal(at), "csync's clock starts at %v", now)
		newYear(e)
	}, morpheus.Iterations(5), morpheus.Workers(1), morpheus.Epoch(at))
	if err != nil || res.Failure != nil {
		t.Fatalf("at %v: %v %v", at, err, res.Failure)
	}

	// A failure found at another epoch records it, and replays there.
	jan := time.Date(2031, 1, 1, 0, 0, 0, 0, time.FixedZone("", 2*3600))
	res, err = morpheus.Explore(func(e *morpheus.Env) {
		e.Assert(csync.Now().Year() < 2031, "the clock reads %d", csync.Now().Year())
	}, morpheus.Iterations(2), morpheus.Workers(1), morpheus.Epoch(jan))
	if err != nil || res.Failure == nil {
		t.Fatalf("at %v: %v %v, want a failure", jan, err, res.Failure)
	}
	if got := res.Failure.Trace.Header.Options["epoch"]; got != "2031-01-01T00:00:00+02:00" {
		t.Fatalf("the trace records epoch=%q", got)
	}
	path := t.TempDir() + "/trace"
	if err := morpheus.WriteTrace(path, res.Failure.Trace); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]morpheus.Option{nil, {morpheus.Epoch(at)}} {
		again, err := morpheus.Explore(func(e *morpheus.Env) {
			e.Assert(csync.Now().Year() < 2031, "the clock reads %d", csync.Now().Year())
		}, append([]morpheus.Option{morpheus.Replay(path)}, extra...)...)
		if err != nil || again.Failure == nil || again.Failure.Message != res.Failure.Message {
			t.Fatalf("replay with %d more options: %v %v", len(extra), err, again.Failure)
		}
	}
}

// ParseEpoch reads RFC 3339 and says what it wants otherwise.
func TestParseEpoch(t *testing.T) {
	if _, err := morpheus.ParseEpoch("2030-06-01T12:00:00.5+02:00"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", "2030-06-01", "2030-13-01T00:00:00Z", "tomorrow"} {
		if _, err := morpheus.ParseEpoch(bad); err == nil {
			t.Errorf("ParseEpoch(%q) took it", bad)
		}
	}
}
