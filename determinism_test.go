package morpheus_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/mtest"
	"github.com/morpheus-go/morpheus/trace"
)

// racyCounter is a test whose bug needs a specific interleaving of three
// clients, with timers and a controlled choice in the mix.
func racyCounter(e *morpheus.Env) {
	n := e.NewNode("n1", nil)
	srv := n.Spawn("store", counterServer)
	main := e.Self()
	clients := 2 + e.Choose(2)
	for range clients {
		n.Spawn("client", func(e *morpheus.Env) {
			e.Sleep(time.Duration(e.Choose(3)) * time.Millisecond)
			e.Send(srv, e.Self())
			v := morpheus.Recv[int](e)
			e.Send(srv, v+1)
			e.Send(main, "done")
		})
	}
	for range clients {
		morpheus.Recv[string](e)
	}
	e.Send(srv, e.Self())
	v := morpheus.Recv[int](e)
	e.Assert(v == clients, "lost update: %d of %d increments", v, clients)
}

var encode = mtest.Encode

// The same seed gives the same failing iteration and a byte-identical trace,
// whatever the number of workers.
func TestDeterministicAcrossWorkers(t *testing.T) {
	var want []byte
	wantIter := -1
	for _, workers := range []int{1, 2, 4, 1} {
		res := explore(t, racyCounter, morpheus.Seed(42), morpheus.Workers(workers), morpheus.Iterations(500), mtest.Untimed)
		f := mustFail(t, res, "assertion", "lost update")
		got := encode(t, f.Trace)
		if want == nil {
			want, wantIter = got, f.Iteration
			continue
		}
		if f.Iteration != wantIter || !bytes.Equal(got, want) {
			t.Fatalf("%d workers: iteration %d, want %d; traces equal: %v", workers, f.Iteration, wantIter, bytes.Equal(got, want))
		}
	}
	if wantIter == 0 {
		t.Log("the bug was found in iteration 0: the test does not exercise the lowest-iteration rule")
	}
}

// A saved trace replays to the same failure, step for step; a test whose
// code changed so that it no longer follows the trace is reported as a
// stale trace, not as a wrong result (stale_test.go tells it from a
// nondeterministic test).
func TestReplayAndDivergence(t *testing.T) {
	res := explore(t, racyCounter, morpheus.Seed(7), morpheus.Iterations(500))
	f := mustFail(t, res, "assertion", "lost update")
	path := filepath.Join(t.TempDir(), "trace")
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		t.Fatal(err)
	}
	rep := explore(t, racyCounter, morpheus.Replay(path))
	g := mustFail(t, rep, "assertion", "lost update")
	if !bytes.Equal(encode(t, stripHeader(g.Trace)), encode(t, stripHeader(f.Trace))) {
		t.Fatalf("replayed trace differs:\n%s\nvs\n%s", encode(t, g.Trace), encode(t, f.Trace))
	}

	changed := func(e *morpheus.Env) {
		e.NewNode("n0", nil).Spawn("extra", func(e *morpheus.Env) {})
		racyCounter(e)
	}
	div := explore(t, changed, morpheus.Replay(path))
	d := mustFail(t, div, "stale-trace", path+": this trace was recorded on different code: at step 2")
	if !strings.Contains(d.Message, "delete it if the bug is fixed") {
		t.Fatalf("message %q", d.Message)
	}
}

// stripHeader drops what legitimately differs between a run and its replay.
func stripHeader(tr *trace.Trace) *trace.Trace {
	c := *tr
	c.Header = trace.Header{Version: tr.Header.Version}
	return &c
}

func TestReplayBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(path, []byte("morpheus-trace 1\ntest X\nbogus line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := morpheus.Explore(racyCounter, morpheus.Replay(path))
	if err == nil || !strings.Contains(err.Error(), path+":3") {
		t.Fatalf("error %v: want one naming %s:3", err, path)
	}
	_, err = morpheus.Explore(racyCounter, morpheus.Replay(filepath.Join(t.TempDir(), "missing")))
	if err == nil {
		t.Fatal("no error for a missing file")
	}
}

func TestUnknownStrategy(t *testing.T) {
	_, err := morpheus.Explore(racyCounter, morpheus.Strategy("nosuch"))
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("error %v", err)
	}
}

