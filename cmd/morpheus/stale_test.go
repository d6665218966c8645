package main

import (
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/trace"
)

// The summary lists a Check's stale corpus entries, a line each, and does
// not count them as failures.
func TestSummarizeStale(t *testing.T) {
	var b strings.Builder
	summarize(&b, []*results.Record{{Version: results.Version, Test: "TestX", Strategy: "pos+ca", Iterations: 10,
		Stale: []string{"testdata/morpheus/TestX/aa: at step 2 it expected main spawn at x_test.go:3, the run does main send at x_test.go:4"}}}, nil)
	got := b.String()
	want := "     stale corpus entry testdata/morpheus/TestX/aa, recorded on different code (at step 2 it expected main spawn at x_test.go:3, the run does main send at x_test.go:4): delete it if the bug is fixed\n"
	if !strings.HasPrefix(got, "ok   TestX:") || !strings.HasSuffix(got, want) {
		t.Fatalf("summary:\n%s", got)
	}
}

// morpheus replay tells a stale trace in the words of the record, not as a
// flaw of the test.
func TestCompareReplayStale(t *testing.T) {
	tr := &trace.Trace{Header: trace.Header{Failure: &trace.Failure{Kind: "assertion"}}}
	msg := "testdata/morpheus/TestX/aa: this trace was recorded on different code: at step 2 it expected …; delete it if the bug is fixed"
	same, verdict := compareReplay(tr, &results.Record{Failure: &results.Failure{Kind: "stale-trace", Message: msg}})
	if same || verdict != "replayed: "+msg {
		t.Fatalf("%v %q", same, verdict)
	}
}
