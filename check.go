package morpheus

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/corpus"
	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/trace"
)

// Check runs test under the controlled scheduler many times (1000 iterations
// by default, on all cores) and fails t with a report if an iteration fails.
//
// Before exploring, Check replays every trace saved for this test under
// testdata/morpheus/<TestName>/, like Go's fuzzing corpus: a bug once found
// keeps failing until it is fixed. A new failure's trace is saved there, and
// the report says how to replay it:
//
//	go test -run '^TestName$' -morpheus.replay=testdata/morpheus/TestName/<hash>
//
// The -morpheus.* flags and MORPHEUS_* environment variables override the
// options (see Option).
//
// A SIGINT or SIGTERM (^C) while Check explores stops it as described for
// Explore; Check then saves the trace of a failure found so far, writes the
// result record (with "interrupted": true) and fails t with a summary of
// what was done: an interrupted run is incomplete. Later Checks in the same
// test process are skipped. A second signal exits at once.
func Check(t testing.TB, test func(e *Env), opts ...Option) {
	t.Helper()
	skipInterrupted(t)
	c := checkConfig(t, opts)
	if c.Replay != "" {
		checkReplay(t, c, test)
		return
	}
	dir := corpusDir(t.Name())
	failed, stale := replayCorpus(t, c, test, dir)
	if failed {
		return
	}
	res, err := exploreTest(c, test)
	if err != nil {
		t.Fatalf("morpheus: %v", err)
	}
	res.stale = stale
	reportCheck(t, c, res, dir)
}

// checkConfig is Check's configuration: the options, then the -morpheus.*
// flags and MORPHEUS_* variables over them, the strategy named, and go
// test's command line as the replay hint.
func checkConfig(t testing.TB, opts []Option) *config {
	t.Helper()
	c := defaultConfig()
	c.Name = t.Name()
	for _, o := range opts {
		o(c)
	}
	if err := applyOverrides(c); err != nil {
		t.Fatalf("morpheus: %v", err)
	}
	if err := explore.NameStrategy(c); err != nil {
		t.Fatalf("morpheus: %v", err)
	}
	return c
}

// goTestReplay returns the command that replays the trace at path of the
// test named name.
func goTestReplay(name, path string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return fmt.Sprintf("go test -run '%s' -morpheus.replay=%s", strings.Join(parts, "/"), path)
}

// checkReplay is Check given a trace to replay (Replay, -morpheus.replay):
// it replays that trace alone, and fails t if the replay fails.
func checkReplay(t testing.TB, c *config, test func(*Env)) {
	t.Helper()
	res, err := exploreTest(c, test)
	if err != nil {
		t.Fatalf("morpheus: %v", err)
	}
	keepResult(t, c, res)
	if f := res.Failure; f != nil {
		t.Errorf("%s", f.report(c.Verbose >= 2, ""))
	} else {
		t.Logf("morpheus: replay of %s: %s, no failure", c.Replay, plural.N(res.Steps, "step"))
	}
}

// corpusDir is where the traces of a test's failures are kept.
func corpusDir(test string) string { return corpus.Dir(test) }

// replayCorpus replays the saved traces of a test. A trace that still fails
// fails t; one that no longer applies to the code (the run leaves its
// schedule: recorded on different code, typically before a fix) is finished
// by the configured strategy, and is listed as stale, under go test -v and
// in the result record. It reports whether a saved trace failed, and the
// stale entries as "PATH: where the run left it".
func replayCorpus(t testing.TB, c *config, test func(*Env), dir string) (failed bool, stale []string) {
	t.Helper()
	for _, path := range corpus.Entries(dir) {
		res, err := replayTest(c, test, path)
		if err != nil {
			t.Errorf("morpheus: corpus entry %v", err)
			failed = true
			continue
		}
		if f := res.Failure; f != nil {
			rc := *c
			rc.Replay = path
			keepResult(t, &rc, res)
			saveAttachments(t, f) // this run's, beside the saved trace
			t.Errorf("morpheus: saved trace %s still fails\n%s", path, f.report(c.Verbose >= 2, goTestReplay(t.Name(), path)))
			failed = true
		} else if res.Diverged != "" {
			stale = append(stale, path+": "+res.Diverged)
			if c.Verbose >= 1 || testing.Verbose() {
				t.Logf("morpheus: stale corpus entry %s: recorded on different code (%s); the run went on with %s and passed: delete it if the bug is fixed", path, res.Diverged, c.Strategy)
			}
		}
	}
	return failed, stale
}

// reportCheck ends Check with its exploration's result: a failure's trace
// saved in the corpus directory dir and its report failing t, or a
// summary; the result record, and an interrupt's summary, come last.
func reportCheck(t testing.TB, c *config, res *Result, dir string) {
	t.Helper()
	defer keepResult(t, c, res) // after the trace is saved: the record names its path
	if res.Interrupted {
		defer reportInterrupted(t, c, res) // after the failure's report
	}
	if f := res.Failure; f != nil {
		if f.Trace != nil {
			if path, err := saveTrace(dir, f.Trace); err != nil {
				t.Logf("morpheus: could not save the trace: %v", err)
			} else {
				f.Path = path
				saveAttachments(t, f)
			}
		}
		hint := ""
		if f.Path != "" {
			hint = goTestReplay(t.Name(), f.Path)
		}
		t.Errorf("%s", f.report(c.Verbose >= 2, hint))
		return
	}
	if res.Exhausted {
		t.Logf("morpheus: all %s explored, no failure (strategy %s)", plural.N(res.Iterations, "schedule"), res.Strategy)
		return
	}
	if c.Verbose >= 1 || testing.Verbose() {
		t.Logf("morpheus: %s, %s in all, no failure (strategy %s, seed %#x, %v)",
			plural.N(res.Iterations, "iteration"), plural.N(res.Steps, "step"), res.Strategy, res.Seed, res.Elapsed.Round(1e6))
		if res.run.CA != nil {
			t.Logf("morpheus: conflict analysis: %v", res.run.CA)
		}
	}
}

// saveTrace writes tr into dir under the hash of its content and returns the
// file's path.
func saveTrace(dir string, tr *trace.Trace) (string, error) { return corpus.Save(dir, tr) }

// saveAttachments writes a failure's attachments beside its saved trace.
func saveAttachments(t testing.TB, f *Failure) {
	t.Helper()
	f.attached = true
	for _, a := range f.Attachments {
		if err := os.WriteFile(f.Path+"."+a.Name, a.Data, 0o644); err != nil {
			t.Logf("morpheus: could not save attachment %s: %v", a.Name, err)
			f.attached = false
		}
	}
}

// keepResult appends res to the result file, if one is set.
func keepResult(t testing.TB, c *config, res *Result) {
	t.Helper()
	if c.Results == "" {
		return
	}
	r := *res.run // as Check left it: the corpus's stale entries, the saved trace's path
	r.Stale = res.stale
	if f := r.Failure; f != nil && res.Failure != nil {
		saved := *f
		saved.Path = res.Failure.Path
		r.Failure = &saved
	}
	if err := explore.WriteResult(c, &r); err != nil {
		t.Errorf("morpheus: writing the result file: %v", err)
	}
}
