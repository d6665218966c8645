package rt_test

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// A goroutine that logs on the test's t after the test's body returned
// panics as in Go, in the schedules that order it so; before, it logs.
func TestLogAfterTestCompleted(t *testing.T) {
	type logger interface{ Logf(string, ...any) }
	var l logger = t
	res, err := morpheus.Explore(func(*morpheus.Env) {
		rt.Go(func() { rt.Gosched(); rt.TB(l).Logf("late") })
	}, morpheus.Iterations(100), morpheus.Workers(1), morpheus.Strategy("random"), morpheus.Seed(5))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "panic" || !strings.Contains(f.Message, "Log in goroutine after "+t.Name()+" has completed") {
		t.Fatalf("want the panic of a log after completion, got %v", f)
	}
	if !strings.Contains(f.Location, "testinglog_test.go:") {
		t.Errorf("located at %q", f.Location)
	}
	// Logging while the body runs is fine.
	res, err = morpheus.Explore(func(*morpheus.Env) {
		done := rt.Make[chan struct{}](0)
		rt.Go(func() { rt.TB(l).Logf("in time"); rt.Close(done) })
		rt.Recv(done)
	}, morpheus.Iterations(50), morpheus.Workers(1))
	if err != nil || res.Failure != nil {
		t.Fatalf("%v %v", err, res.Failure)
	}
}