// Iterations that fail, hit limits and pass leave no goroutine behind and do
// not grow the heap.
func TestNoLeaks(t *testing.T) {
	const perRun = 10 // iterations per Explore: 9 pass, the last fails
	run := func(iterations int) {
		for i := 0; i < iterations/perRun; i++ {
			kind := i % 4
			res, err := morpheus.Explore(func(e *morpheus.Env) {
				n := e.NewNode("n1", nil)
				for range 3 {
					n.Spawn("", func(e *morpheus.Env) {
						defer e.Logf("unwound") // runs at teardown
						e.Receive(nil)          // blocked at the end
					})
				}
				if e.Iteration() < perRun-1 {
					return
				}
				switch kind {
				case 0:
					e.Assert(false, "planned failure")
				case 1:
					for {
						e.Yield() // step limit
					}
				case 2:
					panic("planned panic")
				case 3:
					morpheus.Recv[string](e) // deadlock
				}
			}, morpheus.Iterations(perRun), morpheus.MaxSteps(200), morpheus.Workers(2))
			if err != nil {
				t.Fatal(err)
			}
			if res.Failure == nil || res.Iterations != perRun {
				t.Fatalf("run %d: %d iterations, failure %v", i, res.Iterations, res.Failure)
			}
		}
	}
	run(400) // warm up
	runtime.GC()
	g0 := runtime.NumGoroutine()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	// 200 bytes an iteration is a leak: under the race detector, which
	// makes the test tens of times slower (347 s under load for 20,000,
	// 295 s for 5,000), over fewer iterations.
	iterations, maxGrow := 20000, int64(4<<20)
	if raceEnabled {
		iterations, maxGrow = 1000, 200<<10
	}
	run(iterations)
	runtime.GC()
	runtime.ReadMemStats(&m1)
	// A worker's goroutine ends just after Explore hears from it: give the
	// last ones time to go (a leaked goroutine stays).
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > g0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g1 := runtime.NumGoroutine(); g1 > g0 {
		t.Fatalf("goroutines grew from %d to %d", g0, g1)
	}
	if grow := int64(m1.HeapAlloc) - int64(m0.HeapAlloc); grow > maxGrow {
		t.Fatalf("heap grew by %d bytes over %d iterations", grow, iterations)
	}
	t.Logf("goroutines %d, heap %d -> %d bytes", g0, m0.HeapAlloc, m1.HeapAlloc)
}

// pingCrashedServer: a client retries a ping to a server whose node Chaos
// may crash, and a liveness monitor owes the pong; the main task returns at
// once, so the failing runs end in the fair tail at the clock limit.
var pingCrashedServer = mtest.PingLiveness

// A failure found in the fair tail (the steps after the main task returned,
// which a random walk picks rather than the strategy) replays step for
// step: the replay follows the recorded tail, choices included.
func TestReplayFairTail(t *testing.T) {
	for _, shrink := range []int{0, 200} {
		res := explore(t, pingCrashedServer.Test, morpheus.Seed(1), morpheus.Iterations(2000),
			morpheus.ClockLimit(time.Second), morpheus.Shrink(shrink))
		f := mustFail(t, res, "liveness", "monitor pong is hot")
		path := filepath.Join(t.TempDir(), "trace")
		if err := morpheus.WriteTrace(path, f.Trace); err != nil {
			t.Fatal(err)
		}
		rep := explore(t, pingCrashedServer.Test, morpheus.Replay(path), morpheus.ClockLimit(time.Second))
		g := mustFail(t, rep, "liveness", "monitor pong is hot")
		if !bytes.Equal(encode(t, stripHeader(g.Trace)), encode(t, stripHeader(f.Trace))) {
			t.Fatalf("shrink %d: replayed trace differs", shrink)
		}
	}
}
