package morpheus_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// TestShrinkCutsIdleRepetition: a liveness failure at the clock limit after
// a crash (chaos/ping-liveness: a client retries its ping every 100 ms to a
// server Chaos crashed) shrinks to the crash and a few rounds of retries,
// whatever the clock limit: the trace records the lower limit it was cut at,
// replays strictly to the same failure with it, and shrinks the same way
// twice.
func TestShrinkCutsIdleRepetition(t *testing.T) {
	src := mtest.PingLiveness
	for _, limit := range []time.Duration{time.Second, time.Minute, 10 * time.Minute} {
		t.Run(limit.String(), func(t *testing.T) {
			opts := []morpheus.Option{morpheus.Name("ping"), morpheus.Seed(1), morpheus.Workers(1), morpheus.Iterations(200), morpheus.ClockLimit(limit),
				morpheus.ShrinkTime(time.Hour)} // shrinking twice must agree on a busy machine too
			orig, err := morpheus.Explore(src.Test, append(opts, morpheus.Shrink(0))...)
			if err != nil || orig.Failure == nil || orig.Failure.Kind != "liveness" {
				t.Fatalf("no liveness failure to shrink: %v %v", orig, err)
			}
			res, err := morpheus.Explore(src.Test, opts...)
			if err != nil {
				t.Fatal(err)
			}
			f := res.Failure
			if f == nil || f.Shrink == nil {
				t.Fatalf("failure not shrunk: %+v", f)
			}
			t.Logf("%v: %d -> %d steps, clock limit cut to %v, %d candidates", limit, orig.Failure.Steps, f.Steps, f.Shrink.ClockLimit, f.Shrink.Candidates)
			if f.Kind != "liveness" || f.Steps > 30 || f.Shrink.ClockLimit <= 0 || f.Shrink.ClockLimit >= limit {
				t.Fatalf("shrunk to %s, %d steps, clock limit %v; want liveness in at most 30 steps under a lower limit", f.Kind, f.Steps, f.Shrink.ClockLimit)
			}
			if got := f.Trace.Header.Failure.ClockLimit; got != int64(f.Shrink.ClockLimit) {
				t.Errorf("trace records clock limit %d, want %d", got, f.Shrink.ClockLimit)
			}
			out := f.Report()
			for _, s := range []string{"crash   node 1", "recv    timeout", "the clock limit cut to " + f.Shrink.ClockLimit.String()} {
				if !strings.Contains(out, s) {
					t.Errorf("report lacks %q:\n%s", s, out)
				}
			}
			path := filepath.Join(t.TempDir(), "shrunk")
			if err := morpheus.WriteTrace(path, f.Trace); err != nil {
				t.Fatal(err)
			}
			rep, err := morpheus.Explore(src.Test, append(opts, morpheus.Replay(path))...)
			if err != nil {
				t.Fatal(err)
			}
			g := rep.Failure
			if g == nil || g.Kind != f.Kind || g.Message != f.Message || g.Steps != f.Steps || rep.Diverged != "" {
				t.Fatalf("strict replay of the shrunk trace: %v (diverged %q), want %v at step %d", g, rep.Diverged, f, f.Steps)
			}
			g.Trace.Header.Strategy = f.Trace.Header.Strategy // "replay"
			if !bytes.Equal(encodeTrace(t, g.Trace), encodeTrace(t, f.Trace)) {
				t.Errorf("the replay's trace differs from the shrunk trace:\n%s\nwant:\n%s", encodeTrace(t, g.Trace), encodeTrace(t, f.Trace))
			}
			again, err := morpheus.Explore(src.Test, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(encodeTrace(t, again.Failure.Trace), encodeTrace(t, f.Trace)) {
				t.Error("shrinking the same failure twice gave different traces")
			}
		})
	}
}

// TestShrinkCutNeedsRepetition: a liveness failure whose run does not end
// repeating a cycle (the monitor stays hot while the system waits with
// nothing to do) is not cut; nor is a failure of another kind.
func TestShrinkCutNeedsRepetition(t *testing.T) {
	quiet := func(e *morpheus.Env) {
		e.AddMonitor("m", morpheus.MonitorFunc(func(m *morpheus.Mon, ev any) { m.Hot("owed") }))
		e.Announce("go")
		e.Sleep(time.Hour) // nothing happens until the limit
	}
	res, err := morpheus.Explore(quiet, morpheus.Seed(1), morpheus.Workers(1), morpheus.Iterations(1), morpheus.ClockLimit(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Failure; f == nil || f.Trace.Header.Failure.ClockLimit != 0 || f.Shrink != nil && f.Shrink.ClockLimit != 0 {
		t.Fatalf("a run without repetition was cut: %+v", f)
	}
}

// TestReplayOfCutTraceNeedsItsLimit: the cut limit is what makes the short
// trace replay: without it, the run goes on past the trace's end, which a
// strict replay reports.
func TestReplayOfCutTraceNeedsItsLimit(t *testing.T) {
	src := mtest.PingLiveness
	opts := []morpheus.Option{morpheus.Seed(1), morpheus.Workers(1), morpheus.Iterations(200), morpheus.ClockLimit(time.Minute)}
	res, err := morpheus.Explore(src.Test, opts...)
	if err != nil || res.Failure == nil || res.Failure.Shrink == nil || res.Failure.Shrink.ClockLimit == 0 {
		t.Fatalf("no cut failure: %v", err)
	}
	tr := res.Failure.Trace
	tr.Header.Failure.ClockLimit = 0
	path := filepath.Join(t.TempDir(), "uncut")
	if err := morpheus.WriteTrace(path, tr); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(" limit=")) { // the failure line's (not the options' clocklimit=)
		t.Fatal("the limit was written")
	}
	rep, err := morpheus.Explore(src.Test, append(opts, morpheus.Replay(path))...)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failure == nil || rep.Failure.Kind == "liveness" {
		t.Errorf("strict replay without the cut limit: %v, want a divergence", rep.Failure)
	}
}
