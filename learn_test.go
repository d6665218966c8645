package morpheus_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/mtest"
)

// Conflict analysis and PCT's step bound learn in epochs: their decisions, and so the failure found,
// do not depend on the number of workers. Armed from iteration 1,500 on, the failure is found where
// conflict analysis's table has long settled and only a sample of iterations is analysed.
func TestLearningDeterministicAcrossWorkers(t *testing.T) {
	t.Parallel() // explorations of their own: they overlap the other long ones
	for _, c := range []struct {
		strategy string
		seed     uint64
		armed    int
	}{{"random+ca", 3, 40}, {"random+ca", 5, 40}, {"pos+ca", 1, 40}, {"pct:3", 1, 40}, {"pct:3+ca", 2, 40}, {"pos+ca", 1, 1500}} {
		var want []byte
		wantIter := -1
		for _, workers := range []int{1, 3} { // one, and more than two
			res := explore(t, rareOrderFrom(c.armed), morpheus.Strategy(c.strategy), morpheus.Seed(c.seed), morpheus.Workers(workers),
				morpheus.Iterations(3000), mtest.Untimed)
			f := mustFail(t, res, "assertion", "sender 2 delivered")
			got := encode(t, f.Trace)
			if want == nil {
				want, wantIter = got, f.Iteration
				continue
			}
			if f.Iteration != wantIter || !bytes.Equal(got, want) {
				t.Fatalf("%s, %d workers: iteration %d, want %d; equal traces: %v", c.strategy, workers, f.Iteration, wantIter, bytes.Equal(got, want))
			}
		}
		if wantIter < 16 {
			t.Errorf("%s seed %d: failure in iteration %d, within the first epoch: the test shows nothing", c.strategy, c.seed, wantIter)
		}
	}
}

// Once conflict analysis's table stops changing it analyses only a sample
// of the iterations, the same whatever the number of workers: the
// statistics count those it analysed.
func TestCASettledTableSamples(t *testing.T) {
	t.Parallel() // explorations of their own: they overlap the other long ones
	var want *morpheus.Result
	for _, workers := range []int{1, 2} {
		res := explore(t, rareOrderFrom(1<<30), morpheus.Strategy("pos+ca"), morpheus.Seed(4), morpheus.Workers(workers),
			morpheus.Iterations(3000), mtest.Untimed)
		ca := mtest.CA(res)
		if res.Failure != nil || ca == nil {
			t.Fatalf("%d workers: failure %v, stats %v", workers, res.Failure, ca)
		}
		// Iterations 2032 to 2999 are the last epoch's: nothing reads what
		// they would learn.
		if n := ca.Iterations; n < 200 || n > 2032/2 {
			t.Errorf("%d workers: %d iterations analysed of the 2032 that learn; want a sample", workers, n)
		}
		if workers == 1 {
			want = res
		} else if *ca != *mtest.CA(want) {
			t.Errorf("%d workers: stats %+v, one worker %+v", workers, *ca, *mtest.CA(want))
		}
	}
}

// The table learned by one run is saved, merged and read by the next.
func TestCATableFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ca", "table")
	pass := func(e *morpheus.Env) {
		n := e.NewNode("n1", nil)
		main := e.Self()
		for range 3 {
			n.Spawn("w", func(e *morpheus.Env) { e.Send(main, 1) })
		}
		for range 3 {
			morpheus.Recv[int](e)
		}
	}
	res := explore(t, pass, morpheus.Strategy("pos+ca"), morpheus.CATable(path), morpheus.Iterations(200))
	mustPass(t, res)
	// Every iteration learns for the file, but once the table has settled
	// only a sample is analysed; the first two epochs are, whole.
	if ca := mtest.CA(res); ca == nil || ca.Iterations < 48 || ca.Iterations >= 200 || ca.Ops == 0 || ca.Conflicts == 0 {
		t.Fatalf("CA stats %+v", ca)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if !strings.HasPrefix(text, "morpheus-ca-table 1\n") || !strings.Contains(text, "morpheus_test.TestCATableFile") {
		t.Fatalf("table:\n%s", text)
	}
	// A second run starts from the file: from its first iteration it predicts,
	// so it has fewer false positives than the first run's first epoch had.
	res2 := explore(t, pass, morpheus.Strategy("pos+ca"), morpheus.CATable(path), morpheus.Iterations(16))
	mustPass(t, res2)
	if ca := mtest.CA(res2); ca.FalsePositives >= ca.Ops-ca.Conflicts && ca.Ops > 0 {
		t.Fatalf("the loaded table predicted nothing: %+v", ca)
	}
	b2, _ := os.ReadFile(path)
	if len(b2) < len(b) {
		t.Fatalf("the merged table shrank")
	}

	if err := os.WriteFile(path, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = morpheus.Explore(pass, morpheus.Strategy("pos+ca"), morpheus.CATable(path))
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("error %v", err)
	}
}

// rareOrder fails only when one sender's three messages all arrive before
// any other message: a rare interleaving among many irrelevant ones.
func rareOrder(e *morpheus.Env) { rareOrderFrom(0)(e) }

// rareOrderFrom is rareOrder armed from iteration n on: the failure found
// then depends on what the strategy learned in the iterations before n.
func rareOrderFrom(n int) func(*morpheus.Env) {
	return func(e *morpheus.Env) { rareOrderBody(e, n) }
}

func rareOrderBody(e *morpheus.Env, armed int) {
	n := e.NewNode("n1", nil)
	main := e.Self()
	for s := range 3 {
		n.Spawn("sender", func(e *morpheus.Env) {
			for i := range 3 {
				e.Yield() // independent noise
				e.Send(main, s*10+i)
			}
		})
	}
	fromTwo := 0 // of the first three messages, how many came from sender 2
	for i := range 9 {
		if m := morpheus.Recv[int](e); i < 3 && m/10 == 2 {
			fromTwo++
		}
	}
	e.Assert(fromTwo < 3 || e.Iteration() < armed, "sender 2 delivered all its messages first")
}

// Counting hits, every iteration runs and the intended failures are counted.
func TestCountHits(t *testing.T) {
	t.Parallel() // explorations of their own: they overlap the other long ones
	res := explore(t, rareOrder, morpheus.Strategy("random"), morpheus.Iterations(2000),
		mtest.CountHits(func(kind, msg string) bool {
			return kind == "assertion" && strings.Contains(msg, "sender 2")
		}))
	failures, hits := mtest.Counts(res)
	if res.Iterations != 2000 || failures == 0 || hits != failures || res.Failure == nil {
		t.Fatalf("iterations %d failures %d hits %d", res.Iterations, failures, hits)
	}
	first := explore(t, rareOrder, morpheus.Strategy("random"), morpheus.Iterations(2000))
	if first.Failure.Iteration != res.Failure.Iteration {
		t.Fatalf("lowest failing iteration %d, without CountHits %d", res.Failure.Iteration, first.Failure.Iteration)
	}
	none := explore(t, rareOrder, morpheus.Iterations(500), mtest.CountHits(func(string, string) bool { return false }))
	if failures, hits := mtest.Counts(none); hits != 0 || failures == 0 {
		t.Fatalf("hits %d failures %d", hits, failures)
	}
	t.Logf("random walk: %d of 2000 iterations hit", hits)
}
