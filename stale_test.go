package morpheus_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/results"
)

// moved is buggyOrFixed after an edit: a process spawned first, so that the
// traces recorded before no longer match.
func moved(fixed bool) func(*morpheus.Env) {
	return func(e *morpheus.Env) {
		e.NewNode("n0", nil).Spawn("extra", func(e *morpheus.Env) {})
		buggyOrFixed(fixed)(e)
	}
}

// savedTrace runs Check on the buggy test in a fresh directory and returns
// the path of the trace it saved.
func savedTrace(t *testing.T, name string) string {
	t.Helper()
	t.Chdir(t.TempDir())
	rec := &recorder{TB: t, name: name}
	morpheus.Check(rec, buggyOrFixed(false), morpheus.Iterations(500))
	dir := filepath.Join("testdata", "morpheus", name)
	entries, err := os.ReadDir(dir)
	if len(rec.errors) != 1 || err != nil || len(entries) != 1 {
		t.Fatalf("errors %q, corpus %v %v", rec.errors, entries, err)
	}
	return filepath.Join(dir, entries[0].Name())
}

// An explicit replay of a trace that the code no longer follows says so in
// plain words, naming the file and where the run left it; it is not called
// nondeterminism, and it claims to have saved nothing.
func TestReplayStaleTrace(t *testing.T) {
	path := savedTrace(t, "TestStale")
	file := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("MORPHEUS_RESULTS", file)
	rec := &recorder{TB: t, name: "TestStale"}
	morpheus.Check(rec, moved(true), morpheus.Replay(path))
	if len(rec.errors) != 1 {
		t.Fatalf("errors: %q", rec.errors)
	}
	report := rec.errors[0]
	want := "morpheus: " + path + ": this trace was recorded on different code: at step 2 it expected main spawn at check_test.go:"
	if !strings.HasPrefix(report, want) || !strings.Contains(report, ", the run does main spawn at stale_test.go:") ||
		!strings.HasSuffix(report, "; delete it if the bug is fixed\n") {
		t.Fatalf("report:\n%s\nwant it to start with %q", report, want)
	}
	for _, not := range []string{"nondeterminism", "trace saved"} {
		if strings.Contains(report, not) {
			t.Errorf("report says %q:\n%s", not, report)
		}
	}
	recs, err := results.ReadFile(file)
	if err != nil || len(recs) != 1 || recs[0].Failure == nil {
		t.Fatalf("records %v, %v", recs, err)
	}
	if f := recs[0].Failure; f.Kind != "stale-trace" || f.Path != path || recs[0].Replay != path {
		t.Errorf("record: kind %s, path %s, replay %s", f.Kind, f.Path, recs[0].Replay)
	}
}

// A replay that still fails reports the failure, and does not claim to have
// saved the trace it read.
func TestReplayDoesNotSave(t *testing.T) {
	path := savedTrace(t, "TestAgain")
	rec := &recorder{TB: t, name: "TestAgain"}
	morpheus.Check(rec, buggyOrFixed(false), morpheus.Replay(path))
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "assertion failure") || strings.Contains(rec.errors[0], "trace saved") {
		t.Fatalf("errors: %q", rec.errors)
	}
}

// A test that leaves even a schedule it has just run in the same process
// is nondeterministic: its replay is a nondeterminism failure, not a stale
// trace.
func TestReplayNondeterministic(t *testing.T) {
	var runs atomic.Int64
	test := func(e *morpheus.Env) {
		n := e.NewNode("n", nil)
		for range runs.Add(1) { // one more process every run
			n.Spawn("p", func(e *morpheus.Env) { e.Sleep(1) })
		}
		e.Sleep(2)
		e.Assert(false, "fails")
	}
	res, err := morpheus.Explore(test, morpheus.Iterations(1), morpheus.Shrink(0))
	if err != nil {
		t.Fatal(err)
	}
	f := mustFail(t, res, "assertion", "fails")
	path := filepath.Join(t.TempDir(), "trace")
	if err := morpheus.WriteTrace(path, f.Trace); err != nil {
		t.Fatal(err)
	}
	rep, err := morpheus.Explore(test, morpheus.Replay(path))
	if err != nil {
		t.Fatal(err)
	}
	g := mustFail(t, rep, "nondeterminism", "the test is nondeterministic")
	if !strings.HasPrefix(g.Message, "the replay diverged: at step ") || strings.Contains(g.Report(), "trace saved") {
		t.Fatalf("report:\n%s", g.Report())
	}
}

// Under go test, a corpus entry that the code no longer follows is no
// failure: Check lists it (with -v or -morpheus.v) and names it in its
// result record.
func TestCheckListsStaleCorpus(t *testing.T) {
	path := savedTrace(t, "TestListed")
	file := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("MORPHEUS_RESULTS", file)
	rec := &recorder{TB: t, name: "TestListed"}
	morpheus.Check(rec, moved(true), morpheus.Iterations(20), morpheus.Verbose(1))
	if len(rec.errors) != 0 {
		t.Fatalf("errors: %q", rec.errors)
	}
	want := "morpheus: stale corpus entry " + path + ": recorded on different code (at step 2 it expected main spawn at check_test.go:"
	n := 0
	for _, l := range rec.logs {
		if strings.HasPrefix(l, want) && strings.HasSuffix(l, "delete it if the bug is fixed") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("logs %q: want one line starting with %q", rec.logs, want)
	}
	recs, err := results.ReadFile(file)
	if err != nil || len(recs) != 1 {
		t.Fatalf("records %v, %v", recs, err)
	}
	if r := recs[0]; r.Failure != nil || len(r.Stale) != 1 || !strings.HasPrefix(r.Stale[0], path+": at step 2 it expected") {
		t.Fatalf("record: failure %v, stale %q", r.Failure, r.Stale)
	}
}
