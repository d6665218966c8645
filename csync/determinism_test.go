package csync_test

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/csync"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// racy mixes every kind of op: goroutines, a select over a timer and two
// channels, a mutex, shared variables, and a bug that needs a particular
// interleaving.
func racy(e *morpheus.Env) {
	var mu csync.Mutex
	var hits csync.Int
	var seen csync.Var[int]
	jobs := csync.Make[int](1)
	results := csync.Make[int](0)
	for w := range 2 {
		csync.Go(func() {
			for j := range jobs.Range() {
				mu.Lock()
				hits.Add(1)
				mu.Unlock()
				v := seen.Load()
				seen.Store(v + j + w)
				results.Send(j)
			}
		})
	}
	go2 := csync.After(time.Second)
	sent := 0
	for sent < 3 {
		csync.Select(
			csync.Send(jobs, sent+1, func() { sent++ }),
			csync.Recv(go2, nil),
		)
	}
	for range 3 {
		results.Recv()
	}
	jobs.Close()
	e.Assert(hits.Load() == 3, "hits %d", hits.Load())
	e.Assert(seen.Load() >= 6, "lost update: seen %d", seen.Load())
}

var encode = mtest.Encode

// The same seed gives the same failing iteration and a byte-identical trace
// with one worker or two, and the trace replays to the same failure.
func TestDeterministicAcrossWorkers(t *testing.T) {
	var want []byte
	wantIter := -1
	var first *morpheus.Failure
	for _, workers := range []int{1, 2, 1} {
		res := explore(t, racy, morpheus.Seed(42), morpheus.Workers(workers), morpheus.Iterations(2000), mtest.Untimed)
		f := mustFail(t, res, "assertion", "lost update")
		got := encode(t, f.Trace)
		if want == nil {
			want, wantIter, first = got, f.Iteration, f
			continue
		}
		if f.Iteration != wantIter || !bytes.Equal(got, want) {
			t.Fatalf("%d workers: iteration %d, want %d; traces equal: %v", workers, f.Iteration, wantIter, bytes.Equal(got, want))
		}
	}
	path := filepath.Join(t.TempDir(), "trace")
	if err := morpheus.WriteTrace(path, first.Trace); err != nil {
		t.Fatal(err)
	}
	rep := mustFail(t, explore(t, racy, morpheus.Replay(path)), "assertion", "lost update")
	if rep.Message != first.Message || rep.Steps != first.Steps {
		t.Fatalf("replay: %q after %d steps, want %q after %d", rep.Message, rep.Steps, first.Message, first.Steps)
	}
}
