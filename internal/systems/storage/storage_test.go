package storage_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/systems/storage"
)

var bugA = regexp.MustCompile(`^monitor replicas: server acked data \d+ held by only 2 distinct replicas$`)

// Bug A: an Ack with fewer than three distinct replicas.
func TestFindsDuplicateReplica(t *testing.T) {
	res, err := morpheus.Explore(storage.Test(storage.Config{FixReset: true}),
		morpheus.Name(t.Name()), morpheus.Iterations(10000), morpheus.Seed(1))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "assertion" || !bugA.MatchString(f.Message) {
		t.Fatalf("bug A not found in %d iterations: %v", res.Iterations, f)
	}
	if !strings.Contains(f.Location, "harness.go") || f.Task != "server@srv" {
		t.Fatalf("failure at %s in %s", f.Location, f.Task)
	}
	t.Logf("found in iteration %d:\n%s", f.Iteration, f.Report())
}

// Bug B: the second request is never acknowledged; the nodes' timers keep
// the system alive, and the liveness monitor stays hot until the clock limit.
func TestFindsLostAck(t *testing.T) {
	res, err := morpheus.Explore(storage.Test(storage.Config{FixDuplicates: true}),
		morpheus.Name(t.Name()), morpheus.Iterations(100), morpheus.ClockLimit(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	f := res.Failure
	if f == nil || f.Kind != "liveness" || !strings.Contains(f.Message, `monitor progress is hot in state "waiting for the ack of 2" since`) {
		t.Fatalf("bug B not found: %v", f)
	}
}

// The fixed server passes; the long campaign (100,000 iterations) is
// `go run ./cmd/morpheus demo -fixed -iterations 100000`.
func TestFixedPasses(t *testing.T) {
	morpheus.Check(t, storage.Test(storage.Config{FixDuplicates: true, FixReset: true}),
		morpheus.Iterations(3000), morpheus.ClockLimit(time.Minute))
}
